// The document lists and the document details.
import { currentUser } from '../auth/current-user.ts';
import type { FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import type { AppDeps, Handlers, OperationRequest, ReplyBody } from '../context.ts';
import type { Database } from '../db/schema.ts';
import {
  listDocuments,
  readListState,
  type ListState,
  type SortColumn,
  type SortDirection,
} from '../documents/list-query.ts';
import type { DocumentCategory } from '../documents/permissions.ts';
import { listedResources } from '../documents/listed-resources.ts';
import { loadVisibleDocument, serializeDocument } from '../documents/serialize.ts';
import { pathOnly } from '../http/logging.ts';
import { linksStillFresh } from '../storage/link-cache.ts';

type ListParams = {
  search: string;
  sortColumn: SortColumn;
  sortDirection: SortDirection;
  page: number;
  explicitSort: { column?: SortColumn; direction?: SortDirection };
};

function readListParams(query: Record<string, unknown>): ListParams {
  const column =
    query['sort[column]'] === 'autodeletion_at'
      ? 'autodeletion_at'
      : query['sort[column]'] === 'created_at'
        ? 'created_at'
        : undefined;
  const direction =
    query['sort[direction]'] === 'asc' ? 'asc' : query['sort[direction]'] === 'desc' ? 'desc' : undefined;
  const page =
    typeof query.page === 'number' && Number.isInteger(query.page) && query.page >= 1 ? query.page : 1;
  const search = typeof query.search === 'string' ? query.search.trim() : '';
  // autodeletion_at is offered oldest-deletion-first; created_at newest first (spec 000 §7).
  const sortColumn = column ?? 'created_at';
  const sortDirection = direction ?? (sortColumn === 'autodeletion_at' ? 'asc' : 'desc');
  return { search, sortColumn, sortDirection, page, explicitSort: { column, direction } };
}

function pageLink(path: string, params: ListParams, page: number): string {
  const query = new URLSearchParams();
  if (params.search !== '') query.set('search', params.search);
  if (params.explicitSort.column !== undefined) query.set('sort[column]', params.explicitSort.column);
  if (params.explicitSort.direction !== undefined)
    query.set('sort[direction]', params.explicitSort.direction);
  query.set('page', String(page));
  return `${path}?${query.toString()}`;
}

// A list page as it was sent, kept while nothing it shows has changed (the person's fingerprint, which
// migration 0014's triggers move with every such change) and its storage links are fresh: coming back
// from a document, a second tab or a client asking again get the same page without it being read and
// written out again. Per database (tests run several in one process), the least recently used first out.
// `signedAt`: when the oldest of its links was signed.
type SentPage = { fingerprint: string; body: Buffer; signedAt: number };
type SentPages = { pages: Map<string, SentPage>; bytes: number };
const sentPages = new WeakMap<Kysely<Database>, SentPages>();
const JSON_TYPE = 'application/json; charset=utf-8';

function sentPagesOf(deps: AppDeps): SentPages {
  let sent = sentPages.get(deps.db);
  if (sent === undefined) {
    sent = { pages: new Map(), bytes: 0 };
    sentPages.set(deps.db, sent);
  }
  return sent;
}

function isKept(deps: AppDeps, key: string): boolean {
  return deps.config.listCacheBytes !== 0 && sentPagesOf(deps).pages.has(key);
}

function recall(deps: AppDeps, key: string, fingerprint: string, now: number): Buffer | null {
  if (deps.config.listCacheBytes === 0) return null;
  const sent = sentPagesOf(deps);
  const page = sent.pages.get(key);
  if (page === undefined) return null;
  sent.pages.delete(key);
  if (page.fingerprint !== fingerprint || !linksStillFresh(page.signedAt, now)) {
    sent.bytes -= page.body.length;
    return null;
  }
  sent.pages.set(key, page);
  return page.body;
}

function remember(deps: AppDeps, key: string, page: SentPage): void {
  if (deps.config.listCacheBytes === 0) return;
  const sent = sentPagesOf(deps);
  const previous = sent.pages.get(key);
  if (previous !== undefined) sent.bytes -= previous.body.length;
  sent.pages.delete(key);
  sent.pages.set(key, page);
  sent.bytes += page.body.length;
  for (const [oldest, entry] of sent.pages) {
    if (sent.bytes <= deps.config.listCacheBytes) break;
    sent.pages.delete(oldest);
    sent.bytes -= entry.body.length;
  }
}

const DATA_OPEN = Buffer.from('{"data":[');
const COMMA = Buffer.from(',');

// The documents' JSON, kept as bytes (listed-resources.ts), copied once into the page.
function pageBody(documents: readonly Buffer[], rest: string): Buffer {
  const parts: Buffer[] = [DATA_OPEN];
  for (const [at, document] of documents.entries()) {
    if (at > 0) parts.push(COMMA);
    parts.push(document);
  }
  parts.push(Buffer.from(rest));
  return Buffer.concat(parts);
}

// Every list operation takes the same query and answers the same page, so one handler serves them all:
// typed as the first, and spelled out (not as Handler<>, which TypeScript would compare by its name), it
// is checked against each of the others where it is assigned below.
type ListHandler = (
  req: OperationRequest<'listActiveDocuments'>,
  reply: FastifyReply,
) => Promise<ReplyBody<'listActiveDocuments'> | FastifyReply>;

function listHandler(category: DocumentCategory): ListHandler {
  return async (req, reply) => {
    const viewer = currentUser(req);
    const deps = req.server.deps;
    const params = readListParams(req.query);
    const key = `${viewer.id}\n${req.url}`;
    const now = deps.clock().getTime();
    // A page kept as sent needs only the list's state to be sent again; any other is read with its state
    // where it can be (listDocuments).
    let known: ListState | undefined;
    if (isKept(deps, key)) {
      known = await readListState(deps.db, viewer, category);
      const sent = recall(deps, key, known.fingerprint, now);
      if (sent !== null) return reply.type(JSON_TYPE).send(sent);
    }
    const { rows, totalPages, state } = await listDocuments(
      deps,
      viewer,
      {
        category,
        search: params.search,
        sortColumn: params.sortColumn,
        sortDirection: params.sortDirection,
        page: params.page,
      },
      known,
    );
    const path = pathOnly(req.url);
    const link = (page: number): string => pageLink(path, params, page);
    const data = await listedResources(deps, viewer, rows, state);
    // The page's body is the documents' JSON as kept, between the rest written out: data, links, meta.
    const rest: Omit<ReplyBody<'listActiveDocuments'>, 'data'> = {
      links: {
        first: link(1),
        prev: params.page > 1 ? link(Math.min(params.page - 1, totalPages)) : null,
        self: link(params.page),
        next: params.page < totalPages ? link(params.page + 1) : null,
        last: link(totalPages),
      },
      meta: { currentPage: params.page, totalPages, showAutodeleteDate: true },
    };
    const body = pageBody(data.json, `],${JSON.stringify(rest).slice(1)}`);
    remember(deps, key, { fingerprint: state.fingerprint, body, signedAt: data.signedAt });
    return reply.type(JSON_TYPE).send(body);
  };
}

async function getDocument(req: OperationRequest<'getDocument'>) {
  const viewer = currentUser(req);
  const deps = req.server.deps;
  const { id } = req.params;
  const row = await loadVisibleDocument(deps, id, viewer);
  return { data: await serializeDocument(deps, row, viewer) };
}

export const documentHandlers: Handlers = {
  listActiveDocuments: listHandler('active'),
  listToDoDocuments: listHandler('to_do'),
  listInProgressDocuments: listHandler('in_progress'),
  listUploadedDocuments: listHandler('uploaded'),
  listDoneDocuments: listHandler('done'),
  listFailedDocuments: listHandler('failed'),
  listArchivedDocuments: listHandler('archived'),
  getDocument,
};
