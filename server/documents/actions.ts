// The changes the document actions make, each inside the caller's transaction and each with its audit
// entry. [4/6] replaces the flow transitions here with the document-lifecycle machine.
import { recordAudit } from '../audit.ts';
import type { AppDeps } from '../context.ts';
import type { DocumentRow, DocumentState, ParticipantRow } from '../db/schema.ts';
import { baseDb, type ActionDb, type DocumentContext } from './access.ts';
import { IN_PROGRESS_STATES } from './permissions.ts';

// Who did it and from where, for the audit trail.
export type ActionMeta = { actorId: string | null; ip: string | null; userAgent: string | null; now: Date };

// A flow the owner's delete (or cancel) stops first: reviewing or collecting signatures.
export const CANCELLABLE_STATES: readonly DocumentState[] = ['in_review', 'awaiting_signs'];

function audit(db: ActionDb, meta: ActionMeta, documentId: string, action: string, details = {}) {
  return recordAudit(baseDb(db), {
    documentId,
    actorId: meta.actorId,
    action,
    ip: meta.ip,
    userAgent: meta.userAgent,
    at: meta.now,
    details,
  });
}

export async function archiveForViewer(
  db: ActionDb,
  context: DocumentContext,
  meta: ActionMeta,
  userId: string,
) {
  await db
    .insertInto('document_archives')
    .values({ document_id: context.row.id, user_id: userId, archived_at: meta.now.toISOString() })
    .execute();
  await audit(db, meta, context.row.id, 'document.archived');
}

// A participant's delete: the document leaves their lists and details; everyone else keeps it.
export async function hideForViewer(
  db: ActionDb,
  context: DocumentContext,
  meta: ActionMeta,
  userId: string,
) {
  await db
    .insertInto('document_hides')
    .values({ document_id: context.row.id, user_id: userId, hidden_at: meta.now.toISOString() })
    .execute();
  await audit(db, meta, context.row.id, 'document.deleted_for_participant');
}

// Ends a running flow: whoever had not acted yet is cancelled with it.
export async function endFlow(
  db: ActionDb,
  context: DocumentContext,
  meta: ActionMeta,
  state: 'cancelled' | 'refused' | 'rejected',
  action: string,
  details: Record<string, unknown> = {},
): Promise<void> {
  const { flow, row } = context;
  if (flow === null) return;
  const now = meta.now.toISOString();
  await db
    .updateTable('sign_flow_participants')
    .set({ state: 'cancelled' })
    .where('sign_flow_id', '=', flow.id)
    .where('state', 'in', ['waiting', 'pending'])
    .execute();
  await db.updateTable('sign_flows').set({ state, updated_at: now }).where('id', '=', flow.id).execute();
  await db.updateTable('documents').set({ state, updated_at: now }).where('id', '=', row.id).execute();
  await audit(db, meta, row.id, action, { signFlowId: flow.id, ...details });
}

// Removes the document and everything hanging off it (pages, archives, flow, participants, jobs,
// invites: foreign keys cascade), keeping its audit trail; answers the stored files to delete once the
// transaction has committed.
export async function purgeDocument(
  db: ActionDb,
  row: DocumentRow,
  meta: ActionMeta,
  action: 'document.deleted' | 'document.autodeleted',
): Promise<string[]> {
  const pages = await db
    .selectFrom('document_pages')
    .select('image_key')
    .where('document_id', '=', row.id)
    .execute();
  const keys = [row.file_key, ...(row.signed_file_key === null ? [] : [row.signed_file_key])];
  keys.push(...pages.map((page) => page.image_key));
  await db.deleteFrom('documents').where('id', '=', row.id).execute();
  await audit(db, meta, row.id, action, {
    originalFilename: row.original_filename,
    sha256: row.sha256,
  });
  return keys;
}

// The owner's delete: a running flow is cancelled first, so the trail says so.
export async function deleteAsOwner(
  db: ActionDb,
  context: DocumentContext,
  meta: ActionMeta,
): Promise<string[]> {
  if (context.flow !== null && CANCELLABLE_STATES.includes(context.row.state)) {
    await endFlow(db, context, meta, 'cancelled', 'sign_flow.cancelled', { reason: 'document_deleted' });
  }
  return purgeDocument(db, context.row, meta, 'document.deleted');
}

// After the commit: the database is the truth, so a file the store fails to delete is only logged.
export async function deleteStoredFiles(deps: AppDeps, keys: readonly string[]): Promise<void> {
  const results = await Promise.allSettled(keys.map((key) => deps.store.delete(key)));
  results.forEach((result, index) => {
    if (result.status === 'rejected') {
      const error = result.reason instanceof Error ? result.reason.name : 'Error';
      deps.log.warn({ key: keys[index], error }, 'stored file of a deleted document could not be removed');
    }
  });
}

export function isFlowInProgress(state: DocumentState): boolean {
  return IN_PROGRESS_STATES.includes(state);
}

export function pendingOf(mine: readonly ParticipantRow[], role: ParticipantRow['role']): ParticipantRow[] {
  return mine.filter((participant) => participant.role === role && participant.state === 'pending');
}
