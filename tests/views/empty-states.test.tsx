// Every empty list says what would be there and offers the next step, and the step does what it says:
// upload opens the upload dialog, "Show all documents" goes to the full list, clearing the search brings
// the documents back, adding a connection and creating a sign group open their dialogs.
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import {
  connectionsMachine,
  type ConnectionsData,
  type PersonProfile,
  type SearchInput,
} from '../../machines/connections.machine';
import { documentListMachine } from '../../machines/document-list.machine';
import { sampleConnection, sampleDocument, samplePage, sampleRequest } from '../samples';
import { signGroupsMachine, type SignGroup } from '../../machines/sign-groups.machine';
import { shellMachine, type ShellActorRef } from '../../machines/shell.machine';
import type {
  CreateDocumentInput,
  DocumentCategory,
  DocumentPage,
  FetchPageInput,
  SendToStorageInput,
  UploadTicket,
} from '../../machines/types';
import { uploadMachine, type StorageEvent } from '../../machines/upload.machine';
import { ShellContext } from '../../src/app/shell-context';
import en from '../../src/i18n/en.json';
import { ConnectionsPage } from '../../src/views/connections/connections-page';
import { SignGroupsPage } from '../../src/views/connections/sign-groups-page';
import { DocumentList } from '../../src/views/documents/document-list';
import { UploadModal } from '../../src/views/upload/upload-modal';
import { currentHref, findOpenDialog, renderView } from './render';
import { START_LANGUAGE } from './shell-harness';

// The app's root actor, whose modal child the upload button opens; its session has no token and calls nothing.
let shell: ShellActorRef;

beforeEach(() => {
  shell = createActor(shellMachine, { input: { storedToken: null, language: START_LANGUAGE } }).start();
});

afterEach(() => shell.stop());

function openModal(): string | null {
  const modal = shell.getSnapshot().children.modal?.getSnapshot();
  return modal?.matches('open') ? modal.context.name : null;
}

/** The empty state whose title is `title`: the block holding its icon, texts and step. */
function emptyStateOf(title: string): HTMLElement {
  const state = screen.getByText(title).closest('p')?.parentElement?.parentElement;
  if (!state) throw new Error(`no empty state titled ${title}`);
  return state;
}

function expectIcon(state: HTMLElement) {
  expect(state.querySelectorAll('[aria-hidden] svg')).toHaveLength(1);
}

function listWith(fetch: (input: FetchPageInput) => Promise<DocumentPage>) {
  const fetchPage = vi.fn(fetch);
  const logic = documentListMachine.provide({
    actors: { fetchPage: fromPromise<DocumentPage, FetchPageInput>(({ input }) => fetchPage(input)) },
  });
  return { logic, fetchPage };
}

// An upload that never gets past asking for its ticket: these tests only open the dialog.
const uploadLogic = uploadMachine.provide({
  actors: {
    requestUpload: fromPromise<UploadTicket>(() => new Promise(() => {})),
    sendToStorage: fromCallback<StorageEvent, SendToStorageInput>(() => {}),
    createDocument: fromPromise<{ id: string }, CreateDocumentInput>(() => new Promise(() => {})),
  },
});

/** A list screen inside the app's shell, with the upload dialog the shell hosts. */
function renderList(category: DocumentCategory, fetch: (input: FetchPageInput) => Promise<DocumentPage>) {
  const { logic, fetchPage } = listWith(fetch);
  renderView(
    <ShellContext.Provider value={shell}>
      <DocumentList logic={logic} category={category} />
      <UploadModal logic={uploadLogic} />
    </ShellContext.Provider>,
    { path: category === 'archived' ? '/archive' : `/documents/${category}` },
  );
  return { fetchPage };
}

const emptyPage = async () => samplePage([], 1, 1);

