// What GET /metrics shows (Prometheus' text format, prom-client). Each app has its own registry, reached
// through AppDeps, so the tests' many apps in one process never share a counter. The queue gauges are read
// from the database when Prometheus scrapes, so every instance reports the same shared queues, and a
// scrape costs a few indexed counts. The process' own metrics (CPU, memory, event loop, GC) live in one
// registry per process: their collectors (an event-loop monitor, a GC observer) cannot be stopped, so they
// are made once, not once per app.
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Database, JobState, MailState } from './db/schema.ts';
import { errorText } from './http/logging.ts';

// The states a row waits or fails in. Finished rows (done, sent, kept) are never removed, so counting them
// would scan whole tables on every scrape; the counters below say how many finished.
const JOB_STATES: readonly JobState[] = ['queued', 'running', 'failed'];
const MAIL_STATES: readonly MailState[] = ['queued', 'sending', 'failed'];
// Always reported, so a dashboard shows 0 rather than nothing before the first job.
const KNOWN_JOB_KINDS = ['render_pages'];

export type AppMetrics = {
  readonly registry: Registry;
  readonly httpRequestDuration: Histogram<'method' | 'route' | 'status'>;
  readonly pageRenderDuration: Histogram<'outcome'>;
  /** By ConfirmOutcome, or `error` when a confirmation threw. */
  readonly signatures: Counter<'outcome'>;
  readonly mailSent: Counter<'kind'>;
  readonly mailFailed: Counter<'kind' | 'final'>;
  /** The process' metrics and this app's, as one Prometheus text. */
  text(): Promise<string>;
};

let processRegistry: Registry | null = null;

function processMetrics(): Registry {
  if (processRegistry === null) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

type Sources = { db: Kysely<Database>; clock: () => Date; log: FastifyBaseLogger };

function ageSeconds(now: Date, since: string | null | undefined): number {
  if (since === null || since === undefined) return 0;
  return Math.max(0, (now.getTime() - new Date(since).getTime()) / 1000);
}

// A scrape while the database is away still answers (the process and request metrics matter most then):
// the gauge is left empty and the failure logged.
async function guarded(sources: Sources, what: string, read: () => Promise<void>): Promise<void> {
  try {
    await read();
  } catch (error) {
    sources.log.warn({ error: errorText(error), metric: what }, 'a metric could not be read');
  }
}

export function createMetrics(sources: Sources): AppMetrics {
  const registry = new Registry();
  const registers = [registry];
  const { db, clock } = sources;

  const httpRequestDuration = new Histogram({
    name: 'paraph_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const pageRenderDuration = new Histogram({
    name: 'paraph_page_render_duration_seconds',
    help: 'Time to render one page image (drawing, storing, recording), by outcome.',
    labelNames: ['outcome'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60],
    registers,
  });
  const signatures = new Counter({
    name: 'paraph_signatures_total',
    help: 'Signature confirmations, by how they ended.',
    labelNames: ['outcome'] as const,
    registers,
  });
  const mailSent = new Counter({
    name: 'paraph_mail_sent_total',
    help: 'Messages the mail server accepted, by kind.',
    labelNames: ['kind'] as const,
    registers,
  });
  const mailFailed = new Counter({
    name: 'paraph_mail_failed_total',
    help: 'Sends that failed, by kind; final="true" when the message will not be tried again.',
    labelNames: ['kind', 'final'] as const,
    registers,
  });

  new Gauge({
    name: 'paraph_jobs',
    help: 'Background jobs waiting, running or failed, by kind and state.',
    labelNames: ['kind', 'state'] as const,
    registers,
    async collect() {
      this.reset();
      await guarded(sources, 'paraph_jobs', async () => {
        const rows = await db
          .selectFrom('jobs')
          .select(['kind', 'state', (eb) => eb.fn.countAll<string | number>().as('n')])
          .where('state', 'in', JOB_STATES)
          .groupBy(['kind', 'state'])
          .execute();
        for (const kind of KNOWN_JOB_KINDS) {
          for (const state of JOB_STATES) this.set({ kind, state }, 0);
        }
        for (const row of rows) this.set({ kind: row.kind, state: row.state }, Number(row.n));
      });
    },
  });
  new Gauge({
    name: 'paraph_jobs_oldest_queued_age_seconds',
    help: 'How long the longest-waiting due job has waited for a worker (since it became due), by kind.',
    labelNames: ['kind'] as const,
    registers,
    async collect() {
      this.reset();
      await guarded(sources, 'paraph_jobs_oldest_queued_age_seconds', async () => {
        const now = clock();
        const rows = await db
          .selectFrom('jobs')
          .select(['kind', (eb) => eb.fn.min('run_after').as('oldest')])
          .where('state', '=', 'queued')
          .where('run_after', '<=', now.toISOString())
          .groupBy('kind')
          .execute();
        for (const kind of KNOWN_JOB_KINDS) this.set({ kind }, 0);
        for (const row of rows) this.set({ kind: row.kind }, ageSeconds(now, row.oldest));
      });
    },
  });
  new Gauge({
    name: 'paraph_mail_queue',
    help: 'Messages waiting, being sent or failed for good, by state.',
    labelNames: ['state'] as const,
    registers,
    async collect() {
      this.reset();
      await guarded(sources, 'paraph_mail_queue', async () => {
        const rows = await db
          .selectFrom('mail_queue')
          .select(['state', (eb) => eb.fn.countAll<string | number>().as('n')])
          .where('state', 'in', MAIL_STATES)
          .groupBy('state')
          .execute();
        for (const state of MAIL_STATES) this.set({ state }, 0);
        for (const row of rows) this.set({ state: row.state }, Number(row.n));
      });
    },
  });
  new Gauge({
    name: 'paraph_mail_queue_oldest_queued_age_seconds',
    help: 'How long the longest-waiting due message has waited to be sent (since it became due).',
    registers,
    async collect() {
      this.reset();
      await guarded(sources, 'paraph_mail_queue_oldest_queued_age_seconds', async () => {
        const now = clock();
        const row = await db
          .selectFrom('mail_queue')
          .select((eb) => eb.fn.min('run_after').as('oldest'))
          .where('state', '=', 'queued')
          .where('run_after', '<=', now.toISOString())
          .executeTakeFirst();
        this.set(ageSeconds(now, row?.oldest));
      });
    },
  });

  return {
    registry,
    httpRequestDuration,
    pageRenderDuration,
    signatures,
    mailSent,
    mailFailed,
    async text() {
      const [own, process] = await Promise.all([registry.metrics(), processMetrics().metrics()]);
      return `${process}${own}`;
    },
  };
}
