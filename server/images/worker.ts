// Renders documents' page images in the background. Jobs live in the database and are claimed with one
// atomic UPDATE, so any number of server instances can run this worker side by side; a job whose worker
// died is taken over once its lock expires.
// - Pages are drawn in the PDF sandbox (../pdf/sandbox.ts), never on the API's event loop. A page that
//   breaks one of its limits fails alone and is listed as unavailable; only a document none of whose
//   pages render is marked as an error (shown as "error (invalid file)").
// - A claim renders at most PAGES_PER_CLAIM pages in order, then puts the job back behind the jobs queued
//   meanwhile: a long document never holds the worker, and its first pages come first.
// - After writing each page the job must still be this runner's (the row exists, its lock unchanged):
//   otherwise the document was deleted or the job taken over, and the runner removes the page it wrote
//   and stops. Writing first and checking after means nothing written after a delete survives.
// - stop() kills the sandbox and hands the claimed job back at once, for another instance to take.
// - Every write that records or ends a claim waits out a database outage (a restart): a job left
//   `running` would hold its document's remaining pages back until its lock expired. Anything else that
//   breaks after a claim ends it as a failed attempt, retried like any other.
// A failure to read or open the file is retried; nothing here may take the server down.
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { recordAudit } from '../audit.ts';
import type { AppDeps } from '../context.ts';
import type { Database, JobRow } from '../db/schema.ts';
import { pdfSandbox, SandboxFailure, type SandboxFailureReason } from '../pdf/sandbox.ts';
import { assertStreamLimitApplies } from '../pdf/stream-limit.ts';
import { outageNotice } from '../jobs/periodic.ts';
import { isDatabaseUnavailable, retryWhileDatabaseAway } from '../db/connection-errors.ts';

export const RENDER_PAGES_JOB = 'render_pages';
export const MAX_RENDER_ATTEMPTS = 3;
export const PAGES_PER_CLAIM = 5;
// Renewed after every page, so it only has to outlast one page; a lock older than this belongs to a
// worker that is gone.
const LOCK_MS = 5 * 60 * 1000;
const RETRY_DELAYS_MS = [5_000, 30_000];
// A claim's write is tried again for as long as its lock would have held it anyway.
const SETTLE_DELAY_MS = 1000;
const SETTLE_TRIES = LOCK_MS / SETTLE_DELAY_MS;

export function pageImageKey(documentId: string, pageNumber: number): string {
  return `documents/${documentId}/pages/${pageNumber}.png`;
}

export async function queueRenderPages(
  db: Kysely<Database> | Transaction<Database>,
  documentId: string,
  now: Date,
): Promise<void> {
  await db
    .insertInto('jobs')
    .values({
      id: randomUUID(),
      kind: RENDER_PAGES_JOB,
      document_id: documentId,
      state: 'queued',
      attempts: 0,
      run_after: now.toISOString(),
      locked_until: null,
      last_error: null,
      created_at: now.toISOString(),
    })
    .execute();
}

async function claimNextJob(deps: AppDeps): Promise<JobRow | null> {
  const now = deps.clock();
  const nowIso = now.toISOString();
  const lockedUntil = new Date(now.getTime() + LOCK_MS).toISOString();
  const next = deps.db
    .selectFrom('jobs')
    .select('id')
    .where('kind', '=', RENDER_PAGES_JOB)
    .where((eb) =>
      eb.or([
        eb.and([eb('state', '=', 'queued'), eb('run_after', '<=', nowIso)]),
        eb.and([eb('state', '=', 'running'), eb('locked_until', '<', nowIso)]),
      ]),
    )
    .orderBy('run_after')
    .orderBy('created_at')
    .limit(1);
  // The claimable condition is repeated on the row itself: if another instance claimed the same job between
  // the sub-select and the update, the update finds nothing instead of taking the job twice.
  const claimed = await deps.db
    .updateTable('jobs')
    .set((eb) => ({ state: 'running', locked_until: lockedUntil, attempts: eb('attempts', '+', 1) }))
    .where('id', '=', next)
    .where((eb) =>
      eb.or([
        eb.and([eb('state', '=', 'queued'), eb('run_after', '<=', nowIso)]),
        eb.and([eb('state', '=', 'running'), eb('locked_until', '<', nowIso)]),
      ]),
    )
    .returningAll()
    .executeTakeFirst();
  return claimed ?? null;
}

function describe(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.slice(0, 500);
}

/**
 * The file claims more pages than it can hold: its page tree's /Count says so, and pdf.js believes it
 * when the last page it counts down to exists. Walking the phantom pages would keep the document
 * `processing` for hours (each one failing alone); the document is an error at once instead.
 */
