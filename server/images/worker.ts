// Renders documents' page images in the background. Jobs live in the database and are claimed with one
// atomic UPDATE, so any number of server instances can run this worker side by side; a job whose worker
// died is taken over once its lock expires. A failure is retried, and after the last attempt the document
// is marked as an error (shown as "error (invalid file)"). Nothing here may take the server down.
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { recordAudit } from '../audit.ts';
import type { AppDeps } from '../context.ts';
import type { Database, JobRow } from '../db/schema.ts';
import { renderPages } from '../pdf/render-pages.ts';

export const RENDER_PAGES_JOB = 'render_pages';
export const MAX_RENDER_ATTEMPTS = 3;
// Longer than any honest render; a lock older than this belongs to a worker that is gone.
const LOCK_MS = 5 * 60 * 1000;
const RETRY_DELAYS_MS = [5_000, 30_000];
// Keeps each INSERT well under SQLite's bound-parameter limit, whatever the page count.
const PAGE_ROWS_PER_INSERT = 100;

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

async function succeed(
  deps: AppDeps,
  job: JobRow,
  pages: Array<{ pageNumber: number; width: number; height: number }>,
): Promise<void> {
  const nowIso = deps.clock().toISOString();
  await deps.db.transaction().execute(async (trx) => {
    // The job is still this worker's only while the lock it set is the row's lock.
    const released = await trx
      .updateTable('jobs')
      .set({ state: 'done', locked_until: null, last_error: null })
      .where('id', '=', job.id)
      .where('state', '=', 'running')
      .where('locked_until', '=', job.locked_until)
      .executeTakeFirst();
    // Another instance took the job over (this one was too slow): its result will be written instead.
    if (Number(released.numUpdatedRows) !== 1) return;
    await trx.deleteFrom('document_pages').where('document_id', '=', job.document_id).execute();
    for (let start = 0; start < pages.length; start += PAGE_ROWS_PER_INSERT) {
      await trx
        .insertInto('document_pages')
        .values(
          pages.slice(start, start + PAGE_ROWS_PER_INSERT).map((page) => ({
            document_id: job.document_id,
            page_number: page.pageNumber,
            image_key: pageImageKey(job.document_id, page.pageNumber),
            width: page.width,
            height: page.height,
          })),
        )
        .execute();
    }
    await trx
      .updateTable('documents')
      .set({ images_state: 'ready', updated_at: nowIso })
      .where('id', '=', job.document_id)
      .execute();
  });
}

async function fail(deps: AppDeps, job: JobRow, error: unknown): Promise<void> {
  const now = deps.clock();
  const lastError = describe(error);
  const isFinal = job.attempts >= MAX_RENDER_ATTEMPTS;
  deps.log.warn(
    { jobId: job.id, documentId: job.document_id, attempt: job.attempts, isFinal, error: lastError },
    'page rendering failed',
  );
  await deps.db.transaction().execute(async (trx) => {
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
      .where('locked_until', '=', job.locked_until)
      .executeTakeFirst();
    if (Number(released.numUpdatedRows) !== 1 || !isFinal) return;
    await trx
      .updateTable('documents')
      .set({ images_state: 'failed', state: 'error', updated_at: now.toISOString() })
      .where('id', '=', job.document_id)
      .execute();
    await recordAudit(trx, {
      documentId: job.document_id,
      actorId: null,
      action: 'document.rendering_failed',
      at: now,
      details: { attempts: job.attempts },
    });
  });
}

async function processJob(deps: AppDeps, job: JobRow): Promise<void> {
  const document = await deps.db
    .selectFrom('documents')
    .select(['id', 'file_key', 'signed_file_key'])
    .where('id', '=', job.document_id)
    .executeTakeFirst();
  if (document === undefined) {
    // Deleted while queued (the foreign key usually removes the job with it).
    await deps.db
      .updateTable('jobs')
      .set({ state: 'done', locked_until: null })
      .where('id', '=', job.id)
      .execute();
    return;
  }
  const pages: Array<{ pageNumber: number; width: number; height: number }> = [];
  try {
    // After a signature the images show the signed file, stamps included ([5/6]).
    const pdf = await deps.store.getBuffer(document.signed_file_key ?? document.file_key);
    for await (const page of renderPages(pdf)) {
      await deps.store.put(pageImageKey(document.id, page.pageNumber), page.png, 'image/png');
      pages.push({ pageNumber: page.pageNumber, width: page.width, height: page.height });
    }
    if (pages.length === 0) throw new Error('The PDF has no pages to render');
  } catch (error) {
    await fail(deps, job, error);
    return;
  }
  await succeed(deps, job, pages);
}

// Runs every job that is due now, one at a time, and answers how many it ran. Tests and seeding call it
// directly; the worker calls it on every poll.
export async function runPendingImageJobs(deps: AppDeps): Promise<number> {
  let processed = 0;
  for (;;) {
    const job = await claimNextJob(deps);
    if (job === null) return processed;
    await processJob(deps, job);
    processed += 1;
  }
}

export type ImageWorker = { stop(): Promise<void> };

export function startImageWorker(deps: AppDeps, options: { pollMs: number }): ImageWorker {
  let isStopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;

  const schedule = (delayMs: number): void => {
    if (isStopped) return;
    timer = setTimeout(tick, delayMs);
    // The worker never keeps the process alive on its own: shutdown is the server's decision.
    timer.unref();
  };

  function tick(): void {
    timer = null;
    running = runPendingImageJobs(deps)
      .then(
        () => undefined,
        (error: unknown) => {
          deps.log.error({ error: describe(error) }, 'image worker poll failed');
        },
      )
      .finally(() => {
        running = null;
        schedule(options.pollMs);
      });
  }

  schedule(0);
  return {
    async stop(): Promise<void> {
      isStopped = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      await running;
    },
  };
}
