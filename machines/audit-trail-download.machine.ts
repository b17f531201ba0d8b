// The "Download audit trail" button of a document's details (everyone who sees the document). The PDF
// needs the bearer token, so it cannot be a plain link: an actor fetches it, an action saves it under
// "<name without .pdf> - audit trail.pdf". One actor per document shown; a failure says so until the
// user dismisses it or tries again.
import { assign, fromPromise, setup } from 'xstate';
import { toErrorCode } from './types.ts';

export type AuditTrailDownloadInput = { documentId: string; originalFilename: string };

export type AuditTrailDownloadContext = AuditTrailDownloadInput & { errorCode: string | null };

export type AuditTrailDownloadEvent = { type: 'download.request' } | { type: 'message.dismiss' };

/** The name the server gives the attachment, so the saved file is named the same either way. */
export function auditTrailFileName(originalFilename: string): string {
  const stem = originalFilename.replace(/\.pdf$/i, '').trim();
  return `${stem === '' ? 'document' : stem} - audit trail.pdf`;
}

const saveParams = ({ context, event }: { context: AuditTrailDownloadContext; event: { output: Blob } }) => ({
  blob: event.output,
  fileName: auditTrailFileName(context.originalFilename),
});
const codeOfError = ({ event }: { event: { error: unknown } }) => ({ code: toErrorCode(event.error) });

export const auditTrailDownloadMachine = setup({
  types: {
    context: {} as AuditTrailDownloadContext,
    events: {} as AuditTrailDownloadEvent,
    input: {} as AuditTrailDownloadInput,
    tags: {} as 'busy' | 'error',
  },
  actors: {
    fetchAuditTrail: fromPromise<Blob, { documentId: string }>(async () => {
      throw new Error('fetchAuditTrail not provided');
    }),
  },
  actions: {
    saveFile: (_, _params: { blob: Blob; fileName: string }) => {},
    rememberError: assign((_, params: { code: string }) => ({ errorCode: params.code })),
    clearError: assign({ errorCode: null }),
  },
}).createMachine({
  id: 'auditTrailDownload',
  context: ({ input }) => ({ ...input, errorCode: null }),
  initial: 'idle',
  states: {
    idle: { on: { 'download.request': 'downloading' } },
    downloading: {
      tags: ['busy'],
      entry: 'clearError',
      invoke: {
        id: 'fetchAuditTrail',
        src: 'fetchAuditTrail',
        input: ({ context }) => ({ documentId: context.documentId }),
        onDone: { target: 'idle', actions: { type: 'saveFile', params: saveParams } },
        onError: { target: 'failed', actions: { type: 'rememberError', params: codeOfError } },
      },
    },
    failed: {
      tags: ['error'],
      on: {
        'download.request': 'downloading',
        'message.dismiss': { target: 'idle', actions: 'clearError' },
      },
    },
  },
});
