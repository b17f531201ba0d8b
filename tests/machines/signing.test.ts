import { createActor, fromCallback, fromPromise, SimulatedClock, type EventObject } from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import { sampleDocument } from '../samples';
import {
  POLL_INTERVAL_MS,
  signConfirmationMachine,
  type ConfirmationOutcome,
  type FetchVersionInput,
} from '../../machines/sign-confirmation.machine';
import { signingMachine } from '../../machines/signing.machine';
import {
  locationProblem,
  isReasonTooLong,
  shortDescription,
  signBlockers,
  type LoadSignScreenInput,
  type PendingSignature,
  type SignDocumentInput,
  type SignScreenData,
  type DocumentVersionState,
} from '../../machines/signing-rules';
import { sampleFlowSigning, sampleOwnSigning } from '../samples/signing';
import { controlledPromise, flush } from './support';

const VERSION_STATE_OF: Record<ConfirmationOutcome, DocumentVersionState> = {
  confirmed: 'signed',
  failed: 'presign_error',
  cancelled: 'denied',
  abandoned: 'pending',
};

const PENDING: PendingSignature = { versionId: 'v1', confirmationUrl: 'http://localhost/idp/confirm/v1' };

function startSigning({ defaultLocation = 'London' }: { defaultLocation?: string } = {}) {
  const load = controlledPromise<SignScreenData, LoadSignScreenInput>();
  const locate = controlledPromise<string>();
  const sign = controlledPromise<PendingSignature, SignDocumentInput>();
  // The dialog's own behaviour is tested on its own (signing-confirmation.test.ts); here the version
  // answers what each test needs, and the user closes the dialog.
  const versions = controlledPromise<DocumentVersionState, FetchVersionInput>();
  const confirmation = signConfirmationMachine.provide({
    actors: {
      fetchVersion: versions.logic,
      resendNotification: fromPromise(async () => {}),
      watchVisibility: fromCallback<EventObject>(() => () => {}),
    },
  });
  const goToDocument = vi.fn();
  const reportLocationFailure = vi.fn();
  const machine = signingMachine.provide({
    actors: {
      loadSignScreen: load.logic,
      locateMe: locate.logic,
      signDocument: sign.logic,
      confirmSignature: confirmation,
    },
    actions: {
      goToDocument: () => goToDocument(),
      reportLocationFailure: (_, params) => reportLocationFailure(params.code),
    },
  });
  const actor = createActor(machine, {
    input: { documentId: 'd1', emailAddress: 'ada@paraph.test', defaultLocation },
  }).start();
  const loaded = async (data: SignScreenData = sampleOwnSigning()) => {
    load.last().result.resolve(data);
    await flush();
  };
  const endConfirmation = async (outcome: ConfirmationOutcome) => {
    versions.last().result.resolve(VERSION_STATE_OF[outcome]);
    await flush();
    actor.getSnapshot().children.confirmation?.send({ type: 'dialog.close' });
    await flush();
  };
  return { actor, load, locate, sign, loaded, endConfirmation, goToDocument, reportLocationFailure };
}

describe('signing rules', () => {
  it('asks for a location of 2 to 128 characters, spaces around not counted', () => {
    expect(locationProblem('')).toBe('empty');
    expect(locationProblem('   ')).toBe('empty');
    expect(locationProblem(' M ')).toBe('tooShort');
    expect(locationProblem('Mo')).toBeNull();
    expect(locationProblem('x'.repeat(128))).toBeNull();
    expect(locationProblem('x'.repeat(129))).toBe('tooLong');
  });

  it('takes a reason of at most 128 characters', () => {
    expect(isReasonTooLong('x'.repeat(128))).toBe(false);
    expect(isReasonTooLong('x'.repeat(129))).toBe(true);
  });

  it('cuts a card description at 35 characters', () => {
    expect(shortDescription('x'.repeat(35))).toBe('x'.repeat(35));
    expect(shortDescription('y'.repeat(36))).toBe(`${'y'.repeat(35)}…`);
  });
});

