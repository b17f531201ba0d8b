// The document lists and the document details.
import { currentUser } from '../auth/current-user.ts';
import type { FastifyReply } from 'fastify';
import type { Handlers, OperationRequest, ReplyBody } from '../context.ts';
import { listDocuments, type SortColumn, type SortDirection } from '../documents/list-query.ts';
import type { DocumentCategory } from '../documents/permissions.ts';
import { loadVisibleDocument, serializeDocument, serializeDocuments } from '../documents/serialize.ts';
import { pathOnly } from '../http/logging.ts';

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

// Every list operation takes the same query and answers the same page, so one handler serves them all:
// typed as the first, and spelled out (not as Handler<>, which TypeScript would compare by its name), it
// is checked against each of the others where it is assigned below.
type ListHandler = (
  req: OperationRequest<'listActiveDocuments'>,
  reply: FastifyReply,
) => Promise<ReplyBody<'listActiveDocuments'>>;

function listHandler(category: DocumentCategory): ListHandler {
  return async (req) => {
    const viewer = currentUser(req);
    const deps = req.server.deps;
    const params = readListParams(req.query);
    const { rows, totalPages } = await listDocuments(deps, viewer, {
      category,
      search: params.search,
      sortColumn: params.sortColumn,
      sortDirection: params.sortDirection,
      page: params.page,
    });
    const path = pathOnly(req.url);
    const link = (page: number): string => pageLink(path, params, page);
    return {
      data: await serializeDocuments(deps, rows, viewer, { archivedByViewer: category === 'archived' }),
      links: {
        first: link(1),
        prev: params.page > 1 ? link(Math.min(params.page - 1, totalPages)) : null,
        self: link(params.page),
        next: params.page < totalPages ? link(params.page + 1) : null,
        last: link(totalPages),
      },
      meta: { currentPage: params.page, totalPages, showAutodeleteDate: true },
    };
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
