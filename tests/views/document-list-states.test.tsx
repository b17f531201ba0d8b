// Every state of a document list screen (spec 000 §2, §4 "List loading"), from the user's side.
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import { documentListMachine } from '../../machines/document-list.machine';
import { sampleDocument, samplePage } from '../samples';
import { DOCUMENT_CATEGORIES, type DocumentPage, type FetchPageInput } from '../../machines/types';
import { ApiError } from '../../src/api/errors';
import { DocumentList } from '../../src/views/documents/document-list';
import en from '../../src/i18n/en.json';
import { renderView } from './render';
import { createTestShell, ShellHarness } from './shell-harness';

const DOCUMENTS = [sampleDocument('d1'), sampleDocument('d2'), sampleDocument('d3')];

function listWith(fetch: (input: FetchPageInput) => Promise<DocumentPage>) {
  const fetchPage = vi.fn(fetch);
  const logic = documentListMachine.provide({
    actors: { fetchPage: fromPromise<DocumentPage, FetchPageInput>(({ input }) => fetchPage(input)) },
  });
  return { logic, fetchPage };
}

function withAutodelete(page: DocumentPage): DocumentPage {
  return { ...page, meta: { ...page.meta, showAutodeleteDate: true } };
}

function setWidth(width: number) {
  Object.defineProperty(window, 'innerWidth', { value: width, configurable: true, writable: true });
}

afterEach(() => {
  setWidth(1024);
});

