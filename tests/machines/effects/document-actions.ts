// Every document action opens its dialog, runs one call on confirm and ends the same way (docs/machines.md,
// "document-actions"): a success refreshes the list and the sidebar counters and closes the dialog after
// ACTION_SETTLE; a document changed meanwhile refreshes the list. A signed download starts at once, in a
// progress dialog; the download region runs it (and any asked for meanwhile, one after another), and only
// the end of the last one closes that dialog, if it still shows.
import type { EffectTable } from './table';

const CALLS = [
  'archiveDocument',
  'archiveDocuments',
  'deleteDocument',
  'deleteDocuments',
  'refuseSignFlow',
  'approveDocument',
  'rejectDocument',
  'cancelSignFlow',
] as const;

// Every call ends the same way, whichever it is.
const OUTCOMES = Object.fromEntries(
  CALLS.flatMap((call) => [
    [
      `dialog.running.${call}: xstate.done.actor.${call} -> dialog.settling`,
      ['refreshList', 'refreshProfile', 'after ACTION_SETTLE'],
    ],
    [
      `dialog.running.${call}: xstate.error.actor.${call} #1 [isStaleDocument] -> dialog.stale`,
      ['refreshList'],
    ],
    [`dialog.running.${call}: xstate.error.actor.${call} #2 -> dialog.failed`, []],
  ]),
);

// A request from any state of the dialog but confirming (confirming declares its own, from its substates).
const requestFrom = (state: string) => ({
  [`dialog.${state}: action.request #1 [isDirectDownload] -> dialog.downloading`]: ['openDialog'],
  [`dialog.${state}: action.request #2 [isAllowed] -> dialog.confirming`]: ['openDialog'],
});

export const DOCUMENT_ACTIONS_EFFECTS = {
  '(start)': [],
  ...requestFrom('idle'),
  'dialog.confirming.valid: action.confirm #1 [isArchiveOne] -> dialog.running.archiveDocument': [
    'invoke archiveDocument',
  ],
  'dialog.confirming.valid: action.confirm #2 [isArchiveMany] -> dialog.running.archiveDocuments': [
    'invoke archiveDocuments',
  ],
  'dialog.confirming.valid: action.confirm #3 [isDeleteOne] -> dialog.running.deleteDocument': [
    'invoke deleteDocument',
  ],
  'dialog.confirming.valid: action.confirm #4 [isDeleteMany] -> dialog.running.deleteDocuments': [
    'invoke deleteDocuments',
  ],
  'dialog.confirming.valid: action.confirm #5 [isRefuse] -> dialog.running.refuseSignFlow': [
    'invoke refuseSignFlow',
  ],
  'dialog.confirming.valid: action.confirm #6 [isApprove] -> dialog.running.approveDocument': [
    'invoke approveDocument',
  ],
  'dialog.confirming.valid: action.confirm #7 [isReject] -> dialog.running.rejectDocument': [
    'invoke rejectDocument',
  ],
  'dialog.confirming.valid: action.confirm #8 [isCancelSignFlow] -> dialog.running.cancelSignFlow': [
    'invoke cancelSignFlow',
  ],
  // The dialog is open already: confirming a mixed download only shows its progress (the download region
  // starts it, on the same event).
  'dialog.confirming.valid: action.confirm #9 [isDownload] -> dialog.downloading': [],
  'dialog.confirming.*: action.request #1 [isDirectDownload] -> dialog.downloading (on dialog.confirming)': [
    'openDialog',
  ],
  'dialog.confirming.*: action.request #2 [isAllowed] -> dialog.confirming (on dialog.confirming)': [
    'openDialog',
  ],
  'dialog.confirming.*: reason.changed #1 [isReasonTooLong] -> dialog.confirming.invalid (on dialog.confirming)':
    [],
  'dialog.confirming.*: reason.changed #2 -> dialog.confirming.valid (on dialog.confirming)': [],
  // Sent when the dialog has closed already.
  'dialog.confirming.*: action.dismiss -> dialog.idle (on dialog.confirming)': [],
  ...OUTCOMES,
  ...requestFrom('settling'),
  'dialog.settling: xstate.after.ACTION_SETTLE.documentActions.dialog.settling -> dialog.idle': [
    'closeModal',
  ],
  ...requestFrom('failed'),
  'dialog.failed: action.confirm #1 [isArchiveOne] -> dialog.running.archiveDocument': [
    'invoke archiveDocument',
  ],
  'dialog.failed: action.confirm #2 [isArchiveMany] -> dialog.running.archiveDocuments': [
    'invoke archiveDocuments',
  ],
  'dialog.failed: action.confirm #3 [isDeleteOne] -> dialog.running.deleteDocument': [
    'invoke deleteDocument',
  ],
  'dialog.failed: action.confirm #4 [isDeleteMany] -> dialog.running.deleteDocuments': [
    'invoke deleteDocuments',
  ],
  'dialog.failed: action.confirm #5 [isRefuse] -> dialog.running.refuseSignFlow': ['invoke refuseSignFlow'],
  'dialog.failed: action.confirm #6 [isApprove] -> dialog.running.approveDocument': [
    'invoke approveDocument',
  ],
  'dialog.failed: action.confirm #7 [isReject] -> dialog.running.rejectDocument': ['invoke rejectDocument'],
  'dialog.failed: action.confirm #8 [isCancelSignFlow] -> dialog.running.cancelSignFlow': [
    'invoke cancelSignFlow',
  ],
  'dialog.failed: reason.changed #1 [isReasonTooLong] -> dialog.confirming.invalid': [],
  'dialog.failed: reason.changed #2 -> dialog.confirming.valid': [],
  'dialog.failed: action.dismiss -> dialog.idle': [],
  ...requestFrom('stale'),
  'dialog.stale: action.dismiss -> dialog.idle': [],
  // The progress dialog: another request takes its place, as in settling; the download goes on.
  ...requestFrom('downloading'),
  'dialog.downloading: action.dismiss -> dialog.idle': [],
  // The download region takes the same event: the last download ended.
  'dialog.downloading: xstate.done.actor.downloadDocuments [isLastDownload] -> dialog.idle': ['closeModal'],
  'dialog.downloading: xstate.error.actor.downloadDocuments [isLastDownload] -> dialog.idle': ['closeModal'],
  // The dialog region takes the same events: its progress dialog shows.
  'download.idle: action.request [isDirectDownload] -> download.running': ['invoke downloadDocuments'],
  'download.idle: action.confirm [isDownload] -> download.running': ['invoke downloadDocuments'],
  // Asked for while one runs: it waits.
  'download.running: action.request [isDirectDownload] -> (stays)': [],
  'download.running: action.confirm [isDownload] -> (stays)': [],
  'download.running: xstate.done.actor.downloadDocuments #1 [hasWaitingDownload] -> download.running': [
    'invoke downloadDocuments',
  ],
  'download.running: xstate.done.actor.downloadDocuments #2 -> download.idle': [],
  'download.running: xstate.error.actor.downloadDocuments #1 [hasWaitingDownload] -> download.running': [
    'logDownloadFailure',
    'invoke downloadDocuments',
  ],
  'download.running: xstate.error.actor.downloadDocuments #2 -> download.idle': ['logDownloadFailure'],
} satisfies EffectTable;
