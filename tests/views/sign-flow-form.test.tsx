import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import { SAMPLE_EXISTING_FLOW, sampleDocument, sampleSignFlowFormData } from '../samples';
import {
  signFlowFormMachine,
  type FormMode,
  type LoadSignFlowFormInput,
  type SaveSignFlowInput,
  type SignFlowFormData,
} from '../../machines/sign-flow-form.machine';
import { authMiddleware } from '../../src/api/client';
import { readDraft } from '../../src/services/sign-flow-form';
import { SignFlowScreen } from '../../src/views/signflow/sign-flow-screen';
import { isDisabled, renderView } from './render';

const ADA = { emailAddress: 'ada@paraph.test', fullName: 'Ada Lovelace' };

afterEach(() => {
  window.sessionStorage.clear();
});

function renderForm({
  mode = 'new',
  data = sampleSignFlowFormData(),
  save = async () => {},
  withDraft = false,
}: {
  mode?: FormMode;
  data?: SignFlowFormData;
  save?: (input: SaveSignFlowInput) => Promise<void>;
  withDraft?: boolean;
} = {}) {
  const saveSignFlow = vi.fn(save);
  const goToDocument = vi.fn();
  const logic = signFlowFormMachine.provide({
    actors: {
      loadSignFlowForm: fromPromise<SignFlowFormData, LoadSignFlowFormInput>(async ({ input }) => ({
        ...data,
        draft: withDraft ? readDraft(input.documentId) : null,
      })),
      saveSignFlow: fromPromise<void, SaveSignFlowInput>(({ input }) => saveSignFlow(input)),
    },
    actions: { goToDocument },
  });
  renderView(
    <SignFlowScreen mode={mode} documentId="d1" page="form" logic={logic} self={ADA} PlacementPage={null} />,
    { path: `/signflow/${mode}/d1` },
  );
  return { user: userEvent.setup(), saveSignFlow, goToDocument };
}

async function addBySearch(user: ReturnType<typeof userEvent.setup>, query: string) {
  const box = await screen.findByRole('combobox', { name: /Add people/ });
  await user.clear(box);
  await user.type(box, query);
  await user.keyboard('{Enter}');
}

const signatoriesList = () => within(screen.getByRole('region', { name: 'Signatories' }));

/** Why a button refuses to act, as its description (aria-describedby) gives the reasons. */
function reasonsFor(button: HTMLElement): (string | null)[] {
  const list = document.getElementById(button.getAttribute('aria-describedby') ?? '');
  return list ? Array.from(list.querySelectorAll('li'), (item) => item.textContent) : [];
}

