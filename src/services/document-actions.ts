// The document-actions machine's real actors: one typed call per operation of openapi.yaml. Response
// bodies are not read (spec 000 §7: not shown); the list reloads after each success instead.
import { fromPromise } from 'xstate';
import type { DocumentsInput, OneDocumentInput, RefuseInput } from '../../machines/document-actions.machine';
import { api, unwrap } from '../api/client';

const onePath = (input: OneDocumentInput) => ({ path: { id: input.documentId } });

export const archiveDocument = fromPromise<void, OneDocumentInput>(async ({ input, signal }) => {
  await unwrap(api.PATCH('/documents/{id}/archive', { params: onePath(input), signal }));
});

export const archiveDocuments = fromPromise<void, DocumentsInput>(async ({ input, signal }) => {
  await unwrap(api.PATCH('/documents/archive', { body: { id: input.documentIds }, signal }));
});

// The server cancels a running sign flow before deleting (spec 000 §4), in the same call.
export const deleteDocument = fromPromise<void, OneDocumentInput>(async ({ input, signal }) => {
  await unwrap(api.DELETE('/documents/{id}', { params: onePath(input), signal }));
});

export const deleteDocuments = fromPromise<void, DocumentsInput>(async ({ input, signal }) => {
  await unwrap(api.DELETE('/documents', { body: { id: input.documentIds }, signal }));
});

export const refuseSignFlow = fromPromise<void, RefuseInput>(async ({ input, signal }) => {
  const reason = input.reason.trim();
  await unwrap(
    api.PATCH('/documents/{id}/refuse_sign_flow', {
      params: { path: { id: input.documentId } },
      body: reason ? { reason } : {},
      signal,
    }),
  );
});

export const approveDocument = fromPromise<void, OneDocumentInput>(async ({ input, signal }) => {
  await unwrap(api.PATCH('/documents/{id}/approve', { params: onePath(input), signal }));
});

export const rejectDocument = fromPromise<void, OneDocumentInput>(async ({ input, signal }) => {
  await unwrap(api.PATCH('/documents/{id}/reject', { params: onePath(input), signal }));
});

export const cancelSignFlow = fromPromise<void, OneDocumentInput>(async ({ input, signal }) => {
  await unwrap(api.DELETE('/documents/{id}/sign_flow', { params: onePath(input), signal }));
});

/** Hands a signed link to the browser; the server's Content-Disposition makes it a download. */
export type StartDownload = (url: string, isOnlyOne: boolean) => void;

// A single download navigates (the page stays: the answer is an attachment). Several go through hidden
// links one after another, since a second navigation would cancel the first.
const startDownload: StartDownload = (url, isOnlyOne) => {
  if (isOnlyOne) {
    window.location.assign(url);
    return;
  }
  const link = document.createElement('a');
  link.href = url;
  link.download = '';
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
};

const BETWEEN_DOWNLOADS_MS = 400;
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Fetches each document for a fresh signed link (they last 15 minutes) and downloads it. A document that
 * fails is logged and skipped (spec 000 §8); the actor rejects only when none could be downloaded.
 */
export function downloadDocumentsWith(start: StartDownload) {
  return fromPromise<void, DocumentsInput>(async ({ input, signal }) => {
    const isOnlyOne = input.documentIds.length === 1;
    let failures = 0;
    let lastError: unknown = null;
    for (const [index, id] of input.documentIds.entries()) {
      if (index > 0) await pause(BETWEEN_DOWNLOADS_MS);
      try {
        const { data } = await unwrap(api.GET('/documents/{id}', { params: { path: { id } }, signal }));
        const url = data.attributes.pdfDownloadUrl;
        if (!url) throw new Error('the document has no signed download link');
        start(url, isOnlyOne);
      } catch (error) {
        failures += 1;
        lastError = error;
        // Only the document id and the error code: a signed link must never reach a log.
        console.warn('download failed', id, error instanceof Error ? error.name : 'error');
      }
    }
    if (failures > 0 && failures === input.documentIds.length) throw lastError;
  });
}

export const downloadDocuments = downloadDocumentsWith(startDownload);
