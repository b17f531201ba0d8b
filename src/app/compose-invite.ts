// The invite route's part of the composition root (see compose.ts), loaded with that route only.
import { navigate } from 'wouter/use-browser-location';
import { inviteAcceptMachine } from '../../machines/invite-accept.machine';
import { APP_BASE, goToDocuments } from '../services/navigation';
import { acceptInvite } from '../services/sign-flow-form';
import type { ShellActorRef } from './shell-context';

/** Why the invitation opened nothing is the shell's notice, which the list shows. */
export const composeInviteAccept = (shell: Pick<ShellActorRef, 'send'>) =>
  inviteAcceptMachine.provide({
    actors: { acceptInvite },
    actions: {
      // In place of the invitation's entry in history: Back from the document does not come back to wait.
      openDocument: (_, params) =>
        navigate(`${APP_BASE}/document/${encodeURIComponent(params.documentId)}`, { replace: true }),
      goToDocuments: (_, params) => {
        shell.send({ type: 'notice.show', code: params.notice });
        goToDocuments();
      },
    },
  });
