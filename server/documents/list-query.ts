// The document lists: which documents a person sees in a category, how many, in which order, and which
// ones a search finds. They read what migration 0014 keeps for them (docs/architecture.md, "Document
// lists"): `document_viewers`, one row per document and person who sees it, whose index a page walks in
// its sort order; `document_list_counts`, from which every category's count is a sum of a few rows; and
// the folded search text of documents and people, with its trigram index. The category conditions are the
// SQL twin of `isInCategory` in permissions.ts (docs/decisions.md, "Document categories"), and the viewer
// rows follow the rule of `visibleToViewer` below; the API tests hold both to that.
//
// What costs more than a page is remembered per process, and only for as long as nothing in the person's
// lists changes (their count rows' `changes`): how many documents a search finds, and where pages begin,
// so that the next or the same page is a seek instead of a walk over every document before it.
import {
  expressionBuilder,
  sql,
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type SqlBool,
} from 'kysely';
import type { AppDeps, AuthUser } from '../context.ts';
import { toCount } from '../db/database.ts';
import type { Database, DocumentRow, DocumentViewersTable } from '../db/schema.ts';
import { foldForSearch } from '../db/search-fold.ts';
import { RecentMap } from '../recent-map.ts';
import { FAILED_STATES, IN_PROGRESS_STATES, type DocumentCategory } from './permissions.ts';

export const PAGE_SIZE = 20;

export type SortColumn = 'created_at' | 'autodeletion_at';
export type SortDirection = 'asc' | 'desc';

export type ListQuery = {
  category: DocumentCategory;
  search: string;
  sortColumn: SortColumn;
  sortDirection: SortDirection;
  page: number;
};

/** A document row of a page, with its owner's name and address (the list shows them). */
export type ListedDocument = DocumentRow & { owner_full_name: string; owner_email: string };

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

// "100%" must find "100%", not everything: LIKE wildcards in the user's text are escaped.
export function likePattern(text: string): string {
  return `%${escapeLike(text.toLowerCase())}%`;
}

// --- Who sees a document (one document at a time: details, actions; the lists read document_viewers) ---

type ParticipantEb = ExpressionBuilder<Database, 'sign_flows' | 'sign_flow_participants'>;
type DocEb = ExpressionBuilder<Database, 'documents'>;

// Subqueries that reference no outer table: the database computes each once per query.
const uncorrelated = expressionBuilder<Database, never>();

// The viewer's participant rows: their user id, or their e-mail address while no account is linked.
function isViewerRow(inner: ParticipantEb, viewer: AuthUser): Expression<SqlBool> {
  return inner.or([
    inner('sign_flow_participants.user_id', '=', viewer.id),
    inner.and([
      inner('sign_flow_participants.user_id', 'is', null),
      inner('sign_flow_participants.email', '=', viewer.email.toLowerCase()),
    ]),
  ]);
}

function viewerParticipates(eb: DocEb, viewer: AuthUser): Expression<SqlBool> {
  return eb.exists(
    eb
      .selectFrom('sign_flows')
      .innerJoin('sign_flow_participants', 'sign_flow_participants.sign_flow_id', 'sign_flows.id')
      .select(sql<number>`1`.as('one'))
      .whereRef('sign_flows.document_id', '=', 'documents.id')
      .where((inner) => isViewerRow(inner, viewer)),
  );
}

// Documents a participant deleted "for themselves" (an owner's delete removes the document instead).
function hiddenDocumentIds(viewer: AuthUser) {
  return uncorrelated
    .selectFrom('document_hides')
    .select('document_hides.document_id')
    .where('document_hides.user_id', '=', viewer.id);
}

// Owner or participant who has not deleted it for themselves: the one visibility rule (anyone else gets
// 404 on a single document). Migration 0014 writes the same rule into document_viewers.
export function visibleToViewer(eb: DocEb, viewer: AuthUser): Expression<SqlBool> {
  return eb.or([
    eb('documents.owner_id', '=', viewer.id),
    eb.and([viewerParticipates(eb, viewer), eb('documents.id', 'not in', hiddenDocumentIds(viewer))]),
  ]);
}

