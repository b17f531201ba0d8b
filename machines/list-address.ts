// What a document list screen keeps in its address: the page, the applied search, the sort and the
// selection. Going to a document and back, or reloading, shows the same list with the same rows selected.
// Pure: the list machine reads an address as input and answers its own; the view only carries it.
import type { ListSort, SortColumn, SortDirection } from './types';

export type ListAddress = {
  page: number;
  search: string;
  sort: ListSort;
  selectedIds: string[];
};

export const DEFAULT_SORT: ListSort = { column: 'created_at', direction: 'desc' };

export const DEFAULT_ADDRESS: ListAddress = { page: 1, search: '', sort: DEFAULT_SORT, selectedIds: [] };

// An address is typed, pasted and shared: what does not fit is dropped, never an error.
const MAX_PAGE = 1_000_000;
const MAX_SEARCH_LENGTH = 255;
const MAX_SELECTED = 100;
const ID_PATTERN = /^[A-Za-z0-9-]{1,64}$/;
const SORT_COLUMNS: readonly SortColumn[] = ['created_at', 'autodeletion_at'];
const SORT_DIRECTIONS: readonly SortDirection[] = ['asc', 'desc'];

function sortOf(value: string | null): ListSort {
  const [column, direction] = (value ?? '').split('.');
  const knownColumn = SORT_COLUMNS.find((known) => known === column);
  const knownDirection = SORT_DIRECTIONS.find((known) => known === direction);
  return knownColumn && knownDirection ? { column: knownColumn, direction: knownDirection } : DEFAULT_SORT;
}

/** The address held by a list URL's query (`?page=2&search=lease&sort=created_at.asc&selected=a,b`). */
export function parseListAddress(query: string): ListAddress {
  const params = new URLSearchParams(query);
  const page = Number(params.get('page'));
  const search = (params.get('search') ?? '').trim().slice(0, MAX_SEARCH_LENGTH);
  const selectedIds = [
    ...new Set(
      (params.get('selected') ?? '')
        .split(',')
        .map((id) => id.trim())
        .filter((id) => ID_PATTERN.test(id)),
    ),
  ].slice(0, MAX_SELECTED);
  return {
    page: Number.isInteger(page) && page >= 1 && page <= MAX_PAGE ? page : 1,
    search,
    sort: sortOf(params.get('sort')),
    selectedIds,
  };
}

/** The query for an address, without what is at its default ('' for the list as it opens). */
export function listAddressQuery(address: ListAddress): string {
  const params = new URLSearchParams();
  if (address.search !== '') params.set('search', address.search);
  if (address.sort.column !== DEFAULT_SORT.column || address.sort.direction !== DEFAULT_SORT.direction)
    params.set('sort', `${address.sort.column}.${address.sort.direction}`);
  if (address.page > 1) params.set('page', String(address.page));
  const parts = params.toString() === '' ? [] : [params.toString()];
  // Ids hold only letters, digits and dashes: the commas between them stay readable, unescaped.
  const ids = address.selectedIds.filter((id) => ID_PATTERN.test(id));
  if (ids.length > 0) parts.push(`selected=${ids.join(',')}`);
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}

/** Whether two addresses show the same list with the same selection. */
export function isSameAddress(a: ListAddress, b: ListAddress): boolean {
  return listAddressQuery(a) === listAddressQuery(b);
}
