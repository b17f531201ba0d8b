// One document list screen (All, a category, or the archive): heading, search and sort, the rows as a
// table or cards, selection, paging, and the loading / error / empty states. Everything it shows comes
// from the document-list actor it starts; it only sends events.
import { lazy, Suspense, useEffect, useRef } from 'react';
import { Button, Text, Title2, makeStyles, tokens } from '@fluentui/react-components';
import { Open20Regular } from '@fluentui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import { Link, useLocation } from 'wouter';
import { addressOfList } from '../../../machines/document-list.machine';
import { listAddressQuery, parseListAddress } from '../../../machines/list-address';
import type { DocumentCategory } from '../../../machines/types';
import { actorOptions } from '../../app/inspect';
import { usePageTitle } from '../../app/page-title';
import type { MessageId } from '../../i18n/messages';
import { onListRefresh } from '../../services/list-events';
import { Busy } from '../busy';
import { FULL_TABLE_QUERY, MOBILE_QUERY, OWNER_COLUMN_QUERY, useMediaQuery } from '../use-media-query';
import { DocumentCards } from './document-cards';
import { DocumentTable } from './document-table';
import type { DocumentListActor, DocumentListLogic } from './list-actor';
import { DetailsAside } from './details-aside';
import { ListNotice } from './list-notice';
import { ListToolbar } from './list-toolbar';
import { Pager } from './pager';
import { BulkActions } from './bulk-actions';

// The error state loads only when a load fails; the loading state uses the shell's light Busy rather
// than Fluent's Spinner: neither weighs on the list's path.
const ListError = lazy(() => import('./list-error').then((module) => ({ default: module.ListError })));

const TITLES: Record<DocumentCategory, MessageId> = {
  active: 'documents.pageTitle.active',
  to_do: 'documents.pageTitle.to_do',
  in_progress: 'documents.pageTitle.in_progress',
  done: 'documents.pageTitle.done',
  failed: 'documents.pageTitle.failed',
  uploaded: 'documents.pageTitle.uploaded',
  archived: 'documents.pageTitle.archived',
};

const EMPTY_TEXTS: Record<DocumentCategory, MessageId> = {
  active: 'documents.empty.active',
  to_do: 'documents.empty.to_do',
  in_progress: 'documents.empty.in_progress',
  done: 'documents.empty.done',
  failed: 'documents.empty.failed',
  uploaded: 'documents.empty.uploaded',
  archived: 'documents.empty.archived',
};

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL, minWidth: 0 },
  selection: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
    minHeight: '40px',
  },
  button: { minHeight: '40px' },
  empty: {
    padding: `${tokens.spacingVerticalXXL} 0`,
    textAlign: 'center',
    color: tokens.colorNeutralForeground2,
  },
  busy: { opacity: 0.6, transitionProperty: 'opacity', transitionDuration: '150ms' },
  workspace: { display: 'flex', alignItems: 'flex-start', gap: tokens.spacingHorizontalL, minWidth: 0 },
  main: {
    flex: '1 1 auto',
    minWidth: 0,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalL,
  },
});

function SelectionBar({ list }: { list: DocumentListActor }) {
  const styles = useStyles();
  const intl = useIntl();
  const selectedIds = useSelector(list, (snapshot) => snapshot.context.selectedIds);
  // From 768 px the details panel already offers "Open document" and counts the selection.
  const hasDetailsPanel = !useMediaQuery(MOBILE_QUERY);
  if (selectedIds.length === 0) return null;
  const [onlyId] = selectedIds;
  return (
    <div className={styles.selection} role="status">
      {hasDetailsPanel ? null : selectedIds.length === 1 && onlyId !== undefined ? (
        <Link href={`/document/${onlyId}`} asChild>
          <Button as="a" appearance="primary" className={styles.button} icon={<Open20Regular />}>
            {intl.formatMessage({ id: 'documents.open' })}
          </Button>
        </Link>
      ) : (
        <Text>{intl.formatMessage({ id: 'documents.selection.count' }, { count: selectedIds.length })}</Text>
      )}
      <Button
        appearance="subtle"
        className={styles.button}
        onClick={() => list.send({ type: 'selection.none' })}
      >
        {intl.formatMessage({ id: 'documents.selection.clear' })}
      </Button>
    </div>
  );
}