// --- Categories and counts ---

// Over document_viewers (`v`) or document_list_counts (`c`), which share these columns.
function categoryFilter(table: 'v' | 'c', category: DocumentCategory) {
  const column = (name: 'archived' | 'state' | 'must_act') => sql.ref(`${table}.${name}`);
  const states = (list: readonly string[]) => sql.join(list.map((state) => sql.lit(state)));
  const current = sql`${column('archived')} = 0`;
  switch (category) {
    case 'archived':
      return sql<SqlBool>`${column('archived')} = 1`;
    case 'active':
      return sql<SqlBool>`${current}`;
    case 'to_do':
      return sql<SqlBool>`(${current} AND ${column('must_act')} = 1)`;
    case 'in_progress':
      return sql<SqlBool>`(${current} AND ${column('must_act')} = 0 AND ${column('state')} IN (${states(IN_PROGRESS_STATES)}))`;
    case 'uploaded':
      return sql<SqlBool>`(${current} AND ${column('state')} = 'uploaded')`;
    case 'done':
      return sql<SqlBool>`(${current} AND ${column('state')} = 'signed')`;
    case 'failed':
      return sql<SqlBool>`(${current} AND ${column('state')} IN (${states(FAILED_STATES)}))`;
  }
}

export type ListState = { total: number; fingerprint: string };

// The category's count, and what says whether anything remembered of the person's lists still holds:
// their rows' `changes`, which moves with anything their lists show (migration 0014), and the '*' row's,
// which moves with every name and address (lists show them, searches match them).
export async function readListState(
  db: Kysely<Database>,
  viewer: AuthUser,
  category: DocumentCategory,
): Promise<ListState> {
  const row = await db
    .selectFrom('document_list_counts as c')
    .select([
      sql<
        string | number | null
      >`sum(CASE WHEN c.user_id = ${viewer.id} AND ${categoryFilter('c', category)} THEN c.documents ELSE 0 END)`.as(
        'total',
      ),
      sql<string | number | null>`sum(CASE WHEN c.user_id = ${viewer.id} THEN c.changes ELSE 0 END)`.as(
        'own',
      ),
      sql<string | number | null>`sum(CASE WHEN c.user_id = '*' THEN c.changes ELSE 0 END)`.as('names'),
    ])
    .where('c.user_id', 'in', [viewer.id, '*'])
    .executeTakeFirst();
  return {
    total: toCount(row?.total),
    fingerprint: `${toCount(row?.own)}/${toCount(row?.names)}`,
  };
}

// --- What a search matches ---

type Search = {
  // Folded (server/db/search-fold.ts), then made a LIKE pattern and, from three characters on, an FTS5
  // phrase: FTS5's trigram index answers a quoted phrase as a substring match.
  pattern: string;
  phrase: string | null;
};

function prepareSearch(text: string): Search {
  const folded = foldForSearch(text);
  return {
    pattern: `%${escapeLike(folded)}%`,
    phrase: [...folded].length >= 3 ? `"${folded.replaceAll('"', '""')}"` : null,
  };
}

const likeFolded = (column: string, search: Search) =>
  sql<SqlBool>`${sql.ref(column)} LIKE ${search.pattern} ESCAPE '\\'`;

// More people than this and the names are matched in SQL rather than sent as a list of ids.
const MATCHED_USERS_LIMIT = 500;

type MatchedUsers = { kind: 'none' } | { kind: 'ids'; ids: string[] } | { kind: 'many' };

function isSqlite(deps: AppDeps): boolean {
  return deps.config.databaseUrl === null;
}

