import { createActor } from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import {
  addressOfList,
  documentListMachine,
  type DocumentListInput,
} from '../../machines/document-list.machine';
import { DEFAULT_ADDRESS, listAddressQuery, parseListAddress } from '../../machines/list-address';
import { sampleDocument, samplePage } from '../samples';
import type { DocumentPage, FetchPageInput } from '../../machines/types';
import { controlledPromise, flush } from './support';

const PAGE_1 = samplePage([sampleDocument('d1'), sampleDocument('d2'), sampleDocument('d3')], 1, 2);
const PAGE_2 = samplePage([sampleDocument('d4')], 2, 2);

function startList(input: DocumentListInput = { category: 'active' }) {
  const fetchPage = controlledPromise<DocumentPage, FetchPageInput>();
  const scrollToTop = vi.fn();
  const machine = documentListMachine.provide({
    actors: { fetchPage: fetchPage.logic },
    actions: { scrollToTop: () => scrollToTop() },
  });
  const actor = createActor(machine, { input }).start();
  const answer = async (page: DocumentPage) => {
    fetchPage.last().result.resolve(page);
    await flush();
  };
  return { actor, fetchPage, scrollToTop, answer };
}

describe('document list', () => {
  it('loads the first page of its category, newest first', async () => {
    const { actor, fetchPage, answer } = startList({ category: 'to_do' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(fetchPage.last().input).toEqual({
      category: 'to_do',
      url: null,
      page: 1,
      search: '',
      sort: { column: 'created_at', direction: 'desc' },
    });
    await answer(PAGE_1);
    expect(actor.getSnapshot().matches({ loaded: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.documents.map((document) => document.id)).toEqual(['d1', 'd2', 'd3']);
    expect(actor.getSnapshot().context.meta).toEqual(PAGE_1.meta);
  });

  it('offers only the page links that lead somewhere, and scrolls to the top on a page change', async () => {
    const { actor, fetchPage, scrollToTop, answer } = startList();
    await answer(PAGE_1);
    const snapshot = actor.getSnapshot();
    expect(snapshot.can({ type: 'page.first' })).toBe(false);
    expect(snapshot.can({ type: 'page.prev' })).toBe(false);
    expect(snapshot.can({ type: 'page.next' })).toBe(true);
    expect(snapshot.can({ type: 'page.last' })).toBe(true);

    actor.send({ type: 'page.next' });
    expect(fetchPage.last().input.url).toBe(PAGE_1.links.next);
    expect(scrollToTop).toHaveBeenCalledTimes(1);
    await answer(PAGE_2);

    const last = actor.getSnapshot();
    expect(last.can({ type: 'page.next' })).toBe(false);
    expect(last.can({ type: 'page.last' })).toBe(false);
    expect(last.can({ type: 'page.prev' })).toBe(true);
    expect(last.can({ type: 'page.first' })).toBe(true);
    actor.send({ type: 'page.first' });
    expect(fetchPage.last().input.url).toBe(PAGE_2.links.first);
    expect(scrollToTop).toHaveBeenCalledTimes(2);
  });

  it('loads the previous link when a page comes back empty beyond the last page', async () => {
    const { actor, fetchPage, answer } = startList();
    const pastLast = samplePage([], 3, 2);
    await answer(pastLast);
    expect(fetchPage.calls).toHaveLength(2);
    expect(fetchPage.last().input.url).toBe(pastLast.links.prev);
    expect(actor.getSnapshot().value).toBe('loading');
    await answer(PAGE_2);
    expect(actor.getSnapshot().matches('loaded')).toBe(true);
  });

  it('shows the empty state for a list with no documents', async () => {
    const { actor, fetchPage, answer } = startList();
    await answer(samplePage([], 1, 1));
    expect(actor.getSnapshot().value).toBe('empty');
    expect(fetchPage.calls).toHaveLength(1);
  });

  it('sends the trimmed search term and remembers that the failure came from a search', async () => {
    const { actor, fetchPage, answer } = startList();
    await answer(PAGE_1);
    actor.send({ type: 'search.changed', term: '  contract ' });
    expect(fetchPage.calls).toHaveLength(1);
    actor.send({ type: 'search.submit' });
    expect(fetchPage.last().input).toMatchObject({ search: 'contract', url: null });
    expect(actor.getSnapshot().context).toMatchObject({ search: '  contract ', appliedSearch: 'contract' });

    fetchPage.last().result.reject({ code: 'internal_error', status: 500 });
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().hasTag('error')).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ errorCode: 'internal_error', isSearch: true });

    actor.send({ type: 'search.clear' });
    expect(fetchPage.last().input.search).toBe('');
    expect(actor.getSnapshot().context.isSearch).toBe(false);
  });

  it('reloads the first page in the chosen order', async () => {
    const { actor, fetchPage, answer } = startList();
    await answer(PAGE_1);
    actor.send({ type: 'page.next' });
    await answer(PAGE_2);
    actor.send({ type: 'sort.changed', direction: 'asc' });
    expect(fetchPage.last().input).toMatchObject({
      url: null,
      sort: { column: 'created_at', direction: 'asc' },
    });
  });

  it('selects one row on a plain click and toggles rows on a Ctrl/Cmd click or a checkbox', async () => {
    const { actor, answer } = startList();
    await answer(PAGE_1);
    const selected = () => actor.getSnapshot().context.selectedIds;

    actor.send({ type: 'row.click', id: 'd1', toggle: false });
    expect(selected()).toEqual(['d1']);
    actor.send({ type: 'row.click', id: 'd2', toggle: true });
    expect(selected()).toEqual(['d1', 'd2']);
    actor.send({ type: 'row.click', id: 'd1', toggle: true });
    expect(selected()).toEqual(['d2']);
    actor.send({ type: 'row.click', id: 'd3', toggle: false });
    expect(selected()).toEqual(['d3']);
    actor.send({ type: 'row.checkbox', id: 'd1' });
    expect(selected()).toEqual(['d3', 'd1']);
    actor.send({ type: 'row.checkbox', id: 'd3' });
    expect(selected()).toEqual(['d1']);
    actor.send({ type: 'selection.all' });
    expect(selected()).toEqual(['d1', 'd2', 'd3']);
    actor.send({ type: 'selection.none' });
    expect(selected()).toEqual([]);

    expect(actor.getSnapshot().can({ type: 'row.click', id: 'gone', toggle: false })).toBe(false);
  });

  it('selects the requested document once the refreshed page arrives', async () => {
    const { actor, fetchPage, answer } = startList();
    await answer(PAGE_1);
    actor.send({ type: 'row.click', id: 'd1', toggle: false });
    actor.send({ type: 'list.refresh', selectId: 'd-new' });
    expect(fetchPage.calls).toHaveLength(2);
    await answer(samplePage([sampleDocument('d-new'), sampleDocument('d1')], 1, 1));
    expect(actor.getSnapshot().context.selectedIds).toEqual(['d-new']);
    expect(actor.getSnapshot().context.pendingSelectId).toBeNull();
  });

  it('selects the documents named by its address after the first load, if they are listed', async () => {
    const { actor, answer } = startList({
      category: 'active',
      address: { ...DEFAULT_ADDRESS, selectedIds: ['d2', 'd-elsewhere'] },
    });
    await answer(PAGE_1);
    expect(actor.getSnapshot().context.selectedIds).toEqual(['d2']);
  });

  it('opens at the page, search and sort of its address, and answers the same address', async () => {
    const address = parseListAddress('?search=lease&sort=created_at.asc&page=2&selected=d4');
    const { actor, fetchPage, answer } = startList({ category: 'active', address });
    expect(fetchPage.last().input).toEqual({
      category: 'active',
      url: null,
      page: 2,
      search: 'lease',
      sort: { column: 'created_at', direction: 'asc' },
    });
    expect(actor.getSnapshot().context.search).toBe('lease');
    await answer(PAGE_2);
    expect(actor.getSnapshot().context.selectedIds).toEqual(['d4']);
    expect(listAddressQuery(addressOfList(actor.getSnapshot().context))).toBe(
      '?search=lease&sort=created_at.asc&page=2&selected=d4',
    );
  });

  it('says in its address where the person went: the next page, a search from page 1, the selection', async () => {
    const { actor, answer } = startList();
    await answer(PAGE_1);
    const query = () => listAddressQuery(addressOfList(actor.getSnapshot().context));
    expect(query()).toBe('');
    actor.send({ type: 'page.next' });
    await answer(PAGE_2);
    actor.send({ type: 'row.checkbox', id: 'd4' });
    expect(query()).toBe('?page=2&selected=d4');
    actor.send({ type: 'search.changed', term: ' nda ' });
    actor.send({ type: 'search.submit' });
    // Until the first page of the search arrives the address already says page 1.
    expect(query()).toBe('?search=nda&selected=d4');
    await answer(samplePage([sampleDocument('d4')], 1, 1));
    expect(query()).toBe('?search=nda&selected=d4');
  });

  it('goes to another address of the list when asked: its page, search and selection', async () => {
    const { actor, fetchPage, answer } = startList();
    await answer(PAGE_1);
    actor.send({ type: 'address.changed', address: parseListAddress('?selected=d-new') });
    expect(fetchPage.last().input).toMatchObject({ url: null, page: 1, search: '' });
    await answer(samplePage([sampleDocument('d-new'), sampleDocument('d1')], 1, 1));
    expect(actor.getSnapshot().context.selectedIds).toEqual(['d-new']);
  });

  it('drops selected rows that are no longer listed after a reload', async () => {
    const { actor, answer } = startList();
    await answer(PAGE_1);
    actor.send({ type: 'selection.all' });
    actor.send({ type: 'list.refresh' });
    await answer(samplePage([sampleDocument('d2')], 1, 1));
    expect(actor.getSnapshot().context.selectedIds).toEqual(['d2']);
  });
});
