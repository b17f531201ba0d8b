// /app/verify: anyone (signed in or not) checks the signatures of a PDF. One verification actor per visit
// of the page: a file picker and a drop zone, the file being checked, then the report, or an error with
// "try again" (the same file) or "choose another file".
import { useId, useState, type DragEvent } from 'react';
import {
  Body1,
  Button,
  MessageBar,
  MessageBarBody,
  Spinner,
  Text,
  Title2,
  makeStyles,
  mergeClasses,
  shorthands,
  tokens,
} from '@fluentui/react-components';
import { ArrowUpload24Regular } from '@fluentui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import { useIntl, type IntlShape } from 'react-intl';
import type { verificationMachine } from '../../../machines/verification.machine';
import { actorOptions } from '../../app/inspect';
import { usePageTitle } from '../../app/page-title';
import type { MessageId } from '../../i18n/messages';
import { toSelectedFiles } from '../upload/upload-modal';
import { VISUALLY_HIDDEN } from '../visually-hidden';
import { ReportSummary, SignatureList } from './verification-report';

export type VerifyLogic = typeof verificationMachine;

const ERRORS: Record<string, MessageId> = {
  not_pdf: 'verify.error.not_pdf',
  one_file_only: 'verify.error.one_file_only',
  empty_file: 'verify.error.empty_file',
  not_a_pdf: 'verify.error.not_a_pdf',
  encrypted_pdf: 'verify.error.encrypted_pdf',
  file_too_large: 'verify.error.file_too_large',
  pdf_unreadable: 'verify.error.pdf_unreadable',
  pdf_too_complex: 'verify.error.pdf_too_complex',
  too_many_requests: 'verify.error.too_many_requests',
  network: 'verify.error.network',
};

function errorText(intl: IntlShape, code: string | null, name: string): string {
  return intl.formatMessage({ id: (code && ERRORS[code]) || 'verify.error.generic' }, { name });
}

const useStyles = makeStyles({
  page: {
    boxSizing: 'border-box',
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalL,
    width: '100%',
    maxWidth: '880px',
    minWidth: 0,
  },
  title: { margin: 0 },
  intro: { margin: 0, color: tokens.colorNeutralForeground2 },
  zone: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalS,
    padding: `${tokens.spacingVerticalXXL} ${tokens.spacingHorizontalL}`,
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
  chooseFocused: { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '2px' },
  message: { overflowWrap: 'anywhere' },
  actions: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS },
  button: { minHeight: '40px' },
  busy: { alignSelf: 'flex-start', overflowWrap: 'anywhere' },
});

function DropZone({ onFiles }: { onFiles: (files: FileList | null) => void }) {
  const styles = useStyles();
  const intl = useIntl();
  const inputId = useId();
  const dropTextId = useId();
  const [isDragging, setDragging] = useState(false);
  const [isInputFocused, setInputFocused] = useState(false);
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    onFiles(event.dataTransfer.files);
  };
  return (
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
      <Text id={dropTextId}>{intl.formatMessage({ id: 'verify.drop' })}</Text>
      <input
        id={inputId}
        type="file"
        accept="application/pdf,.pdf"
        className={styles.srOnly}
        onFocus={() => setInputFocused(true)}
        onBlur={() => setInputFocused(false)}
        onChange={(event) => {
          onFiles(event.currentTarget.files);
          // The same file chosen again after a refusal must fire a change again.
          event.currentTarget.value = '';
        }}
      />
      <label
        htmlFor={inputId}
        className={mergeClasses(styles.choose, isInputFocused && styles.chooseFocused)}
      >
        {intl.formatMessage({ id: 'verify.choose' })}
      </label>
      <Text size={200}>{intl.formatMessage({ id: 'verify.hint' })}</Text>
    </div>
  );
}

export function VerifyPage({ logic }: { logic: VerifyLogic }) {
  const styles = useStyles();
  const intl = useIntl();
  const verification = useActorRef(logic, actorOptions({}));
  usePageTitle(intl.formatMessage({ id: 'verify.pageTitle' }));

  const isChoosing = useSelector(verification, (snapshot) => snapshot.matches('idle'));
  const isRejected = useSelector(verification, (snapshot) => snapshot.matches({ idle: 'rejected' }));
  const isUploading = useSelector(verification, (snapshot) => snapshot.matches('uploading'));
  const isFailed = useSelector(verification, (snapshot) => snapshot.matches('error'));
  const report = useSelector(verification, (snapshot) =>
    snapshot.matches('report') ? snapshot.context.report : null,
  );
  const fileName = useSelector(verification, (snapshot) => snapshot.context.file?.name ?? '');
  const errorCode = useSelector(verification, (snapshot) => snapshot.context.errorCode);
  const canRetry = useSelector(verification, (snapshot) => snapshot.can({ type: 'verification.retry' }));

  const select = (files: FileList | null) =>
    verification.send({ type: 'file.selected', files: toSelectedFiles(files) });

  return (
    <div className={styles.page}>
      <Title2 as="h1" className={styles.title}>
        {intl.formatMessage({ id: 'verify.title' })}
      </Title2>
      <Body1 as="p" className={styles.intro}>
        {intl.formatMessage({ id: 'verify.intro' })}
      </Body1>
      {(isRejected || isFailed) && (
        <MessageBar intent="error" role="alert" layout="multiline">
          <MessageBarBody className={styles.message}>{errorText(intl, errorCode, fileName)}</MessageBarBody>
        </MessageBar>
      )}
      {isFailed && (
        <div className={styles.actions}>
          {canRetry && (
            <Button
              appearance="primary"
              className={styles.button}
              onClick={() => verification.send({ type: 'verification.retry' })}
            >
              {intl.formatMessage({ id: 'common.retry' })}
            </Button>
          )}
          <Button
            appearance={canRetry ? 'secondary' : 'primary'}
            className={styles.button}
            onClick={() => verification.send({ type: 'verification.reset' })}
          >
            {intl.formatMessage({ id: 'verify.chooseAnother' })}
          </Button>
        </div>
      )}
      {isChoosing && <DropZone onFiles={select} />}
      {isUploading && (
        <Spinner
          className={styles.busy}
          labelPosition="after"
          label={intl.formatMessage({ id: 'verify.checking' }, { name: fileName })}
          role="status"
        />
      )}
      {report !== null && (
        <>
          <ReportSummary report={report} fileName={fileName} />
          <SignatureList report={report} />
          <div className={styles.actions}>
            <Button
              appearance="primary"
              className={styles.button}
              onClick={() => verification.send({ type: 'verification.reset' })}
            >
              {intl.formatMessage({ id: 'verify.another' })}
            </Button>
          </div>
        </>
      )}
    </div>
  );
}
