// GET /healthz, /readyz and /metrics as a load balancer and Prometheus use them: no token, not logged per
// probe, the readiness of the database and the store, 503 while draining, and the metrics an operator
// watches (requests by route pattern, the queues, page renders, signatures, mail).
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { confirmDocumentVersion } from '../../server/documents/signing-confirm.ts';
import { queueRenderPages, runPendingImageJobs } from '../../server/images/worker.ts';
import { enqueueMail } from '../../server/mail/queue.ts';
import { runMailQueue, type MailTransport } from '../../server/mail/sender.ts';
import { LOCAL_BUCKET } from '../../server/storage/local-store.ts';
import { bearer, buildTestApp, insertDocument, makeFakeAppDir, type TestApp } from './helpers.ts';
import { cardFor, fakeSigner, requestSignature, SOLO_PLACEMENT, storedDocument } from './signing-support.ts';

const apps: TestApp[] = [];

afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

async function start(options: Parameters<typeof buildTestApp>[0] = {}): Promise<TestApp> {
  const t = await buildTestApp({ appDir: await makeFakeAppDir(), ...options });
  apps.push(t);
  return t;
}

type Sample = { name: string; labels: Record<string, string>; value: number };

// Prometheus' text format, the lines that carry a value.
function samples(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([A-Za-z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (match === null) throw new Error(`not a Prometheus sample line: ${line}`);
      const labels: Record<string, string> = {};
      for (const [, name, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) {
        labels[name as string] = value as string;
      }
      return { name: match[1] as string, labels, value: Number(match[3]) };
    });
}

/** The value of the one sample with exactly these labels, or undefined when there is none. */
function valueOf(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples(text).filter(
    (sample) =>
      sample.name === name &&
      Object.keys(sample.labels).length === Object.keys(labels).length &&
      Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  expect(found.length, `${name} ${JSON.stringify(labels)} appears at most once`).toBeLessThanOrEqual(1);
  return found[0]?.value;
}

async function scrape(t: TestApp, headers: Record<string, string> = {}): Promise<string> {
  const response = await t.app.inject({ url: '/metrics', headers });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
  return response.body;
}

describe('GET /healthz and /readyz', () => {
  it('answers 200 without a token or the database, with the security headers, and logs no probe', async () => {
    const t = await start();
    await t.deps.db.destroy();
    const health = await t.app.inject({ url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    expect(health.headers['cache-control']).toBe('no-store');
    expect(health.headers['x-content-type-options']).toBe('nosniff');
    expect(health.headers['content-security-policy']).toContain("default-src 'self'");

    const page = await t.app.inject({ url: '/sign_in' });
    expect(page.statusCode).toBe(200);
    // Fastify logs other requests at info; the probes are left out.
    expect(t.logs()).toContain('"path":"/sign_in"');
    expect(t.logs()).not.toContain('/healthz');
  });

  it('is ready when the database and the store answer', async () => {
    const t = await start();
    const ready = await t.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok', checks: { database: 'ok', store: 'ok' } });
    expect(ready.headers['cache-control']).toBe('no-store');
    expect(t.logs()).not.toContain('/readyz');
  });

  it('answers 503 naming the database when it is closed, and logs it once', async () => {
    const t = await start();
    await t.deps.db.destroy();
    for (let probe = 0; probe < 2; probe += 1) {
      const ready = await t.app.inject({ url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'unavailable', checks: { database: 'failed', store: 'ok' } });
    }
    expect(t.logs().split('readiness: the database does not answer')).toHaveLength(2);
  });

  it('answers 503 naming the store when its check throws, and 200 again once it answers', async () => {
    const t = await start();
    const store = t.deps.store;
    t.deps.store = {
      ...store,
      check: async () => {
        throw new Error('The specified bucket does not exist');
      },
    };
    const failing = await t.app.inject({ url: '/readyz' });
    expect(failing.statusCode).toBe(503);
    expect(failing.json()).toEqual({ status: 'unavailable', checks: { database: 'ok', store: 'failed' } });
    // The reason is for the operator's log, not for whoever probes.
    expect(failing.body).not.toContain('bucket');
    expect(t.logs()).toContain('The specified bucket does not exist');

    t.deps.store = store;
    const back = await t.app.inject({ url: '/readyz' });
    expect(back.statusCode).toBe(200);
    expect(t.logs()).toContain('readiness: the store answers again');
  });

  it('answers 503 when the local store’s folder is gone', async () => {
    const t = await start();
    await rm(path.join(t.config.dataDir, 'storage', LOCAL_BUCKET), { recursive: true, force: true });
    const ready = await t.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ checks: { database: 'ok', store: 'failed' } });
  });

  it('answers 503 when the store does not answer in time', async () => {
    const t = await start();
    t.deps.store = { ...t.deps.store, check: () => new Promise<void>(() => undefined) };
    const startedAt = Date.now();
    const ready = await t.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ checks: { store: 'failed' } });
    expect(Date.now() - startedAt).toBeLessThan(5_000);
  });

  it('answers 503 draining once shutdown began, while /healthz still answers 200', async () => {
    const t = await start();
    t.deps.readiness.isDraining = true;
    const ready = await t.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'draining' });
    expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);
  });
});

