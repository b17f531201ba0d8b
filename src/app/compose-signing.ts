// The sign screen's part of the composition root (see compose.ts), loaded with that screen: the screen's
// load, the locate-me lookup, the sign call, the confirmation dialog's poll, resend and tab visibility,
// and the way to the document page.
import { signConfirmationMachine } from '../../machines/sign-confirmation.machine';
import { signingMachine } from '../../machines/signing.machine';
import { locateMe, reportLocationFailure } from '../services/geolocation';
import { APP_BASE } from '../services/navigation';
import {
  fetchVersion,
  loadSignScreen,
  resendNotification,
  signDocument,
  watchVisibility,
} from '../services/signing';
import { navigate } from 'wouter/use-browser-location';
import type { ShellActorRef } from './shell-context';

export const signConfirmationLogic = signConfirmationMachine.provide({
  actors: { fetchVersion, resendNotification, watchVisibility },
});

/** The signing screen's actor; a signature changes the lists and the To Do count, which the shell hears. */
export const composeSigning = (shell: ShellActorRef) =>
  signingMachine.provide({
    actors: { loadSignScreen, locateMe, signDocument, confirmSignature: signConfirmationLogic },
    actions: {
      // The sign screen is left for the document page, never returned to with Back: it would only redirect.
      goToDocument: ({ context }) => {
        shell.send({ type: 'documents.changed' });
        shell.getSnapshot().children.session?.send({ type: 'profile.refresh' });
        navigate(`${APP_BASE}/document/${encodeURIComponent(context.documentId)}`, { replace: true });
      },
      reportLocationFailure: (_, params) => reportLocationFailure(params.code),
    },
  });
