// One document list screen (All, To Do, ..., Archive): search, sort, page links, selection, and the
// loading / error / empty states of spec 000 §2 and §4 "List loading". Started when a list screen mounts
// (with the category and the address it was opened with: page, search, sort and selection, see
// list-address.ts), stopped when it unmounts. `addressOfList` answers the address of what it shows.
import { and, assign, fromPromise, setup } from 'xstate';
import type {
  DocumentCategory,
  DocumentPage,
  DocumentResource,
  FetchPageInput,
  ListLinks,
  ListMeta,
  ListSort,
  SortColumn,
  SortDirection,
} from './types';
import { toErrorCode } from './types.ts';
import { DEFAULT_ADDRESS, DEFAULT_SORT, type ListAddress } from './list-address.ts';

export type DocumentListInput = { category: DocumentCategory; address?: ListAddress };

export type DocumentListContext = {
  category: DocumentCategory;
  /** What the search box holds. */
  search: string;
  /** The trimmed term the shown page was asked with. */
  appliedSearch: string;
  sort: ListSort;
  /** The pagination link to load; null loads `firstPage` from category, search and sort. */
  pageUrl: string | null;
  /** The page number to load when there is no link to follow (1, or the address's page). */
  firstPage: number;
  documents: DocumentResource[];
  links: ListLinks | null;
  meta: ListMeta | null;
  selectedIds: string[];
  /** Selected once the next page arrives (after an upload or list.refresh { selectId }). */
  pendingSelectId: string | null;
  errorCode: string | null;
  isSearch: boolean;
};

export type DocumentListEvent =
  | { type: 'list.refresh'; selectId?: string }
  /** Someone went to another address of this list (a link, an upload showing its document). */
  | { type: 'address.changed'; address: ListAddress }
  | { type: 'search.changed'; term: string }
  | { type: 'search.submit' }
  | { type: 'search.clear' }
  | { type: 'sort.changed'; direction: SortDirection; column?: SortColumn }
  | { type: 'page.first' }
  | { type: 'page.prev' }
  | { type: 'page.next' }
  | { type: 'page.last' }
  | { type: 'row.click'; id: string; toggle: boolean }
  | { type: 'row.checkbox'; id: string }
  | { type: 'selection.all' }
  | { type: 'selection.none' };

export { DEFAULT_SORT };

/** The address of what the list shows (or is about to show): what its URL should say. */
export function addressOfList(context: DocumentListContext): ListAddress {
  return {
    // Without a link to follow, the page asked for (a new search or sort starts again at 1); after one,
    // the page the server said it is.
    page: context.pageUrl === null ? context.firstPage : (context.meta?.currentPage ?? context.firstPage),
    search: context.appliedSearch,
    sort: context.sort,
    selectedIds: context.selectedIds,
  };
}

function fetchPageInput({ context }: { context: DocumentListContext }): FetchPageInput {
  return {
    category: context.category,
    url: context.pageUrl,
    page: context.firstPage,
    search: context.appliedSearch,
    sort: context.sort,
  };
}

const pageOfOutput = ({ event }: { event: { output: DocumentPage } }) => ({ page: event.output });
const codeOfError = ({ event }: { event: { error: unknown } }) => ({ code: toErrorCode(event.error) });
const termOfEvent = ({ event }: { event: { term: string } }) => ({ term: event.term });
const sortOfEvent = ({ event }: { event: { direction: SortDirection; column?: SortColumn } }) => ({
  direction: event.direction,
  column: event.column ?? null,
});
const selectIdOfEvent = ({ event }: { event: { selectId?: string } }) => ({
  selectId: event.selectId ?? null,
});
const addressOfEvent = ({ event }: { event: { address: ListAddress } }) => ({ address: event.address });
const rowOfEvent = ({ event }: { event: { id: string } }) => ({ id: event.id });
const clickOfEvent = ({ event }: { event: { id: string; toggle: boolean } }) => ({
  id: event.id,
  toggle: event.toggle,
});
const prevLinkOfOutput = ({ event }: { event: { output: DocumentPage } }) => ({
  url: event.output.links.prev,
});
const firstLink = ({ context }: { context: DocumentListContext }) => ({ url: context.links?.first ?? null });
const prevLink = ({ context }: { context: DocumentListContext }) => ({ url: context.links?.prev ?? null });
const nextLink = ({ context }: { context: DocumentListContext }) => ({ url: context.links?.next ?? null });
const lastLink = ({ context }: { context: DocumentListContext }) => ({ url: context.links?.last ?? null });