describe('signing: loading', () => {
  it('loads the document and the cards, preselects the first card and prefills the location', async () => {
    const { actor, load, loaded } = startSigning();
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(load.last().input).toEqual({ documentId: 'd1', emailAddress: 'ada@paraph.test' });
    await loaded();
    const { context } = actor.getSnapshot();
    expect(actor.getSnapshot().matches('editing')).toBe(true);
    expect(context.cardId).toBe('card-1');
    expect(context.location).toBe('London');
  });

  it('sends a user who cannot sign to the document page', async () => {
    const { actor, loaded, goToDocument } = startSigning();
    await loaded(sampleOwnSigning({ document: sampleDocument('d1', { currentUserCanSign: false }) }));
    expect(goToDocument).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('says the screen could not load, and tries again on request', async () => {
    const { actor, load, loaded } = startSigning();
    load.last().result.reject({ code: 'network' });
    await flush();
    expect(actor.getSnapshot().matches('loadFailed')).toBe(true);
    expect(actor.getSnapshot().hasTag('error')).toBe(true);
    actor.send({ type: 'screen.retry' });
    expect(load.calls).toHaveLength(2);
    await loaded();
    expect(actor.getSnapshot().matches('editing')).toBe(true);
  });

  it('leaves a failed screen for the document page on cancel', async () => {
    const { actor, load, goToDocument } = startSigning();
    load.last().result.reject({ code: 'not_found', status: 404 });
    await flush();
    actor.send({ type: 'form.cancel' });
    expect(goToDocument).toHaveBeenCalledTimes(1);
  });
});

describe('signing: the form', () => {
  it('does not send an empty location, and shows the validation once the user tries', async () => {
    const { actor, sign, loaded } = startSigning({ defaultLocation: '' });
    await loaded(sampleFlowSigning());
    expect(actor.getSnapshot().context.isValidationShown).toBe(false);
    actor.send({ type: 'sign.submit' });
    expect(sign.calls).toHaveLength(0);
    expect(actor.getSnapshot().context.isValidationShown).toBe(true);
    expect(signBlockers(actor.getSnapshot().context)).toEqual(['location']);
  });

  it('does not send a reason over 128 characters', async () => {
    const { actor, sign, loaded } = startSigning();
    await loaded(sampleFlowSigning());
    actor.send({ type: 'reason.changed', reason: 'r'.repeat(129) });
    actor.send({ type: 'sign.submit' });
    expect(sign.calls).toHaveLength(0);
    expect(signBlockers(actor.getSnapshot().context)).toEqual(['reason']);
  });

  it('takes only a card of the list', async () => {
    const { actor, loaded } = startSigning();
    await loaded();
    actor.send({ type: 'card.changed', cardId: 'someone-elses-card' });
    expect(actor.getSnapshot().context.cardId).toBe('card-1');
    actor.send({ type: 'card.changed', cardId: 'card-2' });
    expect(actor.getSnapshot().context.cardId).toBe('card-2');
  });

  it('cannot sign without any smart card', async () => {
    const { actor, sign, loaded } = startSigning();
    await loaded(sampleFlowSigning({ smartCards: [] }));
    actor.send({ type: 'sign.submit' });
    expect(sign.calls).toHaveLength(0);
    expect(signBlockers(actor.getSnapshot().context)).toEqual(['card']);
  });

  it('in a sign flow, sends the assigned place and offers no placement of its own', async () => {
    const { actor, sign, loaded } = startSigning();
    await loaded(sampleFlowSigning());
    actor.send({ type: 'mode.changed', mode: 'page' });
    expect(actor.getSnapshot().context.signatureMode).toBe('inline');
    actor.send({ type: 'location.changed', location: '  Paris ' });
    actor.send({ type: 'reason.changed', reason: ' Agreed ' });
    actor.send({ type: 'sign.submit' });
    expect(sign.last().input).toEqual({
      documentId: 'd1',
      body: {
        smart_card_id: 'card-1',
        location: 'Paris',
        reason: 'Agreed',
        sign_page_number: 2,
        signature_top: '0.7000',
        signature_left: '0.5000',
      },
    });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
  });

  it('in a sign flow without a placed box, sends the flow’s signature page', async () => {
    const { actor, sign, loaded } = startSigning();
    await loaded(sampleFlowSigning({ assignedPlacement: null, flowSignPageNumber: 1 }));
    actor.send({ type: 'sign.submit' });
    expect(sign.last().input.body).toEqual({
      smart_card_id: 'card-1',
      location: 'London',
      sign_page_number: 1,
    });
  });
});

describe('signing: the owner’s own placement', () => {
  it('asks to place the signature before proceeding, then sends the placed box', async () => {
    const { actor, sign, loaded } = startSigning();
    await loaded();
    actor.send({ type: 'sign.submit' });
    expect(actor.getSnapshot().matches({ editing: 'notPlaced' })).toBe(true);
    expect(actor.getSnapshot().hasTag('error')).toBe(true);
    expect(sign.calls).toHaveLength(0);
    actor.send({ type: 'placement.saved', placement: { pageNumber: 2, left: 0.1, top: 0.25 } });
    expect(actor.getSnapshot().matches({ editing: 'idle' })).toBe(true);
    actor.send({ type: 'sign.submit' });
    expect(sign.last().input.body).toEqual({
      smart_card_id: 'card-1',
      location: 'London',
      sign_page_number: 2,
      signature_top: '0.2500',
      signature_left: '0.1000',
    });
  });

  it.each([
    ['first', '', 1],
    ['last', '', 0],
    ['after', '2', 3],
  ] as const)('on a signature page %s %s, sends sign_page_number %i', async (position, text, number) => {
    const { actor, sign, loaded } = startSigning();
    await loaded();
    actor.send({ type: 'mode.changed', mode: 'page' });
    actor.send({ type: 'pagePosition.changed', position });
    actor.send({ type: 'afterPage.changed', text });
    actor.send({ type: 'sign.submit' });
    expect(sign.last().input.body).toEqual({
      smart_card_id: 'card-1',
      location: 'London',
      sign_page_number: number,
    });
  });

  it.each(['0', '3', 'two'])('refuses "after page %s" of a two-page document', async (text) => {
    const { actor, sign, loaded } = startSigning();
    await loaded();
    actor.send({ type: 'mode.changed', mode: 'page' });
    actor.send({ type: 'pagePosition.changed', position: 'after' });
    actor.send({ type: 'afterPage.changed', text });
    actor.send({ type: 'sign.submit' });
    expect(sign.calls).toHaveLength(0);
    expect(signBlockers(actor.getSnapshot().context)).toEqual(['afterPage']);
  });
});

describe('signing: the sign call', () => {
  async function readyToSign() {
    const started = startSigning();
    await started.loaded(sampleFlowSigning());
    started.actor.send({ type: 'sign.submit' });
    return started;
  }

  it('shows the server’s validations.base, and keeps the input', async () => {
    const { actor, sign } = await readyToSign();
    actor.send({ type: 'reason.changed', reason: 'kept' });
    sign.last().result.reject({ code: 'sign_refused', status: 422, messages: ['No more.', 'Really.'] });
    await flush();
    const snapshot = actor.getSnapshot();
    expect(snapshot.matches({ editing: 'signFailed' })).toBe(true);
    expect(snapshot.context.errorMessages).toEqual(['No more.', 'Really.']);
    expect(snapshot.context.location).toBe('London');
  });

  it('keeps only the code when the server gave no sentence, and clears it on the next try', async () => {
    const { actor, sign } = await readyToSign();
    sign.last().result.reject({ code: 'action_not_allowed', status: 409 });
    await flush();
    expect(actor.getSnapshot().context.errorCode).toBe('action_not_allowed');
    expect(actor.getSnapshot().context.errorMessages).toEqual([]);
    actor.send({ type: 'sign.submit' });
    expect(actor.getSnapshot().context.errorCode).toBeNull();
  });

  it('opens the confirmation with the pending version, then opens the document once confirmed', async () => {
    const { actor, sign, endConfirmation, goToDocument } = await readyToSign();
    sign.last().result.resolve(PENDING);
    await flush();
    expect(actor.getSnapshot().matches('confirming')).toBe(true);
    expect(actor.getSnapshot().context.pending).toEqual(PENDING);
    expect(actor.getSnapshot().children.confirmation).toBeDefined();
    await endConfirmation('confirmed');
    expect(goToDocument).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().status).toBe('done');
  });

  it.each(['failed', 'cancelled'] as const)(
    'returns to the form with the input after a %s confirmation',
    async (outcome) => {
      const { actor, sign, endConfirmation, goToDocument } = await readyToSign();
      actor.send({ type: 'reason.changed', reason: 'ignored while sending' });
      sign.last().result.resolve(PENDING);
      await flush();
      await endConfirmation(outcome);
      expect(actor.getSnapshot().matches({ editing: 'idle' })).toBe(true);
      expect(actor.getSnapshot().context.location).toBe('London');
      expect(actor.getSnapshot().context.pending).toBeNull();
      expect(goToDocument).not.toHaveBeenCalled();
    },
  );

  it('goes to the document when the dialog is closed while the confirmation is pending', async () => {
    const { sign, endConfirmation, goToDocument } = await readyToSign();
    sign.last().result.resolve(PENDING);
    await flush();
    await endConfirmation('abandoned');
    expect(goToDocument).toHaveBeenCalledTimes(1);
  });

  it('leaves for the document page on cancel', async () => {
    const { actor, loaded, goToDocument } = startSigning();
    await loaded();
    actor.send({ type: 'form.cancel' });
    expect(goToDocument).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().status).toBe('done');
  });
});

