// The real server process at shutdown. SIGTERM while a page is being drawn: it ends within 10 s and hands
// its claimed render job back (queued, no lock) for another instance to take at once. SIGTERM with a
// request in flight: /readyz stops saying ready, the request is still answered, and the process exits 0;
// one that never ends is cut at PARAPH_SHUTDOWN_TIMEOUT_MS with exit 1. Every line it writes is JSON.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { queueRenderPages } from '../../server/images/worker.ts';
import { makeSlowPagePdf } from '../fixtures/pdfs.ts';
import { insertDocument } from './helpers.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const dataDirs: string[] = [];

afterAll(async () => {
  await Promise.all(dataDirs.map((dir) => fs.rm(dir, { recursive: true, force: true })));
});

async function until<T>(what: string, probe: () => Promise<T | null>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

type Server = {
  child: ChildProcess;
  base: string;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  exited: Promise<number | null>;
};

// Started as tests/e2e/global-setup.ts starts it, and found the same way: by the banner's text.
async function startServer(env: Record<string, string>): Promise<Server> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'paraph-shutdown-'));
  dataDirs.push(dataDir);
  const child = spawn(process.execPath, ['server/start.mjs'], {
    cwd: ROOT,
    env: { ...process.env, PARAPH_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const base = await until(
    'the start-up banner',
    async () => /Paraph is running at (http:\/\/[^\s]+)\/app\//.exec(output)?.[1] ?? null,
    90_000,
  );
  return { child, base, output: () => output, exited };
}

type LogLine = { level: number; msg: string } & Record<string, unknown>;

// Fails unless every line is one JSON object with pino's level and message.
function logLines(output: string): LogLine[] {
  return output
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        throw new Error(`a log line is not JSON: ${line}`);
      }
      expect(parsed).toMatchObject({
        level: expect.any(Number),
        time: expect.any(Number),
        msg: expect.any(String),
      });
      return parsed as LogLine;
    });
}

/** A POST whose body is half sent: the server holds it as a request in flight until `finish`. */
function halfSentPost(url: string, body: string) {
  const request = http.request(url, {
    method: 'POST',
    agent: false,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'content-length': Buffer.byteLength(body),
    },
  });
  const answered = new Promise<number>((resolve, reject) => {
    request.on('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', reject);
  });
  answered.catch(() => undefined);
  request.write(body.slice(0, 10));
  return {
    finish(): Promise<number> {
      request.end(body.slice(10));
      return answered;
    },
    abandon: () => request.destroy(),
  };
}

