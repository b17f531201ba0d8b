// A verification report in plain words: the document's verdict, then a card per signature (and document
// time-stamp) with its verdict first, what was found, and the details a careful reader checks: the signer,
// the times, the time-stamp, integrity, what the signature covers, what changed after it, revocation and
// the certificate chain. Everything taken from the PDF or its certificates is shown as text.
import type { ReactNode } from 'react';
import {
  Badge,
  Body1,
  Caption1,
  Card,
  Subtitle1,
  Subtitle2,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import {
  CheckmarkCircle24Filled,
  DismissCircle24Filled,
  QuestionCircle24Filled,
  Warning24Filled,
  type FluentIcon,
} from '@fluentui/react-icons';
import { useIntl, type IntlShape } from 'react-intl';
import type { VerificationReport, VerificationSignature } from '../../../machines/verification.machine';
import type { MessageId } from '../../i18n/messages';

type Verdict = VerificationSignature['verdict'] | VerificationReport['verdict'];
type Revocation = NonNullable<VerificationSignature['chain']['certificates'][number]['revocation']>;

const TONE: Record<Verdict, { icon: FluentIcon; color: 'success' | 'danger' | 'warning' | 'informative' }> = {
  valid: { icon: CheckmarkCircle24Filled, color: 'success' },
  invalid: { icon: DismissCircle24Filled, color: 'danger' },
  changed: { icon: Warning24Filled, color: 'warning' },
  untrusted: { icon: Warning24Filled, color: 'warning' },
  unsupported: { icon: QuestionCircle24Filled, color: 'informative' },
  no_signatures: { icon: QuestionCircle24Filled, color: 'informative' },
};

const useStyles = makeStyles({
  summary: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    padding: tokens.spacingHorizontalL,
  },
  headline: { display: 'flex', alignItems: 'flex-start', gap: tokens.spacingHorizontalS },
  headlineText: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS, minWidth: 0 },
  success: { color: tokens.colorPaletteGreenForeground1, flexShrink: 0 },
  danger: { color: tokens.colorPaletteRedForeground1, flexShrink: 0 },
  warning: { color: tokens.colorPaletteDarkOrangeForeground1, flexShrink: 0 },
  informative: { color: tokens.colorNeutralForeground2, flexShrink: 0 },
  facts: { margin: 0, paddingInlineStart: tokens.spacingHorizontalXL, color: tokens.colorNeutralForeground2 },
  list: {
    margin: 0,
    padding: 0,
    listStyle: 'none',
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalL,
  },
  card: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    padding: tokens.spacingHorizontalL,
  },
  cardHeader: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: tokens.spacingHorizontalS },
  title: { margin: 0, overflowWrap: 'anywhere' },
  problems: {
    margin: 0,
    paddingInlineStart: tokens.spacingHorizontalXL,
    display: 'grid',
    gap: tokens.spacingVerticalXS,
  },
  details: {
    margin: 0,
    display: 'grid',
    gridTemplateColumns: 'minmax(8rem, max-content) minmax(0, 1fr)',
    columnGap: tokens.spacingHorizontalL,
    rowGap: tokens.spacingVerticalS,
    '@media (max-width: 599px)': { gridTemplateColumns: 'minmax(0, 1fr)', rowGap: tokens.spacingVerticalXXS },
  },
  term: {
    fontWeight: tokens.fontWeightSemibold,
    '@media (max-width: 599px)': { marginTop: tokens.spacingVerticalS },
  },
  value: {
    margin: 0,
    overflowWrap: 'anywhere',
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXXS,
  },
  muted: { color: tokens.colorNeutralForeground2 },
  chain: {
    margin: 0,
    paddingInlineStart: tokens.spacingHorizontalXL,
    display: 'grid',
    gap: tokens.spacingVerticalS,
  },
  chainItem: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS },
  mono: {
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    overflowWrap: 'anywhere',
  },
});

function VerdictIcon({ verdict }: { verdict: Verdict }) {
  const styles = useStyles();
  const { icon: Icon, color } = TONE[verdict];
  return <Icon aria-hidden className={styles[color]} />;
}

const formatTime = (intl: IntlShape, iso: string): string =>
  intl.formatDate(iso, { dateStyle: 'medium', timeStyle: 'long' });

export function ReportSummary({ report, fileName }: { report: VerificationReport; fileName: string }) {
  const styles = useStyles();
  const intl = useIntl();
  const { verdict } = report;
  return (
    <Card className={styles.summary} role="group" aria-labelledby="verification-summary-title">
      <div className={styles.headline}>
        <VerdictIcon verdict={verdict} />
        <div className={styles.headlineText}>
          <Subtitle1 as="h2" id="verification-summary-title" className={styles.title}>
            {intl.formatMessage({ id: `verify.summary.${verdict}.title` })}
          </Subtitle1>
          <Body1>{intl.formatMessage({ id: `verify.summary.${verdict}.text` }, { name: fileName })}</Body1>
        </div>
      </div>
      <ul className={styles.facts}>
        <li className={styles.title}>
          {intl.formatMessage({ id: 'verify.summary.file' }, { name: fileName })}
        </li>
        {report.signatures.length > 0 && (
          <li>{intl.formatMessage({ id: 'verify.summary.count' }, { count: report.signatures.length })}</li>
        )}
        {report.level !== null && (
          <li>{intl.formatMessage({ id: 'verify.summary.level' }, { level: report.level })}</li>
        )}
        {report.hasDss && <li>{intl.formatMessage({ id: 'verify.summary.dss' })}</li>}
        {report.lastRevisionIsDocumentTimeStamp && (
          <li>{intl.formatMessage({ id: 'verify.summary.sealed' })}</li>
        )}
      </ul>
    </Card>
  );
}

