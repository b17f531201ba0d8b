// Several instances on one PostgreSQL database: a connection the server ends (a restart, a failover,
// pg_terminate_backend) never ends the process; while the database cannot be reached every request answers
// 503 database_unavailable and background jobs wait it out; once it is back everything works again without
// a restart. Instances started together on a fresh database migrate and seed it once and make one
// certificate authority, which every instance signs under. PostgreSQL only (vitest.config.ts): run with
// `sh scripts/pg-test.sh tests/api/database-outage.pg.test.ts`.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { dropPgSchema, openDatabase, type DatabaseLog } from '../../server/db/database.ts';
import { withStartLock } from '../../server/db/start-lock.ts';
import { startPeriodicJob } from '../../server/jobs/periodic.ts';
import { DEMO_ACCOUNTS, seedDemo } from '../../server/seed.ts';
import { generateRsaKey, issueCaCertificate } from '../../server/signing/ca/issue.ts';
import { checkAtStart } from '../../server/start-checks.ts';
import { bearer, buildTestApp, type TestApp } from './helpers.ts';
import { certificatePem, TEST_CA_PASSPHRASE } from './deployment-pki-support.ts';

const DATABASE_URL = process.env.TEST_DATABASE_URL?.trim() || null;
if (DATABASE_URL === null) {
  throw new Error('These tests need PostgreSQL: run them with sh scripts/pg-test.sh <this file>');
}
const databaseUrl: string = DATABASE_URL;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function until<T>(
  what: string,
  probe: () => Promise<T | null> | T | null,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

type LogLine = { level: number; msg?: string; job?: string; error?: string };

function logLines(text: string): LogLine[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as LogLine);
}

const WARN = 40;
const ERROR = 50;

async function adminQuery<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

async function signedInApp(env: Record<string, string> = {}) {
  const t = await buildTestApp({ env });
  cleanups.push(() => t.close());
  const user = await t.createUser();
  const token = await t.signIn(user.email);
  return { t, token };
}

const getProfile = (t: TestApp, token: string) =>
  t.app.inject({ method: 'GET', url: '/api/profiles', headers: bearer(token) });

