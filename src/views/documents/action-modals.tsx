// The dialogs of the document actions (spec 000 §2 modals confirm, refuse, delete, deleteMultiple,
// archive, archiveMultiple). The shell's document-actions actor holds the request and opened the modal;
// this view renders that actor: the text, the reason field, the busy button, every error of spec 000 §8.
// The dialog stays mounted (decisions.md).
import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  MessageBar,
  MessageBarBody,
  Spinner,
  Text,
  Textarea,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { useSelector } from '@xstate/react';
import { useIntl, type IntlShape } from 'react-intl';
import {
  ACTION_MODAL_NAMES,
  hasFlowInProgress,
  isSigned,
  type DocumentAction,
} from '../../../machines/document-actions-rules';
import { REFUSE_REASON_MAX_LENGTH, STALE_DOCUMENT_CODES } from '../../../machines/document-actions.machine';
import type { DocumentResource } from '../../../machines/types';
import { truncateName } from '../format';
import { useModalActor } from '../../app/modal-context';
import { useShellChild, type ShellChild } from '../../app/shell-context';
import type { MessageId } from '../../i18n/messages';

type DocumentActionsActor = ShellChild<'documentActions'>;

const TITLES: Record<Exclude<DocumentAction, 'archive' | 'delete'>, MessageId> = {
  refuse: 'documents.refuse.title',
  approve: 'documents.approve.title',
  reject: 'documents.reject.title',
  cancelSignFlow: 'documents.cancelSignFlow.title',
  download: 'documents.download.title',
};

const CONFIRM_LABELS: Record<DocumentAction, MessageId> = {
  archive: 'documents.actions.archive',
  delete: 'documents.actions.delete',
  refuse: 'documents.refuse.confirm',
  approve: 'documents.actions.approve',
  reject: 'documents.actions.reject',
  cancelSignFlow: 'documents.actions.cancelSignFlow',
  download: 'documents.actions.download',
};

const ERRORS: Record<DocumentAction, MessageId> = {
  archive: 'documents.archive.error',
  delete: 'documents.delete.error',
  refuse: 'documents.refuse.error',
  approve: 'documents.approve.error',
  reject: 'documents.reject.error',
  cancelSignFlow: 'documents.cancelSignFlow.error',
  download: 'common.error.generic',
};

/** The message of a failed action: spec 000 §8's catalogue, singular or plural by the number of documents. */
export function actionErrorText(
  intl: IntlShape,
  action: DocumentAction,
  code: string,
  count: number,
): string {
  if (action === 'cancelSignFlow' && code === 'document_already_signed') {
    return intl.formatMessage({ id: 'documents.cancelSignFlow.error.alreadySigned' });
  }
  return intl.formatMessage({ id: ERRORS[action] }, { count });
}

/**
 * What more can be said after the catalogue's message, never instead of it: what the person must do
 * first, or that the document changed meanwhile and the list shows it now.
 */
export function actionErrorDetail(
  intl: IntlShape,
  action: DocumentAction,
  code: string,
  documents: DocumentResource[],
  blockedIds: string[],
): string | null {
  if (action === 'delete' && code === 'participant_action_pending') {
    return intl.formatMessage({ id: 'documents.delete.error.pendingAction' }, { count: documents.length });
  }
  // The catalogue's message for a flow no longer in progress says it all.
  if (code === 'document_already_signed') return null;
  return STALE_DOCUMENT_CODES.includes(code) ? staleText(intl, documents, blockedIds) : null;
}

/** A selection that changed meanwhile: which of its documents stopped the action, when the server said. */
function staleText(intl: IntlShape, documents: DocumentResource[], blockedIds: string[]): string {
  const blocked = documents.filter((document) => blockedIds.includes(document.id));
  if (documents.length < 2 || blocked.length === 0) {
    return intl.formatMessage({ id: 'documents.actions.changed' });
  }
  const names = intl.formatList(
    blocked.map((document) => `“${truncateName(document.attributes.originalFilename)}”`),
    { type: 'conjunction' },
  );
  return intl.formatMessage({ id: 'documents.actions.changed.named' }, { names, count: blocked.length });
}

