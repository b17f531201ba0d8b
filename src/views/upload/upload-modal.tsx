// The documentUpload modal (spec 000 §4 "Upload"). The modal machine decides that it is open; this view
// starts one upload actor per opening and renders it: drop zone, refusals, progress, result, retry.
import { useId, useState, type DragEvent } from 'react';
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
  ProgressBar,
  Text,
  makeStyles,
  mergeClasses,
  shorthands,
  tokens,
} from '@fluentui/react-components';
import { ArrowUpload24Regular } from '@fluentui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import { useIntl, type IntlShape } from 'react-intl';
import type { SelectedFile } from '../../../machines/types';
import { FILE_REFUSALS, FILE_TOO_LARGE, type uploadMachine } from '../../../machines/upload.machine';
import { actorOptions } from '../../app/inspect';
import { useModalActor } from '../../app/modal-context';
import type { MessageId } from '../../i18n/messages';
import { VISUALLY_HIDDEN } from '../visually-hidden';

export type UploadLogic = typeof uploadMachine;

// Every message of a refused file names it ({name}) and says what to do; the others take no arguments.
const ERROR_MESSAGES: Record<string, MessageId> = {
  not_pdf: 'documents.upload.rejected.not_pdf',
  one_file_only: 'documents.upload.rejected.one_file_only',
  not_a_pdf: 'documents.upload.status.error.not_a_pdf',
  encrypted_pdf: 'documents.upload.status.error.encrypted_pdf',
  empty_file: 'documents.upload.status.error.empty_file',
  too_many_pages: 'documents.upload.status.error.too_many_pages',
  network: 'documents.upload.status.error.network',
  too_many_requests: 'documents.upload.status.error.too_many_requests',
};

export function uploadErrorMessage(code: string | null): MessageId {
  return (code && ERROR_MESSAGES[code]) || 'documents.upload.status.error';
}

const BYTES_PER_MB = 1024 * 1024;

/** The size limit as people read it: 52 428 800 bytes is "50 MB" ("50 Mo" in French). */
export function formatSizeLimit(intl: IntlShape, bytes: number): string {
  return intl.formatNumber(bytes / BYTES_PER_MB, {
    style: 'unit',
    unit: 'megabyte',
    maximumFractionDigits: 1,
  });
}

type ErrorSubject = { code: string | null; fileName: string; maxFileSize: number | null };

function errorText(intl: IntlShape, { code, fileName, maxFileSize }: ErrorSubject): string {
  if (code === FILE_TOO_LARGE && maxFileSize !== null) {
    return intl.formatMessage(
      { id: 'documents.upload.status.error.file_too_large' },
      { name: fileName, limit: formatSizeLimit(intl, maxFileSize) },
    );
  }
  return intl.formatMessage({ id: uploadErrorMessage(code) }, { name: fileName });
}

export function toSelectedFiles(files: FileList | readonly File[] | null): SelectedFile[] {
  return Array.from(files ?? []).map((file) => ({
    name: file.name,
    type: file.type,
    size: file.size,
    blob: file,
  }));
}

