import { createActor, SimulatedClock } from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import { documentMachine } from '../../machines/document.machine';
import { sampleDocument } from '../samples';
import type { DocumentResource } from '../../machines/types';
import { controlledPromise, flush } from './support';

function startDocument() {
  const fetchDocument = controlledPromise<DocumentResource, { documentId: string }>();
  const goToDocuments = vi.fn();
  const machine = documentMachine.provide({
    actors: { fetchDocument: fetchDocument.logic },
    actions: { goToDocuments: () => goToDocuments() },
  });
  const clock = new SimulatedClock();
  const actor = createActor(machine, { input: { documentId: 'd1' }, clock }).start();
  const answer = async (document: DocumentResource) => {
    fetchDocument.last().result.resolve(document);
    await flush();
  };
  return { actor, clock, fetchDocument, goToDocuments, answer };
}

describe('document page', () => {
  it('loads the document of its id and is ready when there is something to show', async () => {
    const { actor, fetchDocument, answer } = startDocument();
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(fetchDocument.last().input).toEqual({ documentId: 'd1' });
    await answer(sampleDocument('d1'));
    expect(actor.getSnapshot().value).toBe('ready');
    expect(actor.getSnapshot().context.document?.id).toBe('d1');
  });

  it('reloads every 5 s while the page images are being processed', async () => {
    const { actor, clock, fetchDocument, answer } = startDocument();
    await answer(sampleDocument('d1', { processing: true, publicImagesFileUrls: [] }));
    expect(actor.getSnapshot().value).toBe('processing');
    clock.increment(4_999);
    expect(fetchDocument.calls).toHaveLength(1);
    clock.increment(1);
    expect(fetchDocument.calls).toHaveLength(2);
    await answer(sampleDocument('d1'));
    expect(actor.getSnapshot().value).toBe('ready');
    clock.increment(60_000);
    expect(fetchDocument.calls).toHaveLength(2);
  });

  it('says the viewer is unavailable when there is neither a PDF nor page images', async () => {
    const { actor, answer } = startDocument();
    await answer(sampleDocument('d1', { state: 'error', pdfUrl: null, publicImagesFileUrls: [] }));
    expect(actor.getSnapshot().value).toBe('unavailable');
  });

  it('sends the user back to the list when the document cannot be loaded', async () => {
    const { actor, fetchDocument, goToDocuments } = startDocument();
    fetchDocument.last().result.reject({ code: 'not_found', status: 404 });
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.errorCode).toBe('not_found');
    expect(goToDocuments).toHaveBeenCalledTimes(1);
  });
});
