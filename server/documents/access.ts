// Loads one document with everything an action decides on (its flow, participants, the caller's archive
// and the flags of permissions.ts), inside the action's transaction. On PostgreSQL the document row is
// locked (SELECT ... FOR UPDATE) so two actions on one document run one after the other; SQLite already
// serialises writers.
import type { Kysely } from 'kysely';
import type { AppDeps, AuthUser } from '../context.ts';
import type { Database, DocumentRow, ParticipantRow, SignFlowRow } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import { documentPermissions, isViewerParticipant, type DocumentPermissions } from './permissions.ts';

export type { DocumentHidesTable, InvitesTable } from '../db/schema.ts';
export type ActionDatabase = Database;
export type ActionDb = Kysely<Database>;

export function actionDb(db: Kysely<Database>): ActionDb {
  return db;
}

export function baseDb(db: ActionDb): Kysely<Database> {
  return db;
}

export function isPostgres(deps: AppDeps): boolean {
  return deps.config.databaseUrl !== null;
}

export type DocumentContext = {
  row: DocumentRow;
  flow: SignFlowRow | null;
  participants: ParticipantRow[];
  // The caller's own participant rows.
  mine: ParticipantRow[];
  archived: boolean;
  permissions: DocumentPermissions;
};

// Null when the caller may not see the document: unknown, someone else's, or deleted "for them".
export async function loadDocumentContext(
  db: ActionDb,
  id: string,
  viewer: AuthUser,
  options: { lock: boolean },
): Promise<DocumentContext | null> {
  let query = db.selectFrom('documents').selectAll().where('id', '=', id);
  if (options.lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (row === undefined) return null;
  const flow =
    (await db.selectFrom('sign_flows').selectAll().where('document_id', '=', id).executeTakeFirst()) ?? null;
  const participants =
    flow === null
      ? []
      : await db
          .selectFrom('sign_flow_participants')
          .selectAll()
          .where('sign_flow_id', '=', flow.id)
          .orderBy('position')
          .execute();
  const viewerRef = { id: viewer.id, email: viewer.email };
  const asPermission = (participant: ParticipantRow) => ({
    role: participant.role,
    state: participant.state,
    userId: participant.user_id,
    email: participant.email,
  });
  const mine = participants.filter((participant) =>
    isViewerParticipant(asPermission(participant), viewerRef),
  );
  if (row.owner_id !== viewer.id && mine.length === 0) return null;
  const [archive, hide] = await Promise.all([
    db
      .selectFrom('document_archives')
      .select('document_id')
      .where('document_id', '=', id)
      .where('user_id', '=', viewer.id)
      .executeTakeFirst(),
    db
      .selectFrom('document_hides')
      .select('document_id')
      .where('document_id', '=', id)
      .where('user_id', '=', viewer.id)
      .executeTakeFirst(),
  ]);
  if (hide !== undefined) return null;
  const archived = archive !== undefined;
  const permissions = documentPermissions({
    document: { ownerId: row.owner_id, state: row.state },
    signFlow: flow === null ? null : { type: flow.type, state: flow.state },
    participants: participants.map(asPermission),
    viewer: viewerRef,
    archivedByViewer: archived,
  });
  return { row, flow, participants, mine, archived, permissions };
}

export async function isHiddenFor(db: ActionDb, documentId: string, userId: string): Promise<boolean> {
  const hide = await db
    .selectFrom('document_hides')
    .select('document_id')
    .where('document_id', '=', documentId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return hide !== undefined;
}

export const documentNotFound = (): ApiError => new ApiError(404, 'not_found', 'Document not found.');
export const actionNotAllowed = (): ApiError =>
  new ApiError(409, 'action_not_allowed', 'The document does not allow this action now.');
