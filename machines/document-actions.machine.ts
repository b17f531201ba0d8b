// The document actions of spec 000 §4 "Rules": archive, delete, refuse, approve, reject, cancel sign flow
// and download, on one document or (archive, delete, download) on a selection. One actor for the app's
// lifetime, a child of the shell, in two regions. `dialog`: a request (from a row menu, the bulk bar, the
// details panel or the document page) opens its dialog, is confirmed, run, then held busy for
// ACTION_SETTLE before the dialog closes; a failure keeps the dialog open with its code. `download`: the
// downloads, one after another, whatever the dialog shows meanwhile. A download of signed documents only
// starts at once; a mixed selection is confirmed first. Its progress dialog closes when the downloads
// end, unless the person closed it or another request took its place.
import { assign, fromPromise, setup } from 'xstate';
import { isActionAllowed, isSigned, modalNameOf, type DocumentAction } from './document-actions-rules.ts';
import type { ModalName } from './modal.machine';
import { toApiFailure, type DocumentResource } from './types.ts';

export type ActionRequest = { action: DocumentAction; documents: DocumentResource[] };

export type DocumentActionsContext = {
  action: DocumentAction | null;
  documents: DocumentResource[];
  reason: string;
  errorCode: string | null;
  // The documents the server named as having stopped a bulk action (they changed meanwhile).
  blockedIds: string[];
  /** The signed documents the running download fetches, and those asked for since, waiting for it. */
  downloadIds: string[];
  waitingDownloadIds: string[];
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
const signedIdsOf = (documents: DocumentResource[]) => ({
  documentIds: documents.filter(isSigned).map((document) => document.id),
});
const signedIdsOfRequest = ({ context }: Args) => signedIdsOf(context.documents);
const signedIdsOfEvent = ({ event }: { event: ActionRequest }) => signedIdsOf(event.documents);
const downloadInput = ({ context }: Args): DocumentsInput => ({ documentIds: context.downloadIds });

const isOne = (context: DocumentActionsContext, action: DocumentAction) =>
  context.action === action && context.documents.length === 1;
const isMany = (context: DocumentActionsContext, action: DocumentAction) =>
  context.action === action && context.documents.length > 1;

const running = (state: string) => `#documentActions.dialog.running.${state}`;
const DOWNLOADING = '#documentActions.dialog.downloading';

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

const CONFIRM = [...RETRY, { guard: 'isDownload', target: DOWNLOADING }] as const;

const REQUEST = [
  {
    guard: { type: 'isDirectDownload', params: requestOfEvent },
    target: DOWNLOADING,
    actions: { type: 'openDialog', params: dialogOfEvent },
  },
  {
    guard: { type: 'isAllowed', params: requestOfEvent },
    target: '#documentActions.dialog.confirming',
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
    target: '#documentActions.dialog.confirming.invalid',
    actions: { type: 'keepReason', params: reasonOfEvent },
  },
  {
    target: '#documentActions.dialog.confirming.valid',
    actions: { type: 'keepReason', params: reasonOfEvent },
  },
] as const;

// Every call ends the same way: a success refreshes the list and the sidebar counters, then settles; a
// document that changed meanwhile refreshes the list too, so the user sees why the action failed, and
// the action cannot be tried again on what the dialog still shows (it would fail the same way).
const OUTCOME = {
  onDone: { target: '#documentActions.dialog.settling', actions: ['refreshList', 'refreshProfile'] },
  onError: [
    {
      guard: { type: 'isStaleDocument', params: failureOfError },
      target: '#documentActions.dialog.stale',
      actions: [{ type: 'rememberError', params: failureOfError }, 'refreshList'],
    },
    { target: '#documentActions.dialog.failed', actions: { type: 'rememberError', params: failureOfError } },
  ],
} as const;

// The download region hears the same request or confirm as the dialog, which shows the progress: a download
// asked for (a signed one at once, a mixed selection once confirmed) starts, or waits for the one running.
const START_DOWNLOAD = {
  'action.request': {
    guard: { type: 'isDirectDownload', params: requestOfEvent },
    target: 'running',
    actions: { type: 'keepDownload', params: signedIdsOfEvent },
  },
  'action.confirm': {
    guard: 'isDownload',
    target: 'running',
    actions: { type: 'keepDownload', params: signedIdsOfRequest },
  },
} as const;
const WAIT_FOR_DOWNLOAD = {
  'action.request': {
    guard: { type: 'isDirectDownload', params: requestOfEvent },
    actions: { type: 'addWaitingDownload', params: signedIdsOfEvent },
  },
  'action.confirm': {
    guard: 'isDownload',
    actions: { type: 'addWaitingDownload', params: signedIdsOfRequest },
  },
} as const;
const LAST_DOWNLOAD_ENDED = { guard: 'isLastDownload', target: 'idle', actions: 'closeModal' } as const;
const LOG_FAILURE = { type: 'logDownloadFailure', params: failureOfError } as const;

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
    keepDownload: assign((_, params: { documentIds: string[] }) => ({ downloadIds: params.documentIds })),
    // The same document asked for twice while it waits is downloaded once.
    addWaitingDownload: assign(({ context }, params: { documentIds: string[] }) => ({
      waitingDownloadIds: [...new Set([...context.waitingDownloadIds, ...params.documentIds])],
    })),
    takeWaitingDownload: assign(({ context }) => ({
      downloadIds: context.waitingDownloadIds,
      waitingDownloadIds: [],
    })),
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
    hasWaitingDownload: ({ context }) => context.waitingDownloadIds.length > 0,
    isLastDownload: ({ context }) => context.waitingDownloadIds.length === 0,
  },
  delays: { ACTION_SETTLE: ACTION_SETTLE_MS },
}).createMachine({
  id: 'documentActions',
  type: 'parallel',
  context: {
    action: null,
    documents: [],
    reason: '',
    errorCode: null,
    blockedIds: [],
    downloadIds: [],
    waitingDownloadIds: [],
  },
  states: {
    dialog: {
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
        // The progress dialog. It holds no request (the download region has the documents: it took them
        // before this entry forgets them), so another request, or closing it, leaves the download running;
        // the end of the last download closes it.
        downloading: {
          tags: ['busy'],
          entry: 'forget',
          on: {
            'action.request': REQUEST,
            'action.dismiss': 'idle',
            'xstate.done.actor.downloadDocuments': LAST_DOWNLOAD_ENDED,
            'xstate.error.actor.downloadDocuments': LAST_DOWNLOAD_ENDED,
          },
        },
      },
    },
    // One download at a time: several links at once would interrupt one another.
    download: {
      initial: 'idle',
      states: {
        idle: { on: START_DOWNLOAD },
        running: {
          on: WAIT_FOR_DOWNLOAD,
          invoke: {
            id: 'downloadDocuments',
            src: 'downloadDocuments',
            input: downloadInput,
            // The one waiting, if any, starts when this one ends.
            onDone: [
              {
                guard: 'hasWaitingDownload',
                target: 'running',
                reenter: true,
                actions: 'takeWaitingDownload',
              },
              { target: 'idle' },
            ],
            // Spec 000 §8: a download failure is only logged.
            onError: [
              {
                guard: 'hasWaitingDownload',
                target: 'running',
                reenter: true,
                actions: [LOG_FAILURE, 'takeWaitingDownload'],
              },
              { target: 'idle', actions: LOG_FAILURE },
            ],
          },
        },
      },
    },
  },
});
