// Verifying a signed PDF at /app/verify, for anyone, signed in or not: waiting for one PDF (chosen or
// dropped), uploading it to POST /verifications, then its report, or an error. From a report or an error
// another file can be chosen (at once, or back at the drop zone); retry sends the same file again, unless
// the file itself was refused (not a PDF, too large, encrypted, ...), where only another file can help.
// Started by the page, stopped when the page goes; leaving `uploading` aborts the call.
import { assign, fromPromise, setup } from 'xstate';
import type { components } from '../openapi/schema';
import { toErrorCode, type SelectedFile } from './types.ts';

export type VerificationReport = components['schemas']['VerificationReport'];
export type VerificationSignature = components['schemas']['VerificationSignature'];

export type VerificationContext = {
  file: SelectedFile | null;
  report: VerificationReport | null;
  errorCode: string | null;
};

export type VerificationEvent =
  | { type: 'file.selected'; files: SelectedFile[] }
  | { type: 'verification.retry' }
  | { type: 'verification.reset' };

/** Refusals of the file itself: sending it again would be refused again. */
export const VERIFICATION_FILE_REFUSALS: ReadonlySet<string> = new Set([
  'not_pdf',
  'one_file_only',
  'empty_file',
  'not_a_pdf',
  'encrypted_pdf',
  'file_too_large',
  'pdf_unreadable',
  'pdf_too_complex',
]);

// The picker offers PDFs; a dropped file may be anything. A .pdf name is enough when the browser gives no
// type (some do for dragged files): the server has the last word on what the bytes are.
function isPdf(file: SelectedFile): boolean {
  return file.type === 'application/pdf' || (file.type === '' && /\.pdf$/i.test(file.name));
}

type Refusal = { code: 'not_pdf' | 'one_file_only' | 'empty_file'; file: SelectedFile | null };

/** Why a selection cannot be sent, or null when it is one non-empty PDF. */
export function refusalOf(files: readonly SelectedFile[]): Refusal | null {
  const [first] = files;
  if (files.length > 1) return { code: 'one_file_only', file: null };
  if (first === undefined) return null;
  if (!isPdf(first)) return { code: 'not_pdf', file: first };
  if (first.size === 0) return { code: 'empty_file', file: first };
  return null;
}

const filesOfEvent = ({ event }: { event: { files: SelectedFile[] } }) => ({ files: event.files });

// Choosing or dropping a file starts over from wherever the page is, except while one is being sent. An
// empty selection (a dialog closed without a choice) matches neither and changes nothing.
const CHOOSE_FILE = [
  {
    guard: { type: 'isOnePdf', params: filesOfEvent },
    target: '#verification.uploading',
    actions: { type: 'keepFile', params: filesOfEvent },
  },
  {
    guard: { type: 'isRefused', params: filesOfEvent },
    target: '#verification.idle.rejected',
    actions: { type: 'rejectSelection', params: filesOfEvent },
  },
] as const;

export const verificationMachine = setup({
  types: {
    context: {} as VerificationContext,
    events: {} as VerificationEvent,
    tags: {} as 'busy' | 'error',
  },
  actors: {
    verifyPdf: fromPromise<VerificationReport, SelectedFile>(async () => {
      throw new Error('verifyPdf not provided');
    }),
  },
  actions: {
    keepFile: assign((_, params: { files: SelectedFile[] }) => ({
      file: params.files[0] ?? null,
      report: null,
      errorCode: null,
    })),
    rejectSelection: assign((_, params: { files: SelectedFile[] }) => {
      const refusal = refusalOf(params.files);
      return { file: refusal?.file ?? null, report: null, errorCode: refusal?.code ?? null };
    }),
    keepReport: assign((_, params: { report: VerificationReport }) => ({ report: params.report })),
    rememberError: assign((_, params: { code: string }) => ({ errorCode: params.code })),
    clearError: assign({ errorCode: null }),
    forget: assign({ file: null, report: null, errorCode: null }),
  },
  guards: {
    isOnePdf: (_, params: { files: SelectedFile[] }) =>
      params.files.length === 1 && refusalOf(params.files) === null,
    isRefused: (_, params: { files: SelectedFile[] }) => refusalOf(params.files) !== null,
    isRetryable: ({ context }) =>
      context.errorCode === null || !VERIFICATION_FILE_REFUSALS.has(context.errorCode),
  },
}).createMachine({
  id: 'verification',
  context: { file: null, report: null, errorCode: null },
  initial: 'idle',
  states: {
    idle: {
      initial: 'waiting',
      on: { 'file.selected': CHOOSE_FILE },
      states: {
        waiting: {},
        rejected: { tags: ['error'] },
      },
    },
    uploading: {
      tags: ['busy'],
      entry: 'clearError',
      invoke: {
        id: 'verifyPdf',
        src: 'verifyPdf',
        input: ({ context }) => {
          if (context.file === null) throw new Error('verifyPdf needs a file');
          return context.file;
        },
        onDone: {
          target: 'report',
          actions: { type: 'keepReport', params: ({ event }) => ({ report: event.output }) },
        },
        onError: {
          target: 'error',
          actions: { type: 'rememberError', params: ({ event }) => ({ code: toErrorCode(event.error) }) },
        },
      },
    },
    report: {
      on: { 'file.selected': CHOOSE_FILE, 'verification.reset': { target: 'idle', actions: 'forget' } },
    },
    error: {
      tags: ['error'],
      on: {
        'file.selected': CHOOSE_FILE,
        // The same file would be refused again: only another file can help then.
        'verification.retry': { guard: 'isRetryable', target: 'uploading' },
        'verification.reset': { target: 'idle', actions: 'forget' },
      },
    },
  },
});
