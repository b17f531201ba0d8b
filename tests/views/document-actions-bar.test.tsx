import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, type Actor } from 'xstate';
import { documentDetailsMachine, type SignFlowParticipants } from '../../machines/document-details.machine';
import { documentMachine } from '../../machines/document.machine';
import { SAMPLE_SIGN_FLOW_PARTICIPANTS, sampleDocument } from '../samples';
import { shellMachine } from '../../machines/shell.machine';
import type { DocumentResource } from '../../machines/types';
import { ApiError } from '../../src/api/errors';
import { ShellContext } from '../../src/app/shell-context';
import { DocumentPage } from '../../src/views/document/document-page';
import { arrangeChoices } from '../../src/views/documents/document-actions-bar';
import { DetailsPanel } from '../../src/views/documents/details-panel';
import { currentHref, renderView } from './render';
import { START_LANGUAGE } from './shell-harness';

const REVIEWING = sampleDocument('r1', {
  originalFilename: 'Review me.pdf',
  state: 'in_review',
  isSignFlow: true,
  isOwner: false,
  currentUserCanReview: true,
  currentUserCanCreateSignFlow: false,
  currentUserCanDelete: false,
});
const SIGNED = sampleDocument('s1', {
  originalFilename: 'Signed.pdf',
  state: 'signed',
  currentUserCanCreateSignFlow: false,
});
// Every flag set, but archived by the person.
const ARCHIVED = sampleDocument('a1', {
  originalFilename: 'Archived.pdf',
  state: 'awaiting_signs',
  isSignFlow: true,
  currentUserArchived: true,
  // Archived already: the server no longer offers archiving it.
  currentUserCanArchive: false,
  currentUserCanDelete: true,
  currentUserCanSign: true,
  currentUserCanReview: true,
  currentUserCanRefuse: true,
  currentUserCanCreateSignFlow: true,
  currentUserCanEditSignFlow: true,
  currentUserCanCancel: true,
});
// The owner of an upload she may sign alone: Sign, Start a sign flow, Archive and Delete.
const UPLOADED = sampleDocument('u1', { originalFilename: 'Upload.pdf', currentUserCanSign: true });

const NOT_OFFERED_WHEN_ARCHIVED = [
  'Sign',
  'Approve',
  'Reject',
  'Refuse to sign',
  'Start a sign flow',
  'Edit the sign flow',
  'Cancel the sign flow',
];

// The app's shell with its real modal and document-actions children: what opens a dialog is theirs.
let shell: Actor<typeof shellMachine>;
const opened: unknown[] = [];
// The document actions the shell was asked for. The row menu's own path to the dialogs (requestAction) is
// one `action.request` sent to the shell, watched here: the panel must go the same way.
const requests: unknown[] = [];
const width = window.innerWidth;

beforeEach(() => {
  opened.length = 0;
  requests.length = 0;
  shell = createActor(shellMachine, {
    input: { storedToken: null, language: START_LANGUAGE },
    inspect: (event) => {
      if (event.type !== '@xstate.event') return;
      if (event.event.type === 'modal.open') opened.push(event.event);
      if (event.event.type === 'action.request' && event.actorRef === shell) requests.push(event.event);
    },
  }).start();
});

afterEach(() => {
  shell.stop();
  window.innerWidth = width;
});

function openModal(): string | null {
  const modal = shell.getSnapshot().children.modal?.getSnapshot();
  return modal?.matches('open') ? modal.context.name : null;
}

function requested() {
  const { action, documents } = shell.getSnapshot().children.documentActions?.getSnapshot().context ?? {};
  return { action, documents };
}

function detailsOf(documents: DocumentResource[]) {
  return documentDetailsMachine.provide({
    actors: {
      fetchDocument: fromPromise<DocumentResource, { documentId: string }>(async ({ input }) => {
        const found = documents.find((document) => document.id === input.documentId);
        if (!found) throw new ApiError({ code: 'not_found', status: 404 });
        return found;
      }),
      fetchSignFlow: fromPromise<SignFlowParticipants, { documentId: string }>(
        async () => SAMPLE_SIGN_FLOW_PARTICIPANTS,
      ),
    },
  });
}

async function panelFor(document: DocumentResource, variant: 'list' | 'page' = 'list') {
  renderView(
    <ShellContext.Provider value={shell}>
      <DetailsPanel logic={detailsOf([document])} selectedIds={[document.id]} variant={variant} />
    </ShellContext.Provider>,
  );
  const panel = await screen.findByRole('complementary', { name: 'Document details' });
  await within(panel).findByText(document.attributes.originalFilename);
  return panel;
}

function offered(panel: HTMLElement, name: string): HTMLElement | null {
  return within(panel).queryByRole('button', { name }) ?? within(panel).queryByRole('link', { name });
}