function Detail({ term, children }: { term: string; children: ReactNode }) {
  const styles = useStyles();
  return (
    <>
      <dt className={styles.term}>{term}</dt>
      <dd className={styles.value}>{children}</dd>
    </>
  );
}

function revocationText(intl: IntlShape, revocation: Revocation | null): string {
  if (revocation === null || revocation.status === 'not_checked') {
    return intl.formatMessage({ id: 'verify.revocation.not_checked' });
  }
  const source = intl.formatMessage({ id: `verify.revocation.source.${revocation.source ?? 'dss'}` });
  const kind = revocation.kind === 'crl' ? 'CRL' : 'OCSP';
  const checkedAt = revocation.checkedAt === null ? '' : formatTime(intl, revocation.checkedAt);
  if (revocation.status === 'revoked') {
    return intl.formatMessage(
      { id: 'verify.revocation.revoked' },
      {
        time: revocation.revokedAt === null ? '' : formatTime(intl, revocation.revokedAt),
        reason: intl.formatMessage({ id: `verify.reason.${revocation.reason ?? 'unspecified'}` }),
        kind,
        source,
      },
    );
  }
  return intl.formatMessage(
    { id: `verify.revocation.${revocation.status}` },
    { time: checkedAt, kind, source },
  );
}

function timeStampStatus(timeStamp: NonNullable<VerificationSignature['timeStamp']>): MessageId {
  if (!timeStamp.isValid || !timeStamp.imprintMatches) return 'verify.timeStamp.invalid';
  return timeStamp.isTrusted ? 'verify.timeStamp.trusted' : 'verify.timeStamp.untrusted';
}

function changesText(signature: VerificationSignature): MessageId {
  if (!signature.changesAfter.isChanged) return 'verify.changes.none';
  return signature.changesAfter.onlyAllowed ? 'verify.changes.allowed' : 'verify.changes.other';
}

function coverageText(intl: IntlShape, signature: VerificationSignature, fileSize: number): string {
  const { byteRange } = signature;
  const values = { end: intl.formatNumber(byteRange.revisionEnd), size: intl.formatNumber(fileSize) };
  if (byteRange.coversWholeFile) return intl.formatMessage({ id: 'verify.coverage.wholeFile' }, values);
  if (byteRange.coversWholeRevision) return intl.formatMessage({ id: 'verify.coverage.revision' }, values);
  return intl.formatMessage({ id: 'verify.coverage.partial' }, values);
}

