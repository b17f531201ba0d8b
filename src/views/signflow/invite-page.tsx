// /invites/:inviteId and /signflowmember/invite/:inviteId: a short waiting screen while the invite actor
// accepts the invitation and opens its first document, or sends the person to the documents list with a
// notice saying why it could not (spec 000 §2, §8).
import { useActorRef } from '@xstate/react';
import { useIntl } from 'react-intl';
import type { inviteAcceptMachine } from '../../../machines/invite-accept.machine';
import { actorOptions } from '../../app/inspect';
import { usePageTitle } from '../../app/page-title';
import { Busy } from '../busy';

export type InviteAcceptLogic = typeof inviteAcceptMachine;

export function InvitePage({ inviteId, logic }: { inviteId: string; logic: InviteAcceptLogic }) {
  const intl = useIntl();
  usePageTitle(intl.formatMessage({ id: 'signflow.invite.title' }));
  useActorRef(logic, actorOptions({ input: { inviteId } }));
  return <Busy label={intl.formatMessage({ id: 'signflow.invite.accepting' })} />;
}
