import { createActor } from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import { DOWNLOAD_UNAVAILABLE, downloadMachine } from '../../machines/download.machine';
import { sampleDocument } from '../samples';
import type { DocumentResource } from '../../machines/types';
import { controlledPromise, flush } from './support';

function startDownloadPage() {
  const fetchDocument = controlledPromise<DocumentResource, { documentId: string }>();
  const startDownload = vi.fn();
  const goToDocuments = vi.fn();
  const machine = downloadMachine.provide({
    actors: { fetchDocument: fetchDocument.logic },
    actions: {
      startDownload: (_, params) => startDownload(params.url),
      goToDocuments: (_, params) => goToDocuments(params.notice),
    },
  });
  const actor = createActor(machine, { input: { documentId: 'd1' } }).start();
  return { actor, fetchDocument, startDownload, goToDocuments };
}

describe('download', () => {
  it('sends the browser to the signed download link, then to the list', async () => {
    const { actor, fetchDocument, startDownload, goToDocuments } = startDownloadPage();
    expect(fetchDocument.last().input).toEqual({ documentId: 'd1' });
    fetchDocument
      .last()
      .result.resolve(
        sampleDocument('d1', { state: 'signed', pdfDownloadUrl: 'http://localhost/s/d1.pdf?sig=1' }),
      );
    await flush();
    expect(startDownload).toHaveBeenCalledWith('http://localhost/s/d1.pdf?sig=1');
    expect(goToDocuments).toHaveBeenCalledWith(null);
    expect(actor.getSnapshot().status).toBe('done');
  });

  it.each([
    ['not signed', sampleDocument('d1', { state: 'awaiting_signs', pdfDownloadUrl: 'http://localhost/x' })],
    ['signed without a link', sampleDocument('d1', { state: 'signed', pdfDownloadUrl: null })],
  ])('goes to the list with a notice for a document %s', async (_, document) => {
    const { actor, fetchDocument, startDownload, goToDocuments } = startDownloadPage();
    fetchDocument.last().result.resolve(document);
    await flush();
    expect(startDownload).not.toHaveBeenCalled();
    expect(goToDocuments).toHaveBeenCalledWith(DOWNLOAD_UNAVAILABLE);
    expect(actor.getSnapshot().value).toBe('unavailable');
  });

  it('goes to the list with a notice when the document cannot be loaded', async () => {
    const { actor, fetchDocument, startDownload, goToDocuments } = startDownloadPage();
    fetchDocument.last().result.reject({ code: 'not_found', status: 404 });
    await flush();
    expect(startDownload).not.toHaveBeenCalled();
    expect(goToDocuments).toHaveBeenCalledWith(DOWNLOAD_UNAVAILABLE);
    expect(actor.getSnapshot().context.errorCode).toBe('not_found');
  });
});
