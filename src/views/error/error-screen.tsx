// What the error boundary shows instead of a screen that crashed (spec 001 §2): a title, a message, "Send
// report" and a reload. Sending runs in an error-report actor; after it the screen thanks the person and
// the button stays disabled, and a failed send says so and lets them try again.
import {
  Button,
  MessageBar,
  MessageBarBody,
  Spinner,
  Text,
  Title3,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { ArrowClockwiseRegular, CheckmarkCircleRegular, SendRegular } from '@fluentui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import type { CaughtError, errorReportMachine } from '../../../machines/error-report.machine';
import { actorOptions } from '../../app/inspect';

export type ErrorReportLogic = typeof errorReportMachine;

const useStyles = makeStyles({
  root: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'flex-start',
    gap: tokens.spacingVerticalM,
    padding: tokens.spacingHorizontalXXL,
    maxWidth: '640px',
  },
  actions: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS },
  button: { minHeight: '40px' },
  thanks: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
  thanksIcon: { color: tokens.colorPaletteGreenForeground1, flexShrink: 0 },
});

export type ErrorScreenProps = { error: CaughtError; logic: ErrorReportLogic };

export function ErrorScreen({ error, logic }: ErrorScreenProps) {
  const styles = useStyles();
  const intl = useIntl();
  const actor = useActorRef(logic, actorOptions({ input: { error } }));
  const isSending = useSelector(actor, (snapshot) => snapshot.hasTag('busy'));
  const isSent = useSelector(actor, (snapshot) => snapshot.matches('sent'));
  const isFailed = useSelector(actor, (snapshot) => snapshot.hasTag('error'));
  return (
    <div role="alert" className={styles.root}>
      <Title3 as="h1">{intl.formatMessage({ id: 'app.errorBoundary.title' })}</Title3>
      <Text>{intl.formatMessage({ id: 'app.errorBoundary.message' })}</Text>
      <Text>{intl.formatMessage({ id: 'app.errorBoundary.reportHint' })}</Text>
      <div className={styles.actions}>
        <Button
          className={styles.button}
          appearance="primary"
          icon={isSending ? <Spinner size="extra-tiny" /> : <SendRegular />}
          // Focusable while disabled, so focus stays where the person left it and the new state is read.
          disabledFocusable={isSending || isSent}
          aria-busy={isSending}
          onClick={() => actor.send({ type: 'report.send' })}
        >
          {intl.formatMessage({
            id: isSending ? 'app.errorBoundary.sending' : 'app.errorBoundary.sendReport',
          })}
        </Button>
        <Button
          className={styles.button}
          icon={<ArrowClockwiseRegular />}
          onClick={() => window.location.reload()}
        >
          {intl.formatMessage({ id: 'app.errorBoundary.reload' })}
        </Button>
      </div>
      {isSent && (
        <Text className={styles.thanks}>
          <CheckmarkCircleRegular className={styles.thanksIcon} aria-hidden />
          {intl.formatMessage({ id: 'app.errorBoundary.sent' })}
        </Text>
      )}
      {isFailed && (
        <MessageBar intent="error" layout="multiline">
          <MessageBarBody>{intl.formatMessage({ id: 'app.errorBoundary.sendFailed' })}</MessageBarBody>
        </MessageBar>
      )}
    </div>
  );
}
