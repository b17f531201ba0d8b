// What a screen reader says for the parts of the list that show little text: the status column (words,
// never only a colour), the sidebar badges (a count means nothing on its own) and the pager.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import { documentListMachine } from '../../machines/document-list.machine';
import { SAMPLE_PROFILE, sampleDocument, samplePage } from '../samples';
import type { DocumentPage, FetchPageInput, Profile } from '../../machines/types';
import { DocumentList } from '../../src/views/documents/document-list';
import { Sidebar } from '../../src/views/shell/sidebar';
import { isDisabled, renderView } from './render';
import { createTestShell, ShellHarness } from './shell-harness';

const WAITING = sampleDocument('d-waiting', {
  originalFilename: 'Supplier contract.pdf',
  isOwner: false,
  creatorFullName: 'Bob Builder',
  state: 'awaiting_signs',
  isSignFlow: true,
  currentUserCanSign: true,
  signedCount: 1,
  signatoryCount: 3,
});
const OWN = sampleDocument('d-own', { originalFilename: 'Lease agreement.pdf', isOwner: true });

function renderList(pages: (input: FetchPageInput) => DocumentPage) {
  const logic = documentListMachine.provide({
    actors: { fetchPage: fromPromise<DocumentPage, FetchPageInput>(async ({ input }) => pages(input)) },
  });
  renderView(<DocumentList logic={logic} category="active" />);
}

function renderSidebar(counts: Pick<Profile, 'pendingSignFlows' | 'incomingConnectionRequests'>) {
  // The session is required as the shell's Protected does, so the profile (and its counts) loads.
  const shell = createTestShell({ profile: { ...SAMPLE_PROFILE, ...counts }, requireSession: true });
  renderView(
    <ShellHarness shell={shell}>
      <Sidebar showUserMenu={false} />
    </ShellHarness>,
  );
}

describe('screen-reader names', () => {
  it('reads each row with its status in words, in the Status column', async () => {
    renderList(() => samplePage([WAITING, OWN], 1, 1));
    const grid = await screen.findByRole('grid', { name: 'Documents' });
    const headers = Array.from(grid.querySelectorAll('thead tr > *'));
    const statusColumn = headers.findIndex((header) => header.textContent === 'Status');
    expect(statusColumn).toBeGreaterThan(0);

    // A focused row is announced by its content, then its status as the row's description.
    const waiting = within(grid).getByRole('row', {
      name: /Supplier contract\.pdf/,
      description: 'Waiting for you (1/3 signed)',
    });
    // The description is the Status column's own cell, so what is heard is what the column shows.
    const cells = Array.from(waiting.querySelectorAll('td'));
    expect(cells[statusColumn]?.textContent).toBe('Waiting for you (1/3 signed)');
    const lease = within(grid).getByRole('row', { name: /Lease agreement\.pdf/, description: 'Uploaded' });
    expect(Array.from(lease.querySelectorAll('td'))[statusColumn]?.textContent).toBe('Uploaded');
  });

  it('names the badges by what they count, after the link they sit on', async () => {
    renderSidebar({ pendingSignFlows: 2, incomingConnectionRequests: 1 });
    // Seen as a number on the link, heard in words after its name.
    const todo = await screen.findByRole('link', { name: 'To Do, 2 documents to do' });
    expect(within(todo).getByText('2')).toBeVisible();
    // Named by its content, which begins with the label it shows (WCAG's label in name), not an aria-label.
    expect(todo.getAttribute('aria-label')).toBeNull();
    expect(within(todo).getByText('To Do')).toBeVisible();
    const connections = screen.getByRole('link', { name: 'Connections, 1 connection request' });
    expect(within(connections).getByText('1')).toBeVisible();
  });

  it('leaves a link without a count under its plain name', async () => {
    renderSidebar({ pendingSignFlows: 0, incomingConnectionRequests: 0 });
    // The profile has arrived once its country (GB) picks the UK support address.
    await screen.findByRole('link', { name: /support-uk@paraph\.test/ });
    expect(screen.getByRole('link', { name: 'To Do' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Connections' })).toBeVisible();
    expect(screen.queryByText('0')).toBeNull();
  });

  it('makes the pager a "Pages" landmark whose buttons say where they go and whose page is announced', async () => {
    const user = userEvent.setup();
    renderList((input) =>
      input.url?.includes('page=2') ? samplePage([OWN], 2, 2) : samplePage([WAITING], 1, 2),
    );
    const pager = await screen.findByRole('navigation', { name: 'Pages' });
    const names = within(pager)
      .getAllByRole('button')
      .map((button) => button.getAttribute('aria-label'));
    expect(names).toEqual(['First page', 'Previous page', 'Next page', 'Last page']);
    const position = within(pager).getByText('Page 1 of 2');
    expect(position.closest('[aria-live="polite"]')).not.toBeNull();

    await user.click(within(pager).getByRole('button', { name: 'Next page' }));
    // The same live region now says the new page, so a screen reader hears where the list went.
    await waitFor(() => expect(position.textContent).toBe('Page 2 of 2'));
    expect(isDisabled(within(pager).getByRole('button', { name: 'Next page' }))).toBe(true);
  });
});
