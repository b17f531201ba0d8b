// The document page (/app/document/:id): loads the document, waits while its page images are being
// rendered (reloading every 5 s), and says whether the viewer has anything to show. Started when the page
// mounts with the document id, stopped when it unmounts; a load failure sends the user back to the list.
import { assign, fromPromise, setup } from 'xstate';
import { toErrorCode, type DocumentResource } from './types.ts';

export type DocumentInput = { documentId: string };

export type DocumentContext = {
  documentId: string;
  document: DocumentResource | null;
  errorCode: string | null;
};

export type DocumentEvent = { type: 'document.reload' };

export const PROCESSING_POLL_MS = 5_000;

function fetchDocumentInput({ context }: { context: DocumentContext }): DocumentInput {
  return { documentId: context.documentId };
}

/** A document the viewer can show: rendered, with its PDF or its page images. */
export function hasSomethingToShow(document: DocumentResource | null): boolean {
  if (!document || document.attributes.processing) return false;
  return Boolean(document.attributes.pdfUrl) || document.attributes.publicImagesFileUrls.length > 0;
}

const documentOfOutput = ({ event }: { event: { output: DocumentResource } }) => ({ document: event.output });
const codeOfError = ({ event }: { event: { error: unknown } }) => ({ code: toErrorCode(event.error) });

export const documentMachine = setup({
  types: {
    context: {} as DocumentContext,
    events: {} as DocumentEvent,
    input: {} as DocumentInput,
    tags: {} as 'busy' | 'error',
  },
  actors: {
    fetchDocument: fromPromise<DocumentResource, DocumentInput>(async () => {
      throw new Error('fetchDocument not provided');
    }),
  },
  actions: {
    goToDocuments: () => {},
    keepDocument: assign((_, params: { document: DocumentResource }) => ({
      document: params.document,
      errorCode: null,
    })),
    rememberError: assign((_, params: { code: string }) => ({ errorCode: params.code })),
  },
  guards: {
    isProcessing: (_, params: { document: DocumentResource }) => params.document.attributes.processing,
    // Checked after isProcessing: a processed document with neither a PDF nor page images.
    hasNothingToShow: (_, params: { document: DocumentResource }) => !hasSomethingToShow(params.document),
  },
  delays: { PROCESSING_POLL: PROCESSING_POLL_MS },
}).createMachine({
  id: 'document',
  context: ({ input }) => ({ documentId: input.documentId, document: null, errorCode: null }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'fetchDocument',
        src: 'fetchDocument',
        input: fetchDocumentInput,
        onDone: [
          {
            guard: { type: 'isProcessing', params: documentOfOutput },
            target: 'processing',
            actions: { type: 'keepDocument', params: documentOfOutput },
          },
          {
            guard: { type: 'hasNothingToShow', params: documentOfOutput },
            target: 'unavailable',
            actions: { type: 'keepDocument', params: documentOfOutput },
          },
          { target: 'ready', actions: { type: 'keepDocument', params: documentOfOutput } },
        ],
        onError: {
          target: 'failed',
          actions: [{ type: 'rememberError', params: codeOfError }, 'goToDocuments'],
        },
      },
    },
    processing: {
      after: { PROCESSING_POLL: 'loading' },
      on: { 'document.reload': 'loading' },
    },
    ready: {
      on: { 'document.reload': 'loading' },
    },
    unavailable: {
      on: { 'document.reload': 'loading' },
    },
    failed: { tags: ['error'] },
  },
});
