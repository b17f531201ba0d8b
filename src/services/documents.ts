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
import { takeEarlyDocument } from './early-start';

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
    ...(input.page !== undefined && input.page > 1 ? { page: input.page } : {}),
  };
}

export const fetchPage = fromPromise<DocumentPage, FetchPageInput>(async ({ input, signal }) => {
  const body = await unwrap(
    api.GET(LIST_PATHS[input.category], { params: { query: queryFromInput(input) }, signal }),
  );
  return { data: body.data, links: body.links, meta: body.meta };
});

// The document page and its details panel ask for the same document at once, and the start-up preload
// (src/app/preload.ts) asks just before either exists: reads of one id share one request while it is in
// flight and for a moment after (like an HTTP cache's freshness), which also spares the panel a second
// request when it mounts just after the page. Any write through the client makes every kept read stale,
// so a read after an action always asks the server.
export const DOCUMENT_READ_REUSE_MS = 2_000;

type SharedRead = { read: Promise<DocumentResource>; settledAt: number | null };
const sharedReads = new Map<string, SharedRead>();

api.use({
  onRequest({ request }) {
    if (request.method !== 'GET' && request.method !== 'HEAD') sharedReads.clear();
    return undefined;
  },
});

export function readDocument(documentId: string): Promise<DocumentResource> {
  const shared = sharedReads.get(documentId);
  if (shared && (shared.settledAt === null || Date.now() - shared.settledAt < DOCUMENT_READ_REUSE_MS)) {
    return shared.read;
  }
  const early = takeEarlyDocument(documentId);
  const read = unwrap(
    api.GET('/documents/{id}', {
      params: { path: { id: documentId } },
      ...(early ? { fetch: () => early } : {}),
    }),
  ).then((body) => body.data);
  const entry: SharedRead = { read, settledAt: null };
  sharedReads.set(documentId, entry);
  read.then(
    () => {
      entry.settledAt = Date.now();
    },
    () => {
      // A failure is shared only with the reads that were waiting for it; the next one tries again.
      if (sharedReads.get(documentId) === entry) sharedReads.delete(documentId);
    },
  );
  return read;
}

/** Settles like `promise`, or rejects with the abort as soon as `signal` aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new DOMException('Aborted', 'AbortError');
}

// A reader that stops waiting does not cancel the shared request: another reader may still want it.
export const fetchDocument = fromPromise<DocumentResource, { documentId: string }>(
  async ({ input, signal }) => untilAborted(readDocument(input.documentId), signal),
);
