// Stored files are removed in two steps so that no crash leaves them behind for good: the transaction that
// makes them garbage records them (pending_deletions), and once it has committed they are removed at once;
// whatever that removal did not finish (a store error, a process that died in between) the cleanup job
// retries until the store has it gone. Removing an object twice is harmless, so instances need no claim.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AppDeps } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { errorText } from '../http/logging.ts';

// One object key, or a folder of them (`documents/<id>/`).
export type DeletionTarget = { key: string; isPrefix: boolean };

export type PendingDeletion = DeletionTarget & { id: string };

const BATCH = 100;

export async function recordPendingDeletions(
  db: Kysely<Database>,
  targets: readonly DeletionTarget[],
  options: { now: Date; notBefore?: Date },
): Promise<PendingDeletion[]> {
  const deletions = targets.map((target) => ({ ...target, id: randomUUID() }));
  if (deletions.length === 0) return deletions;
  const createdAt = options.now.toISOString();
  await db
    .insertInto('pending_deletions')
    .values(
      deletions.map((deletion) => ({
        id: deletion.id,
        object_key: deletion.key,
        is_prefix: deletion.isPrefix ? (1 as const) : (0 as const),
        created_at: createdAt,
        not_before: (options.notBefore ?? options.now).toISOString(),
      })),
    )
    .execute();
  return deletions;
}

// For a guard that turned out not to be needed (the files it covered are kept after all).
export async function cancelPendingDeletions(
  db: Kysely<Database>,
  deletions: readonly PendingDeletion[],
): Promise<void> {
  if (deletions.length === 0) return;
  await db
    .deleteFrom('pending_deletions')
    .where(
      'id',
      'in',
      deletions.map((deletion) => deletion.id),
    )
    .execute();
}

async function removeOne(deps: AppDeps, deletion: PendingDeletion): Promise<boolean> {
  try {
    if (deletion.isPrefix) await deps.store.deletePrefix(deletion.key);
    else await deps.store.delete(deletion.key);
    await deps.db.deleteFrom('pending_deletions').where('id', '=', deletion.id).execute();
    return true;
  } catch (error) {
    deps.log.warn(
      { key: deletion.key, error: errorText(error) },
      'a stored file to delete could not be removed yet; the cleanup job will retry',
    );
    return false;
  }
}

// After the commit: the database is the truth, so a failure here is only logged, and the row stays for
// the cleanup job. Answers how many were removed.
export async function removePendingDeletions(
  deps: AppDeps,
  deletions: readonly PendingDeletion[],
): Promise<number> {
  const results = await Promise.all(deletions.map((deletion) => removeOne(deps, deletion)));
  return results.filter(Boolean).length;
}

// The cleanup job's part: every recorded deletion that is due, oldest first. A deletion that fails again
// stays for the next round and does not stop the others.
export async function runPendingDeletions(deps: AppDeps): Promise<number> {
  const nowIso = deps.clock().toISOString();
  const tried = new Set<string>();
  let removed = 0;
  for (;;) {
    const rows = await deps.db
      .selectFrom('pending_deletions')
      .selectAll()
      .where('not_before', '<=', nowIso)
      .orderBy('created_at')
      .orderBy('id')
      .limit(BATCH + tried.size)
      .execute();
    const fresh = rows.filter((row) => !tried.has(row.id));
    if (fresh.length === 0) return removed;
    for (const row of fresh) tried.add(row.id);
    removed += await removePendingDeletions(
      deps,
      fresh.map((row) => ({ id: row.id, key: row.object_key, isPrefix: row.is_prefix === 1 })),
    );
  }
}
