// The one bar for what is selected in a document list (spec 000 §2 "Selection", §5 bulk actions): the bulk
// actions and "Clear selection", and on a phone "Open document" or the count. Where it sits never depends
// on the selection, so selecting a row never moves the rows under the pointer. From 768 px its row is
// always there, holding a hint while nothing is selected. On a phone a tap opens a card rather than
// selecting it, and a selection only arrives with an upload or a link: there the bar covers the toolbar
// (search and sort) while something is selected, instead of keeping an empty row above the cards.
import type { ReactNode } from 'react';
import { Button, makeStyles, tokens } from '@fluentui/react-components';
import { Text } from '../text';
import { Dismiss20Regular, Open20Regular } from '@fluentui/react-icons';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import { Link } from 'wouter';
import { MOBILE_QUERY, useMediaQuery } from '../use-media-query';
import { BulkActions } from './bulk-actions';
import type { DocumentListActor } from './list-actor';

const useStyles = makeStyles({
  // One row of one height whatever it holds: with too little width it scrolls sideways rather than
  // wrapping onto a second line. The 2 px around the 40 px buttons leave their focus outline visible.
  bar: {
    display: 'flex',
    flexWrap: 'nowrap',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    height: '44px',
    padding: '0 2px',
    overflowX: 'auto',
    overflowY: 'hidden',
  },
  hint: {
    minWidth: 0,
    color: tokens.colorNeutralForeground3,
    whiteSpace: 'nowrap',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
  },
  keep: { flexShrink: 0 },
  button: { minHeight: '40px', flexShrink: 0, whiteSpace: 'nowrap' },
  stack: { position: 'relative' },
  covered: { visibility: 'hidden' },
  cover: {
    position: 'absolute',
    top: 0,
    right: 0,
    bottom: 0,
    left: 0,
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    alignContent: 'center',
    gap: tokens.spacingHorizontalS,
    padding: tokens.spacingHorizontalM,
    overflowY: 'auto',
    borderRadius: tokens.borderRadiusMedium,
    border: `1px solid ${tokens.colorBrandStroke2}`,
    backgroundColor: tokens.colorBrandBackground2,
  },
  count: { flexBasis: '100%', fontWeight: tokens.fontWeightSemibold },
});

function ClearSelection({ list }: { list: DocumentListActor }) {
  const styles = useStyles();
  const intl = useIntl();
  return (
    <Button
      appearance="subtle"
      className={styles.button}
      icon={<Dismiss20Regular />}
      onClick={() => list.send({ type: 'selection.none' })}
    >
      {intl.formatMessage({ id: 'documents.selection.clear' })}
    </Button>
  );
}

/** From 768 px: the bar's row, there whether or not anything is selected. */
function WideBar({ list }: { list: DocumentListActor }) {
  const styles = useStyles();
  const intl = useIntl();
  const count = useSelector(list, (snapshot) => snapshot.context.selectedIds.length);
  const hasRows = useSelector(list, (snapshot) => snapshot.context.documents.length > 0);
  // An empty or failed list has no rows to keep in place, and says so in words of its own.
  const hasNoList = useSelector(list, (snapshot) => snapshot.matches('empty') || snapshot.matches('failed'));
  if (hasNoList) return null;
  return (
    <div className={styles.bar}>
      {count === 0 ? (
        hasRows && (
          <Text className={styles.hint}>{intl.formatMessage({ id: 'documents.selection.hint' })}</Text>
        )
      ) : (
        // The details panel beside the list counts the selection and offers "Open document".
        <>
          <div className={styles.keep}>
            <BulkActions list={list} />
          </div>
          <ClearSelection list={list} />
        </>
      )}
    </div>
  );
}

/** Under 768 px: over the toolbar while something is selected. */
function Cover({ list }: { list: DocumentListActor }) {
  const styles = useStyles();
  const intl = useIntl();
  const selectedIds = useSelector(list, (snapshot) => snapshot.context.selectedIds);
  const [onlyId] = selectedIds;
  return (
    <div className={styles.cover} role="status">
      {selectedIds.length === 1 && onlyId !== undefined ? (
        <Link href={`/document/${onlyId}`} asChild>
          <Button as="a" appearance="primary" className={styles.button} icon={<Open20Regular />}>
            {intl.formatMessage({ id: 'documents.open' })}
          </Button>
        </Link>
      ) : (
        <>
          <Text className={styles.count}>
            {intl.formatMessage({ id: 'documents.selection.count' }, { count: selectedIds.length })}
          </Text>
          <BulkActions list={list} />
        </>
      )}
      <ClearSelection list={list} />
    </div>
  );
}

/** The selection bar, with the list's toolbar (`children`), which it covers on a phone. */
export function SelectionBar({ list, children }: { list: DocumentListActor; children: ReactNode }) {
  const styles = useStyles();
  const isMobile = useMediaQuery(MOBILE_QUERY);
  const hasSelection = useSelector(list, (snapshot) => snapshot.context.selectedIds.length > 0);
  if (!isMobile) {
    return (
      <>
        {children}
        <WideBar list={list} />
      </>
    );
  }
  return (
    <div className={styles.stack}>
      {/* Hidden but still taking its room, and out of reach of keyboard and screen readers meanwhile. */}
      <div className={hasSelection ? styles.covered : undefined} inert={hasSelection}>
        {children}
      </div>
      {hasSelection && <Cover list={list} />}
    </div>
  );
}
