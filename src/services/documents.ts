// Document reads for the list and the document page. A pagination link is never fetched as given:
// its query is parsed and the same typed operation is called, so a link can only ever reach its list.
import { fromPromise } from 'xstate';
import type {
  DocumentCategory,
  DocumentPage,
  DocumentResource,
  FetchPageInput,
  ListSort,
} from '../../machines/types';
import { api, unwrap } from '../api/client';

const LIST_PATHS = {
  active: '/documents/active',
  to_do: '/documents/to_do',
  in_progress: '/documents/in_progress',
  uploaded: '/documents/uploaded',
  done: '/documents/done',
  failed: '/documents/failed',
  archived: '/documents/archived',
} as const satisfies Record<DocumentCategory, string>;

export type ListQuery = {
  search?: string;
  'sort[column]'?: ListSort['column'];
  'sort[direction]'?: ListSort['direction'];
  page?: number;
};

const SORT_COLUMNS: readonly string[] = ['created_at', 'autodeletion_at'] satisfies ListSort['column'][];
const SORT_DIRECTIONS: readonly string[] = ['asc', 'desc'] satisfies ListSort['direction'][];

/** Reads search, sort and page out of a `links` URL; anything unexpected is dropped. */
export function queryFromLink(link: string): ListQuery {
  const params = new URL(link, 'http://paraph.invalid').searchParams;
  const query: ListQuery = {};
  const search = params.get('search');
  if (search) query.search = search;
  const column = params.get('sort[column]');
  if (column && SORT_COLUMNS.includes(column)) query['sort[column]'] = column as ListSort['column'];
  const direction = params.get('sort[direction]');
  if (direction && SORT_DIRECTIONS.includes(direction))
    query['sort[direction]'] = direction as ListSort['direction'];
  const page = Number(params.get('page'));
  if (Number.isInteger(page) && page >= 1) query.page = page;
  return query;
}

export function queryFromInput(input: FetchPageInput): ListQuery {
  if (input.url) return queryFromLink(input.url);
  const search = input.search.trim();
  return {
    ...(search ? { search } : {}),
    'sort[column]': input.sort.column,
    'sort[direction]': input.sort.direction,
  };
}

export const fetchPage = fromPromise<DocumentPage, FetchPageInput>(async ({ input, signal }) => {
  const body = await unwrap(
    api.GET(LIST_PATHS[input.category], { params: { query: queryFromInput(input) }, signal }),
  );
  return { data: body.data, links: body.links, meta: body.meta };
});

export const fetchDocument = fromPromise<DocumentResource, { documentId: string }>(
  async ({ input, signal }) => {
    const body = await unwrap(
      api.GET('/documents/{id}', { params: { path: { id: input.documentId } }, signal }),
    );
    return body.data;
  },
);
