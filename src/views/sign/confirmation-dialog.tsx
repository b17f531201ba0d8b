// The sign confirmation dialog (spec 000 §2 "sign confirmation", §8; spec 001 §2): the QR code and the link
// of the identity app's page, the wait, 'Resend Confirmation', and the outcome. It belongs to the sign
// screen, not to the shell's modal machine: it exists exactly while the signing actor's `confirmation`
// child runs (docs/decisions.md). It is mounted at its first opening and then stays mounted, following
// `open` as every modal here: a Fluent Dialog mounted on a freshly loaded sign screen makes tabster put
// focusable sentinels on <body> before anything has had focus, which Lighthouse's accessibility audit
// counts as focusable content hidden from assistive technology.
import { lazy, Suspense, useEffect, useState } from 'react';
import {
  Button,
  Caption1,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Link,
  MessageBar,
  MessageBarBody,
  Spinner,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { Open20Regular } from '@fluentui/react-icons';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import type { ActorRefFrom } from 'xstate';
import type { signConfirmationMachine } from '../../../machines/sign-confirmation.machine';
import type { MessageId } from '../../i18n/messages';
import { focusMainIfLost } from '../focus-fallback';
import type { SigningActor } from './sign-form';

export type ConfirmationActor = ActorRefFrom<typeof signConfirmationMachine>;

const QrCode = lazy(() => import('./qr-code').then((module) => ({ default: module.QrCode })));

const useStyles = makeStyles({
  surface: { width: '520px', maxWidth: 'calc(100vw - 32px)' },
  content: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    overflowWrap: 'anywhere',
  },
  qr: { alignSelf: 'center', width: '200px', height: '200px', display: 'grid', placeItems: 'center' },
  resend: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  muted: { color: tokens.colorNeutralForeground3 },
  error: { color: tokens.colorPaletteRedForeground1 },
  button: { minHeight: '40px' },
});

const FAILURE_TEXTS: Record<string, MessageId> = {
  sign_limit_exceeded: 'documents.sign.confirm.error-sign-limit-exceeded',
  presign_error: 'documents.sign.confirm.error-document',
};

type Phase = 'waiting' | 'confirmed' | 'failed' | 'cancelled';

function Waiting({ confirmation }: { confirmation: ConfirmationActor }) {
  const styles = useStyles();
  const intl = useIntl();
  const url = useSelector(confirmation, (snapshot) => snapshot.context.confirmationUrl);
  const isReconnecting = useSelector(confirmation, (snapshot) =>
    snapshot.matches({ waiting: { poll: 'backingOff' } }),
  );
  const canResend = useSelector(confirmation, (snapshot) => snapshot.can({ type: 'resend.request' }));
  const isResending = useSelector(confirmation, (snapshot) => snapshot.hasTag('busy'));
  const resendError = useSelector(confirmation, (snapshot) => snapshot.context.resendErrorCode);
  const qrLabel = intl.formatMessage({ id: 'documents.sign.confirm.qr' });
  return (
    <>
      <Text>{intl.formatMessage({ id: 'documents.sign.confirm.waiting' })}</Text>
      <div className={styles.qr}>
        <Suspense fallback={<Spinner size="small" />}>
          <QrCode text={url} label={qrLabel} />
        </Suspense>
      </div>
      <Link href={url} target="_blank" rel="noopener noreferrer">
        {intl.formatMessage({ id: 'documents.sign.confirm.link' })} <Open20Regular aria-hidden />
      </Link>
      <Spinner
        size="tiny"
        labelPosition="after"
        role="status"
        label={intl.formatMessage({
          id: isReconnecting ? 'documents.sign.confirm.reconnecting' : 'documents.sign.confirm.status',
        })}
      />
      <div className={styles.resend}>
        <Text className={styles.muted}>
          {intl.formatMessage({ id: 'documents.sign.confirm.no-notification' })}
        </Text>
        <Button
          className={styles.button}
          disabledFocusable={!canResend}
          icon={isResending ? <Spinner size="tiny" /> : undefined}
          onClick={() => confirmation.send({ type: 'resend.request' })}
        >
          {intl.formatMessage({ id: 'documents.sign.confirm.resend' })}
        </Button>
      </div>
      {resendError !== null && (
        <Caption1 role="alert" className={styles.error}>
          {intl.formatMessage({ id: 'documents.sign.confirm.resend-error' })}
        </Caption1>
      )}
      <Caption1 className={styles.muted}>
        {intl.formatMessage({ id: 'documents.sign.confirm.close-note' })}
      </Caption1>
    </>
  );
}

