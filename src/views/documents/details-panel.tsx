// The details side panel (spec 000 §2, from 768 px beside the list) and the participants of the document
// page: name, owner, size, status, uploaded date, the reviewers and signatories with their participant
// states (spec 000 §4), every action the person may take on it (document-actions-bar.tsx), an
// open-document button and a preview of the first page; several selected documents show their count.
// Everything comes from a document-details actor; the view only follows the selection it is given.
import { useCallback, useEffect } from 'react';
import {
  Button,
  Caption1,
  Subtitle2,
  Text,
  makeStyles,
  mergeClasses,
  tokens,
} from '@fluentui/react-components';
import { Open20Regular } from '@fluentui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import type { ActorRefFrom } from 'xstate';
import { Link } from 'wouter';
import type { Participant, documentDetailsMachine } from '../../../machines/document-details.machine';
import type { DocumentResource } from '../../../machines/types';
import { actorOptions } from '../../app/inspect';
import { auditTrailDownloadLogic } from '../../app/compose-audit-trail';
import { useDocumentChanges } from '../../app/shell-context';
import type { MessageId } from '../../i18n/messages';
import { Busy } from '../busy';
import { formatDateTime, formatFileSize, truncateName } from '../format';
import { AuditTrailButton } from './audit-trail-button';
import { DocumentActionsBar } from './document-actions-bar';
import { useOwnerText, useStatusText } from './document-text';

export type DocumentDetailsLogic = typeof documentDetailsMachine;
type DetailsActor = ActorRefFrom<DocumentDetailsLogic>;

/** `list`: the side panel beside a list; `page`: the document page, which has its own viewer and buttons. */
export type DetailsPanelVariant = 'list' | 'page';

const useStyles = makeStyles({
  panel: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    minWidth: 0,
    overflowWrap: 'anywhere',
  },
  // Spec 000 §9: 360 px, 280 px on tablets (768-959 px).
  aside: {
    boxSizing: 'border-box',
    width: '360px',
    flex: '0 0 360px',
    padding: tokens.spacingHorizontalL,
    borderLeft: `1px solid ${tokens.colorNeutralStroke2}`,
    '@media (min-width: 768px) and (max-width: 959px)': { width: '280px', flexBasis: '280px' },
  },
  details: {
    display: 'grid',
    gridTemplateColumns: 'max-content minmax(0, 1fr)',
    columnGap: tokens.spacingHorizontalL,
    rowGap: tokens.spacingVerticalS,
    margin: 0,
  },
  term: { color: tokens.colorNeutralForeground3 },
  value: { margin: 0 },
  muted: { color: tokens.colorNeutralForeground3 },
  people: { listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: '6px' },
  person: { display: 'flex', flexDirection: 'column' },
  // Spec 000 §9: the preview box is 270 px.
  preview: {
    boxSizing: 'border-box',
    width: '100%',
    maxWidth: '270px',
    height: '270px',
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    overflow: 'hidden',
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground3,
    textAlign: 'center',
    padding: tokens.spacingHorizontalS,
  },
  previewImage: { maxWidth: '100%', maxHeight: '100%', objectFit: 'contain' },
  button: { minHeight: '40px', alignSelf: 'flex-start' },
});

const PARTICIPANT_STATE_TEXTS: Record<Participant['state'], MessageId> = {
  signed: 'documents.participant.signed',
  invited: 'documents.participant.waiting',
  pending: 'documents.participant.waiting',
  new: 'documents.participant.new',
  refused: 'documents.participant.refused',
  otherrefused: 'documents.participant.otherrefused',
  approved: 'documents.participant.approved',
  rejected: 'documents.participant.rejected',
  otherrejected: 'documents.participant.otherrejected',
};

// The API calls everyone who had not acted when the flow ended `otherrefused` / `otherrejected`
// (docs/api.md). The document's state says who ended it: the owner's cancel, or enough signatures.
function endedText(documentState: string): MessageId | null {
  if (documentState === 'cancelled') return 'documents.participant.flowCancelled';
  if (documentState === 'signed') return 'documents.participant.notNeeded';
  return null;
}

function useParticipantStateText(documentState: string): (participant: Participant) => string {
  const intl = useIntl();
  return (participant) => {
    const date = participant.state === 'signed' ? participant.signedAt : participant.refusedAt;
    const isEndedByOthers = participant.state === 'otherrefused' || participant.state === 'otherrejected';
    const id =
      (isEndedByOthers ? endedText(documentState) : null) ?? PARTICIPANT_STATE_TEXTS[participant.state];
    return intl.formatMessage({ id }, { date: date ? formatDateTime(intl, date) : '' });
  };
}