class PhantomPagesError extends Error {
  override readonly name = 'PhantomPagesError';
}

// Limits a file breaks every time it is read: retrying would only break them again.
const DETERMINISTIC_FAILURES: ReadonlySet<SandboxFailureReason> = new Set([
  'stream_limit',
  'timeout',
  'memory',
]);

function newLock(deps: AppDeps): string {
  return new Date(deps.clock().getTime() + LOCK_MS).toISOString();
}

function pageNumbers(json: string): number[] {
  const parsed: unknown = JSON.parse(json);
  return Array.isArray(parsed) ? parsed.filter((value): value is number => Number.isInteger(value)) : [];
}

type Claim = { job: JobRow; lock: string; signal?: AbortSignal };

function settle<T>(deps: AppDeps, claim: Claim, what: string, write: () => Promise<T>): Promise<T> {
  return retryWhileDatabaseAway(write, {
    tries: SETTLE_TRIES,
    delayMs: SETTLE_DELAY_MS,
    signal: claim.signal,
    onAway: () =>
      deps.log.warn(
        { jobId: claim.job.id, documentId: claim.job.document_id },
        `the database is away while ${what}; trying again shortly`,
      ),
  });
}

// Records one page's outcome if the job is still this runner's; answers the renewed lock, or null when
// the job is no longer ours (deleted with its document, or taken over).
async function recordPage(
  deps: AppDeps,
  claim: Claim,
  page: { pageNumber: number; width: number; height: number } | { pageNumber: number; failed: number[] },
): Promise<string | null> {
  const lock = newLock(deps);
  return settle(deps, claim, 'recording a page', () =>
    deps.db.transaction().execute(async (trx) => {
      const renewed = await trx
        .updateTable('jobs')
        .set({
          locked_until: lock,
          next_page: page.pageNumber + 1,
          ...('failed' in page ? { failed_pages: JSON.stringify(page.failed) } : {}),
        })
        .where('id', '=', claim.job.id)
        .where('state', '=', 'running')
        .where('locked_until', '=', claim.lock)
        .executeTakeFirst();
      if (Number(renewed.numUpdatedRows) !== 1) return null;
      if (!('failed' in page)) {
        await trx
          .deleteFrom('document_pages')
          .where('document_id', '=', claim.job.document_id)
          .where('page_number', '=', page.pageNumber)
          .execute();
        await trx
          .insertInto('document_pages')
          .values({
            document_id: claim.job.document_id,
            page_number: page.pageNumber,
            image_key: pageImageKey(claim.job.document_id, page.pageNumber),
            width: page.width,
            height: page.height,
          })
          .execute();
      }
      return lock;
    }),
  );
}

// No page of the document can be shown: it is an error (shown as "error (invalid file)"), and the audit
// trail says so.
async function markRenderingFailed(
  trx: Transaction<Database>,
  documentId: string,
  now: Date,
  details: Record<string, unknown>,
): Promise<void> {
  await trx
    .updateTable('documents')
    .set({ images_state: 'failed', state: 'error', updated_at: now.toISOString() })
    .where('id', '=', documentId)
    .execute();
  await recordAudit(trx, {
    documentId,
    actorId: null,
    action: 'document.rendering_failed',
    at: now,
    details,
  });
}

// Every page has had its turn: the document shows the pages that rendered, and the others as unavailable.
async function finish(deps: AppDeps, claim: Claim, pageCount: number, failed: number[]): Promise<void> {
  const now = deps.clock();
  const { job } = claim;
  await settle(deps, claim, 'finishing a render', () =>
    deps.db.transaction().execute(async (trx) => {
      const released = await trx
        .updateTable('jobs')
        .set({ state: 'done', locked_until: null, last_error: null })
        .where('id', '=', job.id)
        .where('state', '=', 'running')
        .where('locked_until', '=', claim.lock)
        .executeTakeFirst();
      if (Number(released.numUpdatedRows) !== 1) return;
      // A re-render of a file with fewer pages leaves no rows of the old file behind.
      await trx
        .deleteFrom('document_pages')
        .where('document_id', '=', job.document_id)
        .where('page_number', '>', pageCount)
        .execute();
      if (failed.length >= pageCount) {
        await markRenderingFailed(trx, job.document_id, now, {
          attempts: job.attempts,
          unavailablePages: failed.length,
        });
        return;
      }
      await trx
        .updateTable('documents')
        .set({
          images_state: 'ready',
          unavailable_pages: JSON.stringify(failed),
          updated_at: now.toISOString(),
        })
        .where('id', '=', job.document_id)
        .execute();
    }),
  );
}

