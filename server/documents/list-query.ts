// One query builder for every document list. The category conditions are the SQL twin of `isInCategory`
// in permissions.ts (docs/decisions.md, "Document categories").
import { sql, type ExpressionBuilder, type Expression, type SqlBool } from 'kysely';
import type { AppDeps, AuthUser } from '../context.ts';
import { toCount } from '../db/database.ts';
import type { Database, DocumentRow } from '../db/schema.ts';
import { FAILED_STATES, IN_PROGRESS_STATES, SIGNING_STATES, type DocumentCategory } from './permissions.ts';

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

// "100%" must find "100%", not everything: LIKE wildcards in the user's text are escaped.
export function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

type ParticipantEb = ExpressionBuilder<Database, 'documents' | 'sign_flows' | 'sign_flow_participants'>;

function viewerParticipates(
  eb: DocEb,
  viewer: AuthUser,
  extra?: (inner: ParticipantEb) => Expression<SqlBool>,
): Expression<SqlBool> {
  return eb.exists(
    eb
      .selectFrom('sign_flows')
      .innerJoin('sign_flow_participants', 'sign_flow_participants.sign_flow_id', 'sign_flows.id')
      .select(sql<number>`1`.as('one'))
      .whereRef('sign_flows.document_id', '=', 'documents.id')
      .where((inner) => {
        const isViewer = inner.or([
          inner('sign_flow_participants.user_id', '=', viewer.id),
          inner.and([
            inner('sign_flow_participants.user_id', 'is', null),
            inner('sign_flow_participants.email', '=', viewer.email.toLowerCase()),
          ]),
        ]);
        return extra === undefined ? isViewer : inner.and([isViewer, extra(inner)]);
      }),
  );
}

function archivedByViewer(eb: DocEb, viewer: AuthUser): Expression<SqlBool> {
  return eb.exists(
    eb
      .selectFrom('document_archives')
      .select(sql<number>`1`.as('one'))
      .whereRef('document_archives.document_id', '=', 'documents.id')
      .where('document_archives.user_id', '=', viewer.id),
  );
}

// The viewer must act now: a pending review of a document in review, or a pending signature.
function viewerMustAct(eb: DocEb, viewer: AuthUser): Expression<SqlBool> {
  return eb.or([
    eb.and([
      eb('documents.state', '=', 'in_review'),
      viewerParticipates(eb, viewer, (inner) =>
        inner.and([
          inner('sign_flow_participants.role', '=', 'reviewer'),
          inner('sign_flow_participants.state', '=', 'pending'),
        ]),
      ),
    ]),
    eb.and([
      eb('documents.state', 'in', [...SIGNING_STATES]),
      viewerParticipates(eb, viewer, (inner) =>
        inner.and([
          inner('sign_flow_participants.role', '=', 'signatory'),
          inner('sign_flow_participants.state', '=', 'pending'),
        ]),
      ),
    ]),
  ]);
}

function categoryCondition(eb: DocEb, category: DocumentCategory, viewer: AuthUser): Expression<SqlBool> {
  if (category === 'archived') return archivedByViewer(eb, viewer);
  const notArchived = eb.not(archivedByViewer(eb, viewer));
  switch (category) {
    case 'active':
      return notArchived;
    case 'to_do':
      return eb.and([notArchived, viewerMustAct(eb, viewer)]);
    case 'in_progress':
      return eb.and([
        notArchived,
        eb('documents.state', 'in', [...IN_PROGRESS_STATES]),
        eb.not(viewerMustAct(eb, viewer)),
      ]);
    case 'uploaded':
      return eb.and([notArchived, eb('documents.state', '=', 'uploaded')]);
    case 'done':
      return eb.and([notArchived, eb('documents.state', '=', 'signed')]);
    case 'failed':
      return eb.and([notArchived, eb('documents.state', 'in', [...FAILED_STATES])]);
  }
}

function searchCondition(eb: DocEb, search: string): Expression<SqlBool> {
  const pattern = likePattern(search);
  const matches = (column: Expression<string>): Expression<SqlBool> =>
    sql<SqlBool>`lower(${column}) like ${pattern} escape '\\'`;
  return eb.or([
    matches(eb.ref('documents.original_filename')),
    eb.exists(
      eb
        .selectFrom('users as owner')
        .select(sql<number>`1`.as('one'))
        .whereRef('owner.id', '=', 'documents.owner_id')
        .where((inner) =>
          inner.or([matches(inner.ref('owner.email')), matches(inner.ref('owner.full_name'))]),
        ),
    ),
    eb.exists(
      eb
        .selectFrom('sign_flows')
        .innerJoin('sign_flow_participants as p', 'p.sign_flow_id', 'sign_flows.id')
        .leftJoin('users as pu', 'pu.id', 'p.user_id')
        .select(sql<number>`1`.as('one'))
        .whereRef('sign_flows.document_id', '=', 'documents.id')
        .where((inner) =>
          inner.or([
            matches(inner.ref('p.email')),
            matches(sql<string>`coalesce(${inner.ref('pu.full_name')}, '')`),
          ]),
        ),
    ),
  ]);
}

// Owner or participant: the one visibility rule (anyone else gets 404 on a single document).
export function visibleToViewer(eb: DocEb, viewer: AuthUser): Expression<SqlBool> {
  return eb.or([eb('documents.owner_id', '=', viewer.id), viewerParticipates(eb, viewer)]);
}

function baseQuery(deps: AppDeps, viewer: AuthUser, category: DocumentCategory, search: string) {
  return deps.db.selectFrom('documents').where((eb) => {
    const conditions: Expression<SqlBool>[] = [
      visibleToViewer(eb, viewer),
      categoryCondition(eb, category, viewer),
    ];
    if (search !== '') conditions.push(searchCondition(eb, search));
    return eb.and(conditions);
  });
}

export async function countDocuments(
  deps: AppDeps,
  viewer: AuthUser,
  category: DocumentCategory,
  search = '',
): Promise<number> {
  const row = await baseQuery(deps, viewer, category, search)
    .select((eb) => eb.fn.countAll<string | number>().as('total'))
    .executeTakeFirst();
  return toCount(row?.total);
}

export async function listDocuments(
  deps: AppDeps,
  viewer: AuthUser,
  query: ListQuery,
): Promise<{ rows: DocumentRow[]; total: number; totalPages: number }> {
  const total = await countDocuments(deps, viewer, query.category, query.search);
  const totalPages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const rows = await baseQuery(deps, viewer, query.category, query.search)
    .selectAll('documents')
    .orderBy(`documents.${query.sortColumn}`, query.sortDirection)
    .orderBy('documents.id', query.sortDirection)
    .limit(PAGE_SIZE)
    .offset((query.page - 1) * PAGE_SIZE)
    .execute();
  return { rows, total, totalPages };
}