describe('signing: locate me', () => {
  it('fills the location with the place found', async () => {
    const { actor, locate, loaded } = startSigning({ defaultLocation: '' });
    await loaded();
    actor.send({ type: 'location.locate' });
    expect(actor.getSnapshot().matches({ editing: 'locating' })).toBe(true);
    locate.last().result.resolve('Lyon');
    await flush();
    expect(actor.getSnapshot().context.location).toBe('Lyon');
  });

  it('says the location could not be found, and reports it', async () => {
    const { actor, locate, loaded, reportLocationFailure } = startSigning();
    await loaded();
    actor.send({ type: 'location.locate' });
    locate.last().result.reject({ code: 'location_denied' });
    await flush();
    expect(actor.getSnapshot().matches({ editing: 'locateFailed' })).toBe(true);
    expect(actor.getSnapshot().context.locateErrorCode).toBe('location_denied');
    expect(reportLocationFailure).toHaveBeenCalledWith('location_denied');
  });

  it('lets typing win over a lookup still running', async () => {
    const { actor, locate, loaded } = startSigning();
    await loaded();
    actor.send({ type: 'location.locate' });
    actor.send({ type: 'location.changed', location: 'Bilbao' });
    expect(actor.getSnapshot().matches({ editing: 'idle' })).toBe(true);
    locate.last().result.resolve('Lyon');
    await flush();
    expect(actor.getSnapshot().context.location).toBe('Bilbao');
  });
});