// The claim's pages are done and more remain: the job goes back to the queue behind every job queued
// before now, with its attempts back at zero (the claim succeeded).
async function requeue(deps: AppDeps, claim: Claim): Promise<void> {
  await settle(deps, claim, 'queueing a render again', () =>
    deps.db
      .updateTable('jobs')
      .set({ state: 'queued', locked_until: null, attempts: 0, run_after: deps.clock().toISOString() })
      .where('id', '=', claim.job.id)
      .where('state', '=', 'running')
      .where('locked_until', '=', claim.lock)
      .execute(),
  );
}

// Shutdown or a database outage: the job goes back as it was before this claim, due at once, for any
// instance to take.
async function release(deps: AppDeps, claim: Claim): Promise<void> {
  await settle(deps, claim, 'handing a render back', () =>
    deps.db
      .updateTable('jobs')
      .set((eb) => ({
        state: 'queued',
        locked_until: null,
        attempts: eb('attempts', '-', 1),
        run_after: deps.clock().toISOString(),
      }))
      .where('id', '=', claim.job.id)
      .where('state', '=', 'running')
      .where('locked_until', '=', claim.lock)
      .execute(),
  );
}

// What a claim came to: the job ended (done or failed, for now or for good), went back to the queue with
// pages left, was handed back at shutdown or in a database outage, or turned out not to be ours any more.
type ClaimOutcome = 'ended' | 'continues' | 'released' | 'lost';

// A render that broke ends as a failed attempt, due again after a delay, or for good after the last one.
// A database that went away is not the document's fault: the claim goes back as it was, due at once, once
// the database answers (a restart takes seconds), so that restarts never use up a document's attempts.
async function fail(deps: AppDeps, claim: Claim, error: unknown): Promise<ClaimOutcome> {
  const { job } = claim;
  if (isDatabaseUnavailable(error)) {
    deps.log.warn(
      { jobId: job.id, documentId: job.document_id, attempt: job.attempts },
      'the database went away during a render; handing it back',
    );
    await release(deps, claim);
    return 'released';
  }
  const now = deps.clock();
  const lastError = describe(error);
  const isFinal =
    job.attempts >= MAX_RENDER_ATTEMPTS ||
    error instanceof PhantomPagesError ||
    (error instanceof SandboxFailure && DETERMINISTIC_FAILURES.has(error.reason));
  deps.log.warn(
    { jobId: job.id, documentId: job.document_id, attempt: job.attempts, isFinal, error: lastError },
    'page rendering failed',
  );
  await settle(deps, claim, 'recording a failed render', () =>
    deps.db.transaction().execute(async (trx) => {
      const released = await trx
        .updateTable('jobs')
        .set(
          isFinal
            ? { state: 'failed', locked_until: null, last_error: lastError }
            : {
                state: 'queued',
                locked_until: null,
                last_error: lastError,
                run_after: new Date(
                  now.getTime() + (RETRY_DELAYS_MS[job.attempts - 1] ?? 30_000),
                ).toISOString(),
              },
        )
        .where('id', '=', job.id)
        .where('state', '=', 'running')
        .where('locked_until', '=', claim.lock)
        .executeTakeFirst();
      if (Number(released.numUpdatedRows) !== 1 || !isFinal) return;
      await markRenderingFailed(trx, job.document_id, now, { attempts: job.attempts });
    }),
  );
  return 'ended';
}

// The most pages a document's file can have: the larger of what the upload counted and the upload's page
// limit (a row older than the upload's page-tree check, or made otherwise, may have counted differently),
// plus one signature page per signature.
async function mostPages(deps: AppDeps, document: { id: string; page_count: number }): Promise<number> {
  const signed = await deps.db
    .selectFrom('document_versions')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('document_id', '=', document.id)
    .where('state', '=', 'signed')
    .executeTakeFirst();
  return Math.max(document.page_count, deps.config.maxPages) + Number(signed?.count ?? 0);
}

