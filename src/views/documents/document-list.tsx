// One document list screen (All, a category, or the archive): heading, search and sort, the rows as a
// table or cards, selection, paging, and the loading / error / empty states. Everything it shows comes
// from the document-list actor it starts; it only sends events.
import { useCallback, useDeferredValue, useEffect, useRef } from 'react';
import { makeStyles, tokens } from '@fluentui/react-components';
import { Title2 } from '../text';
import { useActorRef, useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import { useLocation } from 'wouter';
import { addressOfList } from '../../../machines/document-list.machine';
import { listAddressQuery, parseListAddress } from '../../../machines/list-address';
import type { DocumentCategory } from '../../../machines/types';
import { actorOptions } from '../../app/inspect';
import { usePageTitle } from '../../app/page-title';
import { useDocumentChanges } from '../../app/shell-context';
import type { ShellEmitted } from '../../../machines/shell.machine';
import type { MessageId } from '../../i18n/messages';
import { Busy } from '../busy';
import { loader, preloadedLazy } from '../preloaded-lazy';
import { FULL_TABLE_QUERY, MOBILE_QUERY, OWNER_COLUMN_QUERY, useMediaQuery } from '../use-media-query';
import { DocumentCards } from './document-cards';
import { DocumentTable } from './document-table';
import type { DocumentListActor, DocumentListLogic } from './list-actor';
import { DetailsAside } from './details-aside';
import { ListNotice } from './list-notice';
import { ListToolbar } from './list-toolbar';
import { Pager } from './pager';
import { SelectionBar } from './selection-bar';

// The error state loads only when a load fails, and the empty state when a list turns out empty (the
// loading state stays until it is here); the loading state uses the shell's light Busy rather than
// Fluent's Spinner: none of them weighs on the list's path. Neither suspends: React would keep the
// loading state 300 ms after their code arrived (preloaded-lazy.tsx).
const ListError = preloadedLazy(
  loader(() => import('./list-error')),
  (module) => module.ListError,
);
const ListEmpty = preloadedLazy(
  loader(() => import('./list-empty')),
  (module) => module.ListEmpty,
  <ListLoading />,
);

function ListLoading() {
  const intl = useIntl();
  return <Busy label={intl.formatMessage({ id: 'documents.loading' })} />;
}

const TITLES: Record<DocumentCategory, MessageId> = {
  active: 'documents.pageTitle.active',
  to_do: 'documents.pageTitle.to_do',
  in_progress: 'documents.pageTitle.in_progress',
  done: 'documents.pageTitle.done',
  failed: 'documents.pageTitle.failed',
  uploaded: 'documents.pageTitle.uploaded',
  archived: 'documents.pageTitle.archived',
};

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL, minWidth: 0 },
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

function ListBody({ list, category }: { list: DocumentListActor; category: DocumentCategory }) {
  const styles = useStyles();
  const isMobile = useMediaQuery(MOBILE_QUERY);
  const isFullTable = useMediaQuery(FULL_TABLE_QUERY);
  const hasOwnerColumn = useMediaQuery(OWNER_COLUMN_QUERY);
  const isLoading = useSelector(list, (snapshot) => snapshot.matches('loading'));
  // A new state of the body (the rows' first render above all) comes in the background, in slices: an
  // actor's change renders at once and whole, and a page of rows blocks a slow phone for a while.
  const body = useDeferredValue(
    useSelector(list, (snapshot) => {
      if (snapshot.matches('failed')) return 'failed';
      if (snapshot.matches('loading') && snapshot.context.documents.length === 0) return 'busy';
      return snapshot.matches('empty') ? 'empty' : 'rows';
    }),
  );
  const isSearch = useSelector(list, (snapshot) => snapshot.context.isSearch);

  if (body === 'failed') {
    return <ListError isSearch={isSearch} onRetry={() => list.send({ type: 'list.refresh' })} />;
  }
  if (body === 'busy') return <ListLoading />;
  if (body === 'empty') return <ListEmpty list={list} category={category} />;
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

  useDocumentChanges(
    useCallback(
      (event: ShellEmitted) =>
        list.send({ type: 'list.refresh', ...(event.selectId ? { selectId: event.selectId } : {}) }),
      [list],
    ),
  );

  useListAddress(list, query);

  return (
    <section className={styles.page} aria-labelledby="documents-heading">
      <Title2 as="h1" id="documents-heading">
        {title}
      </Title2>
      <ListNotice />
      <SelectionBar list={list}>
        <ListToolbar list={list} />
      </SelectionBar>
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