// The ids of the search-text rows the index finds (SQLite's FTS5 table keeps the rows' integer ids).
function ftsRowIds(table: 'document_search' | 'user_search', phrase: string) {
  return sql`SELECT rowid FROM ${sql.table(`${table}_fts`)} WHERE ${sql.table(`${table}_fts`)} MATCH ${phrase}`;
}

function userIdsMatching(deps: AppDeps, search: Search) {
  const query = deps.db.selectFrom('user_search as us').select('us.user_id');
  return isSqlite(deps) && search.phrase !== null
    ? query.where(sql<SqlBool>`us.id IN (${ftsRowIds('user_search', search.phrase)})`)
    : query.where(likeFolded('us.folded', search));
}

// People whose name or address the search matches: their documents, and those they take part in, match.
async function matchedUsers(deps: AppDeps, search: Search): Promise<MatchedUsers> {
  const rows = await userIdsMatching(deps, search)
    .limit(MATCHED_USERS_LIMIT + 1)
    .execute();
  if (rows.length === 0) return { kind: 'none' };
  if (rows.length > MATCHED_USERS_LIMIT) return { kind: 'many' };
  return { kind: 'ids', ids: rows.map((row) => row.user_id) };
}

type ViewerEb = ExpressionBuilder<Database & { v: DocumentViewersTable }, 'v'>;

function usersExpression(deps: AppDeps, search: Search, users: MatchedUsers) {
  return users.kind === 'ids' ? users.ids : userIdsMatching(deps, search);
}

// Whether the document of the viewer row `v` matches, tested row by row: a walk of the person's rows in
// page order stops after a page, so this never reads the documents that come later.
function viewerRowMatches(
  eb: ViewerEb,
  deps: AppDeps,
  search: Search,
  users: MatchedUsers,
): Expression<SqlBool> {
  const byText = eb.exists(
    eb
      .selectFrom('document_search as s')
      .select(sql<number>`1`.as('one'))
      .whereRef('s.document_id', '=', 'v.document_id')
      .where(likeFolded('s.folded', search)),
  );
  if (users.kind === 'none') return byText;
  const people = usersExpression(deps, search, users);
  return eb.or([
    byText,
    eb.exists(
      eb
        .selectFrom('documents as d')
        .select(sql<number>`1`.as('one'))
        .whereRef('d.id', '=', 'v.document_id')
        .where('d.owner_id', 'in', people),
    ),
    // The name is the linked account's; a participant without one has no name to match.
    eb.exists(
      eb
        .selectFrom('sign_flows as f')
        .innerJoin('sign_flow_participants as p', 'p.sign_flow_id', 'f.id')
        .select(sql<number>`1`.as('one'))
        .whereRef('f.document_id', '=', 'v.document_id')
        .where('p.user_id', 'in', people),
    ),
  ]);
}

// Every document the search matches, whoever sees it, from the indexes: for a search that matches few.
function matchingDocumentIds(deps: AppDeps, search: Search, users: MatchedUsers) {
  const { db } = deps;
  const byText =
    isSqlite(deps) && search.phrase !== null
      ? db
          .selectFrom('document_search as s')
          .select('s.document_id')
          .where(sql<SqlBool>`s.id IN (${ftsRowIds('document_search', search.phrase)})`)
      : db.selectFrom('document_search as s').select('s.document_id').where(likeFolded('s.folded', search));
  if (users.kind === 'none') return byText;
  const people = usersExpression(deps, search, users);
  return byText
    .unionAll(db.selectFrom('documents as d').select('d.id as document_id').where('d.owner_id', 'in', people))
    .unionAll(
      db
        .selectFrom('sign_flow_participants as p')
        .innerJoin('sign_flows as f', 'f.id', 'p.sign_flow_id')
        .select('f.document_id')
        .where('p.user_id', 'in', people),
    );
}

// A walk tests each of the person's rows; from the index, the cost is every document anyone has that
// matches. A walk expected to read more rows than this starts from the index instead.
const WALK_LIMIT = 20_000;

type Plan = 'walk' | 'index';