describe('GET /metrics', () => {
  it('shows the process’ metrics and each request under its route pattern and status, never its id', async () => {
    const t = await start();
    const other = await start();
    const ada = await t.createUser();
    const token = await t.signIn(ada.email);
    const unknownId = '0b7e7f8e-93a4-4c7b-9d55-0d3f0f3b1c2a';
    const missing = await t.app.inject({ url: `/api/documents/${unknownId}`, headers: bearer(token) });
    expect(missing.statusCode).toBe(404);
    await t.app.inject({ url: '/no/such/page' });

    const text = await scrape(t);
    expect(text).toContain('# TYPE paraph_http_request_duration_seconds histogram');
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('nodejs_heap_size_used_bytes');
    expect(text).not.toContain(unknownId);
    const documentRoute = { method: 'GET', route: '/api/documents/:id', status: '404' };
    expect(valueOf(text, 'paraph_http_request_duration_seconds_count', documentRoute)).toBe(1);
    expect(
      valueOf(text, 'paraph_http_request_duration_seconds_count', {
        method: 'GET',
        route: 'unmatched',
        status: '404',
      }),
    ).toBe(1);
    expect(
      valueOf(text, 'paraph_http_request_duration_seconds_count', {
        method: 'POST',
        route: '/sign_in',
        status: '303',
      }),
    ).toBe(1);
    // Every app counts its own requests (the tests build many in one process).
    const otherText = await scrape(other);
    expect(valueOf(otherText, 'paraph_http_request_duration_seconds_count', documentRoute)).toBeUndefined();
  });

  it('reads the jobs queue from the database: depth by kind and state, and the oldest due job’s wait', async () => {
    const now = new Date('2026-11-02T09:00:00.000Z');
    const t = await start({ clock: () => now });
    const ada = await t.createUser();
    const before = await scrape(t);
    expect(valueOf(before, 'paraph_jobs', { kind: 'render_pages', state: 'queued' })).toBe(0);
    expect(valueOf(before, 'paraph_jobs_oldest_queued_age_seconds', { kind: 'render_pages' })).toBe(0);

    const at = (seconds: number) => new Date(now.getTime() + seconds * 1000);
    const jobOf = async (runAfter: Date) => {
      const id = await insertDocument(t.deps, { ownerId: ada.id, imagesState: 'pending' });
      await queueRenderPages(t.deps.db, id, runAfter);
      return id;
    };
    await jobOf(at(-90));
    await jobOf(at(-30));
    // Waiting for a retry: queued, but not yet due.
    await jobOf(at(600));
    const setState = async (documentId: string, state: 'running' | 'failed' | 'done') =>
      t.deps.db.updateTable('jobs').set({ state }).where('document_id', '=', documentId).execute();
    await setState(await jobOf(at(-500)), 'running');
    await setState(await jobOf(at(-400)), 'failed');
    await setState(await jobOf(at(-300)), 'done');

    const text = await scrape(t);
    expect(valueOf(text, 'paraph_jobs', { kind: 'render_pages', state: 'queued' })).toBe(3);
    expect(valueOf(text, 'paraph_jobs', { kind: 'render_pages', state: 'running' })).toBe(1);
    expect(valueOf(text, 'paraph_jobs', { kind: 'render_pages', state: 'failed' })).toBe(1);
    expect(valueOf(text, 'paraph_jobs', { kind: 'render_pages', state: 'done' })).toBeUndefined();
    expect(valueOf(text, 'paraph_jobs_oldest_queued_age_seconds', { kind: 'render_pages' })).toBe(90);
  });

  it('reads the mail queue from the database, and counts what was sent and what failed', async () => {
    const now = new Date('2026-11-02T09:00:00.000Z');
    const t = await start({ clock: () => now });
    const enqueue = (to: string, secondsAgo: number) =>
      enqueueMail(
        t.deps.db,
        { email: to, locale: 'en', fallbackLocale: 'en' },
        { kind: 'text', subject: 'Hello', body: 'Hello' },
        new Date(now.getTime() - secondsAgo * 1000),
      );
    await enqueue('ok@example.test', 120);
    await enqueue('refused@example.test', 60);
    const queued = await scrape(t);
    expect(valueOf(queued, 'paraph_mail_queue', { state: 'queued' })).toBe(2);
    expect(valueOf(queued, 'paraph_mail_queue', { state: 'failed' })).toBe(0);
    expect(valueOf(queued, 'paraph_mail_queue_oldest_queued_age_seconds')).toBe(120);

    const transport: MailTransport = {
      async send(mail) {
        if (mail.to === 'refused@example.test') throw new Error('550 mailbox unavailable');
      },
      async verify() {},
      close() {},
    };
    expect(await runMailQueue(t.deps, transport)).toBe(2);
    const text = await scrape(t);
    expect(valueOf(text, 'paraph_mail_sent_total', { kind: 'text' })).toBe(1);
    expect(valueOf(text, 'paraph_mail_failed_total', { kind: 'text', final: 'false' })).toBe(1);
    // The refused one waits for its retry: queued, not yet due.
    expect(valueOf(text, 'paraph_mail_queue', { state: 'queued' })).toBe(1);
    expect(valueOf(text, 'paraph_mail_queue_oldest_queued_age_seconds')).toBe(0);
  });

  it('still answers when the database is away, without the queue gauges', async () => {
    const t = await start();
    await t.deps.db.destroy();
    const text = await scrape(t);
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(valueOf(text, 'paraph_jobs', { kind: 'render_pages', state: 'queued' })).toBeUndefined();
    expect(t.logs()).toContain('a metric could not be read');
  });

  it('times each rendered page', async () => {
    const t = await start();
    const ada = await t.createUser();
    const { id } = await storedDocument(t.deps, { ownerId: ada.id, pages: 2, imagesState: 'pending' });
    await queueRenderPages(t.deps.db, id, t.deps.clock());
    const before = await scrape(t);
    expect(
      valueOf(before, 'paraph_page_render_duration_seconds_count', { outcome: 'rendered' }),
    ).toBeUndefined();
    expect(await runPendingImageJobs(t.deps)).toBe(1);
    const text = await scrape(t);
    expect(valueOf(text, 'paraph_page_render_duration_seconds_count', { outcome: 'rendered' })).toBe(2);
    expect(valueOf(text, 'paraph_page_render_duration_seconds_sum', { outcome: 'rendered' })).toBeGreaterThan(
      0,
    );
  }, 60_000);

  it('counts signature confirmations by how they ended', async () => {
    const t = await start();
    t.deps.signer = fakeSigner();
    const ada = await t.createUser();
    const token = await t.signIn(ada.email);
    const card = await cardFor(t.deps, ada.id);
    const { id } = await storedDocument(t.deps, { ownerId: ada.id });
    const versionId = await requestSignature(t, token, id, {
      smart_card_id: card,
      location: 'Amsterdam',
      ...SOLO_PLACEMENT,
    });
    const input = { versionId, userId: ada.id, ip: null, userAgent: null };
    expect(await confirmDocumentVersion(t.deps, input)).toEqual({ outcome: 'signed' });
    expect(await confirmDocumentVersion(t.deps, input)).toEqual({ outcome: 'already_answered' });
    const text = await scrape(t);
    expect(valueOf(text, 'paraph_signatures_total', { outcome: 'signed' })).toBe(1);
    expect(valueOf(text, 'paraph_signatures_total', { outcome: 'already_answered' })).toBe(1);
  });

  it('asks for PARAPH_METRICS_TOKEN when it is set; the probes still need none', async () => {
    const t = await start({ env: { PARAPH_METRICS_TOKEN: 'scrape-me-7f3a' } });
    expect((await t.app.inject({ url: '/metrics' })).statusCode).toBe(401);
    const wrong = await t.app.inject({ url: '/metrics', headers: { authorization: 'Bearer scrape-me' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).not.toContain('paraph_');
    expect(await scrape(t, { authorization: 'Bearer scrape-me-7f3a' })).toContain('paraph_jobs');
    expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/readyz' })).statusCode).toBe(200);
  });
});

describe('PARAPH_SHUTDOWN_TIMEOUT_MS and PARAPH_METRICS_TOKEN', () => {
  it('default to 10 s and no token; a limit under a second or not a whole number is refused', () => {
    expect(loadConfig({})).toMatchObject({ shutdownTimeoutMs: 10_000, metricsToken: null });
    expect(loadConfig({ PARAPH_SHUTDOWN_TIMEOUT_MS: '25000', PARAPH_METRICS_TOKEN: ' abc ' })).toMatchObject({
      shutdownTimeoutMs: 25_000,
      metricsToken: 'abc',
    });
    expect(() => loadConfig({ PARAPH_SHUTDOWN_TIMEOUT_MS: '999' })).toThrow(
      'PARAPH_SHUTDOWN_TIMEOUT_MS must be an integer >= 1000',
    );
    expect(() => loadConfig({ PARAPH_SHUTDOWN_TIMEOUT_MS: '2.5s' })).toThrow('PARAPH_SHUTDOWN_TIMEOUT_MS');
  });
});