describe('sign flow form', () => {
  it('suggests from 3 characters, moves with the arrow keys and adds with Enter', async () => {
    const { user } = renderForm();
    const box = await screen.findByRole('combobox', { name: /Add people/ });
    await user.type(box, 'pa');
    expect(screen.queryByRole('listbox')).toBeNull();
    await user.type(box, 'raph');
    const listbox = screen.getByRole('listbox', { name: 'Suggestions' });
    const options = within(listbox).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      'Ada Lovelace (you)ada@paraph.test',
      'Bob Builderbob@paraph.test',
      'Carol Shawcarol@paraph.test',
    ]);
    expect(box.getAttribute('aria-activedescendant')).toBe(options[0]?.id);
    await user.keyboard('{ArrowDown}');
    expect(box.getAttribute('aria-activedescendant')).toBe(options[1]?.id);
    expect(options[1]?.getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{Enter}');
    expect(signatoriesList().getByText('Bob Builder')).toBeVisible();
    expect((box as HTMLInputElement).value).toBe('');

    await user.type(box, 'bob');
    const bob = within(screen.getByRole('listbox')).getByRole('option', { name: /Bob Builder/ });
    expect(bob.getAttribute('aria-disabled')).toBe('true');
    expect(bob.textContent).toContain('Already a signatory');
  });

  it('expands a sign group into its people, and adds reviewers with the switch', async () => {
    const { user } = renderForm();
    await addBySearch(user, 'board');
    expect(
      signatoriesList()
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([expect.stringContaining('Bob Builder'), expect.stringContaining('Dan Brown')]);
    await user.click(screen.getByRole('radio', { name: 'Reviewer' }));
    await addBySearch(user, 'carol@');
    const reviewers = within(screen.getByRole('region', { name: 'Reviewers' }));
    expect(reviewers.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      expect.stringContaining('Carol Shaw'),
    ]);
  });

  it('says a sign group whose people are all added already has nobody left to add, not "0 people"', async () => {
    const { user } = renderForm();
    await addBySearch(user, 'board');
    const box = await screen.findByRole('combobox', { name: /Add people/ });
    await user.type(box, 'board');
    const group = within(screen.getByRole('listbox')).getByRole('option', { name: /Board/ });
    expect(group.textContent).toContain('Sign group · everyone in it is already added');
    expect(group.textContent).not.toContain('0 people');
  });

  it('says why the form cannot be sent, and sends the contract body', async () => {
    const { user, saveSignFlow } = renderForm();
    const submit = await screen.findByRole('button', { name: 'Start the sign flow' });
    expect(isDisabled(submit)).toBe(true);
    expect(screen.getByText('Add at least one signatory.')).toBeVisible();
    expect(reasonsFor(submit)).toEqual(['Add at least one signatory.']);

    await addBySearch(user, 'bob@');
    expect(screen.getByText('0 of 1 signatures placed')).toBeVisible();
    expect(reasonsFor(submit)).toEqual([
      'Place a signature for every signatory, or choose a signature page.',
    ]);

    await user.click(screen.getByRole('radio', { name: 'On a signature page' }));
    await user.click(screen.getByRole('radio', { name: 'After page' }));
    const page = screen.getByRole('textbox', { name: 'Page number' });
    await user.type(page, '0');
    expect(screen.getByText('Enter a page number of 1 or more.')).toBeVisible();
    expect(isDisabled(submit)).toBe(true);
    await user.clear(page);
    await user.type(page, '2');
    expect(isDisabled(submit)).toBe(false);

    await user.type(screen.getByRole('textbox', { name: /Comment/ }), 'Hello');
    expect(screen.getByText('5 / 1024 characters')).toBeVisible();
    await user.click(submit);
    expect(saveSignFlow).toHaveBeenCalledWith({
      documentId: 'd1',
      mode: 'new',
      body: {
        sign_flow: expect.objectContaining({
          comment: 'Hello',
          signatory_email_addresses: ['bob@paraph.test'],
          sign_page_number: 3,
          signature_coordinates: [],
          type: 'standard',
        }),
      },
    });
  });

  it('minimum: ticking focuses the input, typing ticks, a wrong number explains itself', async () => {
    const { user } = renderForm();
    await addBySearch(user, 'bob@');
    await addBySearch(user, 'carol@');
    const minimum = screen.getByRole('checkbox', { name: 'Require a minimum number of signatures' });
    const input = screen.getByRole('textbox', { name: 'Minimum signatures' });
    await user.click(minimum);
    expect(document.activeElement).toBe(input);
    const hint = () => document.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent;
    expect(hint()).toBe('Enter a number from 1 to 1. Until you do, every signatory must sign.');
    await user.type(input, '2');
    expect(hint()).toBe('Enter a whole number from 1 to 1. Otherwise every signatory must sign.');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    await user.clear(input);
    expect((minimum as HTMLInputElement).checked).toBe(false);
    await user.type(input, '1');
    expect((minimum as HTMLInputElement).checked).toBe(true);
    expect(input.hasAttribute('aria-describedby')).toBe(false);
    expect(screen.queryByText(/every signatory must sign/)).toBeNull();

    await user.click(screen.getByRole('checkbox', { name: 'Sign in this order' }));
    expect((minimum as HTMLInputElement).checked).toBe(false);
    expect(isDisabled(minimum)).toBe(true);
    expect(isDisabled(input)).toBe(true);
  });

  it.each([
    ['empty', '', 'Enter a number from 1 to 2. Until you do, every signatory must sign.'],
    [
      'not a number',
      '1.5',
      'That is not a whole number. Enter one from 1 to 2, or every signatory must sign.',
    ],
    ['out of range', '3', 'Enter a whole number from 1 to 2. Otherwise every signatory must sign.'],
  ])('a minimum that is %s is sent as 0 with a hint, and does not stop the submit', async (_, text, hint) => {
    const { user, saveSignFlow } = renderForm();
    await addBySearch(user, 'board');
    await addBySearch(user, 'carol@');
    await user.click(screen.getByRole('radio', { name: 'On a signature page' }));
    await user.click(screen.getByRole('checkbox', { name: 'Require a minimum number of signatures' }));
    const input = screen.getByRole('textbox', { name: 'Minimum signatures' });
    if (text !== '') await user.type(input, text);
    // The hint is the input's description, in a polite live region.
    const status = screen.getByText(hint).closest('[role="status"]');
    expect(status?.id).toBe(input.getAttribute('aria-describedby'));

    const submit = screen.getByRole('button', { name: 'Start the sign flow' });
    expect(isDisabled(submit)).toBe(false);
    await user.click(submit);
    expect(saveSignFlow).toHaveBeenCalledWith(
      expect.objectContaining({
        body: {
          sign_flow: expect.objectContaining({
            signatory_email_addresses: ['bob@paraph.test', 'dan@paraph.test', 'carol@paraph.test'],
            minimum_required_signs: 0,
          }),
        },
      }),
    );
  });

  it('reorders the signatories of an ordered flow by keyboard', async () => {
    const { user } = renderForm();
    await addBySearch(user, 'bob@');
    await addBySearch(user, 'carol@');
    expect(screen.queryByRole('button', { name: 'Move Carol Shaw up' })).toBeNull();
    await user.click(screen.getByRole('checkbox', { name: 'Sign in this order' }));
    const up = screen.getByRole('button', { name: 'Move Carol Shaw up' });
    up.focus();
    await user.keyboard('{Enter}');
    const items = signatoriesList().getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringContaining('Carol Shaw'),
      expect.stringContaining('Bob Builder'),
    ]);
    // Said to assistive technology, not shown.
    expect(screen.getByText('Carol Shaw is now number 1.').getAttribute('aria-live')).toBe('polite');
    expect(isDisabled(screen.getByRole('button', { name: 'Move Carol Shaw up' }))).toBe(true);
  });

  it('an edited flow: signed people fixed, type and mode locked, reviewers open only in review', async () => {
    renderForm({
      mode: 'edit',
      data: sampleSignFlowFormData({
        document: sampleDocument('d1', {
          state: 'in_review',
          isSignFlow: true,
          currentUserCanEditSignFlow: true,
        }),
        flow: { ...SAMPLE_EXISTING_FLOW, state: 'awaiting_signs' },
      }),
    });
    await screen.findByRole('button', { name: 'Save the changes' });
    expect(isDisabled(screen.getByRole('checkbox', { name: 'Sign in this order' }))).toBe(true);
    expect(isDisabled(screen.getByRole('radio', { name: 'On a signature page' }))).toBe(true);
    expect(isDisabled(screen.getByRole('radio', { name: /On the pages/ }))).toBe(true);
    expect(screen.queryByRole('button', { name: 'Remove Bob Builder' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Remove Carol Shaw' })).toBeEnabled();
    expect(screen.queryByRole('radio', { name: 'Reviewer' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove Grace Hopper' })).toBeNull();
    expect(screen.getByText('Reviewers can only change while the sign flow is in review.')).toBeVisible();
    expect((screen.getByRole('textbox', { name: 'Page number' }) as HTMLInputElement).value).toBe('2');
  });

  it('shows the save error and keeps the input', async () => {
    const { user } = renderForm({ save: async () => Promise.reject({ code: 'server', status: 500 }) });
    await addBySearch(user, 'bob@');
    await user.click(screen.getByRole('radio', { name: 'On a signature page' }));
    await user.click(screen.getByRole('button', { name: 'Start the sign flow' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('An error has occurred. Please try again in a few moments.');
    expect(signatoriesList().getByText('Bob Builder')).toBeVisible();
  });

  it('shows the load error with a way back to the document', async () => {
    const goToDocument = vi.fn();
    const logic = signFlowFormMachine.provide({
      actors: {
        loadSignFlowForm: fromPromise<SignFlowFormData, LoadSignFlowFormInput>(async () =>
          Promise.reject({ code: 'not_found', status: 404 }),
        ),
      },
      actions: { goToDocument },
    });
    renderView(
      <SignFlowScreen
        mode="edit"
        documentId="d1"
        page="form"
        logic={logic}
        self={ADA}
        PlacementPage={null}
      />,
    );
    expect((await screen.findByRole('alert')).textContent).toContain('An error has occurred');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Go back to the document' }));
    expect(goToDocument).toHaveBeenCalledTimes(1);
  });

  it('a 401 keeps the draft, and the form opened again finds it as it was', async () => {
    const { user } = renderForm({ withDraft: true });
    await addBySearch(user, 'bob@');
    await user.type(screen.getByRole('textbox', { name: /Comment/ }), 'Before the timeout');
    const onResponse = authMiddleware.onResponse;
    if (!onResponse) throw new Error('the client reports no 401');
    await onResponse({
      request: new Request('http://localhost/api/documents/d1/sign_flow', { method: 'POST' }),
      response: new Response(null, { status: 401 }),
      schemaPath: '/documents/{id}/sign_flow',
    } as unknown as Parameters<typeof onResponse>[0]);
    const stored = window.sessionStorage.getItem('paraph.signFlowDraft.d1') ?? '';
    expect(stored).toContain('Before the timeout');
    expect(stored).not.toContain('token');

    cleanup();
    renderForm({ withDraft: true });
    expect(await screen.findByText(/has been restored/)).toBeVisible();
    expect((screen.getByRole('textbox', { name: /Comment/ }) as HTMLTextAreaElement).value).toBe(
      'Before the timeout',
    );
    expect(signatoriesList().getByText('Bob Builder')).toBeVisible();
  });
});
