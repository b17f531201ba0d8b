// The document actions of spec 000 §4 "Rules": archive, delete, refuse, approve, reject, cancel sign flow
// and download, on one document or (archive, delete, download) on a selection. One actor for the app's
// lifetime, a child of the shell: a request (from a row menu, the bulk bar, the details panel or the
// document page) opens its dialog, is confirmed, run, then held busy for ACTION_SETTLE before the dialog
// closes; a failure keeps the dialog open with its code.
// A download of signed documents only starts at once; a mixed selection is confirmed first.
import { assign, fromPromise, setup } from 'xstate';
import { isActionAllowed, isSigned, modalNameOf, type DocumentAction } from './document-actions-rules';
import type { ModalName } from './modal.machine';
import { toApiFailure, type DocumentResource } from './types';

export type ActionRequest = { action: DocumentAction; documents: DocumentResource[] };

export type DocumentActionsContext = {
  action: DocumentAction | null;
  documents: DocumentResource[];
  reason: string;
  errorCode: string | null;
  // The documents the server named as having stopped a bulk action (they changed meanwhile).
  blockedIds: string[];
};

export type DocumentActionsEvent =
  | { type: 'action.request'; action: DocumentAction; documents: DocumentResource[] }
  | { type: 'reason.changed'; reason: string }
  | { type: 'action.confirm' }
  | { type: 'action.dismiss' };

export type OneDocumentInput = { documentId: string };
export type DocumentsInput = { documentIds: string[] };
export type RefuseInput = { documentId: string; reason: string };

/** Spec 000 §5: the reason must be shorter than 128 characters. */
export const REFUSE_REASON_MAX_LENGTH = 127;
export const ACTION_SETTLE_MS = 1_000;

/** The document changed meanwhile (cancelled by someone else, already deleted): the list is stale. */
export const STALE_DOCUMENT_CODES: readonly string[] = [
  'not_found',
  'action_not_allowed',
  // A bulk archive or delete that one selected document no longer allows (server: 409 with blockedIds).
  'bulk_blocked',
  'document_already_signed',
];

const requestOfEvent = ({ event }: { event: ActionRequest }) => ({
  action: event.action,
  documents: event.documents,
});
const dialogOfEvent = ({ event }: { event: ActionRequest }) => ({
  name: modalNameOf(event.action, event.documents.length),
});
const reasonOfEvent = ({ event }: { event: { reason: string } }) => ({ reason: event.reason });
const failureOfError = ({ event }: { event: { error: unknown } }) => {
  const failure = toApiFailure(event.error);
  return { code: failure.code, blockedIds: failure.blockedIds ?? [] };
};

type Args = { context: DocumentActionsContext };

function firstId({ context }: Args): string {
  const [first] = context.documents;
  if (!first) throw new Error('a document action needs a document');
  return first.id;
}

const oneInput = (args: Args): OneDocumentInput => ({ documentId: firstId(args) });
const manyInput = ({ context }: Args): DocumentsInput => ({
  documentIds: context.documents.map((document) => document.id),
});
const refuseInput = (args: Args): RefuseInput => ({
  documentId: firstId(args),
  reason: args.context.reason.trim(),
});
// Only signed documents have a signed PDF: the others of a mixed selection are left out.
const downloadInput = ({ context }: Args): DocumentsInput => ({
  documentIds: context.documents.filter(isSigned).map((document) => document.id),
});

const isOne = (context: DocumentActionsContext, action: DocumentAction) =>
  context.action === action && context.documents.length === 1;
const isMany = (context: DocumentActionsContext, action: DocumentAction) =>
  context.action === action && context.documents.length > 1;

const running = (state: string) => `#documentActions.running.${state}`;

// Retrying after a failure runs the call that failed again; a download never fails (spec 000 §8).
const RETRY = [
  { guard: 'isArchiveOne', target: running('archiveDocument') },
  { guard: 'isArchiveMany', target: running('archiveDocuments') },
  { guard: 'isDeleteOne', target: running('deleteDocument') },
  { guard: 'isDeleteMany', target: running('deleteDocuments') },
  { guard: 'isRefuse', target: running('refuseSignFlow') },
  { guard: 'isApprove', target: running('approveDocument') },
  { guard: 'isReject', target: running('rejectDocument') },
  { guard: 'isCancelSignFlow', target: running('cancelSignFlow') },
] as const;