function viewerRows(deps: AppDeps, viewer: AuthUser, category: DocumentCategory) {
  return deps.db
    .selectFrom('document_viewers as v')
    .where('v.user_id', '=', viewer.id)
    .where(categoryFilter('v', category));
}

type SearchContext = { search: Search; users: MatchedUsers };

function searchCondition(
  eb: ViewerEb,
  deps: AppDeps,
  context: SearchContext,
  plan: Plan,
): Expression<SqlBool> {
  const { search, users } = context;
  return plan === 'walk'
    ? viewerRowMatches(eb, deps, search, users)
    : eb('v.document_id', 'in', matchingDocumentIds(deps, search, users));
}

async function countSearch(
  deps: AppDeps,
  viewer: AuthUser,
  category: DocumentCategory,
  context: SearchContext,
  categoryTotal: number,
): Promise<number> {
  const plan: Plan = categoryTotal <= WALK_LIMIT ? 'walk' : 'index';
  const row = await viewerRows(deps, viewer, category)
    .where((eb) => searchCondition(eb, deps, context, plan))
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirst();
  return toCount(row?.n);
}

// --- What is remembered between requests ---

type Bound = { value: string; id: string };
type Remembered = { fingerprint: string; total?: number; bounds: RecentMap<number, Bound> };

// Lists per database (tests and benchmarks run several in one process); the least recently used go first.
const REMEMBERED_LISTS = 2_000;
const REMEMBERED_PAGES = 200;
const memory = new WeakMap<Kysely<Database>, RecentMap<string, Remembered>>();

function remembered(deps: AppDeps, key: string, fingerprint: string): Remembered {
  let lists = memory.get(deps.db);
  if (lists === undefined) {
    lists = new RecentMap(REMEMBERED_LISTS);
    memory.set(deps.db, lists);
  }
  const found = lists.get(key);
  if (found?.fingerprint === fingerprint) return found;
  const entry: Remembered = { fingerprint, bounds: new RecentMap(REMEMBERED_PAGES) };
  lists.set(key, entry);
  return entry;
}

// --- Pages ---

/** How many documents the viewer has in a category, or that a search finds there. */
export async function countDocuments(
  deps: AppDeps,
  viewer: AuthUser,
  category: DocumentCategory,
  search = '',
): Promise<number> {
  const state = await readListState(deps.db, viewer, category);
  if (search === '') return state.total;
  const prepared = prepareSearch(search);
  const context = { search: prepared, users: await matchedUsers(deps, prepared) };
  return countSearch(deps, viewer, category, context, state.total);
}

type PageRequest = {
  // The page's rows come after this one in the list's order (null: from the start).
  after: Bound | null;
  offset: number;
  limit: number;
  // Read from the end of the list backwards (the rows are put back in order after).
  backwards: boolean;
  plan: Plan;
};

async function readPage(
  deps: AppDeps,
  viewer: AuthUser,
  query: ListQuery,
  context: SearchContext | null,
  request: PageRequest,
): Promise<(ListedDocument & { sort_value: string })[]> {
  const column = query.sortColumn === 'created_at' ? 'v.created_at' : 'v.autodeletion_at';
  const forward = request.backwards ? (query.sortDirection === 'asc' ? 'desc' : 'asc') : query.sortDirection;
  let ids = viewerRows(deps, viewer, query.category)
    .$if(context !== null, (q) =>
      q.where((eb) => searchCondition(eb, deps, context as SearchContext, request.plan)),
    )
    .select(['v.document_id', sql.ref<string>(column).as('sort_value')]);
  if (request.after !== null) {
    const { value, id } = request.after;
    ids = ids.where((eb) =>
      eb(eb.refTuple(column, 'v.document_id'), forward === 'desc' ? '<' : '>', eb.tuple(value, id)),
    );
  }
  // From the index, the matches are few and sorted after; an expression as the sort key keeps the
  // database from walking the sort index instead and testing every row against them.
  ids = ids
    .orderBy(request.plan === 'index' ? sql`${sql.ref(column)} || ''` : sql.ref(column), forward)
    .orderBy('v.document_id', forward)
    .limit(request.limit)
    .offset(request.offset);
  // The page's ids first, then only their rows: the walk never reads a document row it skips.
  const rows = await deps.db
    .selectFrom(ids.as('page'))
    .innerJoin('documents as d', 'd.id', 'page.document_id')
    .innerJoin('users as owner', 'owner.id', 'd.owner_id')
    .selectAll('d')
    .select(['owner.full_name as owner_full_name', 'owner.email as owner_email', 'page.sort_value'])
    .orderBy('page.sort_value', forward)
    .orderBy('page.document_id', forward)
    .execute();
  return request.backwards ? rows.reverse() : rows;
}

