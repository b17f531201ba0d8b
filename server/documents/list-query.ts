// One query builder for every document list. The category conditions are the SQL twin of `isInCategory`
// in permissions.ts (docs/decisions.md, "Document categories").
//
// Shaped for a caller with thousands of documents (bench/api.ts); the indexes are in migration 0002:
// - a page walks the sort index and stops after its 20 ids, then reads only those rows;
// - the count adds index-only counts (own documents, then documents shared with the caller) and subtracts
//   the caller's archived ones, rather than testing every document for each condition;
// - sets that do not depend on the document row (the caller's archive, the flows the caller must act in,
//   the users and participants a search matches) are subqueries the database computes once per query.
import { expressionBuilder, sql, type ExpressionBuilder, type Expression, type SqlBool } from 'kysely';
import type { AppDeps, AuthUser } from '../context.ts';
import { toCount } from '../db/database.ts';
import type { Database, DocumentRow, ParticipantRole } from '../db/schema.ts';
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

type DocEb = ExpressionBuilder<Database, 'documents'>;
type Condition = (eb: DocEb) => Expression<SqlBool>;

// "100%" must find "100%", not everything: LIKE wildcards in the user's text are escaped.
export function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

// Subqueries that reference no outer table: the database computes each once per query.
const uncorrelated = expressionBuilder<Database, never>();

type ParticipantEb = ExpressionBuilder<Database, 'sign_flows' | 'sign_flow_participants'>;

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

// Ids of the documents whose flow has the viewer as a participant (with `role` pending, when given). The
// two ways of being the viewer are two selects, so each reads one index (participants_user_role,
// participants_email_role) without touching the participant rows.
function participatedDocumentIds(viewer: AuthUser, pendingRole?: ParticipantRole) {
  const rows = (matchesViewer: (inner: ParticipantEb) => Expression<SqlBool>) =>
    uncorrelated
      .selectFrom('sign_flow_participants')
      .innerJoin('sign_flows', 'sign_flows.id', 'sign_flow_participants.sign_flow_id')
      .select('sign_flows.document_id')
      .where((inner) =>
        pendingRole === undefined
          ? matchesViewer(inner)
          : inner.and([
              matchesViewer(inner),
              inner('sign_flow_participants.role', '=', pendingRole),
              inner('sign_flow_participants.state', '=', 'pending'),
            ]),
      );
  return rows((inner) => inner('sign_flow_participants.user_id', '=', viewer.id)).unionAll(
    rows((inner) =>
      inner.and([
        inner('sign_flow_participants.user_id', 'is', null),
        inner('sign_flow_participants.email', '=', viewer.email.toLowerCase()),
      ]),
    ),
  );
}

function archivedDocumentIds(viewer: AuthUser) {
  return uncorrelated
    .selectFrom('document_archives')
    .select('document_archives.document_id')
    .where('document_archives.user_id', '=', viewer.id);
}

// Per document row rather than a set: a page walk stops early, and an OR of an owner test with an id set
// would lead SQLite to fetch every matching row by id before sorting.
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
// 404 on a single document).
export function visibleToViewer(eb: DocEb, viewer: AuthUser): Expression<SqlBool> {
  return eb.or([
    eb('documents.owner_id', '=', viewer.id),
    eb.and([viewerParticipates(eb, viewer), eb('documents.id', 'not in', hiddenDocumentIds(viewer))]),
  ]);
}

function isArchivedByViewer(eb: DocEb, viewer: AuthUser): Expression<SqlBool> {
  return eb('documents.id', 'in', archivedDocumentIds(viewer));
}

// The viewer must act now: a pending review of a document in review, or a pending signature of a
// document awaiting signatures. While one signature awaits its confirmation (`signing`) nobody else may
// begin theirs (docs/decisions.md "The document lifecycle"), so the flags and this list agree on that.
function viewerMustAct(eb: DocEb, viewer: AuthUser): Expression<SqlBool> {
  return eb.or([
    eb.and([
      eb('documents.state', '=', 'in_review'),
      eb('documents.id', 'in', participatedDocumentIds(viewer, 'reviewer')),
    ]),
    eb.and([
      eb('documents.state', '=', 'awaiting_signs'),
      eb('documents.id', 'in', participatedDocumentIds(viewer, 'signatory')),
    ]),
  ]);
}

// What a category asks besides the archive: `archived` holds every state, the others exclude the
// viewer's archive (added by the callers, so a count can subtract it instead of testing each row).
function categoryCondition(
  eb: DocEb,
  category: DocumentCategory,
  viewer: AuthUser,
): Expression<SqlBool> | null {
  switch (category) {
    case 'active':
    case 'archived':
      return null;
    case 'to_do':
      return viewerMustAct(eb, viewer);
    case 'in_progress':
      return eb.and([
        eb('documents.state', 'in', [...IN_PROGRESS_STATES]),
        eb.not(viewerMustAct(eb, viewer)),
      ]);
    case 'uploaded':
      return eb('documents.state', '=', 'uploaded');
    case 'done':
      return eb('documents.state', '=', 'signed');
    case 'failed':
      return eb('documents.state', 'in', [...FAILED_STATES]);
  }
}

