// /invites/:inviteId and /signflowmember/invite/:inviteId: accepts the invitation (PATCH /invites/accept),
// then opens the first document it gives access to. A refusal (someone else's invitation, an unknown one)
// or a failure shows why, with a way to the documents. A single call with no events of its own: a
// promise actor is all the behaviour there is.
import { useEffect } from 'react';
import { Button, MessageBar, MessageBarBody, Title2, makeStyles, tokens } from '@fluentui/react-components';
import { useActorRef, useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import { Link, useLocation } from 'wouter';
import type { PromiseActorLogic } from 'xstate';
import { actorOptions } from '../../app/inspect';
import { usePageTitle } from '../../app/page-title';
import { Busy } from '../busy';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL, maxWidth: '640px' },
  button: { minHeight: '40px' },
});

export type AcceptInviteLogic = PromiseActorLogic<string | null, { inviteId: string }>;

export function InvitePage({ inviteId, logic }: { inviteId: string; logic: AcceptInviteLogic }) {
  const styles = useStyles();
  const intl = useIntl();
  const [, navigate] = useLocation();
  usePageTitle(intl.formatMessage({ id: 'signflow.invite.title' }));
  const accept = useActorRef(logic, actorOptions({ input: { inviteId } }));
  const status = useSelector(accept, (snapshot) => snapshot.status);
  const documentId = useSelector(accept, (snapshot) => (snapshot.status === 'done' ? snapshot.output : null));

  useEffect(() => {
    if (status === 'done' && documentId)
      navigate(`/document/${encodeURIComponent(documentId)}`, { replace: true });
  }, [status, documentId, navigate]);

  if (status === 'active' || (status === 'done' && documentId)) {
    return <Busy label={intl.formatMessage({ id: 'signflow.invite.accepting' })} />;
  }
  return (
    <div className={styles.page}>
      <Title2 as="h1">{intl.formatMessage({ id: 'signflow.invite.title' })}</Title2>
      <MessageBar intent="error" layout="multiline" role="alert">
        <MessageBarBody>{intl.formatMessage({ id: 'signflow.invite.error' })}</MessageBarBody>
      </MessageBar>
      <div>
        <Link href="/documents" asChild>
          <Button as="a" appearance="primary" className={styles.button}>
            {intl.formatMessage({ id: 'signflow.invite.toDocuments' })}
          </Button>
        </Link>
      </div>
    </div>
  );
}
