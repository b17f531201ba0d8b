// One upload, spec 000 §4 "Upload": waiting for one PDF, uploading it (presigned POST to the store with
// progress 0-100, then POST /documents), finished or error. Started when the documentUpload modal opens,
// stopped when it closes; it ends by itself 3 s after finishing, or silently when the user cancels.
// A file larger than the ticket's maxFileSize never reaches the store: the store would take it in full
// only to refuse it. An empty file or one that is not a PDF is refused before any call. When the file
// itself is refused, by this machine, the store or the API, retrying it could never help, so retry then
// means choosing another.
import { assign, fromCallback, fromPromise, setup } from 'xstate';
import {
  toErrorCode,
  type CreateDocumentInput,
  type SelectedFile,
  type SendToStorageInput,
  type UploadTicket,
} from './types.ts';

export type UploadContext = {
  file: SelectedFile | null;
  progress: number;
  ticket: UploadTicket | null;
  documentId: string | null;
  errorCode: string | null;
  /** The size limit of the last ticket, in bytes; the view names it when a file is too large. */
  maxFileSize: number | null;
};

export type UploadEvent =
  | { type: 'file.selected'; files: SelectedFile[] }
  | { type: 'upload.progress'; percent: number }
  | { type: 'upload.stored' }
  | { type: 'upload.failed'; code: string }
  | { type: 'upload.retry' }
  | { type: 'upload.cancel' };

/** What sendToStorage sends back to the machine. */
export type StorageEvent = Extract<
  UploadEvent,
  { type: 'upload.progress' | 'upload.stored' | 'upload.failed' }
>;

/** The error code of a file over the size limit, whoever noticed it (this machine, the store, the API). */
export const FILE_TOO_LARGE = 'file_too_large';
/** The error code of a file of 0 bytes, whoever noticed it (this machine, the store, the API). */
export const EMPTY_FILE = 'empty_file';

/**
 * Refusals of the file itself: the same file would be refused again, so the person has to change it or
 * choose another. The API's 422 codes of createDocument, and this machine's own checks.
 */
export const FILE_REFUSALS: ReadonlySet<string> = new Set([
  FILE_TOO_LARGE,
  EMPTY_FILE,
  'not_a_pdf',
  'encrypted_pdf',
  'too_many_pages',
]);

export const LIST_REFRESH_MS = 1_000;
export const MODAL_CLOSE_MS = 3_000;

// The spec accepts application/pdf only: a '.pdf' name with another or an empty type is refused.
function isPdfFile(file: unknown): boolean {
  if (typeof file !== 'object' || file === null || Array.isArray(file)) return false;
  const { name, type, size } = file as Record<string, unknown>;
  return typeof name === 'string' && type === 'application/pdf' && Number.isFinite(size);
}

function isOnePdf(files: unknown): boolean {
  return Array.isArray(files) && files.length === 1 && isPdfFile(files[0]);
}

// The store's policy starts at 1 byte and the API refuses an empty file anyway: no call can help it.
function isOneNonEmptyPdf(files: SelectedFile[]): boolean {
  return isOnePdf(files) && (files[0]?.size ?? 0) > 0;
}

/** Where the store keeps the object: the presigned POST url joined with the key. */
export function storedFileUrl(ticket: UploadTicket): string {
  return `${ticket.url.replace(/\/+$/, '')}/${ticket.key}`;
}

/** Progress never goes back and stays within 0-100, whatever the transport reports. */
export function nextProgress(current: number, reported: number): number {
  const clamped = Number.isFinite(reported) ? Math.min(100, Math.max(0, reported)) : current;
  return Math.max(current, Math.round(clamped));
}

