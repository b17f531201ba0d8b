// The invite route's part of the composition root (see compose.ts), loaded with that route only.
import { navigate } from 'wouter/use-browser-location';
import { inviteAcceptMachine } from '../../machines/invite-accept.machine';
import { APP_BASE, goToDocuments } from '../services/navigation';
import { showNotice } from '../services/notices';
import { acceptInvite } from '../services/sign-flow-form';

export const inviteAcceptLogic = inviteAcceptMachine.provide({
  actors: { acceptInvite },
  actions: {
    // In place of the invitation's entry in history: Back from the document does not come back to wait.
    openDocument: (_, params) =>
      navigate(`${APP_BASE}/document/${encodeURIComponent(params.documentId)}`, { replace: true }),
    goToDocuments: (_, params) => {
      showNotice(params.notice);
      goToDocuments();
    },
  },
});
