// The document actions' real calls, for the shell's documentActions child (see compose.ts). What the
// machine tells other actors (the modal, the session, the screens) is wired by the shell machine.
import { documentActionsMachine } from '../../machines/document-actions.machine';
import {
  approveDocument,
  archiveDocument,
  archiveDocuments,
  cancelSignFlow,
  deleteDocument,
  deleteDocuments,
  downloadDocuments,
  refuseSignFlow,
  rejectDocument,
} from '../services/document-actions';

export const documentActionsLogic = documentActionsMachine.provide({
  actors: {
    archiveDocument,
    archiveDocuments,
    deleteDocument,
    deleteDocuments,
    refuseSignFlow,
    approveDocument,
    rejectDocument,
    cancelSignFlow,
    downloadDocuments,
  },
  actions: {
    logDownloadFailure: (_, params) => console.warn('download failed', params.code),
  },
});
