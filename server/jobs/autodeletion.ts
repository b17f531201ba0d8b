// Deletes documents whose retention period has ended (autodeletion_at = created_at +
// PARAPH_RETENTION_DAYS) like the owner's delete, keeping their audit trail (docs/decisions.md,
// "Deleting and auto-deletion"). A document with a flow in progress waits until the flow ends. Several
// instances may run it at once: each document is claimed by locking its row (PostgreSQL, skipping rows
// another instance holds) and re-checked inside the transaction, so only one instance deletes it.
// The same job removes old error reports (pruneErrorReports).
import { DAY_MS } from '../config.ts';
import type { AppDeps } from '../context.ts';
import { errorText } from '../http/logging.ts';
import { startPeriodicJob, type PeriodicJob } from './periodic.ts';
import { actionDb, isPostgres } from '../documents/access.ts';
import { deleteStoredFiles, purgeDocument } from '../documents/actions.ts';
import { IN_PROGRESS_STATES } from '../documents/permissions.ts';

const BATCH = 50;
export const DEFAULT_AUTODELETE_INTERVAL_MS = 60 * 60 * 1000;

export function autodeleteIntervalMs(env: Record<string, string | undefined>): number {
  const raw = env.PARAPH_AUTODELETE_INTERVAL_MS?.trim();
  if (raw === undefined || raw === '') return DEFAULT_AUTODELETE_INTERVAL_MS;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1000) {
    throw new Error(`PARAPH_AUTODELETE_INTERVAL_MS must be an integer >= 1000, got "${raw}"`);
  }
  return value;
}

// Deletes every expired document it can claim now; answers how many it deleted.
export async function runAutodeletion(deps: AppDeps): Promise<number> {
  const now = deps.clock();
  const nowIso = now.toISOString();
  const tried = new Set<string>();
  let deleted = 0;
  for (;;) {
    const candidates = await deps.db
      .selectFrom('documents')
      .select('id')
      .where('autodeletion_at', '<=', nowIso)
      .where('state', 'not in', [...IN_PROGRESS_STATES])
      .orderBy('autodeletion_at')
      .orderBy('id')
      .limit(BATCH + tried.size)
      .execute();
    const fresh = candidates.filter((candidate) => !tried.has(candidate.id));
    if (fresh.length === 0) return deleted;
    for (const { id } of fresh) {
      tried.add(id);
      try {
        const keys = await deps.db.transaction().execute(async (trx) => {
          const db = actionDb(trx);
          let query = db
            .selectFrom('documents')
            .selectAll()
            .where('id', '=', id)
            .where('autodeletion_at', '<=', nowIso)
            .where('state', 'not in', [...IN_PROGRESS_STATES]);
          if (isPostgres(deps)) query = query.forUpdate().skipLocked();
          const row = await query.executeTakeFirst();
          if (row === undefined) return null;
          return purgeDocument(
            db,
            row,
            { actorId: null, ip: null, userAgent: null, now },
            'document.autodeleted',
          );
        });
        if (keys === null) continue;
        deleted += 1;
        await deleteStoredFiles(deps, keys);
      } catch (error) {
        deps.log.error({ documentId: id, error: errorText(error) }, 'auto-deletion failed');
      }
    }
  }
}

// An error report holds the client's address and what was on screen when the app broke: worth keeping
// while someone may look into the crash, not for ever (PARAPH_ERROR_REPORT_RETENTION_DAYS). Answers how
// many it removed; a single DELETE, so instances running it at once only race to remove the same rows.
export async function pruneErrorReports(deps: AppDeps): Promise<number> {
  const cutoff = new Date(deps.clock().getTime() - deps.config.errorReportRetentionDays * DAY_MS);
  const result = await deps.db
    .deleteFrom('error_reports')
    .where('created_at', '<', cutoff.toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export function startAutodeletion(deps: AppDeps, options: { intervalMs: number }): PeriodicJob {
  return startPeriodicJob(deps.log, {
    intervalMs: options.intervalMs,
    runAtStart: true,
    failureMessage: 'auto-deletion failed',
    run: async () => {
      const count = await runAutodeletion(deps);
      if (count > 0) deps.log.info({ count }, 'expired documents deleted');
      const reports = await pruneErrorReports(deps);
      if (reports > 0) deps.log.info({ count: reports }, 'old error reports removed');
    },
  });
}