describe('the actions in the details panel', () => {
  it("offers a reviewer Approve and Reject, and choosing one opens its dialog the row menu's way", async () => {
    const user = userEvent.setup();
    const panel = await panelFor(REVIEWING);
    const approve = within(panel).getByRole('button', { name: 'Approve' });
    expect(within(panel).getByRole('button', { name: 'Reject' })).not.toBeNull();
    expect(offered(panel, 'Sign')).toBeNull();

    await user.click(approve);
    expect(requests).toContainEqual({ type: 'action.request', action: 'approve', documents: [REVIEWING] });
    expect(openModal()).toBe('confirm');
    expect(opened).toEqual([expect.objectContaining({ type: 'modal.open', name: 'confirm' })]);
    expect(requested()).toEqual({ action: 'approve', documents: [REVIEWING] });

    await user.click(within(panel).getByRole('button', { name: 'Reject' }));
    expect(requests.at(-1)).toEqual({ type: 'action.request', action: 'reject', documents: [REVIEWING] });
    expect(requested()).toEqual({ action: 'reject', documents: [REVIEWING] });
  });

  it('offers Download for a signed document, straight to its download', async () => {
    const user = userEvent.setup();
    const panel = await panelFor(SIGNED, 'page');
    await user.click(within(panel).getByRole('button', { name: 'Download' }));
    expect(requests).toContainEqual({ type: 'action.request', action: 'download', documents: [SIGNED] });
  });

  it('offers nothing of signing, reviewing or the flow once the person archived the document, only Delete', async () => {
    const active = sampleDocument('a1', { ...ARCHIVED.attributes, currentUserArchived: false });
    const { unmount } = renderView(
      <ShellContext.Provider value={shell}>
        <DetailsPanel logic={detailsOf([active])} selectedIds={['a1']} variant="page" />
      </ShellContext.Provider>,
    );
    const before = await screen.findByRole('complementary', { name: 'Document details' });
    await within(before).findByText('Archived.pdf');
    // Seven buttons would not fit: the lead, then the menu.
    expect(offered(before, 'Sign')).not.toBeNull();
    await userEvent.setup().click(within(before).getByRole('button', { name: 'More actions' }));
    const menu = await screen.findByRole('menu');
    for (const name of NOT_OFFERED_WHEN_ARCHIVED.slice(1)) {
      expect(within(menu).getByRole('menuitem', { name })).not.toBeNull();
    }
    unmount();

    const panel = await panelFor(ARCHIVED, 'page');
    for (const name of NOT_OFFERED_WHEN_ARCHIVED) expect(offered(panel, name)).toBeNull();
    expect(within(panel).queryByRole('button', { name: 'More actions' })).toBeNull();
    // Spec 000 §6 hides six permissions once archived; deleting it stays the person's to do.
    const actions = within(panel).getByRole('group', { name: 'Actions' });
    expect(
      within(actions)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Delete']);
  });

  it('on a phone, leads with one button and keeps the others in a "More actions" menu', async () => {
    window.innerWidth = 375;
    const user = userEvent.setup();
    const panel = await panelFor(UPLOADED, 'page');
    const actions = within(panel).getByRole('group', { name: 'Actions' });
    const sign = within(actions).getByRole('link', { name: 'Sign' });
    expect(sign.getAttribute('href')).toBe('/sign/u1');
    const more = within(actions).getByRole('button', { name: 'More actions' });
    // Nothing else is a button of its own.
    expect(within(actions).getAllByRole('link')).toEqual([sign]);
    expect(within(actions).getAllByRole('button')).toEqual([more]);

    await user.click(more);
    const menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Start a sign flow', 'Archive', 'Delete']);
    await user.click(within(menu).getByRole('menuitem', { name: 'Archive' }));
    expect(requests).toContainEqual({ type: 'action.request', action: 'archive', documents: [UPLOADED] });
    expect(openModal()).toBe('archive');

    await user.click(more);
    await user.click(await screen.findByRole('menuitem', { name: 'Start a sign flow' }));
    expect(currentHref()).toBe('/signflow/new/u1');
  });

  it('from 768 px, shows up to four as buttons, the lead first', async () => {
    window.innerWidth = 800;
    const panel = await panelFor(UPLOADED);
    const actions = within(panel).getByRole('group', { name: 'Actions' });
    expect([...actions.querySelectorAll('a, button')].map((element) => element.textContent)).toEqual([
      'Sign',
      'Start a sign flow',
      'Archive',
      'Delete',
    ]);
  });
});

describe('which action leads and which wait in the menu', () => {
  it('never leads with a destructive action, and gives a phone one button and a menu', () => {
    expect(arrangeChoices(['delete', 'refuse', 'archive'], true)).toEqual({
      lead: 'archive',
      buttons: ['archive'],
      menu: ['refuse', 'delete'],
    });
    expect(arrangeChoices(['refuse', 'delete'], false)).toEqual({
      lead: null,
      buttons: ['refuse', 'delete'],
      menu: [],
    });
    // A menu of one would be a tap for nothing.
    expect(arrangeChoices(['download', 'delete'], true).menu).toEqual([]);
  });

  it('puts the rest in a menu from 768 px when there are more than four', () => {
    const owner = ['editSignFlow', 'cancelSignFlow', 'archive', 'delete', 'sign', 'refuse'] as const;
    expect(arrangeChoices(owner, false)).toEqual({
      lead: 'sign',
      buttons: ['sign'],
      menu: ['editSignFlow', 'refuse', 'cancelSignFlow', 'archive', 'delete'],
    });
    expect(arrangeChoices(['approve', 'reject', 'archive'], false).buttons).toEqual([
      'approve',
      'reject',
      'archive',
    ]);
  });
});

describe('the document page after an action', () => {
  function pageLogic(reads: (DocumentResource | 'gone')[]) {
    const goToDocuments = vi.fn();
    const fetchDocument = vi.fn(async () => {
      const next = reads.length > 1 ? reads.shift() : reads[0];
      if (next === 'gone' || next === undefined) throw new ApiError({ code: 'not_found', status: 404 });
      return next;
    });
    const logic = documentMachine.provide({
      actors: { fetchDocument: fromPromise<DocumentResource, { documentId: string }>(fetchDocument) },
      actions: { goToDocuments },
    });
    return { logic, goToDocuments, fetchDocument };
  }

  it('reads the document again, so the back link follows an archive', async () => {
    const archived = sampleDocument('u1', { ...UPLOADED.attributes, currentUserArchived: true });
    const { logic, fetchDocument } = pageLogic([UPLOADED, archived]);
    renderView(
      <ShellContext.Provider value={shell}>
        <DocumentPage id="u1" mode="details" logic={logic} detailsLogic={detailsOf([UPLOADED])} />
      </ShellContext.Provider>,
    );
    const back = await screen.findByRole('link', { name: 'Back to documents' });
    await vi.waitFor(() => expect(fetchDocument).toHaveBeenCalledTimes(1));
    expect(back.getAttribute('href')).toBe('/documents');

    act(() => shell.send({ type: 'documents.changed' }));
    await vi.waitFor(() =>
      expect(screen.getByRole('link', { name: 'Back to documents' }).getAttribute('href')).toBe('/archive'),
    );
    expect(fetchDocument).toHaveBeenCalledTimes(2);
  });

  it('keeps the pages on screen while it reads the document again', async () => {
    window.innerWidth = 375;
    let answerSecondRead: (document: DocumentResource) => void = () => undefined;
    const second = new Promise<DocumentResource>((resolve) => {
      answerSecondRead = resolve;
    });
    const { logic, fetchDocument } = pageLogic([UPLOADED]);
    fetchDocument.mockImplementationOnce(async () => UPLOADED).mockImplementationOnce(() => second);
    renderView(
      <ShellContext.Provider value={shell}>
        <DocumentPage id="u1" mode="view" logic={logic} detailsLogic={detailsOf([UPLOADED])} />
      </ShellContext.Provider>,
    );
    const name = /Page 1 of Upload\.pdf/;
    expect((await screen.findByRole('img', { name })).getAttribute('src')).toBe(
      UPLOADED.attributes.publicImagesFileUrls[0],
    );

    act(() => shell.send({ type: 'documents.changed' }));
    await vi.waitFor(() => expect(fetchDocument).toHaveBeenCalledTimes(2));
    expect(screen.getByRole('img', { name })).not.toBeNull();
    expect(screen.queryByText('Loading the document')).toBeNull();

    const fresh = `${UPLOADED.attributes.publicImagesFileUrls[0] ?? ''}?signed=again`;
    await act(async () =>
      answerSecondRead(sampleDocument('u1', { ...UPLOADED.attributes, publicImagesFileUrls: [fresh] })),
    );
    await vi.waitFor(() => expect(screen.getByRole('img', { name }).getAttribute('src')).toBe(fresh));
  });

  it('sends the person to the list once the document is gone', async () => {
    const { logic, goToDocuments } = pageLogic([UPLOADED, 'gone']);
    renderView(
      <ShellContext.Provider value={shell}>
        <DocumentPage id="u1" mode="details" logic={logic} detailsLogic={detailsOf([UPLOADED])} />
      </ShellContext.Provider>,
    );
    await screen.findByRole('heading', { level: 1, name: 'Upload.pdf' });
    expect(goToDocuments).not.toHaveBeenCalled();
    act(() => shell.send({ type: 'documents.changed' }));
    await vi.waitFor(() => expect(goToDocuments).toHaveBeenCalledTimes(1));
  });
});