describe('document list states', () => {
  it('shows the loading state until the first page arrives, then the rows', async () => {
    let answer: (page: DocumentPage) => void = () => {};
    const { logic } = listWith(() => new Promise((resolve) => (answer = resolve)));
    renderView(<DocumentList logic={logic} category="active" />);
    expect(screen.getByText('Loading documents')).toBeVisible();
    expect(screen.queryByRole('grid')).toBeNull();
    act(() => answer(samplePage(DOCUMENTS, 1, 1)));
    const grid = await screen.findByRole('grid', { name: 'Documents' });
    expect(within(grid).getAllByRole('row')).toHaveLength(4);
    expect(screen.queryByText('Loading documents')).toBeNull();
  });

  it.each(DOCUMENT_CATEGORIES)('shows the empty text of the %s list', async (category) => {
    const { logic } = listWith(async () => samplePage([], 1, 1));
    renderView(<DocumentList logic={logic} category={category} />);
    expect(await screen.findByText(en[`documents.empty.${category}`])).toBeVisible();
    expect(screen.queryByRole('grid')).toBeNull();
  });

  it('shows the empty text of a search, with the term', async () => {
    const { logic } = listWith(async (input) =>
      input.search ? samplePage([], 1, 1) : samplePage(DOCUMENTS, 1, 1),
    );
    const user = userEvent.setup();
    renderView(<DocumentList logic={logic} category="done" />);
    await screen.findByRole('grid');
    await user.type(screen.getByRole('searchbox', { name: 'Search documents' }), 'invoice');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('No documents match “invoice”.')).toBeVisible();
    expect(screen.queryByText(en['documents.empty.done'])).toBeNull();
  });

  it('shows the load error, and loads again from its retry button', async () => {
    let fails = true;
    const { logic, fetchPage } = listWith(async () => {
      if (fails) throw new ApiError({ code: 'internal_error', status: 500 });
      return samplePage(DOCUMENTS, 1, 1);
    });
    const user = userEvent.setup();
    renderView(<DocumentList logic={logic} category="active" />);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Documents could not be loaded')).toBeVisible();
    fails = false;
    await user.click(within(alert).getByRole('button'));
    expect(within(await screen.findByRole('grid')).getAllByRole('row')).toHaveLength(4);
    expect(fetchPage).toHaveBeenCalledTimes(2);
  });

  it('shows the search error, not the load error, when a search fails', async () => {
    const { logic } = listWith(async (input) => {
      if (input.search) throw new ApiError({ code: 'internal_error', status: 500 });
      return samplePage(DOCUMENTS, 1, 1);
    });
    const user = userEvent.setup();
    renderView(<DocumentList logic={logic} category="active" />);
    await screen.findByRole('grid');
    await user.type(screen.getByRole('searchbox', { name: 'Search documents' }), 'x');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('An error occured during searching')).toBeVisible();
    expect(within(alert).queryByText('Documents could not be loaded')).toBeNull();
  });

  it('follows the previous link when a page beyond the last comes back empty', async () => {
    const { logic, fetchPage } = listWith(async (input) => {
      if (input.url?.includes('page=3')) return samplePage([], 3, 2);
      if (input.url?.includes('page=2')) return samplePage([sampleDocument('d9')], 2, 2);
      return samplePage(DOCUMENTS, 1, 3);
    });
    const user = userEvent.setup();
    renderView(<DocumentList logic={logic} category="active" />);
    await screen.findByText('Page 1 of 3');
    await user.click(screen.getByRole('button', { name: 'Last page' }));
    expect(await screen.findByText('Page 2 of 2')).toBeVisible();
    expect(screen.getByText('d9.pdf')).toBeVisible();
    expect(fetchPage.mock.calls.map(([input]) => input.url?.match(/page=\d/)?.[0] ?? 'first')).toEqual([
      'first',
      'page=3',
      'page=2',
    ]);
  });

  it('sends nothing for a search of only spaces', async () => {
    const { logic, fetchPage } = listWith(async () => samplePage(DOCUMENTS, 1, 1));
    const user = userEvent.setup();
    renderView(<DocumentList logic={logic} category="active" />);
    await screen.findByRole('grid');
    await user.type(screen.getByRole('searchbox', { name: 'Search documents' }), '   ');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(fetchPage).toHaveBeenCalledTimes(1);
    // The list stays as it was: the header and the three documents.
    expect(within(screen.getByRole('grid')).getAllByRole('row')).toHaveLength(4);
  });

  it('offers the deletion date sort and column only when the list shows auto-deletion dates', async () => {
    const { logic, fetchPage } = listWith(async () => withAutodelete(samplePage(DOCUMENTS, 1, 1)));
    const user = userEvent.setup();
    renderView(<DocumentList logic={logic} category="active" />);
    await screen.findByRole('grid');
    expect(screen.getByRole('columnheader', { name: 'Deleted on' })).toBeVisible();
    const sort = screen.getByRole('combobox', { name: 'Sort' });
    await user.selectOptions(sort, 'Deletion date');
    await waitFor(() => expect(fetchPage).toHaveBeenCalledTimes(2));
    expect(fetchPage.mock.calls[1]?.[0].sort).toEqual({ column: 'autodeletion_at', direction: 'asc' });
  });

  it('offers neither the deletion date sort nor its column otherwise', async () => {
    const { logic } = listWith(async () => samplePage(DOCUMENTS, 1, 1));
    renderView(<DocumentList logic={logic} category="active" />);
    await screen.findByRole('grid');
    expect(screen.queryByRole('columnheader', { name: 'Deleted on' })).toBeNull();
    const options = within(screen.getByRole('combobox', { name: 'Sort' })).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['Newest first', 'Oldest first']);
  });

  it('animates rows in 60 ms apart, and not at all under reduced motion', async () => {
    const { logic } = listWith(async () => samplePage(DOCUMENTS, 1, 1));
    renderView(<DocumentList logic={logic} category="active" />);
    const grid = await screen.findByRole('grid');
    const rows = within(grid).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.style.animationDelay)).toEqual(['0ms', '60ms', '120ms']);
    const rules = Array.from(document.styleSheets).flatMap((sheet) =>
      Array.from(sheet.cssRules).map((rule) => rule.cssText),
    );
    const reduced = rules.filter((rule) => rule.includes('prefers-reduced-motion: reduce'));
    expect(reduced.some((rule) => /animation-name:\s*none/.test(rule))).toBe(true);
  });

  it('on a phone, lists cards that open the details page and shows no side panel', async () => {
    setWidth(375);
    const { logic } = listWith(async () => samplePage(DOCUMENTS, 1, 1));
    renderView(<DocumentList logic={logic} category="active" />);
    const cards = await screen.findByRole('list', { name: 'Documents' });
    const link = within(cards).getByRole('link', { name: /d2\.pdf/ });
    expect(link.getAttribute('href')).toBe('/document/details/d2');
    expect(screen.queryByRole('complementary', { name: 'Document details' })).toBeNull();
  });

  it('shows the details panel beside the list from 768 px', async () => {
    setWidth(800);
    const { logic } = listWith(async () => samplePage(DOCUMENTS, 1, 1));
    renderView(<DocumentList logic={logic} category="active" />);
    await screen.findByRole('grid');
    const panel = await screen.findByRole('complementary', { name: 'Document details' });
    expect(within(panel).getByText('Select a document to see its details.')).toBeVisible();
  });

  it('shows a notice left by the download route until it is dismissed', async () => {
    const shell = createTestShell();
    shell.send({ type: 'notice.show', code: 'download_unavailable' });
    const { logic } = listWith(async () => samplePage(DOCUMENTS, 1, 1));
    const user = userEvent.setup();
    renderView(
      <ShellHarness shell={shell}>
        <DocumentList logic={logic} category="active" />
      </ShellHarness>,
    );
    expect(screen.getByText(en['documents.notice.download_unavailable'])).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText(en['documents.notice.download_unavailable'])).toBeNull();
    expect(shell.getSnapshot().context.notice).toBeNull();
  });
});
