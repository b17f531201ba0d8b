// "Download audit trail" in a document's details: everyone who sees the document may download its
// trail. The download runs in an audit-trail-download actor (one per document shown); the view only
// asks for it and shows when it is running or failed.
import {
  Button,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Spinner,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { DismissRegular, DocumentBulletList20Regular } from '@fluentui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import type { auditTrailDownloadMachine } from '../../../machines/audit-trail-download.machine';
import { actorOptions } from '../../app/inspect';

export type AuditTrailDownloadLogic = typeof auditTrailDownloadMachine;

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  button: { minHeight: '40px', alignSelf: 'flex-start' },
});

export type AuditTrailButtonProps = {
  logic: AuditTrailDownloadLogic;
  documentId: string;
  originalFilename: string;
};

export function AuditTrailButton({ logic, documentId, originalFilename }: AuditTrailButtonProps) {
  const styles = useStyles();
  const intl = useIntl();
  const actor = useActorRef(logic, actorOptions({ input: { documentId, originalFilename } }));
  const isBusy = useSelector(actor, (snapshot) => snapshot.hasTag('busy'));
  const isFailed = useSelector(actor, (snapshot) => snapshot.hasTag('error'));
  return (
    <div className={styles.root}>
      <Button
        className={styles.button}
        icon={isBusy ? <Spinner size="extra-tiny" /> : <DocumentBulletList20Regular />}
        disabledFocusable={isBusy}
        aria-busy={isBusy}
        onClick={() => actor.send({ type: 'download.request' })}
      >
        {intl.formatMessage({
          id: isBusy ? 'document.auditTrail.downloading' : 'document.auditTrail.download',
        })}
      </Button>
      {isFailed && (
        <MessageBar intent="error" layout="multiline" role="alert">
          <MessageBarBody>{intl.formatMessage({ id: 'document.auditTrail.error' })}</MessageBarBody>
          <MessageBarActions
            containerAction={
              <Button
                appearance="transparent"
                icon={<DismissRegular />}
                aria-label={intl.formatMessage({ id: 'document.auditTrail.dismiss' })}
                onClick={() => actor.send({ type: 'message.dismiss' })}
              />
            }
          />
        </MessageBar>
      )}
    </div>
  );
}
