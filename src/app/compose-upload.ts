// The upload's part of the composition root (see compose.ts), kept apart so that the upload machine and
// its storage actors load with the upload modal, not on the first screen's path.
import { uploadMachine } from '../../machines/upload.machine';
import { requestListRefresh } from '../services/list-events';
import { showDocumentInList } from '../services/navigation';
import { createDocument, requestUpload, sendToStorage } from '../services/upload';
import type { ModalActorRef } from './modal-context';

/** One upload per opening of the modal; closing it goes through the shell's modal actor. */
export function composeUpload(modal: ModalActorRef) {
  return uploadMachine.provide({
    actors: { requestUpload, sendToStorage, createDocument },
    actions: {
      showDocument: (_, params) => showDocumentInList(params.documentId),
      refreshList: (_, params) => requestListRefresh(params.documentId),
      closeModal: () => modal.send({ type: 'modal.close' }),
    },
  });
}
