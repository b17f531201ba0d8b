// The selection bar holds its place whatever is selected (the pixels are the browser journey's business:
// tests/e2e/list-stability.spec.ts): from 768 px its row is there before anything is selected, with a hint;
// on a phone it covers the toolbar, which stays in place but out of reach, until the selection is cleared.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useSearch } from 'wouter';
import { fromPromise } from 'xstate';
import { documentListMachine } from '../../machines/document-list.machine';
import { sampleDocument, samplePage } from '../samples';
import type { DocumentPage, FetchPageInput } from '../../machines/types';
import en from '../../src/i18n/en.json';
import { DocumentList } from '../../src/views/documents/document-list';
import type { DocumentListLogic } from '../../src/views/documents/list-actor';
import { navigateTo, renderView } from './render';

const PAGE = samplePage(
  [
    sampleDocument('d1', { originalFilename: 'Lease.pdf' }),
    sampleDocument('d2', { originalFilename: 'Offer.pdf' }),
  ],
  1,
  1,
);

function listLogic(): DocumentListLogic {
  return documentListMachine.provide({
    actors: { fetchPage: fromPromise<DocumentPage, FetchPageInput>(async () => PAGE) },
  });
}

function renderList(query = '') {
  return renderView(<DocumentList logic={listLogic()} category="active" query={query} />);
}

function setWidth(width: number) {
  Object.defineProperty(window, 'innerWidth', { value: width, configurable: true, writable: true });
}

afterEach(() => setWidth(1024));

describe('the selection bar from 768 px', () => {
  it.each([800, 1280])(
    'is there at %i px before anything is selected, and says what selecting does',
    async (width) => {
      setWidth(width);
      const user = userEvent.setup();
      renderList();
      await screen.findByRole('grid');
      const hint = screen.getByText(en['documents.selection.hint']);
      const bar = hint.parentElement;
      if (!bar) throw new Error('the hint has no bar');

      await user.click(screen.getByText('Lease.pdf'));

      // The same row now holds what acts on the selection, and the hint is gone.
      expect(screen.queryByText(en['documents.selection.hint'])).toBeNull();
      const clear = within(bar).getByRole('button', { name: 'Clear selection' });
      await user.click(clear);
      expect(screen.getByText(en['documents.selection.hint']).parentElement).toBe(bar);
      expect(
        screen.getAllByRole('row').filter((row) => row.getAttribute('aria-selected') === 'true'),
      ).toHaveLength(0);
    },
  );
});

describe('the selection bar on a phone', () => {
  // As the app's route does: the list gets the address's query, and a link or an upload changes it.
  function Routed({ logic }: { logic: DocumentListLogic }) {
    return <DocumentList logic={logic} category="active" query={useSearch()} />;
  }

  it('covers the toolbar while a document is selected, and gives it back when cleared', async () => {
    setWidth(375);
    const user = userEvent.setup();
    renderView(<Routed logic={listLogic()} />);
    const cards = await screen.findByRole('list', { name: 'Documents' });
    // Nothing selected: no bar, the toolbar in reach.
    expect(screen.queryByRole('button', { name: 'Clear selection' })).toBeNull();
    expect(screen.getByRole('searchbox', { name: 'Search documents' }).closest('[inert]')).toBeNull();

    navigateTo('/documents?selected=d2');
    await vi.waitFor(() =>
      expect(
        within(cards)
          .getByRole('link', { name: /Offer\.pdf/ })
          .getAttribute('aria-current'),
      ).toBe('true'),
    );
    const status = screen.getByRole('status');
    expect(within(status).getByRole('link', { name: 'Open document' }).getAttribute('href')).toBe(
      '/document/d2',
    );
    // Still laid out (so the cards below keep their place), but neither focusable nor read out.
    expect(screen.queryByRole('searchbox')).toBeNull();
    expect(screen.getByRole('searchbox', { hidden: true }).closest('[inert]')).not.toBeNull();

    await user.click(within(status).getByRole('button', { name: 'Clear selection' }));

    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.getByRole('searchbox', { name: 'Search documents' }).closest('[inert]')).toBeNull();
  });

  it('counts several selected documents over the toolbar and offers to clear them', async () => {
    setWidth(375);
    renderList('?selected=d1,d2');
    const status = await screen.findByRole('status');
    await within(status).findByText('2 documents selected');
    expect(within(status).getByRole('button', { name: 'Clear selection' }).textContent).toBe(
      'Clear selection',
    );
    expect(screen.queryByRole('searchbox')).toBeNull();
  });
});
