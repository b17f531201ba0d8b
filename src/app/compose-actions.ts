// The document actions' part of the composition root (see compose.ts), kept apart so that the machine
// and its API calls load with the action dialogs, not on the first screen's path.
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
import { requestListRefresh } from '../services/list-events';
import type { ModalActorRef } from './modal-context';

export type SessionRef = { send: (event: { type: 'profile.refresh' }) => void };

/** One actor for the shell: closing goes through its modal actor, counters through the session. */
export function composeActions(modal: ModalActorRef, session: SessionRef) {
  return documentActionsMachine.provide({
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
      refreshList: () => requestListRefresh(),
      refreshProfile: () => session.send({ type: 'profile.refresh' }),
      closeModal: () => modal.send({ type: 'modal.close' }),
      logDownloadFailure: (_, params) => console.warn('download failed', params.code),
    },
  });
}
