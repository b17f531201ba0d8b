import { createActor } from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import { SAMPLE_EXISTING_FLOW, sampleDocument, sampleSignFlowFormData } from '../samples';
import {
  fieldsOf,
  initialModeOf,
  minimumProblem,
  pagePositionOf,
  requestBodyOf,
  signFlowFormMachine,
  submitBlockers,
  type FormMode,
  type LoadSignFlowFormInput,
  type SaveSignFlowInput,
  type SignFlowFormData,
} from '../../machines/sign-flow-form.machine';
import { controlledPromise, flush } from './support';

const BOB = { emailAddress: 'bob@paraph.test', fullName: 'Bob Builder' };
const CAROL = { emailAddress: 'carol@paraph.test', fullName: 'Carol Shaw' };
const DAN = { emailAddress: 'dan@paraph.test', fullName: null };

async function startForm(mode: FormMode, data: SignFlowFormData = sampleSignFlowFormData()) {
  const load = controlledPromise<SignFlowFormData, LoadSignFlowFormInput>();
  const save = controlledPromise<void, SaveSignFlowInput>();
  const goToDocument = vi.fn();
  const clearDraft = vi.fn();
  const machine = signFlowFormMachine.provide({
    actors: { loadSignFlowForm: load.logic, saveSignFlow: save.logic },
    actions: { goToDocument, clearDraft },
  });
  const actor = createActor(machine, { input: { documentId: 'd1', mode } }).start();
  load.last().result.resolve(data);
  await flush();
  return { actor, load, save, goToDocument, clearDraft };
}

const EDIT_DATA = sampleSignFlowFormData({
  document: sampleDocument('d1', { state: 'in_review', isSignFlow: true, currentUserCanEditSignFlow: true }),
  flow: SAMPLE_EXISTING_FLOW,
});