const useStyles = makeStyles({
  surface: { width: '520px', maxWidth: 'calc(100vw - 32px)', boxSizing: 'border-box' },
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  name: { overflowWrap: 'anywhere' },
  button: { minHeight: '40px' },
  progress: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalM },
});

/** The catalogue's message, then what more there is to say, each on its own line. */
function ErrorLines({ lines }: { lines: (string | null)[] }) {
  return (
    <>
      {lines
        .filter((line): line is string => line !== null)
        .map((line) => (
          <span key={line} style={{ display: 'block' }}>
            {line}
          </span>
        ))}
    </>
  );
}

function titleOf(intl: IntlShape, action: DocumentAction, count: number): string {
  if (action === 'archive') return intl.formatMessage({ id: 'documents.archive.title' }, { count });
  if (action === 'delete') return intl.formatMessage({ id: 'documents.delete.title' }, { count });
  return intl.formatMessage({ id: TITLES[action] });
}

function ActionText({ action, documents }: { action: DocumentAction; documents: DocumentResource[] }) {
  const intl = useIntl();
  const styles = useStyles();
  const count = documents.length;
  const name = documents[0]?.attributes.originalFilename ?? '';
  const text = (() => {
    switch (action) {
      case 'archive':
        return count > 1
          ? intl.formatMessage({ id: 'documents.archive.text.other' }, { count })
          : intl.formatMessage({ id: 'documents.archive.text.one' }, { name });
      case 'delete':
        return count > 1
          ? intl.formatMessage({ id: 'documents.delete.text.other' }, { count })
          : intl.formatMessage({ id: 'documents.delete.text.one' }, { name });
      case 'refuse':
        return intl.formatMessage({ id: 'documents.refuse.text' }, { name });
      case 'approve':
        return intl.formatMessage({ id: 'documents.approve.text' }, { name });
      case 'reject':
        return intl.formatMessage({ id: 'documents.reject.text' }, { name });
      case 'cancelSignFlow':
        return intl.formatMessage({ id: 'documents.cancelSignFlow.text' }, { name });
      case 'download':
        return intl.formatMessage(
          { id: 'documents.download.mixed' },
          { signed: documents.filter(isSigned).length, count },
        );
    }
  })();
  const cancelsFlow = action === 'delete' && documents.some(hasFlowInProgress);
  return (
    <>
      <Text as="p" className={styles.name}>
        {text}
      </Text>
      {cancelsFlow && (
        <MessageBar intent="warning">
          <MessageBarBody>
            {intl.formatMessage({ id: 'documents.delete.text.flow' }, { count })}
          </MessageBarBody>
        </MessageBar>
      )}
    </>
  );
}