const CONFIRM = [...RETRY, { guard: 'isDownload', target: '#documentActions.downloading' }] as const;

const REQUEST = [
  {
    guard: { type: 'isDirectDownload', params: requestOfEvent },
    target: '#documentActions.downloading',
    actions: [
      { type: 'keepRequest', params: requestOfEvent },
      { type: 'openDialog', params: dialogOfEvent },
    ],
  },
  {
    guard: { type: 'isAllowed', params: requestOfEvent },
    target: '#documentActions.confirming',
    reenter: true,
    actions: [
      { type: 'keepRequest', params: requestOfEvent },
      { type: 'openDialog', params: dialogOfEvent },
    ],
  },
] as const;

const REASON = [
  {
    guard: { type: 'isReasonTooLong', params: reasonOfEvent },
    target: '#documentActions.confirming.invalid',
    actions: { type: 'keepReason', params: reasonOfEvent },
  },
  { target: '#documentActions.confirming.valid', actions: { type: 'keepReason', params: reasonOfEvent } },
] as const;

// Every call ends the same way: a success refreshes the list and the sidebar counters, then settles; a
// document that changed meanwhile refreshes the list too, so the user sees why the action failed, and
// the action cannot be tried again on what the dialog still shows (it would fail the same way).
const OUTCOME = {
  onDone: { target: '#documentActions.settling', actions: ['refreshList', 'refreshProfile'] },
  onError: [
    {
      guard: { type: 'isStaleDocument', params: failureOfError },
      target: '#documentActions.stale',
      actions: [{ type: 'rememberError', params: failureOfError }, 'refreshList'],
    },
    { target: '#documentActions.failed', actions: { type: 'rememberError', params: failureOfError } },
  ],
} as const;