function keptSelection(context: DocumentListContext, documents: DocumentResource[]): string[] {
  const ids = new Set(documents.map((document) => document.id));
  if (context.pendingSelectId !== null && ids.has(context.pendingSelectId)) return [context.pendingSelectId];
  return context.selectedIds.filter((id) => ids.has(id));
}

function toggled(ids: string[], id: string): string[] {
  return ids.includes(id) ? ids.filter((selected) => selected !== id) : [...ids, id];
}

export const documentListMachine = setup({
  types: {
    context: {} as DocumentListContext,
    events: {} as DocumentListEvent,
    input: {} as DocumentListInput,
    tags: {} as 'busy' | 'error',
  },
  actors: {
    fetchPage: fromPromise<DocumentPage, FetchPageInput>(async () => {
      throw new Error('fetchPage not provided');
    }),
  },
  actions: {
    scrollToTop: () => {},
    showPage: assign(({ context }, params: { page: DocumentPage }) => ({
      documents: params.page.data,
      links: params.page.links,
      meta: params.page.meta,
      selectedIds: keptSelection(context, params.page.data),
      pendingSelectId: null,
      errorCode: null,
    })),
    followLink: assign((_, params: { url: string | null }) => ({ pageUrl: params.url })),
    rememberError: assign((_, params: { code: string }) => ({ errorCode: params.code })),
    typeSearch: assign((_, params: { term: string }) => ({ search: params.term })),
    applySearch: assign(({ context }) => {
      const appliedSearch = context.search.trim();
      return { appliedSearch, isSearch: appliedSearch !== '', pageUrl: null, firstPage: 1 };
    }),
    clearSearch: assign({ search: '', appliedSearch: '', isSearch: false, pageUrl: null, firstPage: 1 }),
    changeSort: assign(({ context }, params: { direction: SortDirection; column: SortColumn | null }) => ({
      sort: { column: params.column ?? context.sort.column, direction: params.direction },
      pageUrl: null,
      firstPage: 1,
    })),
    goToAddress: assign((_, params: { address: ListAddress }) => ({
      search: params.address.search,
      appliedSearch: params.address.search,
      isSearch: params.address.search !== '',
      sort: params.address.sort,
      pageUrl: null,
      firstPage: params.address.page,
      selectedIds: params.address.selectedIds,
      pendingSelectId: null,
    })),
    selectLater: assign((_, params: { selectId: string | null }) => ({ pendingSelectId: params.selectId })),
    selectOnly: assign((_, params: { id: string }) => ({ selectedIds: [params.id] })),
    toggleRow: assign(({ context }, params: { id: string }) => ({
      selectedIds: toggled(context.selectedIds, params.id),
    })),
    selectAll: assign(({ context }) => ({ selectedIds: context.documents.map((document) => document.id) })),
    selectNone: assign({ selectedIds: [] }),
  },
  guards: {
    // A box holding only spaces while no search is applied would reload the same page for nothing.
    hasSearchToSend: ({ context }) => context.search.trim() !== '' || context.appliedSearch !== '',
    // Spec 000 §4: an empty page beyond the last one (its documents were deleted) loads the previous link.
    isPastLastPage: (_, params: { page: DocumentPage }) =>
      params.page.data.length === 0 &&
      params.page.meta.currentPage > params.page.meta.totalPages &&
      params.page.links.prev !== null,
    isEmptyPage: (_, params: { page: DocumentPage }) => params.page.data.length === 0,
    isAfterFirstPage: ({ context }) => context.meta !== null && context.meta.currentPage > 1,
    isBeforeLastPage: ({ context }) =>
      context.meta !== null && context.meta.currentPage < context.meta.totalPages,
    hasPrevLink: ({ context }) => Boolean(context.links?.prev),
    hasNextLink: ({ context }) => Boolean(context.links?.next),
    isListedRow: ({ context }, params: { id: string }) =>
      context.documents.some((document) => document.id === params.id),
    isToggleOnListedRow: ({ context }, params: { id: string; toggle: boolean }) =>
      params.toggle && context.documents.some((document) => document.id === params.id),
  },
}).createMachine({
  id: 'documentList',
  context: ({ input }) => {
    const address = input.address ?? DEFAULT_ADDRESS;
    return {
      category: input.category,
      search: address.search,
      appliedSearch: address.search,
      sort: address.sort,
      pageUrl: null,
      firstPage: address.page,
      documents: [],
      links: null,
      meta: null,
      selectedIds: address.selectedIds,
      pendingSelectId: null,
      errorCode: null,
      isSearch: address.search !== '',
    };
  },
  initial: 'loading',
  on: {
    'list.refresh': { target: '.loading', actions: { type: 'selectLater', params: selectIdOfEvent } },
    'address.changed': { target: '.loading', actions: { type: 'goToAddress', params: addressOfEvent } },
    'search.changed': { actions: { type: 'typeSearch', params: termOfEvent } },
    'search.submit': { guard: 'hasSearchToSend', target: '.loading', actions: 'applySearch' },
    'search.clear': { target: '.loading', actions: 'clearSearch' },
    'sort.changed': { target: '.loading', actions: { type: 'changeSort', params: sortOfEvent } },
  },
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'fetchPage',
        src: 'fetchPage',
        input: fetchPageInput,
        onDone: [
          {
            guard: { type: 'isPastLastPage', params: pageOfOutput },
            target: 'loading',
            reenter: true,
            actions: { type: 'followLink', params: prevLinkOfOutput },
          },
          {
            guard: { type: 'isEmptyPage', params: pageOfOutput },
            target: 'empty',
            actions: { type: 'showPage', params: pageOfOutput },
          },
          { target: 'loaded', actions: { type: 'showPage', params: pageOfOutput } },
        ],
        onError: { target: 'failed', actions: { type: 'rememberError', params: codeOfError } },
      },
    },
    loaded: {
      initial: 'idle',
      on: {
        'page.first': {
          guard: 'isAfterFirstPage',
          target: 'loading',
          actions: [{ type: 'followLink', params: firstLink }, 'scrollToTop'],
        },
        'page.prev': {
          guard: and(['isAfterFirstPage', 'hasPrevLink']),
          target: 'loading',
          actions: [{ type: 'followLink', params: prevLink }, 'scrollToTop'],
        },
        'page.next': {
          guard: and(['isBeforeLastPage', 'hasNextLink']),
          target: 'loading',
          actions: [{ type: 'followLink', params: nextLink }, 'scrollToTop'],
        },
        'page.last': {
          guard: 'isBeforeLastPage',
          target: 'loading',
          actions: [{ type: 'followLink', params: lastLink }, 'scrollToTop'],
        },
        'row.click': [
          {
            guard: { type: 'isToggleOnListedRow', params: clickOfEvent },
            actions: { type: 'toggleRow', params: rowOfEvent },
          },
          {
            guard: { type: 'isListedRow', params: rowOfEvent },
            actions: { type: 'selectOnly', params: rowOfEvent },
          },
        ],
        'row.checkbox': {
          guard: { type: 'isListedRow', params: rowOfEvent },
          actions: { type: 'toggleRow', params: rowOfEvent },
        },
        'selection.all': { actions: 'selectAll' },
        'selection.none': { actions: 'selectNone' },
      },
      states: {
        idle: {},
      },
    },
    empty: {},
    failed: { tags: ['error'] },
  },
});
