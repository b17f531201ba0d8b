// The composition root: each machine gets the browser's real actors and actions here, once, so the
// machine the app runs is the very one the tests and the QA paths exercise with fakes. Machines only a
// lazily loaded screen needs are composed in compose-<screen>.ts beside this file, so they load with it.
import { modalMachine } from '../../machines/modal.machine';
import { sessionMachine } from '../../machines/session.machine';
import { createShellMachine } from '../../machines/shell.machine';
import {
  goToLoginError,
  goToLoginTimeout,
  goToLogOut,
  goToReturnUrl,
  redirectToLogin,
} from '../services/navigation';
import { fetchProfile, fetchToken } from '../services/session';
import { postAccessToken } from '../services/mobile-wrapper';
import { removeToken, storeToken } from '../services/token';
import { documentActionsLogic } from './compose-actions';
import { languageLogic, welcomeLogic } from './compose-preferences';

export const sessionLogic = sessionMachine.provide({
  actors: { fetchToken, fetchProfile },
  actions: {
    // Only after a sign-in (the token exchange): a mobile wrapper is handed the stored token.
    storeToken: (_, params) => {
      storeToken(params.token);
      postAccessToken(params.token);
    },
    removeToken: () => removeToken(),
    redirectToLogin: (_, params) => redirectToLogin(params.returnUrl),
    goToReturnUrl: (_, params) => goToReturnUrl(params.url),
    goToLoginTimeout: () => goToLoginTimeout(),
    goToLoginError: () => goToLoginError(),
    goToLogOut: () => goToLogOut(),
  },
});

/** The app's root actor and its long-lived children, each with its real calls. */
export const shellLogic = createShellMachine({
  session: sessionLogic,
  modal: modalMachine,
  documentActions: documentActionsLogic,
  welcome: welcomeLogic,
  language: languageLogic,
});