/** /readyz on a new connection: its status, or `closed` when the server no longer takes connections. */
function readiness(base: string): Promise<{ status: number; body: string } | 'closed'> {
  return new Promise((resolve) => {
    const request = http.get(`${base}/readyz`, { agent: false }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', () => resolve('closed'));
  });
}

describe('shutdown', () => {
  it('ends within 10 s of SIGTERM during a never-ending page, and releases the job', async () => {
    // The real server runs on SQLite only: a private data folder, prepared through the app itself.
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'paraph-shutdown-'));
    dataDirs.push(dataDir);
    const env = {
      PARAPH_DATA_DIR: dataDir,
      PARAPH_DEMO: '0',
      PARAPH_LOG_LEVEL: 'warn',
      PARAPH_RENDER_PAGE_TIMEOUT_MS: '600000',
      PARAPH_RENDER_MEMORY_MB: '4096',
      PARAPH_RENDER_MAX_STREAM_BYTES: String(4 * 1024 * 1024 * 1024),
      // The server's own limit: a shutdown still waiting on the page then would exit with 1, not 0.
      PARAPH_SHUTDOWN_TIMEOUT_MS: '10000',
    };
    const setup = await buildApp(loadConfig(env));
    const ownerId = randomUUID();
    const now = new Date().toISOString();
    await setup.deps.db
      .insertInto('users')
      .values({
        id: ownerId,
        email: 'ada@example.test',
        full_name: 'Ada',
        initials: 'A',
        password_hash: 'x',
        locale: 'en',
        country_code: 'uk',
        location: '',
        welcome_screen_watched: 0,
        plan: 'basic',
        created_at: now,
        last_seen_at: null,
      })
      .execute();
    const id = await insertDocument(setup.deps, { ownerId, imagesState: 'pending' });
    const pdf = await makeSlowPagePdf({ pages: 2, page: 1, operations: 2_000_000 });
    await setup.deps.store.put(`documents/${id}/original.pdf`, pdf, 'application/pdf');
    await queueRenderPages(setup.deps.db, id, new Date());
    const job = () =>
      setup.deps.db.selectFrom('jobs').selectAll().where('document_id', '=', id).executeTakeFirstOrThrow();

    const server = spawn(process.execPath, ['server/start.mjs'], {
      cwd: ROOT,
      env: { ...process.env, ...env, PORT: '0' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));
    try {
      await until(
        'the job to be claimed',
        async () => ((await job()).state === 'running' ? true : null),
        60_000,
      );

      server.kill('SIGTERM');
      // Exit 0 is a shutdown that ended within PARAPH_SHUTDOWN_TIMEOUT_MS, timed by the server itself: a
      // clock here would also count the process's exit on a busy machine.
      expect(await exited).toBe(0);
      expect(await job()).toMatchObject({ state: 'queued', locked_until: null, attempts: 0 });
    } finally {
      server.kill('SIGKILL');
      await setup.close();
    }
  }, 120_000);

  it('drains on SIGTERM: not ready, the request in flight answered, exit 0, every log line JSON', async () => {
    const limitMs = 8_000;
    const server = await startServer({
      PARAPH_DEMO: '1',
      PARAPH_LOG_LEVEL: 'info',
      PARAPH_SHUTDOWN_TIMEOUT_MS: String(limitMs),
    });
    try {
      const ready = await readiness(server.base);
      expect(ready).toEqual({
        status: 200,
        body: JSON.stringify({ status: 'ok', checks: { database: 'ok', store: 'ok' } }),
      });
      const signIn = halfSentPost(
        `${server.base}/sign_in`,
        new URLSearchParams({
          email: 'ada@paraph.test',
          password: 'not her password',
          return_to: '/app/',
        }).toString(),
      );
      await until(
        'the sign-in request to reach the server',
        async () => (/"path":"\/sign_in"[^\n]*"msg":"incoming request"/.test(server.output()) ? true : null),
        30_000,
      );

      const signalledAt = Date.now();
      server.child.kill('SIGTERM');
      await until(
        'the server to take the signal',
        async () => (server.output().includes('"msg":"shutting down') ? true : null),
        limitMs,
      );
      // Not ready from then on (503 while the jobs stop), then no new connection once Fastify closes; the
      // half-sent request is still held meanwhile.
      const seen = new Set<number | 'closed'>();
      await until(
        'the port to close',
        async () => {
          const answer = await readiness(server.base);
          seen.add(answer === 'closed' ? answer : answer.status);
          return answer === 'closed' ? true : null;
        },
        limitMs,
      );
      expect([...seen].filter((status) => status !== 503 && status !== 'closed')).toEqual([]);
      // Answered by the sign-in page itself (a wrong password), so the database was still open for it.
      expect(await signIn.finish()).toBe(401);
      const code = await server.exited;
      const tookMs = Date.now() - signalledAt;

      expect(code).toBe(0);
      expect(tookMs).toBeLessThan(limitMs);
      const lines = logLines(server.output());
      const messages = lines.map((line) => line.msg);
      expect(messages).toContain(`Paraph is running at ${server.base}/app/`);
      expect(lines.find((line) => line.msg.startsWith('DEMO MODE IS ON'))).toMatchObject({
        level: 40,
        accounts: expect.arrayContaining(['ada@paraph.test']),
      });
      expect(messages).toContain('shutting down: finishing the requests in flight');
      expect(messages.at(-1)).toBe('stopped');
    } finally {
      server.child.kill('SIGKILL');
    }
  }, 180_000);

  it('exits 1 with a structured error once PARAPH_SHUTDOWN_TIMEOUT_MS has passed', async () => {
    const server = await startServer({
      PARAPH_DEMO: '0',
      PARAPH_LOG_LEVEL: 'info',
      PARAPH_SHUTDOWN_TIMEOUT_MS: '1500',
    });
    const stuck = halfSentPost(`${server.base}/sign_in`, 'email=ada%40example.test&password=whatever');
    try {
      await until(
        'the sign-in request to reach the server',
        async () => (/"path":"\/sign_in"[^\n]*"msg":"incoming request"/.test(server.output()) ? true : null),
        30_000,
      );
      const signalledAt = Date.now();
      server.child.kill('SIGTERM');
      const code = await server.exited;
      const tookMs = Date.now() - signalledAt;

      expect(code).toBe(1);
      expect(tookMs).toBeGreaterThanOrEqual(1_400);
      expect(tookMs).toBeLessThan(6_000);
      expect(logLines(server.output()).at(-1)).toMatchObject({
        level: 50,
        limitMs: 1500,
        msg: 'shutdown took longer than PARAPH_SHUTDOWN_TIMEOUT_MS; exiting now',
      });
    } finally {
      stuck.abandon();
      server.child.kill('SIGKILL');
    }
  }, 120_000);
});
