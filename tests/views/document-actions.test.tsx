import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import {
  documentActionsMachine,
  type DocumentsInput,
  type OneDocumentInput,
  type RefuseInput,
} from '../../machines/document-actions.machine';
import { documentListMachine } from '../../machines/document-list.machine';
import { sampleDocument, samplePage } from '../samples';
import type { DocumentResource } from '../../machines/types';
import { ActionModals } from '../../src/views/documents/action-modals';
import { BulkActions } from '../../src/views/documents/bulk-actions';
import { requestAction, RowActions } from '../../src/views/documents/row-actions';
import { deferred, flush } from '../machines/support';
import { findOpenDialog, isDisabled, renderView, waitForDialogsClosed } from './render';
import { createTestShell, ShellHarness, type TestShell } from './shell-harness';

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

const modalOf = (shell: TestShell) => shell.getSnapshot().children.modal!.getSnapshot();
const actionsOf = (shell: TestShell) => shell.getSnapshot().children.documentActions!.getSnapshot();

type Rejection = { code: string; status?: number } | null;

/** The shell's dialogs with fake calls: each records its input and fails with `failure`, or succeeds. */
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
  });
  const shell = createTestShell({ documentActions: logic });
  renderView(
    <ShellHarness shell={shell}>
      <ActionModals />
    </ShellHarness>,
  );
  return { calls, shell };
}

function renderRow(document: DocumentResource, shell: TestShell = createTestShell()) {
  renderView(
    <ShellHarness shell={shell}>
      <RowActions document={document} />
    </ShellHarness>,
  );
  return shell;
}

async function listWithSelection(documents: DocumentResource[]) {
  const logic = documentListMachine.provide({
    actors: { fetchPage: fromPromise(async () => samplePage(documents, 1, 1)) },
  });
  const list = createActor(logic, { input: { category: 'active' } }).start();
  await vi.waitFor(() => expect(list.getSnapshot().matches('loaded')).toBe(true));
  list.send({ type: 'selection.all' });
  const shell = createTestShell();
  renderView(
    <ShellHarness shell={shell}>
      <BulkActions list={list} />
    </ShellHarness>,
  );
  return { list, shell };
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
    const shell = renderRow(FLOW);
    await user.click(screen.getByRole('button', { name: 'More actions for contract.pdf' }));
    const items = await screen.findAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'Archive',
      'Delete',
      'Refuse to sign',
      'Cancel sign flow',
    ]);
    await user.click(screen.getByRole('menuitem', { name: 'Refuse to sign' }));
    // The shell's document-actions actor holds the request and opened its dialog.
    expect(actionsOf(shell).context).toMatchObject({ action: 'refuse', documents: [FLOW] });
    expect(modalOf(shell).context.name).toBe('refuse');
  });
});

