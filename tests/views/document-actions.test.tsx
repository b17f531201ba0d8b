import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, type Actor } from 'xstate';
import {
  documentActionsMachine,
  type DocumentsInput,
  type OneDocumentInput,
  type RefuseInput,
} from '../../machines/document-actions.machine';
import { documentListMachine } from '../../machines/document-list.machine';
import { modalMachine } from '../../machines/modal.machine';
import { sampleDocument, samplePage } from '../../machines/samples';
import type { DocumentResource } from '../../machines/types';
import { ModalContext } from '../../src/app/modal-context';
import { ActionModals } from '../../src/views/documents/action-modals';
import { BulkActions } from '../../src/views/documents/bulk-actions';
import { requestAction, RowActions } from '../../src/views/documents/row-actions';
import { isDisabled, renderView } from './render';

const PLAIN = sampleDocument('d1', { originalFilename: 'lease.pdf' });
const SIGNED = sampleDocument('d2', { originalFilename: 'offer.pdf', state: 'signed' });
const NOT_DELETABLE = sampleDocument('d3', { isOwner: false, currentUserCanDelete: false });
const FLOW = sampleDocument('d4', {
  originalFilename: 'contract.pdf',
  state: 'awaiting_signs',
  isSignFlow: true,
  currentUserCanRefuse: true,
  currentUserCanCancel: true,
});

let modal: Actor<typeof modalMachine>;

beforeEach(() => {
  modal = createActor(modalMachine).start();
});

afterEach(() => modal.stop());

type Rejection = { code: string; status?: number } | null;

/** The dialogs with fake calls: each records its input and fails with `failure`, or succeeds. */
function renderModals(failure: Rejection = null) {
  const calls: { name: string; input: unknown }[] = [];
  const fake = <TInput,>(name: string) =>
    fromPromise<void, TInput>(async ({ input }) => {
      calls.push({ name, input });
      if (failure) throw failure;
    });
  const logic = documentActionsMachine.provide({
    actors: {
      archiveDocument: fake<OneDocumentInput>('archiveDocument'),
      archiveDocuments: fake<DocumentsInput>('archiveDocuments'),
      deleteDocument: fake<OneDocumentInput>('deleteDocument'),
      deleteDocuments: fake<DocumentsInput>('deleteDocuments'),
      refuseSignFlow: fake<RefuseInput>('refuseSignFlow'),
      approveDocument: fake<OneDocumentInput>('approveDocument'),
      rejectDocument: fake<OneDocumentInput>('rejectDocument'),
      cancelSignFlow: fake<OneDocumentInput>('cancelSignFlow'),
      downloadDocuments: fake<DocumentsInput>('downloadDocuments'),
    },
    actions: { closeModal: () => modal.send({ type: 'modal.close' }) },
  });
  renderView(
    <ModalContext.Provider value={modal}>
      <ActionModals logic={logic} />
    </ModalContext.Provider>,
  );
  return calls;
}

function renderRow(document: DocumentResource) {
  return renderView(
    <ModalContext.Provider value={modal}>
      <RowActions document={document} />
    </ModalContext.Provider>,
  );
}

async function listWithSelection(documents: DocumentResource[]) {
  const logic = documentListMachine.provide({
    actors: { fetchPage: fromPromise(async () => samplePage(documents, 1, 1)) },
  });
  const list = createActor(logic, { input: { category: 'active' } }).start();
  await vi.waitFor(() => expect(list.getSnapshot().matches('loaded')).toBe(true));
  list.send({ type: 'selection.all' });
  renderView(
    <ModalContext.Provider value={modal}>
      <BulkActions list={list} />
    </ModalContext.Provider>,
  );
  return list;
}

describe('row actions', () => {
  it('are hidden without a matching flag and once the user archived the document', () => {
    renderRow(
      sampleDocument('d9', { isOwner: false, currentUserCanArchive: false, currentUserCanDelete: false }),
    );
    expect(screen.queryByRole('button', { name: /More actions/ })).toBeNull();
    renderRow(sampleDocument('d8', { currentUserArchived: true, currentUserCanDelete: true }));
    expect(screen.queryByRole('button', { name: /More actions/ })).toBeNull();
  });

  it('offer what the flags allow and open the matching dialog', async () => {
    const user = userEvent.setup();
    renderRow(FLOW);
    await user.click(screen.getByRole('button', { name: 'More actions for contract.pdf' }));
    const items = await screen.findAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'Archive',
      'Delete',
      'Refuse to sign',
      'Cancel sign flow',
    ]);
    await user.click(screen.getByRole('menuitem', { name: 'Refuse to sign' }));
    expect(modal.getSnapshot().context).toMatchObject({
      name: 'refuse',
      props: { request: { action: 'refuse', documents: [FLOW] } },
    });
  });
});

