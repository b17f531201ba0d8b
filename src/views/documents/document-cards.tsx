// Under 768 px the list is a column of cards; a tap opens the details page (spec 000 §2).
import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { Caption1, Text } from '../text';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import { Link } from 'wouter';
import { formatDateTime, truncateName } from '../format';
import { useOwnerText, useStatusText } from './document-text';
import { DOCUMENT_ROW_DELAY_MS, rowEntranceDelay, useRowEntranceStyles } from '../row-entrance';
import type { DocumentListActor } from './list-actor';

const useStyles = makeStyles({
  list: {
    listStyle: 'none',
    margin: 0,
    padding: 0,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
  },
  card: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXXS,
    minHeight: '40px',
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusMedium,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground1,
    color: tokens.colorNeutralForeground1,
    textDecoration: 'none',
    overflowWrap: 'anywhere',
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}` },
  },
  // The document just uploaded (or picked on a wider screen) stays recognisable on a phone.
  selected: {
    border: `2px solid ${tokens.colorBrandStroke1}`,
    backgroundColor: tokens.colorBrandBackground2,
  },
  name: { fontWeight: tokens.fontWeightSemibold },
  meta: { color: tokens.colorNeutralForeground3 },
});

export function DocumentCards({ list }: { list: DocumentListActor }) {
  const styles = useStyles();
  const entrance = useRowEntranceStyles();
  const intl = useIntl();
  const ownerText = useOwnerText();
  const statusText = useStatusText();
  const documents = useSelector(list, (snapshot) => snapshot.context.documents);
  const selectedIds = useSelector(list, (snapshot) => snapshot.context.selectedIds);
  return (
    <ul className={styles.list} aria-label={intl.formatMessage({ id: 'documents.list.label' })}>
      {documents.map((document, index) => {
        const { attributes } = document;
        const isSelected = selectedIds.includes(document.id);
        return (
          <li
            key={document.id}
            className={entrance.enter}
            style={rowEntranceDelay(index, DOCUMENT_ROW_DELAY_MS)}
          >
            <Link
              href={`/document/details/${document.id}`}
              className={mergeClasses(styles.card, isSelected && styles.selected)}
              aria-current={isSelected ? 'true' : undefined}
            >
              <Text className={styles.name} title={attributes.originalFilename}>
                {truncateName(attributes.originalFilename)}
              </Text>
              <Text>{statusText(attributes)}</Text>
              <Caption1 className={styles.meta}>
                {formatDateTime(intl, attributes.createdAt)} · {ownerText(attributes)}
              </Caption1>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
