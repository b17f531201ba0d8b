// Every document action opens its dialog, runs one call on confirm and ends the same way (docs/machines.md,
// "document-actions"): a success refreshes the list and the sidebar counters and closes the dialog after
// ACTION_SETTLE; a document changed meanwhile refreshes the list. A signed download starts at once, in a
// progress dialog.
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
      `running.${call}: xstate.done.actor.${call} -> settling`,
      ['refreshList', 'refreshProfile', 'after ACTION_SETTLE'],
    ],
    [`running.${call}: xstate.error.actor.${call} #1 [isStaleDocument] -> stale`, ['refreshList']],
    [`running.${call}: xstate.error.actor.${call} #2 -> failed`, []],
  ]),
);

export const DOCUMENT_ACTIONS_EFFECTS = {
  '(start)': [],
  'idle: action.request #1 [isDirectDownload] -> downloading': ['openDialog', 'invoke downloadDocuments'],
  'idle: action.request #2 [isAllowed] -> confirming': ['openDialog'],
  'confirming.valid: action.confirm #1 [isArchiveOne] -> running.archiveDocument': ['invoke archiveDocument'],
  'confirming.valid: action.confirm #2 [isArchiveMany] -> running.archiveDocuments': [
    'invoke archiveDocuments',
  ],
  'confirming.valid: action.confirm #3 [isDeleteOne] -> running.deleteDocument': ['invoke deleteDocument'],
  'confirming.valid: action.confirm #4 [isDeleteMany] -> running.deleteDocuments': ['invoke deleteDocuments'],
  'confirming.valid: action.confirm #5 [isRefuse] -> running.refuseSignFlow': ['invoke refuseSignFlow'],
  'confirming.valid: action.confirm #6 [isApprove] -> running.approveDocument': ['invoke approveDocument'],
  'confirming.valid: action.confirm #7 [isReject] -> running.rejectDocument': ['invoke rejectDocument'],
  'confirming.valid: action.confirm #8 [isCancelSignFlow] -> running.cancelSignFlow': [
    'invoke cancelSignFlow',
  ],
  // The dialog is open already: confirming a mixed download only starts it.
  'confirming.valid: action.confirm #9 [isDownload] -> downloading': ['invoke downloadDocuments'],
  'confirming.*: action.request #1 [isDirectDownload] -> downloading (on confirming)': [
    'openDialog',
    'invoke downloadDocuments',
  ],
  'confirming.*: action.request #2 [isAllowed] -> confirming (on confirming)': ['openDialog'],
  'confirming.*: reason.changed #1 [isReasonTooLong] -> confirming.invalid (on confirming)': [],
  'confirming.*: reason.changed #2 -> confirming.valid (on confirming)': [],
  // Sent when the dialog has closed already.
  'confirming.*: action.dismiss -> idle (on confirming)': [],
  ...OUTCOMES,
  'settling: action.request #1 [isDirectDownload] -> downloading': ['openDialog', 'invoke downloadDocuments'],
  'settling: action.request #2 [isAllowed] -> confirming': ['openDialog'],
  'settling: xstate.after.ACTION_SETTLE.documentActions.settling -> idle': ['closeModal'],
  'failed: action.request #1 [isDirectDownload] -> downloading': ['openDialog', 'invoke downloadDocuments'],
  'failed: action.request #2 [isAllowed] -> confirming': ['openDialog'],
  'failed: action.confirm #1 [isArchiveOne] -> running.archiveDocument': ['invoke archiveDocument'],
  'failed: action.confirm #2 [isArchiveMany] -> running.archiveDocuments': ['invoke archiveDocuments'],
  'failed: action.confirm #3 [isDeleteOne] -> running.deleteDocument': ['invoke deleteDocument'],
  'failed: action.confirm #4 [isDeleteMany] -> running.deleteDocuments': ['invoke deleteDocuments'],
  'failed: action.confirm #5 [isRefuse] -> running.refuseSignFlow': ['invoke refuseSignFlow'],
  'failed: action.confirm #6 [isApprove] -> running.approveDocument': ['invoke approveDocument'],
  'failed: action.confirm #7 [isReject] -> running.rejectDocument': ['invoke rejectDocument'],
  'failed: action.confirm #8 [isCancelSignFlow] -> running.cancelSignFlow': ['invoke cancelSignFlow'],
  'failed: reason.changed #1 [isReasonTooLong] -> confirming.invalid': [],
  'failed: reason.changed #2 -> confirming.valid': [],
  'failed: action.dismiss -> idle': [],
  'stale: action.request #1 [isDirectDownload] -> downloading': ['openDialog', 'invoke downloadDocuments'],
  'stale: action.request #2 [isAllowed] -> confirming': ['openDialog'],
  'stale: action.dismiss -> idle': [],
  'downloading: xstate.done.actor.downloadDocuments -> idle': ['closeModal'],
  'downloading: xstate.error.actor.downloadDocuments -> idle': ['logDownloadFailure', 'closeModal'],
} satisfies EffectTable;