// A TCP relay in front of the test database: stopping it is the database going away (the port refuses,
// open connections drop); starting it again on the same port is the database coming back.
function relay(target: URL) {
  let server: net.Server | null = null;
  const sockets = new Set<net.Socket>();
  let port = 0;
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  return {
    get port() {
      return port;
    },
    async start(): Promise<void> {
      server = net.createServer((client) => {
        const upstream = net.connect(Number(target.port || 5432), target.hostname);
        track(client);
        track(upstream);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
        client.pipe(upstream).pipe(client);
      });
      const listening = server;
      await new Promise<void>((resolve) => listening.listen(port, '127.0.0.1', resolve));
      port = (listening.address() as net.AddressInfo).port;
    },
    async stop(): Promise<void> {
      const closing = server;
      server = null;
      if (closing === null) return;
      const closed = new Promise((resolve) => closing.close(resolve));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

describe('a dropped database connection', () => {
  it('is logged, never ends the process, and the next request gets a new connection', async () => {
    const { t, token } = await signedInApp();
    expect((await getProfile(t, token)).statusCode).toBe(200);

    // One of the app's pooled connections, idle again once this query is answered.
    const { rows } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(t.deps.db);
    const terminated = await adminQuery<{ done: boolean }>('SELECT pg_terminate_backend($1) AS done', [
      rows[0]?.pid,
    ]);
    expect(terminated).toEqual([{ done: true }]);

    // The idle connection the server ended is reported by the pool, at warn level.
    await until('the lost connection to be logged', () =>
      logLines(t.logs()).some(
        (line) => line.level === WARN && line.msg?.startsWith('a database connection was lost') === true,
      )
        ? true
        : null,
    );
    const response = await getProfile(t, token);
    expect(response.statusCode, response.body).toBe(200);
    expect(logLines(t.logs()).filter((line) => line.level >= ERROR)).toEqual([]);
  });

  it("is reported to the log whether the pool or the query's own connection meets it", async () => {
    const schema = `t_${randomUUID().replaceAll('-', '')}`;
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'paraph-pool-'));
    const warnings: string[] = [];
    const log: DatabaseLog = {
      warn: (_details, message) => warnings.push(message),
      debug: () => undefined,
    };
    const { db, pool } = await openDatabase({ dataDir, databaseUrl, pgSchema: schema, log });
    cleanups.push(async () => {
      await db.destroy();
      await dropPgSchema(databaseUrl, schema);
      await fs.rm(dataDir, { recursive: true, force: true });
    });
    if (pool === null) throw new Error('PostgreSQL opens a pool');
    // Without a listener, EventEmitter throws an 'error' event at whoever emitted it: the process, when
    // it comes from a socket.
    expect(() => pool.emit('error', new Error('Connection terminated unexpectedly'))).not.toThrow();
    expect(warnings).toEqual(['a database connection was lost; the pool opens a new one when needed']);

    const lent = await pool.connect();
    try {
      expect(() => lent.emit('error', new Error('Connection terminated unexpectedly'))).not.toThrow();
    } finally {
      lent.release(true);
    }
  });
});

describe('while the database cannot be reached', () => {
  it('answers 503 database_unavailable with Retry-After, jobs wait, and all works again once it is back', async () => {
    const target = new URL(databaseUrl);
    const gate = relay(target);
    await gate.start();
    cleanups.push(() => gate.stop());
    const viaRelay = new URL(databaseUrl);
    viaRelay.hostname = '127.0.0.1';
    viaRelay.port = String(gate.port);
    const { t, token } = await signedInApp({ DATABASE_URL: viaRelay.href });
    expect((await getProfile(t, token)).statusCode).toBe(200);

    let rounds = 0;
    const job = startPeriodicJob(t.deps.log, {
      intervalMs: 20,
      runAtStart: true,
      failureMessage: 'the test job failed',
      run: async () => {
        rounds += 1;
        await t.deps.db.selectFrom('users').select('id').limit(1).execute();
      },
    });
    cleanups.push(() => job.stop());

    await gate.stop();
    const during = await getProfile(t, token);
    expect(during.statusCode, during.body).toBe(503);
    expect(during.headers['retry-after']).toBe('5');
    expect(during.json()).toEqual({
      code: 'database_unavailable',
      message: 'The database cannot be reached right now. Try again in a few seconds.',
    });
    // Again, now that the pool has let go of every connection it had: a fresh one is refused.
    expect((await getProfile(t, token)).statusCode).toBe(503);
    const roundsAtOutage = rounds;
    await until('several job rounds during the outage', () => (rounds >= roundsAtOutage + 5 ? true : null));

    await gate.start();
    const after = await getProfile(t, token);
    expect(after.statusCode, after.body).toBe(200);
    await until('the job to see the database again', () =>
      logLines(t.logs()).some((line) => line.msg === 'the database answers again; the job carries on')
        ? true
        : null,
    );

    const lines = logLines(t.logs());
    // The outage is a warning, said once by the job however many rounds failed; nothing at error level.
    expect(
      lines
        .filter((line) => line.job === 'the test job failed' && line.level === WARN)
        .map((line) => line.msg),
    ).toEqual(['the database cannot be reached; the job tries again each round']);
    expect(lines.filter((line) => line.level >= ERROR)).toEqual([]);
    expect(
      lines.some(
        (line) => line.level === WARN && line.msg === 'the database cannot be reached; answered 503',
      ),
    ).toBe(true);
  });
});

// What server/main.ts does before it listens, for one instance.
async function startInstance(dataDir: string, schema: string, env: Record<string, string> = {}) {
  const lines: string[] = [];
  const config = loadConfig({
    PARAPH_DATA_DIR: dataDir,
    PARAPH_APP_DIR: path.join(dataDir, 'no-app-built'),
    PARAPH_LOG_LEVEL: 'info',
    DATABASE_URL: databaseUrl,
    PARAPH_CA_PASSPHRASE: TEST_CA_PASSPHRASE,
    ...env,
  });
  const app = await buildApp(config, {
    pgSchema: schema,
    logStream: new Writable({
      write(chunk: Buffer | string, _encoding, callback) {
        lines.push(chunk.toString());
        callback();
      },
    }),
  });
  try {
    await checkAtStart(app.deps);
    const seed = config.demo
      ? await withStartLock({ databaseUrl, pgSchema: schema }, () => seedDemo(app.deps))
      : null;
    return { app, seed, logs: () => lines.join('') };
  } catch (error) {
    await app.close();
    throw error;
  }
}

describe('instances started together on a fresh database', () => {
  const dataDirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dataDirs.map((dir) => fs.rm(dir, { recursive: true, force: true })));
  });

  async function freshSchema(): Promise<string> {
    const schema = `t_${randomUUID().replaceAll('-', '')}`;
    cleanups.push(() => dropPgSchema(databaseUrl, schema));
    return schema;
  }

  async function dataDir(): Promise<string> {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'paraph-fleet-'));
    dataDirs.push(dir);
    return dir;
  }

  it('migrate it and seed the demo data once, both starting', async () => {
    const schema = await freshSchema();
    // One data folder for both, as a shared volume: one CA.
    const shared = await dataDir();
    const started = await Promise.allSettled([
      startInstance(shared, schema, { PARAPH_DEMO: '1' }),
      startInstance(shared, schema, { PARAPH_DEMO: '1' }),
    ]);
    const apps: FastifyInstance[] = [];
    for (const result of started) if (result.status === 'fulfilled') apps.push(result.value.app);
    cleanups.push(async () => {
      await Promise.all(apps.map((app) => app.close()));
    });
    expect(
      started.map((result) => (result.status === 'rejected' ? String(result.reason) : 'started')),
    ).toEqual(['started', 'started']);
    const seeded = started.map((result) =>
      result.status === 'fulfilled' ? result.value.seed?.seeded : null,
    );
    expect(seeded.sort()).toEqual([false, true]);

    const [first] = apps;
    if (first === undefined) throw new Error('no instance started');
    const users = await first.deps.db.selectFrom('users').select('email').orderBy('email').execute();
    expect(users.map((user) => user.email)).toEqual(DEMO_ACCOUNTS.map((account) => account.email).sort());
    const migrations = await sql<{ count: string }>`SELECT count(*) AS count FROM kysely_migration`.execute(
      first.deps.db,
    );
    expect(Number(migrations.rows[0]?.count)).toBeGreaterThan(10);
    const authorities = await first.deps.db
      .selectFrom('pki_keys')
      .select('serial_number')
      .where('role', '=', 'ca')
      .execute();
    expect(authorities).toHaveLength(1);
  }, 120_000);

  it('sign under the CA in the database, whatever their data folders; a different one is refused', async () => {
    const schema = await freshSchema();
    const first = await startInstance(await dataDir(), schema);
    cleanups.push(() => first.app.close());
    const deployment = await first.app.deps.pki();

    // Another data folder, nothing copied into it: the same CA.
    const second = await startInstance(await dataDir(), schema);
    cleanups.push(() => second.app.close());
    expect((await second.app.deps.pki()).caFingerprint).toBe(deployment.caFingerprint);

    // Without the deployment's passphrase, an instance does not start.
    await expect(
      startInstance(await dataDir(), schema, { PARAPH_CA_PASSPHRASE: 'another passphrase altogether' }),
    ).rejects.toThrow(/^PARAPH_CA_PASSPHRASE does not open the signing keys kept in the database/);

    // A CA given as files that is not the deployment's is refused, unless it is to replace it, once.
    const filesDir = await dataDir();
    const files = await caFiles(filesDir);
    await expect(startInstance(filesDir, schema, files)).rejects.toThrow(
      new RegExp(
        `^This instance's signing CA \\(PARAPH_CA_CERT, SHA-256 [0-9A-F:]{95}\\) is not the one the deployment ` +
          `signs with \\(SHA-256 ${deployment.caFingerprint}\\)`,
      ),
    );
    const replacing = await startInstance(filesDir, schema, { ...files, PARAPH_REPLACE_SIGNING_CA: '1' });
    cleanups.push(() => replacing.app.close());
    expect(
      logLines(replacing.logs()).some(
        (line) => line.level === WARN && /replaces the one recorded/.test(line.msg ?? ''),
      ),
    ).toBe(true);
    // The database's CA is now the stranger: an instance without the files is refused.
    await expect(startInstance(await dataDir(), schema)).rejects.toThrow(
      /is not the one the deployment signs with/,
    );
    // Left on, the setting is pointed out: it would let any other CA take over at its every start.
    const again = await startInstance(filesDir, schema, { ...files, PARAPH_REPLACE_SIGNING_CA: '1' });
    cleanups.push(() => again.app.close());
    expect(
      logLines(again.logs())
        .filter((line) => line.level === WARN)
        .map((line) => line.msg),
    ).toContain(
      'PARAPH_REPLACE_SIGNING_CA=1 found nothing to replace; remove it so that a stranger CA is refused again',
    );
  }, 120_000);
});

/** An operator's own CA, given as PEM values (PARAPH_CA_CERT, PARAPH_CA_KEY). */
async function caFiles(dir: string): Promise<Record<string, string>> {
  const privateKey = await generateRsaKey(2048);
  const certificate = await issueCaCertificate(privateKey, {
    now: new Date(),
    publicOrigin: 'https://elsewhere.test',
  });
  await fs.mkdir(dir, { recursive: true });
  return {
    PARAPH_CA_CERT: certificatePem(certificate),
    PARAPH_CA_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}