describe('signing with the real confirmation dialog', () => {
  it('goes to the document once the identity app confirmed and the dialog is closed', async () => {
    const versions: DocumentVersionState[] = ['pending', 'signed'];
    const goToDocument = vi.fn();
    const machine = signingMachine.provide({
      actors: {
        loadSignScreen: fromPromise(async () => sampleFlowSigning()),
        signDocument: fromPromise(async () => PENDING),
        confirmSignature: signConfirmationMachine.provide({
          actors: {
            fetchVersion: fromPromise(async () => versions.shift() ?? 'signed'),
            watchVisibility: fromCallback<EventObject>(() => () => {}),
          },
        }),
      },
      actions: { goToDocument: () => goToDocument() },
    });
    const clock = new SimulatedClock();
    const actor = createActor(machine, {
      input: { documentId: 'd1', emailAddress: 'ada@paraph.test', defaultLocation: 'London' },
      clock,
    }).start();
    await flush();
    actor.send({ type: 'sign.submit' });
    await flush();
    const dialog = actor.getSnapshot().children.confirmation;
    expect(dialog?.getSnapshot().matches('waiting')).toBe(true);
    clock.increment(POLL_INTERVAL_MS);
    await flush();
    expect(dialog?.getSnapshot().value).toBe('confirmed');
    dialog?.send({ type: 'dialog.close' });
    await flush();
    expect(goToDocument).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().status).toBe('done');
  });
});