function Outcome({ phase, errorCode }: { phase: Exclude<Phase, 'waiting'>; errorCode: string | null }) {
  const intl = useIntl();
  if (phase === 'confirmed') {
    return (
      <MessageBar intent="success" layout="multiline">
        <MessageBarBody>{intl.formatMessage({ id: 'documents.sign.confirm.success' })}</MessageBarBody>
      </MessageBar>
    );
  }
  if (phase === 'cancelled') {
    return (
      <MessageBar intent="warning" layout="multiline">
        <MessageBarBody>{intl.formatMessage({ id: 'documents.sign.confirm.cancelled' })}</MessageBarBody>
      </MessageBar>
    );
  }
  const id = (errorCode !== null ? FAILURE_TEXTS[errorCode] : undefined) ?? 'documents.sign.confirm.error';
  return (
    <MessageBar intent="error" layout="multiline" role="alert">
      <MessageBarBody>{intl.formatMessage({ id })}</MessageBarBody>
    </MessageBar>
  );
}

function ConfirmationBody({ confirmation }: { confirmation: ConfirmationActor }) {
  const styles = useStyles();
  const intl = useIntl();
  const phase = useSelector(confirmation, (snapshot): Phase => {
    if (snapshot.matches('confirmed')) return 'confirmed';
    if (snapshot.matches('failed')) return 'failed';
    if (snapshot.matches('cancelled')) return 'cancelled';
    return 'waiting';
  });
  const errorCode = useSelector(confirmation, (snapshot) => snapshot.context.errorCode);
  const close = () => confirmation.send({ type: 'dialog.close' });
  return (
    <DialogBody>
      <DialogTitle>{intl.formatMessage({ id: 'documents.sign.confirm.title' })}</DialogTitle>
      <DialogContent className={styles.content}>
        {phase === 'waiting' ? (
          <Waiting confirmation={confirmation} />
        ) : (
          <Outcome phase={phase} errorCode={errorCode} />
        )}
      </DialogContent>
      <DialogActions>
        {phase === 'confirmed' ? (
          <Button className={styles.button} appearance="primary" onClick={close}>
            {intl.formatMessage({ id: 'documents.sign.confirm.open-document' })}
          </Button>
        ) : (
          <Button className={styles.button} onClick={close}>
            {intl.formatMessage({
              id: phase === 'waiting' ? 'common.close' : 'documents.sign.confirm.back',
            })}
          </Button>
        )}
      </DialogActions>
    </DialogBody>
  );
}

export function ConfirmationDialog({ signing }: { signing: SigningActor }) {
  const styles = useStyles();
  const confirmation = useSelector(signing, (snapshot) => snapshot.children.confirmation);
  // Leaving the sign screen with the dialog open (success opens the document) leaves focus on <body>.
  useEffect(() => () => void focusMainIfLost(), []);
  const [hasOpened, setHasOpened] = useState(false);
  // Derived during render (React's "storing information from previous renders"), so the first opening
  // mounts and opens in one go; once mounted it stays, and closing keeps its animation and clean-up.
  if (confirmation !== undefined && !hasOpened) setHasOpened(true);
  if (!hasOpened && confirmation === undefined) return null;
  return (
    <Dialog
      open={confirmation !== undefined}
      onOpenChange={(_event, data) => {
        // A stray click beside the dialog must not end the wait; Esc and the buttons do.
        if (!data.open && data.type !== 'backdropClick') confirmation?.send({ type: 'dialog.close' });
      }}
    >
      <DialogSurface className={styles.surface}>
        {confirmation && <ConfirmationBody confirmation={confirmation} />}
      </DialogSurface>
    </Dialog>
  );
}