export const documentActionsMachine = setup({
  types: {
    context: {} as DocumentActionsContext,
    events: {} as DocumentActionsEvent,
    tags: {} as 'busy' | 'error',
  },
  actors: {
    archiveDocument: fromPromise<void, OneDocumentInput>(async () => {
      throw new Error('archiveDocument not provided');
    }),
    archiveDocuments: fromPromise<void, DocumentsInput>(async () => {
      throw new Error('archiveDocuments not provided');
    }),
    deleteDocument: fromPromise<void, OneDocumentInput>(async () => {
      throw new Error('deleteDocument not provided');
    }),
    deleteDocuments: fromPromise<void, DocumentsInput>(async () => {
      throw new Error('deleteDocuments not provided');
    }),
    refuseSignFlow: fromPromise<void, RefuseInput>(async () => {
      throw new Error('refuseSignFlow not provided');
    }),
    approveDocument: fromPromise<void, OneDocumentInput>(async () => {
      throw new Error('approveDocument not provided');
    }),
    rejectDocument: fromPromise<void, OneDocumentInput>(async () => {
      throw new Error('rejectDocument not provided');
    }),
    cancelSignFlow: fromPromise<void, OneDocumentInput>(async () => {
      throw new Error('cancelSignFlow not provided');
    }),
    downloadDocuments: fromPromise<void, DocumentsInput>(async () => {
      throw new Error('downloadDocuments not provided');
    }),
  },
  actions: {
    refreshList: () => {},
    refreshProfile: () => {},
    openDialog: (_, _params: { name: ModalName }) => {},
    closeModal: () => {},
    logDownloadFailure: (_, _params: { code: string }) => {},
    keepRequest: assign((_, params: ActionRequest) => ({
      action: params.action,
      documents: params.documents,
      reason: '',
      errorCode: null,
      blockedIds: [],
    })),
    keepReason: assign((_, params: { reason: string }) => ({ reason: params.reason })),
    rememberError: assign((_, params: { code: string; blockedIds: string[] }) => ({
      errorCode: params.code,
      blockedIds: params.blockedIds,
    })),
    clearError: assign({ errorCode: null, blockedIds: [] }),
    forget: assign({ action: null, documents: [], reason: '', errorCode: null, blockedIds: [] }),
  },
  guards: {
    isAllowed: (_, params: ActionRequest) => isActionAllowed(params.action, params.documents),
    isDirectDownload: (_, params: ActionRequest) =>
      params.action === 'download' && params.documents.length > 0 && params.documents.every(isSigned),
    isReasonTooLong: (_, params: { reason: string }) => params.reason.length > REFUSE_REASON_MAX_LENGTH,
    isStaleDocument: (_, params: { code: string }) => STALE_DOCUMENT_CODES.includes(params.code),
    isArchiveOne: ({ context }) => isOne(context, 'archive'),
    isArchiveMany: ({ context }) => isMany(context, 'archive'),
    isDeleteOne: ({ context }) => isOne(context, 'delete'),
    isDeleteMany: ({ context }) => isMany(context, 'delete'),
    isRefuse: ({ context }) => context.action === 'refuse',
    isApprove: ({ context }) => context.action === 'approve',
    isReject: ({ context }) => context.action === 'reject',
    isCancelSignFlow: ({ context }) => context.action === 'cancelSignFlow',
    isDownload: ({ context }) => context.action === 'download',
  },
  delays: { ACTION_SETTLE: ACTION_SETTLE_MS },
}).createMachine({
  id: 'documentActions',
  context: { action: null, documents: [], reason: '', errorCode: null, blockedIds: [] },
  initial: 'idle',
  states: {
    idle: { on: { 'action.request': REQUEST } },
    confirming: {
      initial: 'valid',
      on: {
        'action.request': REQUEST,
        'reason.changed': REASON,
        'action.dismiss': { target: 'idle', actions: 'forget' },
      },
      states: {
        valid: { on: { 'action.confirm': CONFIRM } },
        // Spec 000 §5: the message shows and nothing is sent until the reason is short enough.
        invalid: { tags: ['error'] },
      },
    },
    running: {
      tags: ['busy'],
      entry: 'clearError',
      initial: 'archiveDocument',
      states: {
        archiveDocument: {
          invoke: { id: 'archiveDocument', src: 'archiveDocument', input: oneInput, ...OUTCOME },
        },
        archiveDocuments: {
          invoke: { id: 'archiveDocuments', src: 'archiveDocuments', input: manyInput, ...OUTCOME },
        },
        deleteDocument: {
          invoke: { id: 'deleteDocument', src: 'deleteDocument', input: oneInput, ...OUTCOME },
        },
        deleteDocuments: {
          invoke: { id: 'deleteDocuments', src: 'deleteDocuments', input: manyInput, ...OUTCOME },
        },
        refuseSignFlow: {
          invoke: { id: 'refuseSignFlow', src: 'refuseSignFlow', input: refuseInput, ...OUTCOME },
        },
        approveDocument: {
          invoke: { id: 'approveDocument', src: 'approveDocument', input: oneInput, ...OUTCOME },
        },
        rejectDocument: {
          invoke: { id: 'rejectDocument', src: 'rejectDocument', input: oneInput, ...OUTCOME },
        },
        cancelSignFlow: {
          invoke: { id: 'cancelSignFlow', src: 'cancelSignFlow', input: oneInput, ...OUTCOME },
        },
      },
    },
    settling: {
      tags: ['busy'],
      // A dialog opened meanwhile takes over: the old one's close timer must not close it.
      on: { 'action.request': REQUEST },
      after: { ACTION_SETTLE: { target: 'idle', actions: ['closeModal', 'forget'] } },
    },
    failed: {
      tags: ['error'],
      on: {
        'action.request': REQUEST,
        'action.confirm': RETRY,
        'reason.changed': REASON,
        'action.dismiss': { target: 'idle', actions: 'forget' },
      },
    },
    // The document (or one of a selection) changed meanwhile: the message stays until the dialog closes
    // or another action is asked for; nothing is retried.
    stale: {
      tags: ['error'],
      on: {
        'action.request': REQUEST,
        'action.dismiss': { target: 'idle', actions: 'forget' },
      },
    },
    downloading: {
      tags: ['busy'],
      invoke: {
        id: 'downloadDocuments',
        src: 'downloadDocuments',
        input: downloadInput,
        onDone: { target: 'idle', actions: ['closeModal', 'forget'] },
        // Spec 000 §8: a download failure is only logged.
        onError: {
          target: 'idle',
          actions: [{ type: 'logDownloadFailure', params: failureOfError }, 'closeModal', 'forget'],
        },
      },
    },
  },
});