async function processJob(deps: AppDeps, claim: Claim): Promise<ClaimOutcome> {
  const { job, signal } = claim;
  const document = await deps.db
    .selectFrom('documents')
    .select(['id', 'file_key', 'signed_file_key', 'page_count'])
    .where('id', '=', job.document_id)
    .executeTakeFirst();
  if (document === undefined) {
    // Deleted while queued (the foreign key usually removes the job with it).
    await deps.db
      .updateTable('jobs')
      .set({ state: 'done', locked_until: null })
      .where('id', '=', job.id)
      .execute();
    return 'ended';
  }
  const sandbox = pdfSandbox('render', deps.config.pdfSandbox);
  // After a signature the images show the signed file, stamps included.
  const fileKey = document.signed_file_key ?? document.file_key;
  const load = async (): Promise<Uint8Array> => deps.store.getBuffer(fileKey);
  const isStopped = (error: unknown): boolean =>
    signal?.aborted === true || (error instanceof SandboxFailure && error.reason === 'stopped');

  let pageCount: number;
  try {
    pageCount = await sandbox.open(fileKey, load);
    if (pageCount < 1) throw new Error('The PDF has no pages to render');
    const most = await mostPages(deps, document);
    if (pageCount > most) {
      throw new PhantomPagesError(`The PDF claims ${pageCount} pages; it can hold at most ${most}`);
    }
  } catch (error) {
    if (isStopped(error)) {
      await release(deps, claim);
      return 'released';
    }
    return fail(deps, claim, error);
  }

  const failed = pageNumbers(job.failed_pages);
  const lastPage = Math.min(pageCount, job.next_page + PAGES_PER_CLAIM - 1);
  for (let pageNumber = job.next_page; pageNumber <= lastPage; pageNumber += 1) {
    if (signal?.aborted === true) {
      await release(deps, claim);
      return 'released';
    }
    let lock: string | null;
    const startedAt = performance.now();
    const pageDone = (outcome: 'rendered' | 'failed'): void => {
      deps.metrics.pageRenderDuration.observe({ outcome }, (performance.now() - startedAt) / 1000);
    };
    try {
      const page = await sandbox.renderPage(fileKey, load, pageNumber);
      const imageKey = pageImageKey(job.document_id, pageNumber);
      await deps.store.put(imageKey, page.png, 'image/png');
      lock = await recordPage(deps, claim, { pageNumber, width: page.width, height: page.height });
      if (lock === null) {
        await deps.store.delete(imageKey);
        return 'lost';
      }
      pageDone('rendered');
    } catch (error) {
      if (isStopped(error)) {
        await release(deps, claim);
        return 'released';
      }
      if (!(error instanceof SandboxFailure)) {
        // Not the page's fault (the store or the database): the job is retried from this page.
        return fail(deps, claim, error);
      }
      deps.log.warn(
        { documentId: job.document_id, pageNumber, reason: error.reason, error: describe(error) },
        'a page could not be rendered',
      );
      failed.push(pageNumber);
      lock = await recordPage(deps, claim, { pageNumber, failed });
      if (lock === null) return 'lost';
      pageDone('failed');
    }
    claim.lock = lock;
  }
  if (lastPage >= pageCount) {
    await finish(deps, claim, pageCount, failed);
    return 'ended';
  }
  await requeue(deps, claim);
  return 'continues';
}

export type RunOptions = { signal?: AbortSignal };

// Runs every job that is due now, a claim at a time, and answers how many jobs it brought to an end
// (done, failed, or scheduled for a retry). Tests and seeding call it directly; the worker calls it on
// every poll.
export async function runPendingImageJobs(deps: AppDeps, options: RunOptions = {}): Promise<number> {
  let ended = 0;
  for (;;) {
    if (options.signal?.aborted === true) return ended;
    const job = await claimNextJob(deps);
    if (job === null) return ended;
    if (job.locked_until === null) throw new Error('A claimed job has no lock');
    const claim: Claim = { job, lock: job.locked_until, signal: options.signal };
    let outcome: ClaimOutcome;
    try {
      outcome = await processJob(deps, claim);
    } catch (error) {
      outcome = await fail(deps, claim, error);
    }
    if (outcome === 'ended') ended += 1;
    if (outcome === 'released') return ended;
  }
}

export type ImageWorker = { stop(): Promise<void> };

export function startImageWorker(deps: AppDeps, options: { pollMs: number }): ImageWorker {
  // A pdfjs whose stream decoder moved would render without the inflation limit: refuse to start instead.
  assertStreamLimitApplies();
  let isStopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  const stopping = new AbortController();
  const outage = outageNotice(deps.log, 'image worker');

  const schedule = (delayMs: number): void => {
    if (isStopped) return;
    timer = setTimeout(tick, delayMs);
    // The worker never keeps the process alive on its own: shutdown is the server's decision.
    timer.unref();
  };

  function tick(): void {
    timer = null;
    running = runPendingImageJobs(deps, { signal: stopping.signal })
      .then(
        () => outage.succeeded(),
        (error: unknown) => {
          if (!outage.failed(error)) deps.log.error({ error: describe(error) }, 'image worker poll failed');
        },
      )
      .finally(() => {
        running = null;
        schedule(options.pollMs);
      });
  }

  schedule(0);
  return {
    // Kills the page being drawn and hands the claimed job back: what remains is a few database writes.
    async stop(): Promise<void> {
      isStopped = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      stopping.abort();
      pdfSandbox('render', deps.config.pdfSandbox).stop();
      await running;
    },
  };
}
