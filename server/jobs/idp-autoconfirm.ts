// PARAPH_IDP_AUTOCONFIRM=1 (demos): the identity app "confirms" every pending signature by itself once it
// is PARAPH_IDP_AUTOCONFIRM_DELAY_MS old (default 3 s), as if the signer had pressed Confirm. Off by
// default: a real signature needs the person. Each version is confirmed as its own signer through the
// same confirmDocumentVersion as the /idp/ page; when several instances run the job, the pipeline's lock
// makes every confirmation after the first answer already_answered, so each version is answered once.
// While the time-stamping authority or the OCSP responder is down (`service_unavailable`), the job stops
// its batch and waits, longer after each failure, before it tries again: every signature needs them, and
// each attempt may wait out the service's timeout. While the database is away, it stops its batch too,
// and its next run tries again.
import type { AppDeps } from '../context.ts';
import { isDatabaseUnavailable } from '../db/connection-errors.ts';
import { confirmDocumentVersion } from '../documents/signing-confirm.ts';
import { errorText } from '../http/logging.ts';
import { startPeriodicJob, type PeriodicJob } from './periodic.ts';

export const DEFAULT_AUTOCONFIRM_DELAY_MS = 3000;
const MAX_POLL_MS = 1000;
const BATCH = 20;
export const AUTOCONFIRM_USER_AGENT = 'Paraph ID (PARAPH_IDP_AUTOCONFIRM)';

export type AutoconfirmOptions = { delayMs: number; intervalMs: number };

/** The waits after 1, 2, 3, 4 and 5 or more confirmations in a row found a signing service down. */
export const OUTAGE_BACKOFF_MS = [5_000, 10_000, 20_000, 40_000, 60_000] as const;

/** Kept from one run to the next: no confirmation is tried before `until` (ms since the epoch). */
export type AutoconfirmBackoff = { failures: number; until: number };

/** Null when the job is off. */
export function idpAutoconfirmOptions(env: Record<string, string | undefined>): AutoconfirmOptions | null {
  if ((env.PARAPH_IDP_AUTOCONFIRM ?? '0').trim() !== '1') return null;
  const raw = env.PARAPH_IDP_AUTOCONFIRM_DELAY_MS?.trim();
  let delayMs = DEFAULT_AUTOCONFIRM_DELAY_MS;
  if (raw !== undefined && raw !== '') {
    delayMs = Number(raw);
    if (!Number.isInteger(delayMs) || delayMs < 0) {
      throw new Error(`PARAPH_IDP_AUTOCONFIRM_DELAY_MS must be an integer >= 0, got "${raw}"`);
    }
  }
  return { delayMs, intervalMs: Math.max(100, Math.min(MAX_POLL_MS, delayMs)) };
}

/**
 * Confirms the pending versions at least `delayMs` old; answers how many it answered (signed or not).
 * A version whose confirmation threw is put in `failed` and not tried again by this job, so a few broken
 * ones never hold up the batch (the signer can still answer it in /idp/). A confirmation that found a
 * signing service down leaves its version pending and sets `backoff`: nothing is tried until it passes.
 */
export async function runIdpAutoconfirm(
  deps: AppDeps,
  options: { delayMs: number; failed?: Set<string>; backoff?: AutoconfirmBackoff },
): Promise<number> {
  const failed = options.failed ?? new Set<string>();
  const backoff = options.backoff ?? { failures: 0, until: 0 };
  if (deps.clock().getTime() < backoff.until) return 0;
  const before = new Date(deps.clock().getTime() - options.delayMs).toISOString();
  let query = deps.db
    .selectFrom('document_versions')
    .select(['id', 'user_id'])
    .where('state', '=', 'pending')
    .where('created_at', '<=', before);
  if (failed.size > 0) query = query.where('id', 'not in', [...failed]);
  const due = await query.orderBy('created_at').orderBy('id').limit(BATCH).execute();
  let answered = 0;
  for (const version of due) {
    try {
      const { outcome } = await confirmDocumentVersion(deps, {
        versionId: version.id,
        userId: version.user_id,
        ip: null,
        userAgent: AUTOCONFIRM_USER_AGENT,
      });
      if (outcome === 'service_unavailable') {
        const wait = OUTAGE_BACKOFF_MS[Math.min(backoff.failures, OUTAGE_BACKOFF_MS.length - 1)] ?? 60_000;
        backoff.failures += 1;
        backoff.until = deps.clock().getTime() + wait;
        deps.log.warn(
          { versionId: version.id, retryInMs: wait },
          'auto-confirmation paused: a signing service is unavailable',
        );
        break;
      }
      if (outcome === 'signed') backoff.failures = 0;
      if (outcome !== 'already_answered') answered += 1;
    } catch (error) {
      // The database away (restarted, failed over) is no fault of the version: the batch stops, and the
      // next run tries it again. Kept among the failed, a version whose confirmation met a restart was
      // never confirmed by any instance whose job saw the restart.
      if (isDatabaseUnavailable(error)) {
        deps.log.warn(
          { versionId: version.id, error: errorText(error) },
          'auto-confirmation paused: the database is unavailable',
        );
        break;
      }
      failed.add(version.id);
      deps.log.error({ versionId: version.id, error: errorText(error) }, 'auto-confirmation failed');
    }
  }
  return answered;
}

export function startIdpAutoconfirm(deps: AppDeps, options: AutoconfirmOptions): PeriodicJob {
  const failed = new Set<string>();
  const backoff: AutoconfirmBackoff = { failures: 0, until: 0 };
  return startPeriodicJob(deps.log, {
    intervalMs: options.intervalMs,
    runAtStart: false,
    failureMessage: 'auto-confirmation failed',
    run: async () => {
      const count = await runIdpAutoconfirm(deps, { delayMs: options.delayMs, failed, backoff });
      if (count > 0) deps.log.info({ count }, 'signatures auto-confirmed');
    },
  });
}
