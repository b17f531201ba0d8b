// The sign screen's document information (spec 001 §2): file name, uploaded date, size and owner, the
// owner marked as the user when it is them.
import { makeStyles, tokens } from '@fluentui/react-components';
import { useIntl } from 'react-intl';
import type { DocumentResource } from '../../../machines/types';
import { formatDateTime, formatFileSize, truncateName } from '../format';

const useStyles = makeStyles({
  list: {
    display: 'grid',
    gridTemplateColumns: 'max-content minmax(0, 1fr)',
    columnGap: tokens.spacingHorizontalL,
    rowGap: tokens.spacingVerticalXS,
    margin: 0,
    overflowWrap: 'anywhere',
  },
  row: { display: 'contents' },
  term: { color: tokens.colorNeutralForeground3 },
  value: { margin: 0 },
});

export function DocumentBlock({ document }: { document: DocumentResource }) {
  const styles = useStyles();
  const intl = useIntl();
  const { attributes } = document;
  const ownerName = attributes.creatorFullName || attributes.creatorEmailAddress;
  const rows = [
    {
      term: 'documents.sign.document.name',
      value: <span title={attributes.originalFilename}>{truncateName(attributes.originalFilename)}</span>,
    },
    { term: 'documents.sign.document.uploaded', value: formatDateTime(intl, attributes.createdAt) },
    {
      term: 'documents.sign.document.size',
      value: formatFileSize(intl, attributes.fileSize, attributes.humanFilesize),
    },
    {
      term: 'documents.sign.document.owner',
      value: attributes.isOwner
        ? intl.formatMessage({ id: 'documents.owner.you' }, { name: ownerName })
        : ownerName,
    },
  ] as const;
  return (
    <dl className={styles.list} aria-label={intl.formatMessage({ id: 'documents.sign.document.label' })}>
      {rows.map((row) => (
        <div key={row.term} className={styles.row}>
          <dt className={styles.term}>{intl.formatMessage({ id: row.term })}</dt>
          <dd className={styles.value}>{row.value}</dd>
        </div>
      ))}
    </dl>
  );
}