describe('bulk actions', () => {
  it('offer delete only when every selected document allows it', async () => {
    const list = await listWithSelection([PLAIN, NOT_DELETABLE]);
    const bar = screen.getByRole('toolbar', { name: 'Actions for the selected documents' });
    expect(within(bar).getByRole('button', { name: 'Archive' })).toBeTruthy();
    expect(within(bar).queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(within(bar).queryByRole('button', { name: 'Download' })).toBeNull();
    list.stop();
  });

  it('offer delete and download when all allow delete and one is signed', async () => {
    const list = await listWithSelection([PLAIN, SIGNED]);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Delete' }));
    expect(screen.getByRole('button', { name: 'Download' })).toBeTruthy();
    expect(modal.getSnapshot().context.name).toBe('deleteMultiple');
    list.stop();
  });
});

describe('action dialogs', () => {
  it('shows the reason message past 127 characters and sends nothing', async () => {
    const calls = renderModals();
    act(() => requestAction(modal, 'refuse', [FLOW]));
    const dialog = await screen.findByRole('dialog', { name: 'Refuse to sign' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Reason (optional)' }), {
      target: { value: 'x'.repeat(128) },
    });
    expect(within(dialog).getByText('Reason must be shorter than 128 characters.')).toBeTruthy();
    const refuse = within(dialog).getByRole('button', { name: 'Refuse' });
    expect(isDisabled(refuse)).toBe(true);
    fireEvent.click(refuse);
    expect(calls).toEqual([]);
  });

  it("says a cancelled flow's document is already signed", async () => {
    const user = userEvent.setup();
    const calls = renderModals({ code: 'document_already_signed', status: 409 });
    act(() => requestAction(modal, 'cancelSignFlow', [FLOW]));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel the sign flow' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel sign flow' }));
    expect(
      (await within(dialog).findByRole('alert')).textContent?.includes(
        'This document is no longer a sign flow in progress and cannot be cancelled.',
      ),
    ).toBe(true);
    expect(calls).toEqual([{ name: 'cancelSignFlow', input: { documentId: 'd4' } }]);
  });

  it('words a failed bulk delete in the plural, and Enter confirms it', async () => {
    const user = userEvent.setup();
    const calls = renderModals({ code: 'server', status: 500 });
    act(() => requestAction(modal, 'delete', [PLAIN, SIGNED]));
    const dialog = await screen.findByRole('dialog', { name: 'Delete 2 documents' });
    await user.keyboard('{Enter}');
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'An error has occurred while trying to delete the documents.',
    );
    expect(calls).toEqual([{ name: 'deleteDocuments', input: { documentIds: ['d1', 'd2'] } }]);
  });

  it('words a failed archive of one document in the singular', async () => {
    const user = userEvent.setup();
    renderModals({ code: 'server', status: 500 });
    act(() => requestAction(modal, 'archive', [PLAIN]));
    const dialog = await screen.findByRole('dialog', { name: 'Archive the document' });
    await user.click(within(dialog).getByRole('button', { name: 'Archive' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'An error has occurred while trying to archive the document.',
    );
  });

  it('says the document changed meanwhile when it is gone', async () => {
    const user = userEvent.setup();
    renderModals({ code: 'not_found', status: 404 });
    act(() => requestAction(modal, 'delete', [FLOW]));
    const dialog = await screen.findByRole('dialog', { name: 'Delete the document' });
    expect(within(dialog).getByText(/it will be cancelled first/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'This document changed in the meantime. The list has been refreshed.',
    );
  });
});

describe('action error texts', () => {
  it('tells a participant who must still act why their delete was refused, in the singular and plural', async () => {
    const { createIntl } = await import('react-intl');
    const en = (await import('../../src/i18n/en.json')).default as Record<string, string>;
    const { actionErrorText } = await import('../../src/views/documents/action-modals');
    const intl = createIntl({ locale: 'en', messages: en });
    expect(actionErrorText(intl, 'delete', 'participant_action_pending', 1)).toBe(
      'You still have to review or sign this document: reject or refuse it first, then delete it.',
    );
    expect(actionErrorText(intl, 'delete', 'participant_action_pending', 3)).toMatch(
      /some of these documents/,
    );
    // Any other failure keeps the spec's message.
    expect(actionErrorText(intl, 'delete', 'server', 1)).toBe(
      'An error has occurred while trying to delete the document.',
    );
  });
});
