// Ends the requests to sign that nobody will end (docs/decisions.md "Signing on the server"): a pending
// request older than 10 minutes is cancelled, and a signature left `signing` by a process that died while
// applying it is aborted after a grace period, so its document leaves `signing`. Runs in every instance
// (server/main.ts); each document is handled in a transaction on its locked row and re-checked there, so
// two instances never abort the same signature twice.
import { recordAudit } from '../audit.ts';
import type { AppDeps } from '../context.ts';
import { errorText } from '../http/logging.ts';
import { startPeriodicJob, type PeriodicJob } from '../jobs/periodic.ts';
import { canApply } from '../../machines/document-lifecycle.ts';
import { isPostgres } from './access.ts';
import { persistTransition, recordOf, transition, type LifecycleEvent } from './sign-flow-lifecycle.ts';
import { expirePendingVersions } from './signing-versions.ts';

// Far longer than any honest signature (about a second for 20 pages).
export const SIGNING_GRACE_MS = 2 * 60 * 1000;
export const SIGNING_EXPIRY_INTERVAL_MS = 30 * 1000;

/** Cancels expired requests and aborts stuck signatures; answers how many signatures it aborted. */
export async function runSigningExpiry(deps: AppDeps): Promise<number> {
  const now = deps.clock();
  await expirePendingVersions(deps.db, now);
  const stuckBefore = new Date(now.getTime() - SIGNING_GRACE_MS).toISOString();
  const stuck = await deps.db
    .selectFrom('document_versions')
    .select(['id', 'document_id'])
    .where('state', '=', 'signing')
    .where('answered_at', '<=', stuckBefore)
    .execute();
  let aborted = 0;
  for (const candidate of stuck) {
    try {
      const isAborted = await deps.db.transaction().execute(async (trx) => {
        let query = trx.selectFrom('documents').selectAll().where('id', '=', candidate.document_id);
        if (isPostgres(deps)) query = query.forUpdate().skipLocked();
        const row = await query.executeTakeFirst();
        const version = await trx
          .selectFrom('document_versions')
          .selectAll()
          .where('id', '=', candidate.id)
          .where('state', '=', 'signing')
          .where('answered_at', '<=', stuckBefore)
          .executeTakeFirst();
        if (row === undefined || version === undefined) return false;
        const flow =
          (await trx
            .selectFrom('sign_flows')
            .selectAll()
            .where('document_id', '=', row.id)
            .executeTakeFirst()) ?? null;
        const participants =
          flow === null
            ? []
            : await trx
                .selectFrom('sign_flow_participants')
                .selectAll()
                .where('sign_flow_id', '=', flow.id)
                .orderBy('position')
                .execute();
        const record = { ...recordOf(row, flow, participants), signingParticipantId: version.participant_id };
        const event: LifecycleEvent =
          version.participant_id === null
            ? { type: 'solo.abort' }
            : { type: 'sign.abort', participantId: version.participant_id };
        const meta = { actorId: null, ip: null, userAgent: null, now };
        if (canApply(record, event)) {
          await persistTransition(
            trx,
            { documentId: row.id, flowId: flow?.id ?? null },
            transition(record, event),
            meta,
          );
        }
        await trx
          .updateTable('document_versions')
          .set({ state: 'cancelled', answered_at: now.toISOString() })
          .where('id', '=', version.id)
          .execute();
        await recordAudit(trx, {
          documentId: row.id,
          actorId: null,
          action: 'document.sign_failed',
          at: now,
          details: { versionId: version.id, reason: 'timeout' },
        });
        return true;
      });
      if (isAborted) aborted += 1;
    } catch (error) {
      deps.log.error(
        { versionId: candidate.id, error: errorText(error) },
        'aborting a stuck signature failed',
      );
    }
  }
  return aborted;
}

export function startSigningExpiry(deps: AppDeps, options: { intervalMs: number }): PeriodicJob {
  return startPeriodicJob(deps.log, {
    intervalMs: options.intervalMs,
    runAtStart: true,
    failureMessage: 'signing expiry failed',
    run: async () => {
      const count = await runSigningExpiry(deps);
      if (count > 0) deps.log.warn({ count }, 'stuck signatures aborted');
    },
  });
}