describe('sign-flow-form machine', () => {
  it('goes back to the document when a new flow is not allowed on it', async () => {
    const { actor, goToDocument } = await startForm(
      'new',
      sampleSignFlowFormData({ document: sampleDocument('d1', { currentUserCanCreateSignFlow: false }) }),
    );
    expect(actor.getSnapshot().status).toBe('done');
    expect(goToDocument).toHaveBeenCalledTimes(1);
  });

  it('shows the load error and goes back from it', async () => {
    const load = controlledPromise<SignFlowFormData, LoadSignFlowFormInput>();
    const goToDocument = vi.fn();
    const actor = createActor(
      signFlowFormMachine.provide({ actors: { loadSignFlowForm: load.logic }, actions: { goToDocument } }),
      { input: { documentId: 'd1', mode: 'edit' } },
    ).start();
    expect(load.last().input).toEqual({ documentId: 'd1', mode: 'edit' });
    load.last().result.reject({ code: 'network' });
    await flush();
    expect(actor.getSnapshot().matches('loadFailed')).toBe(true);
    expect(actor.getSnapshot().context.errorCode).toBe('network');
    actor.send({ type: 'form.back' });
    expect(goToDocument).toHaveBeenCalledTimes(1);
  });

  it('adds each person once and never someone in the other role', async () => {
    const { actor } = await startForm('new');
    actor.send({ type: 'participants.add', role: 'signatory', people: [BOB, BOB, CAROL] });
    actor.send({
      type: 'participants.add',
      role: 'reviewer',
      people: [{ ...BOB, emailAddress: 'BOB@paraph.test' }],
    });
    actor.send({ type: 'participants.add', role: 'reviewer', people: [DAN] });
    const { signatories, reviewers } = actor.getSnapshot().context;
    expect(signatories.map((person) => person.emailAddress)).toEqual([BOB.emailAddress, CAROL.emailAddress]);
    expect(reviewers.map((person) => person.emailAddress)).toEqual([DAN.emailAddress]);
  });

  it('removing a signatory removes their placement', async () => {
    const { actor } = await startForm('new');
    actor.send({ type: 'participants.add', role: 'signatory', people: [BOB, CAROL] });
    actor.send({
      type: 'placements.saved',
      placements: [
        { emailAddress: BOB.emailAddress, pageNumber: 1, left: 0.1, top: 0.2 },
        { emailAddress: CAROL.emailAddress, pageNumber: 2, left: 0.3, top: 0.4 },
      ],
    });
    actor.send({ type: 'participant.remove', role: 'signatory', emailAddress: BOB.emailAddress });
    expect(actor.getSnapshot().context.placements.map((p) => p.emailAddress)).toEqual([CAROL.emailAddress]);
  });

  it('ordered: clears and disables the minimum, reorders, and a standard flow cannot reorder', async () => {
    const { actor } = await startForm('new');
    actor.send({ type: 'participants.add', role: 'signatory', people: [BOB, CAROL, DAN] });
    actor.send({ type: 'signatory.move', emailAddress: DAN.emailAddress, toIndex: 0 });
    expect(actor.getSnapshot().context.signatories[0]?.emailAddress).toBe(BOB.emailAddress);
    actor.send({ type: 'minimum.changed', text: '2' });
    expect(actor.getSnapshot().context.isMinimumOn).toBe(true);
    actor.send({ type: 'ordered.changed', isOrdered: true });
    expect(actor.getSnapshot().context).toMatchObject({
      isOrdered: true,
      isMinimumOn: false,
      minimumText: '',
    });
    actor.send({ type: 'minimum.toggled', isOn: true });
    actor.send({ type: 'minimum.changed', text: '1' });
    expect(actor.getSnapshot().context).toMatchObject({ isMinimumOn: false, minimumText: '' });
    actor.send({ type: 'signatory.move', emailAddress: DAN.emailAddress, toIndex: 0 });
    expect(actor.getSnapshot().context.signatories.map((p) => p.emailAddress)).toEqual([
      DAN.emailAddress,
      BOB.emailAddress,
      CAROL.emailAddress,
    ]);
  });

  it('minimum: ticking asks for focus, a non-zero number ticks, clearing unticks', async () => {
    const { actor } = await startForm('new');
    const focus = vi.fn();
    actor.on('minimum.focus', focus);
    actor.send({ type: 'minimum.toggled', isOn: true });
    expect(focus).toHaveBeenCalledTimes(1);
    actor.send({ type: 'minimum.toggled', isOn: false });
    actor.send({ type: 'minimum.changed', text: '0' });
    expect(actor.getSnapshot().context.isMinimumOn).toBe(false);
    actor.send({ type: 'minimum.changed', text: '1' });
    expect(actor.getSnapshot().context.isMinimumOn).toBe(true);
    actor.send({ type: 'minimum.changed', text: '' });
    expect(actor.getSnapshot().context.isMinimumOn).toBe(false);
  });

  it('the minimum is valid only as a positive integer below the number of signatories; otherwise 0 is sent', () => {
    const base = {
      ...fieldsOf({ flow: null, draft: null }, 'new'),
      documentId: 'd1',
      flow: null,
      pageCount: 3,
    };
    const three = { ...base, signatories: [BOB, CAROL, DAN].map((p) => ({ ...p, hasSigned: false })) };
    const on = (text: string) => ({ ...three, isMinimumOn: true, minimumText: text });
    const sent = (context: ReturnType<typeof on>) => requestBodyOf(context).sign_flow.minimum_required_signs;
    expect(minimumProblem(on('1'))).toBeNull();
    expect(minimumProblem(on(' 2 '))).toBeNull();
    expect(sent(on('1'))).toBe(1);
    expect(sent(on(' 2 '))).toBe(2);
    const invalid: [string, string][] = [
      ['', 'empty'],
      ['  ', 'empty'],
      ['x', 'notANumber'],
      ['1.5', 'notANumber'],
      ['+1', 'notANumber'],
      ['-1', 'outOfRange'],
      ['0', 'outOfRange'],
      ['3', 'outOfRange'],
      ['99', 'outOfRange'],
    ];
    for (const [text, problem] of invalid) {
      expect(minimumProblem(on(text)), text).toBe(problem);
      expect(sent(on(text)), text).toBe(0);
    }
    const alone = { ...on('1'), signatories: three.signatories.slice(0, 1) };
    expect(minimumProblem(alone)).toBe('needsTwoSignatories');
    expect(sent(alone)).toBe(0);
    expect(sent({ ...on('2'), isOrdered: true })).toBe(0);
    expect(sent({ ...on('2'), isMinimumOn: false })).toBe(0);
  });

  it('an unusable minimum does not stop the submit: the flow is sent with 0', async () => {
    const { actor, save } = await startForm('new');
    actor.send({ type: 'participants.add', role: 'signatory', people: [BOB, CAROL] });
    actor.send({ type: 'mode.changed', mode: 'page' });
    actor.send({ type: 'minimum.toggled', isOn: true });
    actor.send({ type: 'minimum.changed', text: 'two' });
    expect(minimumProblem(actor.getSnapshot().context)).toBe('notANumber');
    expect(submitBlockers(actor.getSnapshot().context)).toEqual([]);
    expect(actor.getSnapshot().can({ type: 'form.submit' })).toBe(true);
    actor.send({ type: 'form.submit' });
    expect(actor.getSnapshot().matches('saving')).toBe(true);
    expect(save.last().input.body.sign_flow.minimum_required_signs).toBe(0);
    // What was typed stays in the form.
    expect(actor.getSnapshot().context).toMatchObject({ isMinimumOn: true, minimumText: 'two' });
  });

  it('applies the submit rules of spec 001 §5', () => {
    const base = {
      ...fieldsOf({ flow: null, draft: null }, 'new'),
      documentId: 'd1',
      flow: null,
      pageCount: 3,
    };
    expect(submitBlockers(base)).toEqual(['noSignatories']);
    const one = { ...base, signatories: [{ ...BOB, hasSigned: false }] };
    expect(submitBlockers(one)).toEqual(['placementsMissing']);
    const placed = {
      ...one,
      placements: [{ emailAddress: BOB.emailAddress, pageNumber: 1, left: 0, top: 0.5 }],
    };
    expect(submitBlockers(placed)).toEqual([]);
    const page = { ...one, signatureMode: 'page' as const, pagePosition: 'after' as const };
    expect(submitBlockers({ ...page, afterPageText: '0' })).toEqual(['afterPage']);
    expect(submitBlockers({ ...page, afterPageText: '4' })).toEqual(['afterPage']);
    expect(submitBlockers({ ...page, afterPageText: '2' })).toEqual([]);
    expect(submitBlockers({ ...placed, comment: 'x'.repeat(1025) })).toEqual(['commentTooLong']);
  });

  it('sends the contract body: page numbers 0 last, 1 first, N + 1 after page N, fractions of 4 decimals', async () => {
    const { actor, save, goToDocument, clearDraft } = await startForm('new');
    actor.send({ type: 'participants.add', role: 'signatory', people: [BOB] });
    actor.send({ type: 'participants.add', role: 'reviewer', people: [DAN] });
    actor.send({
      type: 'placements.saved',
      placements: [{ emailAddress: BOB.emailAddress, pageNumber: 2, left: 0.123456, top: 0.5 }],
    });
    actor.send({ type: 'comment.changed', comment: 'Thanks' });
    actor.send({ type: 'form.submit' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(save.last().input).toEqual({
      documentId: 'd1',
      mode: 'new',
      body: {
        sign_flow: {
          comment: 'Thanks',
          signatory_email_addresses: [BOB.emailAddress],
          reviewer_email_addresses: [DAN.emailAddress],
          minimum_required_signs: 0,
          type: 'standard',
          sign_page_number: 0,
          signature_coordinates: [
            { email_address: BOB.emailAddress, top: '0.5000', left: '0.1235', sign_page_number: 2 },
          ],
        },
      },
    });
    save.last().result.resolve();
    await flush();
    expect(clearDraft).toHaveBeenCalledTimes(1);
    expect(goToDocument).toHaveBeenCalledTimes(1);

    const page = (position: 'first' | 'after' | 'last', afterPageText = '') =>
      requestBodyOf({
        ...actor.getSnapshot().context,
        signatureMode: 'page',
        pagePosition: position,
        afterPageText,
      }).sign_flow;
    expect(page('last').sign_page_number).toBe(0);
    expect(page('first').sign_page_number).toBe(1);
    expect(page('after', '2').sign_page_number).toBe(3);
    expect(page('first').signature_coordinates).toEqual([]);
  });

  it('keeps every field after a failed save and can send again', async () => {
    const { actor, save } = await startForm('new');
    actor.send({ type: 'participants.add', role: 'signatory', people: [BOB] });
    actor.send({ type: 'mode.changed', mode: 'page' });
    actor.send({ type: 'comment.changed', comment: 'Keep me' });
    actor.send({ type: 'form.submit' });
    save.last().result.reject({ code: 'server', status: 500 });
    await flush();
    const snapshot = actor.getSnapshot();
    expect(snapshot.matches({ editing: 'saveFailed' })).toBe(true);
    expect(snapshot.context).toMatchObject({
      comment: 'Keep me',
      saveErrorCode: 'server',
      signatureMode: 'page',
    });
    actor.send({ type: 'form.submit' });
    expect(save.calls).toHaveLength(2);
  });

  it('cancel clears the draft and goes to the document', async () => {
    const { actor, goToDocument, clearDraft } = await startForm('new');
    actor.send({ type: 'form.cancel' });
    expect(clearDraft).toHaveBeenCalledTimes(1);
    expect(goToDocument).toHaveBeenCalledTimes(1);
  });

  it('initial modes follow spec 001 §4', () => {
    expect(initialModeOf(null)).toBe('inline');
    expect(initialModeOf(SAMPLE_EXISTING_FLOW)).toBe('page');
    expect(initialModeOf({ ...SAMPLE_EXISTING_FLOW, placements: [], signatories: [] })).toBe('inline');
    expect(pagePositionOf(0)).toEqual({ position: 'last', afterPageText: '' });
    expect(pagePositionOf(1)).toEqual({ position: 'first', afterPageText: '' });
    expect(pagePositionOf(4)).toEqual({ position: 'after', afterPageText: '3' });
  });

  it('edit rules: signed fixed, type fixed, mode fixed once signed, reviewers only in review', async () => {
    const { actor } = await startForm('edit', EDIT_DATA);
    const context = () => actor.getSnapshot().context;
    expect(context()).toMatchObject({ signatureMode: 'page', pagePosition: 'after', afterPageText: '2' });
    actor.send({ type: 'participant.remove', role: 'signatory', emailAddress: BOB.emailAddress });
    actor.send({ type: 'ordered.changed', isOrdered: true });
    actor.send({ type: 'mode.changed', mode: 'inline' });
    actor.send({ type: 'pagePosition.changed', position: 'first' });
    expect(context().signatories.map((p) => p.emailAddress)).toEqual([BOB.emailAddress, CAROL.emailAddress]);
    expect(context()).toMatchObject({ isOrdered: false, signatureMode: 'page', pagePosition: 'after' });
    actor.send({ type: 'participants.add', role: 'reviewer', people: [DAN] });
    expect(context().reviewers.map((p) => p.emailAddress)).toEqual(['grace@paraph.test', DAN.emailAddress]);
    actor.send({
      type: 'placements.saved',
      placements: [{ emailAddress: BOB.emailAddress, pageNumber: 3, left: 0.5, top: 0.5 }],
    });
    expect(context().placements).toEqual(SAMPLE_EXISTING_FLOW.placements);

    const awaiting = await startForm('edit', {
      ...EDIT_DATA,
      flow: { ...SAMPLE_EXISTING_FLOW, state: 'awaiting_signs' },
    });
    awaiting.actor.send({ type: 'participants.add', role: 'reviewer', people: [DAN] });
    awaiting.actor.send({ type: 'participant.remove', role: 'reviewer', emailAddress: 'grace@paraph.test' });
    expect(awaiting.actor.getSnapshot().context.reviewers.map((p) => p.emailAddress)).toEqual([
      'grace@paraph.test',
    ]);
    awaiting.actor.send({ type: 'participants.add', role: 'signatory', people: [DAN] });
    expect(awaiting.actor.getSnapshot().context.signatories).toHaveLength(3);
  });

  it('an ordered flow with a signed first signatory keeps them first', async () => {
    const flow = { ...SAMPLE_EXISTING_FLOW, isOrdered: true, state: 'awaiting_signs' as const };
    const { actor } = await startForm('edit', { ...EDIT_DATA, flow });
    actor.send({ type: 'participants.add', role: 'signatory', people: [DAN] });
    actor.send({ type: 'signatory.move', emailAddress: DAN.emailAddress, toIndex: 0 });
    actor.send({ type: 'signatory.move', emailAddress: BOB.emailAddress, toIndex: 2 });
    expect(actor.getSnapshot().context.signatories.map((p) => p.emailAddress)).toEqual([
      BOB.emailAddress,
      CAROL.emailAddress,
      DAN.emailAddress,
    ]);
    actor.send({ type: 'signatory.move', emailAddress: DAN.emailAddress, toIndex: 1 });
    expect(actor.getSnapshot().context.signatories.map((p) => p.emailAddress)).toEqual([
      BOB.emailAddress,
      DAN.emailAddress,
      CAROL.emailAddress,
    ]);
  });

  it('restores a kept draft over the loaded flow, keeping who signed meanwhile', async () => {
    const draft = {
      ...fieldsOf({ flow: null, draft: null }, 'edit'),
      signatories: [
        { ...CAROL, hasSigned: false },
        { ...DAN, hasSigned: false },
      ],
      comment: 'From before',
    };
    const { actor } = await startForm('edit', { ...EDIT_DATA, draft });
    const { context } = actor.getSnapshot();
    expect(context.isRestored).toBe(true);
    expect(context.comment).toBe('From before');
    expect(context.signatories.map((p) => p.emailAddress)).toEqual([
      BOB.emailAddress,
      CAROL.emailAddress,
      DAN.emailAddress,
    ]);
    const other = await startForm('new', sampleSignFlowFormData({ draft }));
    expect(other.actor.getSnapshot().context).toMatchObject({ isRestored: false, comment: '' });
  });
});
