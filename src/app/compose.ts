// The composition root: each machine gets the browser's real actors and actions here, once, so the
// machine the app runs is the very one the tests and the QA paths exercise with fakes.
import { documentListMachine } from '../../machines/document-list.machine';
import { documentMachine } from '../../machines/document.machine';
import { modalMachine } from '../../machines/modal.machine';
import { sessionMachine } from '../../machines/session.machine';
import { uploadMachine } from '../../machines/upload.machine';
import { fetchConnections } from '../services/connections';
import { fetchDocument, fetchPage } from '../services/documents';
import { requestListRefresh } from '../services/list-events';
import {
  goToDocuments,
  goToLoginError,
  goToLoginTimeout,
  goToLogOut,
  goToReturnUrl,
  redirectToLogin,
  scrollToTop,
  showDocumentInList,
} from '../services/navigation';
import { fetchProfile, fetchToken } from '../services/session';
import { createDocument, requestUpload, sendToStorage } from '../services/upload';
import { removeToken, storeToken } from '../services/token';
import type { ModalActorRef } from './modal-context';

export const sessionLogic = sessionMachine.provide({
  actors: { fetchToken, fetchProfile },
  actions: {
    storeToken: (_, params) => storeToken(params.token),
    removeToken: () => removeToken(),
    redirectToLogin: (_, params) => redirectToLogin(params.returnUrl),
    goToReturnUrl: (_, params) => goToReturnUrl(params.url),
    goToLoginTimeout: () => goToLoginTimeout(),
    goToLoginError: () => goToLoginError(),
    goToLogOut: () => goToLogOut(),
  },
});

export const modalLogic = modalMachine;

export const documentListLogic = documentListMachine.provide({
  actors: { fetchPage },
  actions: { scrollToTop: () => scrollToTop() },
});

export const documentLogic = documentMachine.provide({
  actors: { fetchDocument },
  actions: { goToDocuments: () => goToDocuments() },
});

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

/** Read-only until the connections machine of [3/6] replaces it. */
export const connectionsLogic = fetchConnections;