export function SignatureCard({
  signature,
  fileSize,
}: {
  signature: VerificationSignature;
  fileSize: number;
}) {
  const styles = useStyles();
  const intl = useIntl();
  const titleId = `verification-signature-${signature.index}`;
  const isStamp = signature.kind === 'document_time_stamp';
  const name = signature.signer.name ?? signature.signer.nameInDocument;
  const title = isStamp
    ? intl.formatMessage({ id: 'verify.signature.stampTitle' }, { index: signature.index })
    : name === null
      ? intl.formatMessage({ id: 'verify.signature.untitled' }, { index: signature.index })
      : intl.formatMessage({ id: 'verify.signature.title' }, { index: signature.index, name });
  const signingTime = signature.signingTime.claimed ?? signature.signingTime.cms;
  const { timeStamp } = signature;
  const signerCertificate = signature.chain.certificates[0];
  return (
    <li>
      <Card className={styles.card} role="article" aria-labelledby={titleId}>
        <div className={styles.cardHeader}>
          <VerdictIcon verdict={signature.verdict} />
          <Badge appearance="tint" color={TONE[signature.verdict].color} size="large">
            {intl.formatMessage({ id: `verify.verdict.${signature.verdict}` })}
          </Badge>
        </div>
        <Subtitle2 as="h3" id={titleId} className={styles.title}>
          {title}
        </Subtitle2>
        <Body1>{intl.formatMessage({ id: `verify.verdict.${signature.verdict}.text` })}</Body1>
        {signature.problems.length > 0 && (
          <ul className={styles.problems} aria-label={intl.formatMessage({ id: 'verify.problems.label' })}>
            {signature.problems.map((problem) => (
              <li key={problem}>{intl.formatMessage({ id: `verify.problem.${problem}` })}</li>
            ))}
          </ul>
        )}
        <dl className={styles.details}>
          <Detail
            term={intl.formatMessage({ id: isStamp ? 'verify.detail.authority' : 'verify.detail.signer' })}
          >
            <Text>{name ?? intl.formatMessage({ id: 'verify.detail.unknown' })}</Text>
            {signature.signer.email !== null && (
              <Text className={styles.muted}>{signature.signer.email}</Text>
            )}
          </Detail>
          {signature.signer.certificateSubject !== null && (
            <Detail term={intl.formatMessage({ id: 'verify.detail.certificate' })}>
              <Text className={styles.mono}>{signature.signer.certificateSubject}</Text>
            </Detail>
          )}
          {signingTime !== null && !isStamp && (
            <Detail term={intl.formatMessage({ id: 'verify.detail.signingTime' })}>
              <Text>{formatTime(intl, signingTime)}</Text>
              <Caption1 className={styles.muted}>
                {intl.formatMessage({ id: 'verify.detail.signingTime.claimed' })}
              </Caption1>
            </Detail>
          )}
          {timeStamp !== null && (
            <Detail term={intl.formatMessage({ id: 'verify.detail.timeStamp' })}>
              <Text>
                {timeStamp.time === null
                  ? intl.formatMessage({ id: 'verify.detail.unknown' })
                  : formatTime(intl, timeStamp.time)}
              </Text>
              {timeStamp.authority !== null && (
                <Text className={styles.muted}>
                  {intl.formatMessage(
                    { id: 'verify.timeStamp.authority' },
                    { authority: timeStamp.authority },
                  )}
                </Text>
              )}
              <Text>{intl.formatMessage({ id: timeStampStatus(timeStamp) })}</Text>
            </Detail>
          )}
          {signature.reason !== null && (
            <Detail term={intl.formatMessage({ id: 'verify.detail.reason' })}>
              <Text>{signature.reason}</Text>
            </Detail>
          )}
          {signature.location !== null && (
            <Detail term={intl.formatMessage({ id: 'verify.detail.location' })}>
              <Text>{signature.location}</Text>
            </Detail>
          )}
          <Detail term={intl.formatMessage({ id: 'verify.detail.integrity' })}>
            <Text>
              {signature.integrity.isIntact
                ? intl.formatMessage(
                    { id: 'verify.integrity.intact' },
                    { algorithm: signature.integrity.digestAlgorithm ?? '' },
                  )
                : intl.formatMessage({ id: 'verify.integrity.broken' })}
            </Text>
          </Detail>
          <Detail term={intl.formatMessage({ id: 'verify.detail.coverage' })}>
            <Text>{coverageText(intl, signature, fileSize)}</Text>
            {signature.byteRange.ranges.length > 0 && (
              <Text className={styles.mono}>
                {intl.formatMessage(
                  { id: 'verify.coverage.ranges' },
                  { ranges: signature.byteRange.ranges.join(' ') },
                )}
              </Text>
            )}
          </Detail>
          <Detail term={intl.formatMessage({ id: 'verify.detail.changesAfter' })}>
            <Text>{intl.formatMessage({ id: changesText(signature) })}</Text>
          </Detail>
          {signerCertificate !== undefined && (
            <Detail term={intl.formatMessage({ id: 'verify.detail.revocation' })}>
              <Text>{revocationText(intl, signerCertificate.revocation)}</Text>
            </Detail>
          )}
          {signature.chain.certificates.length > 0 && (
            <Detail term={intl.formatMessage({ id: 'verify.detail.chain' })}>
              <ol className={styles.chain}>
                {signature.chain.certificates.map((certificate) => (
                  <li key={certificate.fingerprint} className={styles.chainItem}>
                    <Text className={styles.mono}>{certificate.subject}</Text>
                    <Caption1 className={styles.muted}>
                      {intl.formatMessage({ id: 'verify.chain.issuedBy' }, { issuer: certificate.issuer })}
                    </Caption1>
                    <Caption1 className={styles.muted}>
                      {intl.formatMessage(
                        { id: 'verify.chain.validity' },
                        {
                          from: intl.formatDate(certificate.notBefore, { dateStyle: 'medium' }),
                          to: intl.formatDate(certificate.notAfter, { dateStyle: 'medium' }),
                        },
                      )}
                    </Caption1>
                    {certificate.isTrustAnchor && (
                      <Caption1>{intl.formatMessage({ id: 'verify.chain.anchor' })}</Caption1>
                    )}
                    {!certificate.isValidAtSigningTime && (
                      <Caption1>{intl.formatMessage({ id: 'verify.chain.notValidThen' })}</Caption1>
                    )}
                  </li>
                ))}
              </ol>
              <Text>
                {intl.formatMessage({
                  id: signature.chain.isTrusted ? 'verify.chain.trusted' : 'verify.chain.untrusted',
                })}
              </Text>
            </Detail>
          )}
        </dl>
      </Card>
    </li>
  );
}

export function SignatureList({ report }: { report: VerificationReport }) {
  const styles = useStyles();
  const intl = useIntl();
  if (report.signatures.length === 0) return null;
  return (
    <ol className={styles.list} aria-label={intl.formatMessage({ id: 'verify.signatures.label' })}>
      {report.signatures.map((signature) => (
        <SignatureCard key={signature.index} signature={signature} fileSize={report.fileSize} />
      ))}
    </ol>
  );
}