const filesOfEvent = ({ event }: { event: { files: SelectedFile[] } }) => ({ files: event.files });
const firstFileOfEvent = ({ event }: { event: { files: SelectedFile[] } }) => ({
  file: event.files[0] ?? null,
});
const percentOfEvent = ({ event }: { event: { percent: number } }) => ({ percent: event.percent });
const codeOfEvent = ({ event }: { event: { code: string } }) => ({ code: event.code });
const codeOfError = ({ event }: { event: { error: unknown } }) => ({ code: toErrorCode(event.error) });
const ticketOfOutput = ({ event }: { event: { output: UploadTicket } }) => ({ ticket: event.output });
const sizeOfOutput = ({ context, event }: { context: UploadContext; event: { output: UploadTicket } }) => ({
  size: context.file?.size ?? Number.POSITIVE_INFINITY,
  maxFileSize: event.output.maxFileSize,
});
const limitOfOutput = ({ event }: { event: { output: UploadTicket } }) => ({
  maxFileSize: event.output.maxFileSize,
});
const codeOfContext = ({ context }: { context: UploadContext }) => ({ code: context.errorCode });
const documentOfOutput = ({ event }: { event: { output: { id: string } } }) => ({
  documentId: event.output.id,
});
const documentOfContext = ({ context }: { context: UploadContext }) => ({
  documentId: context.documentId ?? '',
});

function sendToStorageInput({ context }: { context: UploadContext }): SendToStorageInput {
  if (!context.ticket || !context.file) throw new Error('sendToStorage needs a ticket and a file');
  return { ticket: context.ticket, file: context.file };
}

function createDocumentInput({ context }: { context: UploadContext }): CreateDocumentInput {
  if (!context.ticket || !context.file) throw new Error('createDocument needs a ticket and a file');
  return {
    originalFilename: context.file.name,
    fileUrl: storedFileUrl(context.ticket),
    filename: context.ticket.key,
  };
}

