// /app/download/:id (spec 000 §2, §4 "Download is offered only for signed documents"): loads the
// document, sends the browser to its signed download link, then back to the list. A document that is not
// signed, has no link or cannot be loaded goes to the list with a notice instead. Started when the route
// mounts; it ends in a final state either way.
import { assign, fromPromise, setup } from 'xstate';
import { toErrorCode, type DocumentResource } from './types.ts';

export type DownloadInput = { documentId: string };

export type DownloadContext = { documentId: string; errorCode: string | null };

/** The notice the list shows when no download started. */
export const DOWNLOAD_UNAVAILABLE = 'download_unavailable' as const;

const documentOfOutput = ({ event }: { event: { output: DocumentResource } }) => ({ document: event.output });
const urlOfOutput = ({ event }: { event: { output: DocumentResource } }) => ({
  url: event.output.attributes.pdfDownloadUrl ?? '',
});
const codeOfError = ({ event }: { event: { error: unknown } }) => ({ code: toErrorCode(event.error) });

export const downloadMachine = setup({
  types: {
    context: {} as DownloadContext,
    input: {} as DownloadInput,
    tags: {} as 'busy' | 'error',
  },
  actors: {
    fetchDocument: fromPromise<DocumentResource, { documentId: string }>(async () => {
      throw new Error('fetchDocument not provided');
    }),
  },
  actions: {
    startDownload: (_, _params: { url: string }) => {},
    goToDocuments: (_, _params: { notice: typeof DOWNLOAD_UNAVAILABLE | null }) => {},
    rememberError: assign((_, params: { code: string }) => ({ errorCode: params.code })),
  },
  guards: {
    isDownloadable: (_, params: { document: DocumentResource }) =>
      params.document.attributes.state === 'signed' && Boolean(params.document.attributes.pdfDownloadUrl),
  },
}).createMachine({
  id: 'download',
  context: ({ input }) => ({ documentId: input.documentId, errorCode: null }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'fetchDocument',
        src: 'fetchDocument',
        input: ({ context }) => ({ documentId: context.documentId }),
        onDone: [
          {
            guard: { type: 'isDownloadable', params: documentOfOutput },
            target: 'started',
            actions: [
              { type: 'startDownload', params: urlOfOutput },
              { type: 'goToDocuments', params: { notice: null } },
            ],
          },
          {
            target: 'unavailable',
            actions: [
              { type: 'rememberError', params: { code: DOWNLOAD_UNAVAILABLE } },
              { type: 'goToDocuments', params: { notice: DOWNLOAD_UNAVAILABLE } },
            ],
          },
        ],
        onError: {
          target: 'failed',
          actions: [
            { type: 'rememberError', params: codeOfError },
            { type: 'goToDocuments', params: { notice: DOWNLOAD_UNAVAILABLE } },
          ],
        },
      },
    },
    started: { type: 'final' },
    unavailable: { type: 'final', tags: ['error'] },
    failed: { type: 'final', tags: ['error'] },
  },
});