describe('an empty document list', () => {
  it.each(['active', 'in_progress', 'uploaded'] as const)(
    'of %s says what would be there and opens the upload dialog from its Upload button',
    async (category) => {
      const user = userEvent.setup();
      renderList(category, emptyPage);
      const title = en[`documents.empty.${category}`];
      await screen.findByText(title);
      const state = emptyStateOf(title);
      expectIcon(state);
      expect(within(state).getByText(en[`documents.empty.hint.${category}`]).tagName).toBe('P');
      expect(screen.queryByRole('dialog', { hidden: true })).toBeNull();

      await user.click(within(state).getByRole('button', { name: 'Upload a document' }));

      const dialog = await findOpenDialog();
      expect(within(dialog).getByRole('heading', { name: 'Upload a document' }).tagName).toBe('H2');
      expect(within(dialog).getByLabelText('Choose a PDF').getAttribute('type')).toBe('file');
      expect(openModal()).toBe('documentUpload');
    },
  );

  it.each(['to_do', 'done', 'failed', 'archived'] as const)(
    'of %s says what would be there and goes to all documents from its link',
    async (category) => {
      const user = userEvent.setup();
      renderList(category, emptyPage);
      const title = en[`documents.empty.${category}`];
      await screen.findByText(title);
      const state = emptyStateOf(title);
      expectIcon(state);
      expect(within(state).getByText(en[`documents.empty.hint.${category}`]).tagName).toBe('P');
      // Nothing here comes from an upload of the person's own: no upload is offered.
      expect(within(state).queryByRole('button', { name: 'Upload a document' })).toBeNull();

      const link = within(state).getByRole('link', { name: 'Show all documents' });
      expect(link.getAttribute('href')).toBe('/documents');
      await user.click(link);
      expect(currentHref()).toBe('/documents');
    },
  );

  it('after a search that found nothing, clears the search and shows the documents again', async () => {
    const user = userEvent.setup();
    const { fetchPage } = renderList('active', async (input) =>
      input.search
        ? samplePage([], 1, 1)
        : samplePage([sampleDocument('d1', { originalFilename: 'Lease.pdf' })], 1, 1),
    );
    await screen.findByRole('grid');
    const search = screen.getByRole('searchbox', { name: 'Search documents' });
    await user.type(search, 'invoice{Enter}');
    const title = 'No documents match “invoice”.';
    await screen.findByText(title);
    const state = emptyStateOf(title);
    expectIcon(state);
    expect(within(state).getByText(en['documents.empty.hint.search']).tagName).toBe('P');
    // The category's own empty text would be wrong here: the list is not empty, the search is.
    expect(screen.queryByText(en['documents.empty.active'])).toBeNull();
    expect(within(state).queryByRole('button', { name: 'Upload a document' })).toBeNull();

    await user.click(within(state).getByRole('button', { name: 'Clear the search' }));

    const grid = await screen.findByRole('grid', { name: 'Documents' });
    expect(within(grid).getByText('Lease.pdf').tagName).toBe('SPAN');
    expect((search as HTMLInputElement).value).toBe('');
    expect(fetchPage).toHaveBeenLastCalledWith(expect.objectContaining({ search: '' }));
    expect(screen.queryByText(title)).toBeNull();
  });
});

function connectionsWith(data: ConnectionsData) {
  return connectionsMachine.provide({
    actors: {
      fetchConnections: fromPromise<ConnectionsData>(async () => data),
      searchProfiles: fromPromise<PersonProfile[], SearchInput>(async () => []),
    },
  });
}

describe('the connections tab', () => {
  it('without connections, opens the add dialog from its empty state', async () => {
    const user = userEvent.setup();
    renderView(<ConnectionsPage logic={connectionsWith({ connections: [], requests: [] })} />, {
      path: '/connections/users',
    });
    const title = en['connections.users.empty'];
    await screen.findByText(title);
    const state = emptyStateOf(title);
    expectIcon(state);
    expect(within(state).getByText(en['connections.users.empty.hint']).tagName).toBe('P');

    await user.click(within(state).getByRole('button', { name: 'Add your first connection' }));

    const dialog = await findOpenDialog();
    expect(within(dialog).getByRole('heading', { name: 'Add a connection by e-mail' }).tagName).toBe('H2');
    expect(within(dialog).getByRole('button', { name: 'Add' }).getAttribute('aria-disabled')).toBe('true');
  });

  it('says when no request is pending, and not when one is', async () => {
    renderView(
      <ConnectionsPage logic={connectionsWith({ connections: [sampleConnection('c1')], requests: [] })} />,
      { path: '/connections/users' },
    );
    const requests = await screen.findByRole('region', { name: 'Requests' });
    expect(within(requests).getByText('No pending requests.').tagName).toBe('P');
    expectIcon(emptyStateOf('No pending requests.'));
    expect(within(requests).queryByRole('list')).toBeNull();
    cleanup();

    renderView(
      <ConnectionsPage logic={connectionsWith({ connections: [], requests: [sampleRequest('r1')] })} />,
      {
        path: '/connections/users',
      },
    );
    const pending = await screen.findByRole('region', { name: 'Requests' });
    expect(within(pending).getAllByRole('listitem')).toHaveLength(1);
    expect(screen.queryByText('No pending requests.')).toBeNull();
  });
});

describe('the sign groups tab', () => {
  it('without sign groups, opens the create dialog from its empty state', async () => {
    const user = userEvent.setup();
    const logic = signGroupsMachine.provide({
      actors: {
        fetchSignGroups: fromPromise<SignGroup[]>(async () => []),
        fetchMemberCandidates: fromPromise<PersonProfile[]>(async () => []),
      },
    });
    renderView(<SignGroupsPage logic={logic} />, { path: '/connections/groups' });
    const title = en['connections.groups.empty'];
    await screen.findByText(title);
    const state = emptyStateOf(title);
    expectIcon(state);
    expect(within(state).getByText(en['connections.groups.empty.hint']).tagName).toBe('P');

    await user.click(within(state).getByRole('button', { name: 'Create your first sign group' }));

    const dialog = await findOpenDialog();
    expect(within(dialog).getByRole('heading', { name: 'Create a sign group' }).tagName).toBe('H2');
    expect(
      within(dialog)
        .getByRole('textbox', { name: /Group name/ })
        .getAttribute('value'),
    ).toBe('');
  });
});
