import { createActor } from 'xstate';
import { describe, expect, it } from 'vitest';
import { documentListMachine } from '../../machines/document-list.machine';
import { sampleDocument, samplePage } from '../samples';
import type { DocumentPage, FetchPageInput } from '../../machines/types';
import { controlledPromise, flush } from './support';

async function loadedList() {
  const fetchPage = controlledPromise<DocumentPage, FetchPageInput>();
  const machine = documentListMachine.provide({ actors: { fetchPage: fetchPage.logic } });
  const actor = createActor(machine, { input: { category: 'active' } }).start();
  fetchPage.last().result.resolve(samplePage([sampleDocument('d1')], 1, 1));
  await flush();
  return { actor, fetchPage };
}

describe('document list search and sort', () => {
  it('sends nothing for a search of only spaces', async () => {
    const { actor, fetchPage } = await loadedList();
    actor.send({ type: 'search.changed', term: '    ' });
    actor.send({ type: 'search.submit' });
    expect(fetchPage.calls).toHaveLength(1);
    expect(actor.getSnapshot().matches('loaded')).toBe(true);
  });

  it('clears an applied search when the box is emptied to spaces and submitted', async () => {
    const { actor, fetchPage } = await loadedList();
    actor.send({ type: 'search.changed', term: ' lease ' });
    actor.send({ type: 'search.submit' });
    expect(fetchPage.last().input.search).toBe('lease');
    fetchPage.last().result.resolve(samplePage([sampleDocument('d1')], 1, 1));
    await flush();
    actor.send({ type: 'search.changed', term: '  ' });
    actor.send({ type: 'search.submit' });
    expect(fetchPage.calls).toHaveLength(3);
    expect(fetchPage.last().input.search).toBe('');
    expect(actor.getSnapshot().context.isSearch).toBe(false);
  });

  it('sorts by deletion date, and keeps the column when only the direction changes', async () => {
    const { actor, fetchPage } = await loadedList();
    actor.send({ type: 'sort.changed', column: 'autodeletion_at', direction: 'asc' });
    expect(fetchPage.last().input).toMatchObject({
      url: null,
      sort: { column: 'autodeletion_at', direction: 'asc' },
    });
    actor.send({ type: 'sort.changed', direction: 'desc' });
    expect(fetchPage.last().input.sort).toEqual({ column: 'autodeletion_at', direction: 'desc' });
    actor.send({ type: 'sort.changed', column: 'created_at', direction: 'asc' });
    expect(fetchPage.last().input.sort).toEqual({ column: 'created_at', direction: 'asc' });
  });
});