export const uploadMachine = setup({
  types: {
    context: {} as UploadContext,
    events: {} as UploadEvent,
    tags: {} as 'busy' | 'error',
  },
  actors: {
    requestUpload: fromPromise<UploadTicket>(async () => {
      throw new Error('requestUpload not provided');
    }),
    // Reports upload.progress, then upload.stored or upload.failed; its cleanup aborts the POST.
    sendToStorage: fromCallback<StorageEvent, SendToStorageInput>(() => {
      throw new Error('sendToStorage not provided');
    }),
    createDocument: fromPromise<{ id: string }, CreateDocumentInput>(async () => {
      throw new Error('createDocument not provided');
    }),
  },
  actions: {
    showDocument: (_, _params: { documentId: string }) => {},
    refreshList: (_, _params: { documentId: string }) => {},
    closeModal: () => {},
    keepFile: assign((_, params: { file: SelectedFile | null }) => ({
      file: params.file,
      progress: 0,
      ticket: null,
      errorCode: null,
    })),
    restart: assign({ progress: 0, ticket: null, errorCode: null }),
    forgetFile: assign({ file: null, progress: 0, ticket: null, errorCode: null }),
    // The refused file is kept so that the message can name it; several files have no one name.
    rejectSelection: assign(
      (_, params: { code: 'not_pdf' | 'one_file_only' | typeof EMPTY_FILE; files: SelectedFile[] }) => ({
        file: params.files.length === 1 ? (params.files[0] ?? null) : null,
        errorCode: params.code,
      }),
    ),
    keepTicket: assign((_, params: { ticket: UploadTicket }) => ({
      ticket: params.ticket,
      maxFileSize: params.ticket.maxFileSize,
    })),
    refuseTooLarge: assign((_, params: { maxFileSize: number }) => ({
      errorCode: FILE_TOO_LARGE,
      maxFileSize: params.maxFileSize,
    })),
    keepProgress: assign(({ context }, params: { percent: number }) => ({
      progress: nextProgress(context.progress, params.percent),
    })),
    completeProgress: assign({ progress: 100 }),
    keepDocument: assign((_, params: { documentId: string }) => ({ documentId: params.documentId })),
    rememberError: assign((_, params: { code: string }) => ({ errorCode: params.code })),
  },
  guards: {
    isOneNonEmptyPdf: (_, params: { files: SelectedFile[] }) => isOneNonEmptyPdf(params.files),
    isOnePdf: (_, params: { files: SelectedFile[] }) => isOnePdf(params.files),
    hasSeveralFiles: (_, params: { files: SelectedFile[] }) => params.files.length > 1,
    hasOneFile: (_, params: { files: SelectedFile[] }) => params.files.length === 1,
    // A limit that is not a number refuses every file rather than letting the store cut it off.
    isWithinSizeLimit: (_, params: { size: number; maxFileSize: number }) =>
      params.size <= params.maxFileSize,
    isFileRefusal: (_, params: { code: string | null }) =>
      params.code !== null && FILE_REFUSALS.has(params.code),
  },
  delays: { LIST_REFRESH: LIST_REFRESH_MS, MODAL_CLOSE: MODAL_CLOSE_MS },
}).createMachine({
  id: 'upload',
  context: {
    file: null,
    progress: 0,
    ticket: null,
    documentId: null,
    errorCode: null,
    maxFileSize: null,
  },
  initial: 'waiting',
  states: {
    waiting: {
      initial: 'idle',
      on: {
        // An empty selection (a dialog closed without a choice) matches no guard and changes nothing.
        'file.selected': [
          {
            guard: { type: 'isOneNonEmptyPdf', params: filesOfEvent },
            target: 'uploading',
            actions: { type: 'keepFile', params: firstFileOfEvent },
          },
          {
            guard: { type: 'isOnePdf', params: filesOfEvent },
            target: '.rejected',
            actions: {
              type: 'rejectSelection',
              params: ({ event }) => ({ code: EMPTY_FILE, files: event.files }),
            },
          },
          {
            guard: { type: 'hasSeveralFiles', params: filesOfEvent },
            target: '.rejected',
            actions: {
              type: 'rejectSelection',
              params: ({ event }) => ({ code: 'one_file_only', files: event.files }),
            },
          },
          {
            guard: { type: 'hasOneFile', params: filesOfEvent },
            target: '.rejected',
            actions: {
              type: 'rejectSelection',
              params: ({ event }) => ({ code: 'not_pdf', files: event.files }),
            },
          },
        ],
        'upload.cancel': { target: 'cancelled', actions: 'closeModal' },
      },
      states: {
        idle: {},
        rejected: { tags: ['error'] },
      },
    },
    uploading: {
      tags: ['busy'],
      initial: 'requesting',
      on: {
        // Leaving the state stops the running actor, which aborts its request.
        'upload.cancel': { target: 'cancelled', actions: 'closeModal' },
      },
      states: {
        requesting: {
          invoke: {
            id: 'requestUpload',
            src: 'requestUpload',
            onDone: [
              {
                guard: { type: 'isWithinSizeLimit', params: sizeOfOutput },
                target: 'sending',
                actions: { type: 'keepTicket', params: ticketOfOutput },
              },
              {
                target: '#upload.error',
                actions: { type: 'refuseTooLarge', params: limitOfOutput },
              },
            ],
            onError: { target: '#upload.error', actions: { type: 'rememberError', params: codeOfError } },
          },
        },
        sending: {
          invoke: {
            id: 'sendToStorage',
            src: 'sendToStorage',
            input: sendToStorageInput,
            onError: {
              target: '#upload.error',
              actions: { type: 'rememberError', params: { code: 'storage' } },
            },
          },
          on: {
            'upload.progress': { actions: { type: 'keepProgress', params: percentOfEvent } },
            'upload.stored': { target: 'creating', actions: 'completeProgress' },
            'upload.failed': {
              target: '#upload.error',
              actions: { type: 'rememberError', params: codeOfEvent },
            },
          },
        },
        creating: {
          invoke: {
            id: 'createDocument',
            src: 'createDocument',
            input: createDocumentInput,
            onDone: {
              target: '#upload.finished',
              actions: { type: 'keepDocument', params: documentOfOutput },
            },
            onError: { target: '#upload.error', actions: { type: 'rememberError', params: codeOfError } },
          },
        },
      },
    },
    finished: {
      entry: { type: 'showDocument', params: documentOfContext },
      after: {
        LIST_REFRESH: { actions: { type: 'refreshList', params: documentOfContext } },
        MODAL_CLOSE: { target: 'closed', actions: 'closeModal' },
      },
    },
    error: {
      tags: ['error'],
      on: {
        // The same file would be refused again: retrying a refused file means choosing another.
        'upload.retry': [
          {
            guard: { type: 'isFileRefusal', params: codeOfContext },
            target: 'waiting',
            actions: 'forgetFile',
          },
          { target: 'uploading', actions: 'restart' },
        ],
        'upload.cancel': { target: 'cancelled', actions: 'closeModal' },
      },
    },
    cancelled: { type: 'final' },
    closed: { type: 'final' },
  },
});
