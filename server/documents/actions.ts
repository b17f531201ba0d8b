// The changes the document actions make, each inside the caller's transaction and each with its audit
// entry. Flow state changes go through the document-lifecycle machine (sign-flow-lifecycle.ts).
import { recordAudit } from '../audit.ts';
import type { AppDeps } from '../context.ts';
import { applyLifecycleEvent } from '../../machines/document-lifecycle.ts';
import type { DocumentRow } from '../db/schema.ts';
import { baseDb, type ActionDb, type DocumentContext } from './access.ts';
import { persistTransition, recordOf } from './sign-flow-lifecycle.ts';

// Who did it and from where, for the audit trail.
export type ActionMeta = { actorId: string | null; ip: string | null; userAgent: string | null; now: Date };

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

// The owner's delete: a running flow is cancelled first, through the lifecycle like the owner's cancel,
// so the trail says so. A flow the lifecycle will not cancel (ended, or a signature being confirmed) is
// left as it is: the delete's own rules (the caller's flags) decide whether the delete may happen.
export async function deleteAsOwner(
  db: ActionDb,
  context: DocumentContext,
  meta: ActionMeta,
): Promise<string[]> {
  const { flow, row, participants } = context;
  if (flow !== null) {
    const before = recordOf(row, flow, participants);
    const { accepted, next } = applyLifecycleEvent(before, { type: 'flow.cancel' });
    if (accepted) {
      await persistTransition(db, { documentId: row.id, flowId: flow.id }, { before, after: next }, meta);
      await audit(db, meta, row.id, 'sign_flow.cancelled', {
        signFlowId: flow.id,
        reason: 'document_deleted',
      });
    }
  }
  return purgeDocument(db, row, meta, 'document.deleted');
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