describe('bulk actions', () => {
  it('offer delete only when every selected document allows it', async () => {
    const { list } = await listWithSelection([PLAIN, NOT_DELETABLE]);
    const bar = screen.getByRole('toolbar', { name: 'Actions for the selected documents' });
    expect(within(bar).getByRole('button', { name: 'Archive' })).toBeEnabled();
    expect(within(bar).queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(within(bar).queryByRole('button', { name: 'Download' })).toBeNull();
    list.stop();
  });

  it('offer delete and download when all allow delete and one is signed', async () => {
    const { list, shell } = await listWithSelection([PLAIN, SIGNED]);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Delete' }));
    expect(screen.getByRole('button', { name: 'Download' })).toBeEnabled();
    expect(actionsOf(shell).context).toMatchObject({ action: 'delete', documents: [PLAIN, SIGNED] });
    expect(modalOf(shell).context.name).toBe('deleteMultiple');
    list.stop();
  });
});

describe('action dialogs', () => {
  it('shows the reason message past 127 characters and sends nothing', async () => {
    const { calls, shell } = renderModals();
    act(() => requestAction(shell, 'refuse', [FLOW]));
    const dialog = await findOpenDialog('Refuse to sign');
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Reason (optional)' }), {
      target: { value: 'x'.repeat(128) },
    });
    expect(within(dialog).getByText('Reason must be shorter than 128 characters.')).toBeVisible();
    const refuse = within(dialog).getByRole('button', { name: 'Refuse' });
    expect(isDisabled(refuse)).toBe(true);
    fireEvent.click(refuse);
    expect(calls).toEqual([]);
  });

  it("says a cancelled flow's document is already signed", async () => {
    const user = userEvent.setup();
    const { calls, shell } = renderModals({ code: 'document_already_signed', status: 409 });
    act(() => requestAction(shell, 'cancelSignFlow', [FLOW]));
    const dialog = await findOpenDialog('Cancel the sign flow');
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
    const { calls, shell } = renderModals({ code: 'server', status: 500 });
    act(() => requestAction(shell, 'delete', [PLAIN, SIGNED]));
    const dialog = await findOpenDialog('Delete 2 documents');
    await user.keyboard('{Enter}');
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'An error has occurred while trying to delete the documents.',
    );
    expect(calls).toEqual([{ name: 'deleteDocuments', input: { documentIds: ['d1', 'd2'] } }]);
  });

  it('confirms an archive with Enter too, as it does a delete', async () => {
    const user = userEvent.setup();
    const { calls, shell } = renderModals();
    act(() => requestAction(shell, 'archive', [PLAIN, SIGNED]));
    await findOpenDialog('Archive 2 documents');
    await user.keyboard('{Enter}');
    await vi.waitFor(() =>
      expect(calls).toEqual([{ name: 'archiveDocuments', input: { documentIds: ['d1', 'd2'] } }]),
    );
  });

  it('words a failed archive of one document in the singular', async () => {
    const user = userEvent.setup();
    const { shell } = renderModals({ code: 'server', status: 500 });
    act(() => requestAction(shell, 'archive', [PLAIN]));
    const dialog = await findOpenDialog('Archive the document');
    await user.click(within(dialog).getByRole('button', { name: 'Archive' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'An error has occurred while trying to archive the document.',
    );
  });

  it('says the document changed meanwhile when it is gone', async () => {
    const user = userEvent.setup();
    const { shell } = renderModals({ code: 'not_found', status: 404 });
    const changes = vi.fn();
    shell.on('documents.changed', changes);
    act(() => requestAction(shell, 'delete', [FLOW]));
    const dialog = await findOpenDialog('Delete the document');
    expect(within(dialog).getByText(/it will be cancelled first/)).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    // Spec 000 §8's message first, then that the document changed, each on its own line.
    const alert = await within(dialog).findByRole('alert');
    expect(Array.from(alert.querySelectorAll('span'), (line) => line.textContent)).toEqual([
      'An error has occurred while trying to delete the document.',
      'This document changed in the meantime. The list has been refreshed.',
    ]);
    expect(changes).toHaveBeenCalledTimes(1);
  });
});

describe('a download and the dialogs after it', () => {
  it('keeps another action’s dialog open when a download whose progress dialog was closed ends', async () => {
    const user = userEvent.setup();
    const download = deferred<void>();
    const signals: AbortSignal[] = [];
    const shell = createTestShell({
      documentActions: documentActionsMachine.provide({
        actors: {
          downloadDocuments: fromPromise<void, DocumentsInput>(({ signal }) => {
            signals.push(signal);
            return download.promise;
          }),
        },
      }),
    });
    renderView(
      <ShellHarness shell={shell}>
        <ActionModals />
      </ShellHarness>,
    );
    act(() => requestAction(shell, 'download', [SIGNED]));
    const progress = await findOpenDialog('Download signed documents');
    expect(within(progress).getByText('Preparing your download…')).toBeVisible();
    await user.click(within(progress).getByRole('button', { name: 'Close' }));
    await waitForDialogsClosed();

    // Asked for while the download still runs: not lost, and its dialog opens at once.
    act(() => requestAction(shell, 'archive', [PLAIN]));
    const dialog = await findOpenDialog('Archive the document');
    await act(async () => {
      download.resolve();
      await flush();
    });
    expect(signals.map((signal) => signal.aborted)).toEqual([false]);
    expect(modalOf(shell).context.name).toBe('archive');
    expect(within(dialog).getByRole('button', { name: 'Archive' })).toBeVisible();
  });
});

describe('action error texts', () => {
  it('tells a participant who must still act why their delete was refused, in the singular and plural', async () => {
    const { createIntl } = await import('react-intl');
    const en = (await import('../../src/i18n/en.json')).default as Record<string, string>;
    const { actionErrorDetail, actionErrorText } = await import('../../src/views/documents/action-modals');
    const intl = createIntl({ locale: 'en', messages: en });
    // The spec's message stays; what to do first is said after it.
    expect(actionErrorText(intl, 'delete', 'participant_action_pending', 1)).toBe(
      'An error has occurred while trying to delete the document.',
    );
    expect(actionErrorDetail(intl, 'delete', 'participant_action_pending', [FLOW], [])).toBe(
      'You still have to review or sign this document: reject or refuse it first, then delete it.',
    );
    expect(
      actionErrorDetail(intl, 'delete', 'participant_action_pending', [PLAIN, SIGNED, FLOW], []),
    ).toMatch(/some of these documents/);
    // Any other failure has the spec's message alone.
    expect(actionErrorText(intl, 'delete', 'server', 1)).toBe(
      'An error has occurred while trying to delete the document.',
    );
    expect(actionErrorDetail(intl, 'delete', 'server', [PLAIN], [])).toBeNull();
  });
});