const useStyles = makeStyles({
  surface: { width: '520px', maxWidth: 'calc(100vw - 32px)', boxSizing: 'border-box' },
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  zone: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalS,
    padding: tokens.spacingVerticalXXL,
    border: `2px dashed ${tokens.colorNeutralStroke1}`,
    borderRadius: tokens.borderRadiusLarge,
    textAlign: 'center',
  },
  zoneActive: {
    ...shorthands.borderColor(tokens.colorBrandStroke1),
    backgroundColor: tokens.colorBrandBackground2,
  },
  srOnly: VISUALLY_HIDDEN,
  choose: {
    display: 'inline-flex',
    alignItems: 'center',
    minHeight: '40px',
    padding: `0 ${tokens.spacingHorizontalL}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorBrandBackground,
    color: tokens.colorNeutralForegroundOnBrand,
    fontWeight: tokens.fontWeightSemibold,
    cursor: 'pointer',
    ':hover': { backgroundColor: tokens.colorBrandBackgroundHover },
  },
  // The input is hidden, so its focus ring is drawn on the label that stands for it.
  chooseFocused: { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '2px' },
  fileName: { wordBreak: 'break-all' },
  // A long file name without spaces wraps where it must, the sentence around it between words.
  message: { overflowWrap: 'anywhere' },
  button: { minHeight: '40px' },
});

/** One opening of the modal: its own upload actor, stopped (and its request aborted) on close. */
function UploadBody({ logic }: { logic: UploadLogic }) {
  const styles = useStyles();
  const intl = useIntl();
  const modal = useModalActor();
  const upload = useActorRef(logic, actorOptions({}));

  const inputId = useId();
  const dropTextId = useId();
  const [isDragging, setDragging] = useState(false);
  const [isInputFocused, setInputFocused] = useState(false);

  const isWaiting = useSelector(upload, (snapshot) => snapshot.matches('waiting'));
  const isUploading = useSelector(upload, (snapshot) => snapshot.matches('uploading'));
  const isFinished = useSelector(
    upload,
    (snapshot) => snapshot.matches('finished') || snapshot.matches('closed'),
  );
  const isFailed = useSelector(upload, (snapshot) => snapshot.matches('error'));
  const isRejected = useSelector(upload, (snapshot) => snapshot.matches({ waiting: 'rejected' }));
  const progress = useSelector(upload, (snapshot) => snapshot.context.progress);
  const fileName = useSelector(upload, (snapshot) => snapshot.context.file?.name ?? '');
  const errorCode = useSelector(upload, (snapshot) => snapshot.context.errorCode);
  const maxFileSize = useSelector(upload, (snapshot) => snapshot.context.maxFileSize);
  // Retrying the same file cannot help when the file itself was refused: the button offers another file.
  const isFileRefused = errorCode !== null && FILE_REFUSALS.has(errorCode);
  const error = { code: errorCode, fileName, maxFileSize };

  const select = (files: FileList | null) =>
    upload.send({ type: 'file.selected', files: toSelectedFiles(files) });
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    if (isWaiting) select(event.dataTransfer.files);
  };

  return (
    <DialogBody>
      <DialogTitle>{intl.formatMessage({ id: 'documents.upload.title' })}</DialogTitle>
      <DialogContent className={styles.content}>
        {isWaiting && (
          <div
            className={mergeClasses(styles.zone, isDragging && styles.zoneActive)}
            role="group"
            aria-labelledby={dropTextId}
            onDragOver={(event) => {
              event.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
          >
            <ArrowUpload24Regular aria-hidden />
            <Text id={dropTextId}>{intl.formatMessage({ id: 'documents.upload.drop' })}</Text>
            <input
              id={inputId}
              type="file"
              accept="application/pdf"
              className={styles.srOnly}
              onFocus={() => setInputFocused(true)}
              onBlur={() => setInputFocused(false)}
              onChange={(event) => {
                select(event.currentTarget.files);
                // The same file chosen again after a refusal must fire a change again.
                event.currentTarget.value = '';
              }}
            />
            <label
              htmlFor={inputId}
              className={mergeClasses(styles.choose, isInputFocused && styles.chooseFocused)}
            >
              {intl.formatMessage({ id: 'documents.upload.choose' })}
            </label>
            <Text size={200}>{intl.formatMessage({ id: 'documents.upload.hint' })}</Text>
          </div>
        )}
        {isRejected && (
          <MessageBar intent="error" role="alert">
            <MessageBarBody className={styles.message}>{errorText(intl, error)}</MessageBarBody>
          </MessageBar>
        )}
        {isUploading && (
          <Field
            label={
              <span className={styles.fileName}>
                {intl.formatMessage({ id: 'documents.upload.status.uploading' }, { name: fileName })}
              </span>
            }
            hint={intl.formatMessage({ id: 'documents.upload.status.progress' }, { percent: progress })}
          >
            <ProgressBar value={progress} max={100} thickness="large" />
          </Field>
        )}
        {isFinished && (
          <MessageBar intent="success" role="status">
            <MessageBarBody className={styles.fileName}>
              {intl.formatMessage({ id: 'documents.upload.status.finished' }, { name: fileName })}
            </MessageBarBody>
          </MessageBar>
        )}
        {isFailed && (
          <MessageBar intent="error" role="alert">
            <MessageBarBody className={styles.message}>{errorText(intl, error)}</MessageBarBody>
          </MessageBar>
        )}
      </DialogContent>
      <DialogActions>
        {isFailed && (
          <Button
            appearance="primary"
            className={styles.button}
            onClick={() => upload.send({ type: 'upload.retry' })}
          >
            {intl.formatMessage({
              id: isFileRefused ? 'documents.upload.chooseAnother' : 'documents.upload.retry',
            })}
          </Button>
        )}
        {isFinished ? (
          <Button className={styles.button} onClick={() => modal.send({ type: 'modal.close' })}>
            {intl.formatMessage({ id: 'common.close' })}
          </Button>
        ) : (
          <Button className={styles.button} onClick={() => upload.send({ type: 'upload.cancel' })}>
            {intl.formatMessage({ id: 'common.cancel' })}
          </Button>
        )}
      </DialogActions>
    </DialogBody>
  );
}

/**
 * The dialog stays mounted and follows the modal machine, so Fluent can animate it out and restore
 * the page it hid from assistive technology; its body, and the upload actor, exist only while open.
 */
export function UploadModal({ logic }: { logic: UploadLogic }) {
  const styles = useStyles();
  const modal = useModalActor();
  const isOpen = useSelector(
    modal,
    (snapshot) => snapshot.matches('open') && snapshot.context.name === 'documentUpload',
  );
  return (
    <Dialog
      open={isOpen}
      onOpenChange={(_event, data) => {
        if (data.open) return;
        // Closing stops the upload actor, which aborts its request: the same silent end as a cancel.
        modal.send({ type: data.type === 'escapeKeyDown' ? 'key.escape' : 'modal.close' });
      }}
    >
      <DialogSurface className={styles.surface}>{isOpen && <UploadBody logic={logic} />}</DialogSurface>
    </Dialog>
  );
}
