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
  CompiledQuery,
  expressionBuilder,
  sql,
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type RawBuilder,
  type SqlBool,
} from 'kysely';
import type { AppDeps, AuthUser } from '../context.ts';
import { toCount } from '../db/database.ts';
import { prepared } from '../db/prepared-statements.ts';
import type { Database } from '../db/schema.ts';
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

/**
 * A document of a page: its id, whether the viewer archived it, and the version of what lists show of it
 * (migration 0016; null if it has none, which is never reused). listed-resources.ts writes the resources.
 */
export type ListedDocument = { id: string; archived: number | boolean; version: number | string | null };

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

// Over document_viewers (`v`), document_list_counts (`c`) or document_list_days (`t`), which share these
// columns. Every list request needs one or two: each is built once.
const categoryFilters = new Map<string, RawBuilder<SqlBool>>();

function categoryFilter(table: 'v' | 'c' | 't', category: DocumentCategory): RawBuilder<SqlBool> {
  const key = `${table} ${category}`;
  let filter = categoryFilters.get(key);
  if (filter === undefined) {
    filter = buildCategoryFilter(table, category);
    categoryFilters.set(key, filter);
  }
  return filter;
}

function buildCategoryFilter(table: 'v' | 'c' | 't', category: DocumentCategory): RawBuilder<SqlBool> {
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

// `names` moves with every name and address (the '*' row), which every document shows.
export type ListState = { total: number; fingerprint: string; names: number };

type Sums = { total: string | number | null; own: string | number | null; names: string | number | null };

// The category's count, and what says whether anything remembered of the person's lists still holds:
// their rows' `changes`, which moves with anything their lists show (migration 0014), and the '*' row's,
// which moves with every name and address (lists show them, searches match them).
function stateSums(viewer: AuthUser, category: DocumentCategory): RawBuilder<Sums> {
  return sql<Sums>`SELECT
      sum(CASE WHEN c.user_id = ${viewer.id} AND ${categoryFilter('c', category)} THEN c.documents ELSE 0 END) AS total,
      sum(CASE WHEN c.user_id = ${viewer.id} THEN c.changes ELSE 0 END) AS own,
      sum(CASE WHEN c.user_id = '*' THEN c.changes ELSE 0 END) AS names
    FROM document_list_counts c WHERE c.user_id IN (${viewer.id}, '*')`;
}

function toListState(row: Sums | undefined): ListState {
  const names = toCount(row?.names);
  return { total: toCount(row?.total), fingerprint: `${toCount(row?.own)}/${names}`, names };
}

export async function readListState(
  db: Kysely<Database>,
  viewer: AuthUser,
  category: DocumentCategory,
): Promise<ListState> {
  // Every list request reads this: written out, as the page is.
  const { rows } = await prepared(stateSums(viewer, category)).execute(db);
  return toListState(rows[0]);
}

// --- What a search matches ---

type Search = {
  // Folded (server/db/search-fold.ts); as a LIKE pattern for PostgreSQL, whose trigram index reads LIKE;
  // and, from three characters on, an FTS5 phrase: FTS5's trigram index answers a quoted phrase as a
  // substring match.
  folded: string;
  pattern: string;
  phrase: string | null;
  sqlite: boolean;
};

function prepareSearch(deps: AppDeps, text: string): Search {
  const folded = foldForSearch(text);
  return {
    folded,
    pattern: `%${escapeLike(folded)}%`,
    phrase: [...folded].length >= 3 ? `"${folded.replaceAll('"', '""')}"` : null,
    sqlite: isSqlite(deps),
  };
}

// Whether the folded text holds the search, as the trigram index reads it: PostgreSQL's pg_trgm answers
// LIKE. SQLite's FTS5 table is asked a phrase instead (below), so there this reads the text: SQLite prepares
// a statement again whenever the pattern bound to a LIKE changes (it might allow an index), which cost more
// than the rest of a page; `instr` finds the same pieces without that.
const likeFolded = (column: string, search: Search) =>
  search.sqlite
    ? sql<SqlBool>`instr(${sql.ref(column)}, ${search.folded}) > 0`
    : sql<SqlBool>`${sql.ref(column)} LIKE ${search.pattern} ESCAPE '\\'`;

// Whether the folded text holds the search, read row by row as a walk reaches it, never from an index: so
// PostgreSQL's plan for a walk is the same whatever is searched, and may be kept (prepared-statements.ts).
const holdsFolded = (column: string, search: Search) =>
  search.sqlite
    ? sql<SqlBool>`instr(${sql.ref(column)}, ${search.folded}) > 0`
    : sql<SqlBool>`strpos(${sql.ref(column)}, ${search.folded}) > 0`;

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

function usersExpression(deps: AppDeps, search: Search, users: MatchedUsers) {
  return users.kind === 'ids' ? users.ids : userIdsMatching(deps, search);
}

// Whether the document of the viewer row `v` matches, tested row by row: a walk of the person's rows in
// page order stops after a page, so this never reads the documents that come later. Written out, as a
// page's statement is.
function viewerRowMatches(deps: AppDeps, search: Search, users: MatchedUsers): Expression<SqlBool> {
  const byText = sql<SqlBool>`EXISTS (SELECT 1 FROM document_search s
    WHERE s.document_id = v.document_id AND ${holdsFolded('s.folded', search)})`;
  if (users.kind === 'none') return byText;
  const people = users.kind === 'ids' ? sql`(${sql.join(users.ids)})` : sql`${userIdsMatching(deps, search)}`;
  // The name is the linked account's; a participant without one has no name to match.
  return sql<SqlBool>`(${byText}
    OR EXISTS (SELECT 1 FROM documents d WHERE d.id = v.document_id AND d.owner_id IN ${people})
    OR EXISTS (SELECT 1 FROM sign_flows f JOIN sign_flow_participants p ON p.sign_flow_id = f.id
      WHERE f.document_id = v.document_id AND p.user_id IN ${people}))`;
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
  // Each document once: a page and a count join these to the person's rows.
  return byText
    .union(db.selectFrom('documents as d').select('d.id as document_id').where('d.owner_id', 'in', people))
    .union(
      db
        .selectFrom('sign_flow_participants as p')
        .innerJoin('sign_flows as f', 'f.id', 'p.sign_flow_id')
        .select('f.document_id')
        .where('p.user_id', 'in', people),
    );
}

// A walk tests each of the person's rows until it has a page; from the index, the cost is every document
// the search matches, sorted. Up to this many, either is bounded (listDocuments chooses).
const WALK_LIMIT = 20_000;

type Plan = 'walk' | 'index';

type SearchContext = { search: Search; users: MatchedUsers };

/**
 * Where a page or a count reads the person's rows from, and what they must meet: their rows of the
 * category, and with a search, either each row tested as a walk reaches it, or only the rows of the
 * documents the index finds (each found document joined to the person's row for it).
 */
function viewerSource(
  deps: AppDeps,
  viewer: AuthUser,
  category: DocumentCategory,
  context: SearchContext | null,
  plan: Plan,
): { from: RawBuilder<unknown>; conditions: Expression<SqlBool>[] } {
  const conditions: Expression<SqlBool>[] = [
    sql<SqlBool>`v.user_id = ${viewer.id}`,
    categoryFilter('v', category),
  ];
  if (context === null) return { from: sql`document_viewers v`, conditions };
  const { search, users } = context;
  if (plan === 'walk') {
    conditions.push(viewerRowMatches(deps, search, users));
    return { from: sql`document_viewers v`, conditions };
  }
  // CROSS JOIN: SQLite then reads the documents found first and looks up the person's row of each, as
  // PostgreSQL's planner chooses for itself; left to choose, SQLite walked every row of the person instead.
  conditions.push(sql<SqlBool>`v.document_id = m.document_id`);
  return {
    from: sql`${matchingDocumentIds(deps, search, users)} m CROSS JOIN document_viewers v`,
    conditions,
  };
}

// The person's rows of the given documents, each looked up (CROSS JOIN: SQLite, whose tables have no
// statistics, would otherwise rather walk all of the person's rows looking for them). They come as one
// value, an array (a JSON one for SQLite), so the statement's text is the same for every page: PostgreSQL
// keeps its plan, and neither builds a statement per id.
function givenRows(
  deps: AppDeps,
  viewer: AuthUser,
  category: DocumentCategory,
  ids: string[],
): { from: RawBuilder<unknown>; conditions: Expression<SqlBool>[] } {
  const given = isSqlite(deps)
    ? sql`(SELECT value AS document_id FROM json_each(${JSON.stringify(ids)})) m`
    : sql`unnest(${ids}::text[]) m(document_id)`;
  return {
    from: sql`${given} CROSS JOIN document_viewers v`,
    conditions: [
      sql<SqlBool>`v.user_id = ${viewer.id}`,
      sql<SqlBool>`v.document_id = m.document_id`,
      categoryFilter('v', category),
    ],
  };
}

async function countSearch(
  deps: AppDeps,
  viewer: AuthUser,
  category: DocumentCategory,
  context: SearchContext,
  categoryTotal: number,
  walkLimit = WALK_LIMIT,
): Promise<number> {
  const plan: Plan = categoryTotal <= walkLimit ? 'walk' : 'index';
  const { from, conditions } = viewerSource(deps, viewer, category, context, plan);
  const { rows } = await sql<{ n: string | number }>`
    SELECT count(*) AS n FROM ${from} WHERE ${sql.join(conditions, sql` AND `)}`.execute(deps.db);
  return toCount(rows[0]?.n);
}

// --- What is remembered between requests ---

type Bound = { value: string; id: string };
// `users`: whose names and addresses the search matches. Someone new counts only once they are on one of the
// person's documents, which moves the fingerprint.
type Remembered = {
  fingerprint: string;
  // The category's count with this fingerprint (a search's is `total`).
  listTotal: number;
  total?: number;
  users?: MatchedUsers;
  bounds: RecentMap<number, Bound>;
};

// Lists per database (tests and benchmarks run several in one process); the least recently used go first.
const REMEMBERED_LISTS = 2_000;
const REMEMBERED_PAGES = 200;
const memory = new WeakMap<Kysely<Database>, RecentMap<string, Remembered>>();

function rememberedLists(deps: AppDeps): RecentMap<string, Remembered> {
  let lists = memory.get(deps.db);
  if (lists === undefined) {
    lists = new RecentMap(REMEMBERED_LISTS);
    memory.set(deps.db, lists);
  }
  return lists;
}

function remembered(deps: AppDeps, key: string, state: ListState): Remembered {
  const lists = rememberedLists(deps);
  const found = lists.get(key);
  if (found?.fingerprint === state.fingerprint && found.listTotal === state.total) return found;
  const entry: Remembered = {
    fingerprint: state.fingerprint,
    listTotal: state.total,
    bounds: new RecentMap(REMEMBERED_PAGES),
  };
  lists.set(key, entry);
  return entry;
}

// The documents a search found through the index, in the list's order, when there were few enough of them
// (WALK_LIMIT): each page of that search is then a slice of them, and its count their number. Kept apart
// from the rest, for fewer lists, as each holds up to WALK_LIMIT ids.
const REMEMBERED_MATCH_LISTS = 32;
type Matches = { fingerprint: string; ids: string[] };
const matchMemory = new WeakMap<Kysely<Database>, RecentMap<string, Matches>>();

function matchesOf(deps: AppDeps): RecentMap<string, Matches> {
  let lists = matchMemory.get(deps.db);
  if (lists === undefined) {
    lists = new RecentMap(REMEMBERED_MATCH_LISTS);
    matchMemory.set(deps.db, lists);
  }
  return lists;
}

/**
 * The person's documents the search finds, in the list's order, or null when there are more than `limit`.
 * From the index, unless their number is known already, an unordered probe stops at the first `limit + 1`:
 * sorting them would read every match first, and a search that matches a quarter of a million documents
 * is then counted (countSearch) rather than read twice. A walk reads the person's rows in the list's
 * order, each tested: what counting them costs, and every page of the search is then a slice.
 */
async function readMatches(
  deps: AppDeps,
  viewer: AuthUser,
  query: ListQuery,
  context: SearchContext,
  plan: Plan,
  limit: number,
  knownTotal: number | undefined,
): Promise<string[] | null> {
  const { from, conditions } = viewerSource(deps, viewer, query.category, context, plan);
  const where = sql.join(conditions, sql` AND `);
  if (plan === 'index' && knownTotal === undefined) {
    const { rows } = await sql<{ n: string | number }>`SELECT count(*) AS n FROM (
      SELECT v.document_id FROM ${from} WHERE ${where} LIMIT ${sql.lit(limit + 1)}) probe`.execute(deps.db);
    if (toCount(rows[0]?.n) > limit) return null;
  }
  const column = sql.ref(query.sortColumn === 'created_at' ? 'v.created_at' : 'v.autodeletion_at');
  const direction = sql.raw(query.sortDirection === 'desc' ? 'DESC' : 'ASC');
  // The index's matches are sorted (an expression as the key, so the database does not walk the sort
  // index instead and test every row against them); a walk follows the sort index.
  const sortKey = plan === 'index' ? sql`${column} || ''` : column;
  const { rows } = await sql<{ document_id: string }>`
    SELECT v.document_id FROM ${from} WHERE ${where}
    ORDER BY ${sortKey} ${direction}, v.document_id ${direction} LIMIT ${sql.lit(limit + 1)}`.execute(
    deps.db,
  );
  return rows.length > limit ? null : rows.map((row) => row.document_id);
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
  const prepared = prepareSearch(deps, search);
  const context = { search: prepared, users: await matchedUsers(deps, prepared) };
  return countSearch(deps, viewer, category, context, state.total);
}

// The rows of the days before the page's (in the list's order) left out: `<` the next day after it when
// the list runs backwards in time, `>=` its day when it runs forwards.
type DayBound = { operator: '<' | '>='; value: string };

type PageRequest = {
  // The page's rows come after this one in the list's order (null: from the start).
  after: Bound | null;
  day: DayBound | null;
  // The page's documents, found already (a search's remembered matches).
  ids?: string[];
  offset: number;
  limit: number;
  // Read from the end of the list backwards (the rows are put back in order after).
  backwards: boolean;
};

type PageRow = ListedDocument & { sort_value: string };

// The page's statement, and whether its text is the same whoever asks (PostgreSQL then keeps its plan).
function pageStatement(
  deps: AppDeps,
  viewer: AuthUser,
  query: ListQuery,
  context: SearchContext | null,
  request: PageRequest,
): { statement: RawBuilder<PageRow>; direction: RawBuilder<unknown>; isCommon: boolean } {
  const column = sql.ref(query.sortColumn === 'created_at' ? 'v.created_at' : 'v.autodeletion_at');
  const forward = request.backwards ? (query.sortDirection === 'asc' ? 'desc' : 'asc') : query.sortDirection;
  const direction = sql.raw(forward === 'desc' ? 'DESC' : 'ASC');
  // Written out rather than built: a page is read on every list request, and building the statement
  // would cost about as much as running it.
  const { from, conditions } =
    request.ids === undefined
      ? viewerSource(deps, viewer, query.category, context, 'walk')
      : givenRows(deps, viewer, query.category, request.ids);
  if (request.after !== null) {
    const { value, id } = request.after;
    conditions.push(
      sql`(${column}, v.document_id) ${sql.raw(forward === 'desc' ? '<' : '>')} (${value}, ${id})`,
    );
  }
  if (request.day !== null)
    conditions.push(sql`${column} ${sql.raw(request.day.operator)} ${request.day.value}`);
  // Given its documents, the page reads their rows and sorts them; an expression as the sort key keeps the
  // database from walking the sort index instead and testing every row against them.
  const sortKey = request.ids === undefined ? column : sql`${column} || ''`;
  // The limit and offset as numbers in the text: SQLite plans a page with a bound limit more slowly.
  const ids = sql`SELECT v.document_id, v.archived, ${column} AS sort_value FROM ${from}
    WHERE ${sql.join(conditions, sql` AND `)}
    ORDER BY ${sortKey} ${direction}, v.document_id ${direction}
    LIMIT ${sql.lit(request.limit)} OFFSET ${sql.lit(request.offset)}`;
  // The page's ids first, then only their versions: the walk never reads a row it skips, and what the page
  // shows of each document is read only where the one kept for the viewer is out of date.
  const statement = sql<PageRow>`
    SELECT page.document_id AS id, page.archived, page.sort_value, lv.version
    FROM (${ids}) page LEFT JOIN document_list_versions lv ON lv.document_id = page.document_id
    ORDER BY page.sort_value ${direction}, page.document_id ${direction}`;
  // A page from a start (the list's first, or one remembered), walked, or of given documents, has one plan
  // whoever asks and whatever is searched; a skip's text changes with how far.
  return { statement, direction, isCommon: request.day === null && request.offset <= 1 };
}

async function readPage(
  deps: AppDeps,
  viewer: AuthUser,
  query: ListQuery,
  context: SearchContext | null,
  request: PageRequest,
): Promise<PageRow[]> {
  const { statement, isCommon } = pageStatement(deps, viewer, query, context, request);
  const { rows } = await (isCommon ? prepared(statement) : statement).execute(deps.db);
  return request.backwards ? rows.reverse() : rows;
}

// The statements most list requests run, compiled once per shape (what their text depends on: category,
// sort, a bound or not, limit) and only their values bound at each request. Building and compiling them
// with Kysely, and finding the prepared statement of a new text, were a tenth of a page read anew. Each is
// built once with stand-ins for its values, which every request replaces by its own.
const STAND_IN = '\u0000paraph-value:';
const standIn = (name: string) => `${STAND_IN}${name}`;
// Skips (an offset in the text) make a shape per distance: past this many, a statement is compiled each time.
const COMPILED_SHAPES = 1_000;
const compiledShapes = new WeakMap<Kysely<Database>, Map<string, CompiledQuery>>();

function compiledOnce<R>(
  deps: AppDeps,
  shape: string,
  build: () => RawBuilder<R>,
  values: Record<string, unknown>,
): CompiledQuery<R> {
  let shapes = compiledShapes.get(deps.db);
  if (shapes === undefined) {
    shapes = new Map();
    compiledShapes.set(deps.db, shapes);
  }
  let compiled = shapes.get(shape);
  if (compiled === undefined) {
    compiled = build().compile(deps.db);
    if (shapes.size < COMPILED_SHAPES) shapes.set(shape, compiled);
  }
  const parameters = compiled.parameters.map((parameter: unknown) => {
    if (typeof parameter !== 'string' || !parameter.startsWith(STAND_IN)) return parameter;
    const name = parameter.slice(STAND_IN.length);
    if (!(name in values)) throw new Error(`no value for ${name} in the list statement ${shape}`);
    return values[name];
  });
  return CompiledQuery.raw(compiled.sql, parameters) as CompiledQuery<R>;
}

/**
 * A page's statement with the list's state read beside it, in one statement: a page whose plan is known
 * before the state is (below) then costs one round trip, not two.
 */
async function readStateWithPage(
  deps: AppDeps,
  viewer: AuthUser,
  query: ListQuery,
  request: PageRequest,
): Promise<{ state: ListState; rows: PageRow[] }> {
  type Row = Sums & {
    id: string | null;
    archived: number | boolean | null;
    sort_value: string | null;
    version: ListedDocument['version'];
  };
  const { after, day } = request;
  // A slice of given documents has a statement of its own (readStateWithSlice).
  if (request.ids !== undefined) throw new Error('a page of given documents is read as a slice');
  const shape = [
    'page',
    query.category,
    query.sortColumn,
    query.sortDirection,
    request.backwards ? 'backwards' : 'forwards',
    after === null ? '' : 'after',
    day?.operator ?? '',
    request.limit,
    request.offset,
  ].join(' ');
  const build = () => {
    const stand = {
      ...request,
      after: after === null ? null : { value: standIn('afterValue'), id: standIn('afterId') },
      day: day === null ? null : { ...day, value: standIn('day') },
    };
    const someone = { ...viewer, id: standIn('viewer') };
    const { statement, direction, isCommon } = pageStatement(deps, someone, query, null, stand);
    const both = sql<Row>`
      SELECT s.total, s.own, s.names, p.id, p.archived, p.sort_value, p.version
      FROM (${stateSums(someone, query.category)}) s
      LEFT JOIN (${statement}) p ON 1 = 1
      ORDER BY p.sort_value ${direction}, p.id ${direction}`;
    return isCommon ? prepared(both) : both;
  };
  const values: Record<string, unknown> = { viewer: viewer.id };
  if (after !== null) Object.assign(values, { afterValue: after.value, afterId: after.id });
  if (day !== null) values.day = day.value;
  const { rows } = await deps.db.executeQuery<Row>(compiledOnce(deps, shape, build, values));
  const page: PageRow[] = [];
  for (const row of rows) {
    if (row.id === null || row.sort_value === null || row.archived === null) continue;
    page.push({ id: row.id, archived: row.archived, sort_value: row.sort_value, version: row.version });
  }
  return { state: toListState(rows[0]), rows: request.backwards ? page.reverse() : page };
}

/**
 * A slice of a search's remembered matches with the list's state, in one statement: only the documents'
 * versions are read with them. Where the state is the one the matches were read with, the person's rows
 * of them are as they were then (any change to them moves the fingerprint, in the same snapshot as the
 * versions), so they are not looked up again; the caller drops the rows otherwise.
 */
async function readStateWithSlice(
  deps: AppDeps,
  viewer: AuthUser,
  category: DocumentCategory,
  ids: string[],
): Promise<{ state: ListState; rows: ListedDocument[] }> {
  type Row = Sums & { id: string | null; version: ListedDocument['version'] };
  const build = () => {
    const given = isSqlite(deps)
      ? sql`(SELECT value AS document_id, key AS n FROM json_each(${standIn('ids')})) m`
      : sql`unnest(${standIn('ids')}::text[]) WITH ORDINALITY m(document_id, n)`;
    return prepared(sql<Row>`
      SELECT s.total, s.own, s.names, p.id, p.version
      FROM (${stateSums({ ...viewer, id: standIn('viewer') }, category)}) s LEFT JOIN (
        SELECT m.document_id AS id, lv.version, m.n FROM ${given}
        LEFT JOIN document_list_versions lv ON lv.document_id = m.document_id) p ON 1 = 1
      ORDER BY p.n`);
  };
  const values = { viewer: viewer.id, ids: isSqlite(deps) ? JSON.stringify(ids) : ids };
  const { rows } = await deps.db.executeQuery<Row>(compiledOnce(deps, `slice ${category}`, build, values));
  // Every category but the archive holds only documents the person has not archived (categoryFilter).
  const archived = category === 'archived' ? 1 : 0;
  const page: ListedDocument[] = [];
  for (const row of rows) if (row.id !== null) page.push({ id: row.id, archived, version: row.version });
  return { state: toListState(rows[0]), rows: page };
}

// A page further than this from a known start (the list's ends, a page start remembered) is found from the
// days instead: a sum over the person's days, then a walk within one day.
const DAYS_BEYOND = 500;

/**
 * The day in which the row `offset` rows into the list falls, as a bound that leaves out the days before
 * it, and how many of that day's rows come before it. Null when the days hold fewer rows than that.
 */
async function locateInDays(
  deps: AppDeps,
  viewer: AuthUser,
  query: ListQuery,
  offset: number,
): Promise<{ day: DayBound | null; skip: number } | null> {
  const days = await deps.db
    .selectFrom('document_list_days as t')
    .select(['t.day', sql<string | number>`sum(t.documents)`.as('documents')])
    .where('t.user_id', '=', viewer.id)
    .where('t.sorted_by', '=', query.sortColumn)
    .where(categoryFilter('t', query.category))
    .groupBy('t.day')
    .orderBy('t.day', query.sortDirection)
    .execute();
  let before = 0;
  let later: string | null = null;
  for (const { day, documents } of days) {
    const count = toCount(documents);
    if (before + count > offset) {
      const bound: DayBound | null =
        query.sortDirection === 'asc'
          ? { operator: '>=', value: day }
          : later === null
            ? null
            : { operator: '<', value: later };
      return { day: bound, skip: offset - before };
    }
    before += count;
    later = day;
  }
  return null;
}

// How a page is read, and which of the rows read are the page: a walk reads the row before it too, so that
// where the page starts is remembered.
type PagePlan = { request: PageRequest; pageSize: number; withPrevious: 0 | 1 };

const FIRST_PAGE: PagePlan = {
  request: { after: null, day: null, offset: 0, limit: PAGE_SIZE, backwards: false },
  pageSize: PAGE_SIZE,
  withPrevious: 0,
};

// A page of documents found already (a search's remembered matches), in their order.
function givenRequest(ids: string[]): PageRequest {
  return { after: null, day: null, ids, offset: 0, limit: ids.length, backwards: false };
}

/**
 * Page `page` of `total` rows walked from the nearest page start remembered at or before it, or from
 * whichever end of the list is nearer; `skipped`: how many rows the walk passes over.
 */
function walkPlan(entry: Remembered, page: number, total: number): PagePlan & { skipped: number } {
  let from = 1;
  for (const known of entry.bounds.keys()) if (known <= page && known > from) from = known;
  const after = from === 1 ? null : (entry.bounds.get(from) ?? null);
  const start = (page - 1) * PAGE_SIZE;
  const skipForward = (page - from) * PAGE_SIZE;
  const rowsAfter = Math.max(0, total - page * PAGE_SIZE);
  const pageSize = Math.min(PAGE_SIZE, total - start);
  const withPrevious = start > 0 ? 1 : 0;
  const backwards = rowsAfter < skipForward;
  if (backwards) {
    return {
      request: { after: null, day: null, offset: rowsAfter, limit: pageSize + withPrevious, backwards },
      pageSize,
      withPrevious,
      skipped: rowsAfter,
    };
  }
  const previous = skipForward > 0 ? withPrevious : 0;
  return {
    request: { after, day: null, offset: skipForward - previous, limit: pageSize + previous, backwards },
    pageSize,
    withPrevious,
    skipped: skipForward,
  };
}

/** The page among the rows its plan read, with where it and the next page start remembered. */
function pageOf(entry: Remembered, page: number, plan: PagePlan, read: PageRow[]): PageRow[] {
  const { request, pageSize, withPrevious } = plan;
  const hasPrevious = request.backwards
    ? withPrevious === 1 && read.length > pageSize
    : request.limit > pageSize;
  const previous = hasPrevious ? read[0] : undefined;
  const rows = hasPrevious ? read.slice(1) : read;
  if (previous !== undefined) entry.bounds.set(page, { value: previous.sort_value, id: previous.id });
  const last = rows[rows.length - 1];
  if (last !== undefined && rows.length === PAGE_SIZE)
    entry.bounds.set(page + 1, { value: last.sort_value, id: last.id });
  return rows;
}

type Expected = ({ kind: 'walk'; plan: PagePlan } | { kind: 'slice'; ids: string[] }) & {
  fingerprint: string | null;
  listTotal: number;
};

/**
 * How the page would be read if the person's lists are as this process last saw them, when that needs
 * nothing from the database first: the first page without a search (which depends on nothing remembered,
 * `fingerprint` null), a slice of a search's remembered matches, or a page near a remembered start or an
 * end. Its rows are then read with the state, and kept if the state is the one they were planned for.
 */
function expectedPlan(deps: AppDeps, query: ListQuery, key: string): Expected | null {
  if (query.search === '' && query.page === 1)
    return { kind: 'walk', plan: FIRST_PAGE, fingerprint: null, listTotal: 0 };
  const entry = rememberedLists(deps).get(key);
  if (entry === undefined) return null;
  const start = (query.page - 1) * PAGE_SIZE;
  const expected = { fingerprint: entry.fingerprint, listTotal: entry.listTotal };
  if (query.search !== '') {
    const kept = matchesOf(deps).get(key);
    if (kept?.fingerprint !== entry.fingerprint || start >= kept.ids.length) return null;
    return { kind: 'slice', ids: kept.ids.slice(start, start + PAGE_SIZE), ...expected };
  }
  if (start >= entry.listTotal) return null;
  const plan = walkPlan(entry, query.page, entry.listTotal);
  return plan.skipped > DAYS_BEYOND ? null : { kind: 'walk', plan, ...expected };
}

export type ListedPage = { rows: ListedDocument[]; total: number; totalPages: number; state: ListState };

/**
 * A page of the list, how many pages it has, and the list's state (`known`: read already). `walkLimit` is
 * how many of a person's documents a search walks through before it asks the index instead; tests set it
 * low, to take the index's way with a few.
 */
export async function listDocuments(
  deps: AppDeps,
  viewer: AuthUser,
  query: ListQuery,
  known?: ListState,
  walkLimit = WALK_LIMIT,
): Promise<ListedPage> {
  const key = [viewer.id, query.category, query.search, query.sortColumn, query.sortDirection].join('\n');
  // The page read with the state, when its plan could be known before the state and the state is the one
  // it was planned for: the request then costs one statement.
  let early: { plan: PagePlan; rows: PageRow[] } | { plan: null; rows: ListedDocument[] } | null = null;
  let state: ListState;
  if (known !== undefined) state = known;
  else {
    const expected = expectedPlan(deps, query, key);
    if (expected === null) state = await readListState(deps.db, viewer, query.category);
    else {
      // Read by the plan made before the state was known: kept if the state is the one it was made for.
      const holds = (read: ListState) =>
        expected.fingerprint === null ||
        (expected.fingerprint === read.fingerprint && expected.listTotal === read.total);
      if (expected.kind === 'walk') {
        const read = await readStateWithPage(deps, viewer, query, expected.plan.request);
        state = read.state;
        if (holds(state)) early = { plan: expected.plan, rows: read.rows };
      } else {
        const read = await readStateWithSlice(deps, viewer, query.category, expected.ids);
        state = read.state;
        if (holds(state)) early = { plan: null, rows: read.rows };
      }
    }
  }
  const entry = remembered(deps, key, state);

  let context: SearchContext | null = null;
  let total = state.total;
  let matches: string[] | undefined;
  if (query.search !== '') {
    const search = prepareSearch(deps, query.search);
    entry.users ??= await matchedUsers(deps, search);
    context = { search, users: entry.users };
    // The matches all at once while they are few, every page then a slice of them: among documents a walk
    // may read, read by the walk that counting them would be (once their number is known, pages walk
    // again rather than read everything once more); among more, found by the index. Else only their
    // count, from the index (pages walk, a match every few rows).
    const walkable = state.total <= walkLimit;
    if (walkable || entry.total === undefined || entry.total <= walkLimit) {
      const kept = matchesOf(deps).get(key);
      matches = kept?.fingerprint === state.fingerprint ? kept.ids : undefined;
      if (matches === undefined && !(walkable && entry.total !== undefined)) {
        const plan: Plan = walkable ? 'walk' : 'index';
        const found = await readMatches(deps, viewer, query, context, plan, walkLimit, entry.total);
        if (found !== null) {
          matches = found;
          matchesOf(deps).set(key, { fingerprint: state.fingerprint, ids: found });
          entry.total = found.length;
        }
      }
    }
    entry.total ??= await countSearch(deps, viewer, query.category, context, state.total, walkLimit);
    total = entry.total;
  }
  const totalPages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const start = (query.page - 1) * PAGE_SIZE;
  if (start >= total) return { rows: [], total, totalPages, state };
  if (early !== null) {
    const rows = early.plan === null ? early.rows : pageOf(entry, query.page, early.plan, early.rows);
    return { rows, total, totalPages, state };
  }
  if (matches !== undefined) {
    const request = givenRequest(matches.slice(start, start + PAGE_SIZE));
    const rows = await readPage(deps, viewer, query, null, request);
    return { rows, total, totalPages, state };
  }

  const walk = walkPlan(entry, query.page, total);
  // Without a search, a page far from anything known starts from its day.
  const located =
    context === null && walk.skipped > DAYS_BEYOND ? await locateInDays(deps, viewer, query, start) : null;
  let plan: PagePlan = walk;
  if (located !== null) {
    const previous = located.skip > 0 ? walk.withPrevious : 0;
    plan = {
      request: {
        after: null,
        day: located.day,
        offset: located.skip - previous,
        limit: walk.pageSize + previous,
        backwards: false,
      },
      pageSize: walk.pageSize,
      withPrevious: walk.withPrevious,
    };
  }
  const read = await readPage(deps, viewer, query, context, plan.request);
  // A page that starts with its day's first row has no row before it among those read: its start is the
  // day's bound itself (every id sorts after ''), so the next request for it is read from there.
  if (located?.day != null && located.skip === 0)
    entry.bounds.set(query.page, { value: located.day.value, id: '' });
  return { rows: pageOf(entry, query.page, plan, read), total, totalPages, state };
}