// The owner's and the participants' names and addresses are matched as sets of ids, computed once: a
// per-document lookup of flows, participants and users costs more than reading those tables once.
function searchCondition(eb: DocEb, search: string): Expression<SqlBool> {
  const pattern = likePattern(search);
  const matches = (column: Expression<string>): Expression<SqlBool> =>
    sql<SqlBool>`lower(${column}) like ${pattern} escape '\\'`;
  return eb.or([
    matches(eb.ref('documents.original_filename')),
    eb(
      'documents.owner_id',
      'in',
      uncorrelated
        .selectFrom('users as owner')
        .select('owner.id')
        .where((inner) =>
          inner.or([matches(inner.ref('owner.email')), matches(inner.ref('owner.full_name'))]),
        ),
    ),
    eb(
      'documents.id',
      'in',
      uncorrelated
        .selectFrom('sign_flow_participants as p')
        .innerJoin('sign_flows', 'sign_flows.id', 'p.sign_flow_id')
        .select('sign_flows.document_id')
        .where((inner) =>
          inner.or([
            matches(inner.ref('p.email')),
            // The name is the linked account's; a participant without one has no name to match.
            inner(
              'p.user_id',
              'in',
              uncorrelated
                .selectFrom('users as named')
                .select('named.id')
                .where((named) => matches(named.ref('named.full_name'))),
            ),
          ]),
        ),
    ),
  ]);
}

function allOf(eb: DocEb, conditions: (Expression<SqlBool> | null)[]): Expression<SqlBool> {
  return eb.and(conditions.filter((condition): condition is Expression<SqlBool> => condition !== null));
}

// Every condition of the list except visibility and the archive.
function listFilters(eb: DocEb, viewer: AuthUser, category: DocumentCategory, search: string) {
  return [categoryCondition(eb, category, viewer), search === '' ? null : searchCondition(eb, search)];
}

function countWhere(where: Condition) {
  return uncorrelated
    .selectFrom('documents')
    .select((inner) => inner.fn.countAll<string | number>().as('n'))
    .where(where);
}

// The whole rule of a list: its filters, in or out of the viewer's archive as the category says, and
// visible. SQLite tests the terms in this order: a search rules out most rows before the costlier
// visibility test.
function listCondition(eb: DocEb, viewer: AuthUser, category: DocumentCategory, search: string) {
  const archived = isArchivedByViewer(eb, viewer);
  return allOf(eb, [
    ...listFilters(eb, viewer, category, search),
    category === 'archived' ? archived : eb.not(archived),
    visibleToViewer(eb, viewer),
  ]);
}

type CountTerm = { sign: 1 | -1; where: Condition };

function countTerms(viewer: AuthUser, category: DocumentCategory, search: string): CountTerm[] {
  // A search reads every visible row's file name anyway, and to_do starts from the viewer's own pending
  // participant rows: a single term each.
  if (category === 'archived' || category === 'to_do' || search !== '') {
    return [{ sign: 1, where: (eb) => listCondition(eb, viewer, category, search) }];
  }
  // Otherwise the viewer's own documents and those shared with them are counted apart, each from an
  // index, and the viewer's archive (small) is subtracted, instead of testing every document.
  return [
    {
      sign: 1,
      where: (eb) =>
        allOf(eb, [eb('documents.owner_id', '=', viewer.id), ...listFilters(eb, viewer, category, search)]),
    },
    {
      sign: 1,
      where: (eb) =>
        allOf(eb, [
          eb('documents.owner_id', '<>', viewer.id),
          eb('documents.id', 'in', participatedDocumentIds(viewer)),
          eb('documents.id', 'not in', hiddenDocumentIds(viewer)),
          ...listFilters(eb, viewer, category, search),
        ]),
    },
    {
      sign: -1,
      where: (eb) =>
        allOf(eb, [
          isArchivedByViewer(eb, viewer),
          visibleToViewer(eb, viewer),
          ...listFilters(eb, viewer, category, search),
        ]),
    },
  ];
}

export async function countDocuments(
  deps: AppDeps,
  viewer: AuthUser,
  category: DocumentCategory,
  search = '',
): Promise<number> {
  const terms = countTerms(viewer, category, search);
  // One statement, one round trip: each term is a scalar subquery.
  const row = await deps.db
    .selectNoFrom(() => terms.map((term, index) => countWhere(term.where).as(`term${index}`)))
    .executeTakeFirst();
  const counts = row as Record<string, string | number | null> | undefined;
  return terms.reduce((total, term, index) => total + term.sign * toCount(counts?.[`term${index}`]), 0);
}

export async function listDocuments(
  deps: AppDeps,
  viewer: AuthUser,
  query: ListQuery,
): Promise<{ rows: DocumentRow[]; total: number; totalPages: number }> {
  const total = await countDocuments(deps, viewer, query.category, query.search);
  const totalPages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const sortColumn = `documents.${query.sortColumn}` as const;
  // The page's ids come from the sort index alone; only its 20 rows are then read in full, by id. (Two
  // statements: in one, `id in (page)` or a join with the page lets PostgreSQL scan every document.)
  const pageIds = await deps.db
    .selectFrom('documents')
    .select('documents.id')
    .where((eb) => listCondition(eb, viewer, query.category, query.search))
    .orderBy(sortColumn, query.sortDirection)
    .orderBy('documents.id', query.sortDirection)
    .limit(PAGE_SIZE)
    .offset((query.page - 1) * PAGE_SIZE)
    .execute();
  const found =
    pageIds.length === 0
      ? []
      : await deps.db
          .selectFrom('documents')
          .selectAll('documents')
          .where(
            'documents.id',
            'in',
            pageIds.map((row) => row.id),
          )
          .execute();
  const byId = new Map(found.map((row) => [row.id, row]));
  const rows = pageIds.flatMap((row) => byId.get(row.id) ?? []);
  return { rows, total, totalPages };
}
