// The upload's part of the composition root (see compose.ts), kept apart so that the upload machine and
// its storage actors load with the upload modal, not on the first screen's path.
import { uploadMachine } from '../../machines/upload.machine';
import { showDocumentInList } from '../services/navigation';
import { createDocument, requestUpload, sendToStorage } from '../services/upload';
import type { ShellActorRef } from './shell-context';

/** One upload per opening of the modal; it closes the shell's modal and tells the screens what changed. */
export function composeUpload(shell: ShellActorRef) {
  return uploadMachine.provide({
    actors: { requestUpload, sendToStorage, createDocument },
    actions: {
      showDocument: (_, params) => showDocumentInList(params.documentId),
      refreshList: (_, params) => shell.send({ type: 'documents.changed', selectId: params.documentId }),
      closeModal: () => shell.getSnapshot().children.modal?.send({ type: 'modal.close' }),
    },
  });
}