function ListBody({ list, category }: { list: DocumentListActor; category: DocumentCategory }) {
  const styles = useStyles();
  const intl = useIntl();
  const isMobile = useMediaQuery(MOBILE_QUERY);
  const isFullTable = useMediaQuery(FULL_TABLE_QUERY);
  const hasOwnerColumn = useMediaQuery(OWNER_COLUMN_QUERY);
  const isLoading = useSelector(list, (snapshot) => snapshot.matches('loading'));
  const isFailed = useSelector(list, (snapshot) => snapshot.matches('failed'));
  const isEmpty = useSelector(list, (snapshot) => snapshot.matches('empty'));
  const hasRows = useSelector(list, (snapshot) => snapshot.context.documents.length > 0);
  const isSearch = useSelector(list, (snapshot) => snapshot.context.isSearch);
  const appliedSearch = useSelector(list, (snapshot) => snapshot.context.appliedSearch);

  if (isFailed) {
    return (
      <Suspense fallback={null}>
        <ListError isSearch={isSearch} onRetry={() => list.send({ type: 'list.refresh' })} />
      </Suspense>
    );
  }
  if (isLoading && !hasRows) {
    return <Busy label={intl.formatMessage({ id: 'documents.loading' })} />;
  }
  if (isEmpty) {
    return (
      <Text as="p" className={styles.empty}>
        {appliedSearch
          ? intl.formatMessage({ id: 'documents.empty.search' }, { term: appliedSearch })
          : intl.formatMessage({ id: EMPTY_TEXTS[category] })}
      </Text>
    );
  }
  return (
    <div className={isLoading ? styles.busy : undefined}>
      {isMobile ? (
        <DocumentCards list={list} />
      ) : (
        <DocumentTable list={list} showSelectAll={isFullTable} showOwnerColumn={hasOwnerColumn} />
      )}
    </div>
  );
}

function ListDetails({ list }: { list: DocumentListActor }) {
  const isMobile = useMediaQuery(MOBILE_QUERY);
  const selectedIds = useSelector(list, (snapshot) => snapshot.context.selectedIds);
  if (isMobile) return null;
  return <DetailsAside selectedIds={selectedIds} />;
}

export type DocumentListProps = {
  logic: DocumentListLogic;
  category: DocumentCategory;
  /** The address's query: page, search, sort and selection (machines/list-address.ts). */
  query?: string;
};

// The address says what the list shows, so that back and reload come to the same page, search, sort and
// selection. The actor owns that state; the address only mirrors it (replaced, not pushed: paging and
// selecting are not steps to go back through), and a new address from outside (a link, an upload
// showing its document) is sent to the actor.
function useListAddress(list: DocumentListActor, query: string): void {
  const [location, navigate] = useLocation();
  const shown = useSelector(list, (snapshot) =>
    snapshot.hasTag('busy') ? null : listAddressQuery(addressOfList(snapshot.context)),
  );
  const incoming = listAddressQuery(parseListAddress(query));
  const written = useRef(incoming);
  useEffect(() => {
    if (shown === null || shown === written.current) return;
    written.current = shown;
    navigate(`${location}${shown}`, { replace: true });
  }, [shown, location, navigate]);
  useEffect(() => {
    if (incoming === written.current) return;
    written.current = incoming;
    list.send({ type: 'address.changed', address: parseListAddress(incoming) });
  }, [incoming, list]);
}

export function DocumentList({ logic, category, query = '' }: DocumentListProps) {
  const styles = useStyles();
  const intl = useIntl();
  const list = useActorRef(logic, actorOptions({ input: { category, address: parseListAddress(query) } }));
  const title = intl.formatMessage({ id: TITLES[category] });
  usePageTitle(title);

  useEffect(
    () => onListRefresh((id) => list.send({ type: 'list.refresh', ...(id ? { selectId: id } : {}) })),
    [list],
  );

  useListAddress(list, query);

  return (
    <section className={styles.page} aria-labelledby="documents-heading">
      <Title2 as="h1" id="documents-heading">
        {title}
      </Title2>
      <ListNotice />
      <ListToolbar list={list} />
      <SelectionBar list={list} />
      <BulkActions list={list} />
      <div className={styles.workspace}>
        <div className={styles.main}>
          <ListBody list={list} category={category} />
          <Pager list={list} />
        </div>
        <ListDetails list={list} />
      </div>
    </section>
  );
}