function People({
  title,
  people,
  documentState,
}: {
  title: string;
  people: Participant[];
  documentState: string;
}) {
  const styles = useStyles();
  const stateText = useParticipantStateText(documentState);
  if (people.length === 0) return null;
  return (
    <section aria-label={title}>
      <Subtitle2 as="h3">{title}</Subtitle2>
      <ul className={styles.people}>
        {people.map((person) => (
          <li key={person.id} className={styles.person}>
            <Text>{person.fullName || person.emailAddress}</Text>
            <Caption1 className={styles.muted}>{stateText(person).trim()}</Caption1>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Participants({ details }: { details: DetailsActor }) {
  const styles = useStyles();
  const intl = useIntl();
  const isLoading = useSelector(details, (snapshot) => snapshot.matches({ one: 'loadingParticipants' }));
  const isFailed = useSelector(details, (snapshot) => snapshot.matches({ one: 'participantsFailed' }));
  const participants = useSelector(details, (snapshot) => snapshot.context.participants);
  const documentState = useSelector(details, (snapshot) => snapshot.context.document?.attributes.state ?? '');
  if (isLoading) {
    return (
      <Caption1 className={styles.muted} role="status">
        {intl.formatMessage({ id: 'documents.details.participants.loading' })}
      </Caption1>
    );
  }
  if (isFailed) {
    return (
      <Caption1 className={styles.muted}>
        {intl.formatMessage({ id: 'documents.details.participants.failed' })}
      </Caption1>
    );
  }
  if (!participants) return null;
  return (
    <>
      <People
        title={intl.formatMessage({ id: 'documents.details.reviewers' })}
        people={participants.reviewers}
        documentState={documentState}
      />
      <People
        title={intl.formatMessage({ id: 'documents.details.signatories' })}
        people={participants.signatories}
        documentState={documentState}
      />
    </>
  );
}

function Preview({ document }: { document: DocumentResource }) {
  const styles = useStyles();
  const intl = useIntl();
  const { attributes } = document;
  const [firstPage] = attributes.publicImagesFileUrls;
  return (
    <div className={styles.preview}>
      {firstPage && !attributes.processing ? (
        <img
          className={styles.previewImage}
          src={firstPage}
          alt={intl.formatMessage({ id: 'documents.details.preview' }, { name: attributes.originalFilename })}
        />
      ) : (
        <Text className={styles.muted}>{intl.formatMessage({ id: 'documents.details.processing' })}</Text>
      )}
    </div>
  );
}

function OneDocument({ details, variant }: { details: DetailsActor; variant: DetailsPanelVariant }) {
  const styles = useStyles();
  const intl = useIntl();
  const ownerText = useOwnerText();
  const statusText = useStatusText();
  const document = useSelector(details, (snapshot) => snapshot.context.document);
  if (!document) return null;
  const { attributes } = document;
  const rows: [string, string][] = [
    [intl.formatMessage({ id: 'document.details.name' }), truncateName(attributes.originalFilename)],
    [intl.formatMessage({ id: 'document.details.owner' }), ownerText(attributes)],
    [
      intl.formatMessage({ id: 'document.details.size' }),
      formatFileSize(intl, attributes.fileSize, attributes.humanFilesize),
    ],
    [intl.formatMessage({ id: 'document.details.status' }), statusText(attributes)],
    [intl.formatMessage({ id: 'document.details.uploaded' }), formatDateTime(intl, attributes.createdAt)],
  ];
  return (
    <>
      <dl className={styles.details}>
        {rows.map(([term, value]) => (
          <div key={term} style={{ display: 'contents' }}>
            <dt>
              <Caption1 className={styles.term}>{term}</Caption1>
            </dt>
            <dd className={styles.value}>
              <Text>{value}</Text>
            </dd>
          </div>
        ))}
      </dl>
      <DocumentActionsBar document={document} />
      {attributes.isSignFlow && <Participants details={details} />}
      <AuditTrailButton
        key={document.id}
        logic={auditTrailDownloadLogic}
        documentId={document.id}
        originalFilename={attributes.originalFilename}
      />
      {variant === 'list' && (
        <>
          <Link href={`/document/${document.id}`} asChild>
            <Button as="a" appearance="primary" className={styles.button} icon={<Open20Regular />}>
              {intl.formatMessage({ id: 'documents.open' })}
            </Button>
          </Link>
          <Preview document={document} />
        </>
      )}
    </>
  );
}

function PanelBody({ details, variant }: { details: DetailsActor; variant: DetailsPanelVariant }) {
  const styles = useStyles();
  const intl = useIntl();
  const state = useSelector(details, (snapshot) =>
    snapshot.matches('one')
      ? 'one'
      : snapshot.matches('loading')
        ? 'loading'
        : snapshot.matches('failed')
          ? 'failed'
          : snapshot.matches('several')
            ? 'several'
            : 'none',
  );
  const count = useSelector(details, (snapshot) => snapshot.context.selectedIds.length);
  switch (state) {
    case 'one':
      return <OneDocument details={details} variant={variant} />;
    case 'loading':
      return <Busy label={intl.formatMessage({ id: 'documents.details.loading' })} />;
    case 'failed':
      return (
        <>
          <Text role="alert">{intl.formatMessage({ id: 'documents.details.failed' })}</Text>
          <Button className={styles.button} onClick={() => details.send({ type: 'details.reload' })}>
            {intl.formatMessage({ id: 'documents.details.retry' })}
          </Button>
        </>
      );
    case 'several':
      return <Text>{intl.formatMessage({ id: 'documents.selection.count' }, { count })}</Text>;
    default:
      return <Text className={styles.muted}>{intl.formatMessage({ id: 'documents.details.none' })}</Text>;
  }
}

export type DetailsPanelProps = {
  logic: DocumentDetailsLogic;
  selectedIds: string[];
  variant?: DetailsPanelVariant;
};

export function DetailsPanel({ logic, selectedIds, variant = 'list' }: DetailsPanelProps) {
  const styles = useStyles();
  const intl = useIntl();
  const details = useActorRef(logic, actorOptions({ input: { selectedIds } }));
  // The machine ignores a selection it already shows, so sending on every change of the ids is cheap.
  const key = selectedIds.join(' ');
  useEffect(() => {
    details.send({ type: 'selection.changed', ids: key === '' ? [] : key.split(' ') });
  }, [details, key]);
  // After an action (a cancelled flow, an approval) the flags and participants shown are out of date.
  useDocumentChanges(useCallback(() => details.send({ type: 'details.reload' }), [details]));
  return (
    <aside
      className={mergeClasses(styles.panel, variant === 'list' && styles.aside)}
      aria-label={intl.formatMessage({ id: 'documents.details.label' })}
    >
      <PanelBody details={details} variant={variant} />
    </aside>
  );
}

export default DetailsPanel;