function ActionBody({ actions }: { actions: DocumentActionsActor }) {
  const intl = useIntl();
  const styles = useStyles();
  const modal = useModalActor();
  const action = useSelector(actions, (snapshot) => snapshot.context.action);
  const documents = useSelector(actions, (snapshot) => snapshot.context.documents);
  const reason = useSelector(actions, (snapshot) => snapshot.context.reason);
  const errorCode = useSelector(actions, (snapshot) => snapshot.context.errorCode);
  const isBusy = useSelector(actions, (snapshot) => snapshot.hasTag('busy'));
  const isDownloading = useSelector(actions, (snapshot) => snapshot.matches({ dialog: 'downloading' }));
  const isReasonInvalid = useSelector(actions, (snapshot) =>
    snapshot.matches({ dialog: { confirming: 'invalid' } }),
  );
  const isFailed = useSelector(actions, (snapshot) => snapshot.matches({ dialog: 'failed' }));
  const isStale = useSelector(actions, (snapshot) => snapshot.matches({ dialog: 'stale' }));
  const blockedIds = useSelector(actions, (snapshot) => snapshot.context.blockedIds);
  const canConfirm = useSelector(actions, (snapshot) => snapshot.can({ type: 'action.confirm' }));
  const close = () => modal.send({ type: 'modal.close' });

  // The progress dialog holds no request: the downloads run on their own, whatever dialog comes next.
  if (isDownloading) {
    return (
      <DialogBody>
        <DialogTitle>{intl.formatMessage({ id: 'documents.download.title' })}</DialogTitle>
        <DialogContent className={styles.progress}>
          <Spinner size="tiny" />
          <Text>{intl.formatMessage({ id: 'documents.download.progress' })}</Text>
        </DialogContent>
        <DialogActions>
          <Button className={styles.button} onClick={close}>
            {intl.formatMessage({ id: 'common.close' })}
          </Button>
        </DialogActions>
      </DialogBody>
    );
  }

  if (!action) return null;
  const count = documents.length;
  const isDestructive = action === 'delete' || action === 'cancelSignFlow' || action === 'refuse';
  return (
    <DialogBody>
      <DialogTitle>{titleOf(intl, action, count)}</DialogTitle>
      <DialogContent className={styles.content}>
        <ActionText action={action} documents={documents} />
        {action === 'refuse' && (
          <Field
            label={intl.formatMessage({ id: 'documents.refuse.reason.label' })}
            validationState={isReasonInvalid ? 'error' : 'none'}
            validationMessage={
              isReasonInvalid ? intl.formatMessage({ id: 'documents.refuse.reason.validation' }) : undefined
            }
          >
            <Textarea
              value={reason}
              maxLength={REFUSE_REASON_MAX_LENGTH + 1}
              disabled={isBusy}
              onChange={(_event, data) => actions.send({ type: 'reason.changed', reason: data.value })}
            />
          </Field>
        )}
        {(isFailed || isStale) && errorCode && (
          <MessageBar intent={isStale ? 'warning' : 'error'} role="alert">
            <MessageBarBody>
              <ErrorLines
                lines={[
                  actionErrorText(intl, action, errorCode, count),
                  actionErrorDetail(intl, action, errorCode, documents, blockedIds),
                ]}
              />
            </MessageBarBody>
          </MessageBar>
        )}
      </DialogContent>
      <DialogActions>
        <Button
          appearance="primary"
          className={styles.button}
          // A disabled button keeps Fluent's disabled look: red would read as "ready to press".
          style={
            isDestructive && canConfirm ? { backgroundColor: tokens.colorPaletteRedBackground3 } : undefined
          }
          disabledFocusable={!canConfirm}
          aria-busy={isBusy}
          icon={
            isBusy ? (
              <Spinner size="tiny" aria-label={intl.formatMessage({ id: 'documents.actions.working' })} />
            ) : undefined
          }
          onClick={() => actions.send({ type: 'action.confirm' })}
        >
          {intl.formatMessage({ id: CONFIRM_LABELS[action] })}
        </Button>
        <Button className={styles.button} onClick={close}>
          {intl.formatMessage({
            // Once the document changed meanwhile there is nothing left to cancel: the dialog just closes.
            id: isStale
              ? 'common.close'
              : action === 'cancelSignFlow'
                ? 'documents.cancelSignFlow.keep'
                : 'common.cancel',
          })}
        </Button>
      </DialogActions>
    </DialogBody>
  );
}

/** The shell's document-actions actor, shown while it holds a request and the modal shows its dialog. */
export function ActionModals() {
  const styles = useStyles();
  const modal = useModalActor();
  const actions = useShellChild('documentActions');
  const isOpen = useSelector(
    modal,
    (snapshot) =>
      snapshot.matches('open') &&
      (ACTION_MODAL_NAMES as readonly string[]).includes(snapshot.context.name ?? ''),
  );

  return (
    <Dialog
      open={isOpen}
      onOpenChange={(_event, data) => {
        if (!data.open) modal.send({ type: data.type === 'escapeKeyDown' ? 'key.escape' : 'modal.close' });
      }}
    >
      <DialogSurface
        className={styles.surface}
        onKeyDown={(event) => {
          // Enter confirms the confirm and delete dialogs (the modal machine decides which), not a field.
          if (event.key !== 'Enter' || event.target instanceof HTMLTextAreaElement) return;
          if (event.target instanceof HTMLButtonElement) return;
          event.preventDefault();
          modal.send({ type: 'key.enter' });
        }}
      >
        {isOpen && <ActionBody actions={actions} />}
      </DialogSurface>
    </Dialog>
  );
}