export async function listDocuments(
  deps: AppDeps,
  viewer: AuthUser,
  query: ListQuery,
  known?: ListState,
): Promise<{ rows: ListedDocument[]; total: number; totalPages: number }> {
  const state = known ?? (await readListState(deps.db, viewer, query.category));
  const key = [viewer.id, query.category, query.search, query.sortColumn, query.sortDirection].join('\n');
  const entry = remembered(deps, key, state.fingerprint);

  let context: SearchContext | null = null;
  let total = state.total;
  if (query.search !== '') {
    const search = prepareSearch(query.search);
    context = { search, users: await matchedUsers(deps, search) };
    entry.total ??= await countSearch(deps, viewer, query.category, context, state.total);
    total = entry.total;
  }
  const totalPages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const start = (query.page - 1) * PAGE_SIZE;
  if (start >= total) return { rows: [], total, totalPages };

  // From the nearest page start remembered at or before this page, or from whichever end is nearer.
  let from = 1;
  for (const page of entry.bounds.keys()) if (page <= query.page && page > from) from = page;
  const after = from === 1 ? null : (entry.bounds.get(from) ?? null);
  const skipForward = (query.page - from) * PAGE_SIZE;
  const rowsAfter = Math.max(0, total - query.page * PAGE_SIZE);
  const pageSize = Math.min(PAGE_SIZE, total - start);
  // The row before the page comes along (when there is one), so the page's own start is remembered too.
  const withPrevious = start > 0 ? 1 : 0;
  const backwards = rowsAfter < skipForward;
  const skipped = backwards ? rowsAfter : skipForward;
  // A search walks the person's rows while that reads fewer than WALK_LIMIT of them, judging by how
  // densely the search's matches lie among them.
  const categoryTotal = Math.max(state.total, 1);
  const walkReads = Math.min(
    categoryTotal,
    Math.ceil(((skipped + PAGE_SIZE) * categoryTotal) / Math.max(total, 1)),
  );
  const plan: Plan = walkReads <= WALK_LIMIT ? 'walk' : 'index';
  const request: PageRequest = backwards
    ? { after: null, offset: rowsAfter, limit: pageSize + withPrevious, backwards, plan }
    : {
        after,
        offset: skipForward - (skipForward > 0 ? withPrevious : 0),
        limit: pageSize + (skipForward > 0 ? withPrevious : 0),
        backwards,
        plan,
      };
  const read = await readPage(deps, viewer, query, context, request);
  const hasPrevious = backwards ? withPrevious === 1 && read.length > pageSize : request.limit > pageSize;
  const previous = hasPrevious ? read[0] : undefined;
  const rows = hasPrevious ? read.slice(1) : read;
  if (previous !== undefined) entry.bounds.set(query.page, { value: previous.sort_value, id: previous.id });
  const last = rows[rows.length - 1];
  if (last !== undefined && rows.length === PAGE_SIZE)
    entry.bounds.set(query.page + 1, { value: last.sort_value, id: last.id });
  return { rows: rows.map(({ sort_value: _sortValue, ...row }) => row), total, totalPages };
}
