// Removes what no one will use again (docs/decisions.md, "Nothing is left behind"):
// - the files of deleted documents whose removal after the commit did not finish (pending_deletions);
// - upload requests past their expiry and the grace createDocument allows, with whatever is stored under
//   their key: an upload never turned into a document, the duplicate a document was made from, or a file
//   posted again to a used key on an S3 store (which cannot refuse it);
// - the local store's temporary files that an interrupted upload or write left behind.
// Every step removes objects before the rows that name them, and removing twice is harmless, so a crash
// in between or several instances running it at once only repeat work.
import type { AppDeps } from '../context.ts';
import { CREATE_GRACE_MS } from '../handlers/uploads.ts';
import { errorText } from '../http/logging.ts';
import { runPendingDeletions } from '../storage/pending-deletions.ts';
import { startPeriodicJob, type PeriodicJob } from './periodic.ts';

const BATCH = 100;
// An upload's policy expires 15 minutes after its grant and its last write keeps a temporary file fresh:
// one untouched for an hour belongs to no live upload.
export const STALE_TEMPORARY_FILE_MS = 60 * 60 * 1000;

export type CleanupCounts = { deletions: number; uploads: number; temporaryFiles: number };

// Answers how many upload requests it removed (with their stored object).
export async function removeExpiredUploads(deps: AppDeps): Promise<number> {
  const cutoff = new Date(deps.clock().getTime() - CREATE_GRACE_MS).toISOString();
  const tried = new Set<string>();
  let removed = 0;
  for (;;) {
    const rows = await deps.db
      .selectFrom('upload_requests')
      .select(['id', 'key'])
      .where('expires_at', '<', cutoff)
      .orderBy('expires_at')
      .orderBy('id')
      .limit(BATCH + tried.size)
      .execute();
    const fresh = rows.filter((row) => !tried.has(row.id));
    if (fresh.length === 0) return removed;
    for (const row of fresh) {
      tried.add(row.id);
      try {
        await deps.store.delete(row.key);
        await deps.db.deleteFrom('upload_requests').where('id', '=', row.id).execute();
        removed += 1;
      } catch (error) {
        deps.log.warn(
          { key: row.key, error: errorText(error) },
          'an expired upload could not be removed yet',
        );
      }
    }
  }
}

export async function runCleanup(deps: AppDeps): Promise<CleanupCounts> {
  const deletions = await runPendingDeletions(deps);
  const uploads = await removeExpiredUploads(deps);
  const temporaryFiles = await deps.store.removeStaleTemporaryFiles(
    new Date(deps.clock().getTime() - STALE_TEMPORARY_FILE_MS),
  );
  return { deletions, uploads, temporaryFiles };
}

export function startCleanup(deps: AppDeps, options: { intervalMs: number }): PeriodicJob {
  return startPeriodicJob(deps.log, {
    intervalMs: options.intervalMs,
    runAtStart: true,
    failureMessage: 'storage cleanup failed',
    run: async () => {
      const counts = await runCleanup(deps);
      if (counts.deletions + counts.uploads + counts.temporaryFiles > 0) {
        deps.log.info(counts, 'stored files no longer needed removed');
      }
    },
  });
}
