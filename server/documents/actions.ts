// The changes the document actions make, each inside the caller's transaction and each with its audit
// entry. Flow state changes go through the document-lifecycle machine (sign-flow-lifecycle.ts).
import { recordAudit } from '../audit.ts';
import type { AppDeps } from '../context.ts';
import { applyLifecycleEvent } from '../../machines/document-lifecycle.ts';
import type { DocumentRow } from '../db/schema.ts';
import {
  recordPendingDeletions,
  removePendingDeletions,
  type DeletionTarget,
  type PendingDeletion,
} from '../storage/pending-deletions.ts';
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

// Removes the document and everything hanging off it (pages, archives, flow, participants, versions, jobs,
// invites: foreign keys cascade), keeping its audit trail. Its stored files (the original, every signed
// version, page images, whatever else lives under `documents/<id>/`) are recorded as pending deletions in
// the same transaction; the caller removes them once it has committed (deleteStoredFiles), and the cleanup
// job does if that never happens.
export async function purgeDocument(
  db: ActionDb,
  row: DocumentRow,
  meta: ActionMeta,
  action: 'document.deleted' | 'document.autodeleted',
): Promise<PendingDeletion[]> {
  const folder = `documents/${row.id}/`;
  const pages = await db
    .selectFrom('document_pages')
    .select('image_key')
    .where('document_id', '=', row.id)
    .execute();
  const versions = await db
    .selectFrom('document_versions')
    .select('file_key')
    .where('document_id', '=', row.id)
    .where('file_key', 'is not', null)
    .execute();
  const keys = new Set([
    row.file_key,
    ...(row.signed_file_key === null ? [] : [row.signed_file_key]),
    ...pages.map((page) => page.image_key),
    ...versions.flatMap((version) => (version.file_key === null ? [] : [version.file_key])),
  ]);
  // Keys are made under the document's folder; any that is not is named on its own.
  const targets: DeletionTarget[] = [
    { key: folder, isPrefix: true },
    ...[...keys].filter((key) => !key.startsWith(folder)).map((key) => ({ key, isPrefix: false })),
  ];
  await db.deleteFrom('documents').where('id', '=', row.id).execute();
  await audit(db, meta, row.id, action, {
    originalFilename: row.original_filename,
    sha256: row.sha256,
  });
  return recordPendingDeletions(baseDb(db), targets, { now: meta.now });
}

// The owner's delete: a running flow is cancelled first, through the lifecycle like the owner's cancel,
// so the trail says so. A flow the lifecycle will not cancel (ended, or a signature being confirmed) is
// left as it is: the delete's own rules (the caller's flags) decide whether the delete may happen.
export async function deleteAsOwner(
  db: ActionDb,
  context: DocumentContext,
  meta: ActionMeta,
): Promise<PendingDeletion[]> {
  const { flow, row, participants } = context;
  if (flow !== null) {
    const before = recordOf(row, flow, participants);
    const { accepted, next } = applyLifecycleEvent(before, { type: 'flow.cancel' });
    if (accepted) {
      await persistTransition(db, { documentId: row.id, flowId: flow.id }, { before, after: next }, meta, {
        documentDeleted: true,
      });
      await audit(db, meta, row.id, 'sign_flow.cancelled', {
        signFlowId: flow.id,
        reason: 'document_deleted',
      });
    }
  }
  return purgeDocument(db, row, meta, 'document.deleted');
}

// After the commit, at once. A file the store fails to delete is only logged: its pending deletion stays,
// and the cleanup job retries it.
export async function deleteStoredFiles(deps: AppDeps, deletions: readonly PendingDeletion[]): Promise<void> {
  await removePendingDeletions(deps, deletions);
}
