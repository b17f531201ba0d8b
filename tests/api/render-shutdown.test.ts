// SIGTERM while a page is being drawn: the real server process ends within 10 s and hands its claimed
// render job back (queued, no lock) for another instance to take at once.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
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

    const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
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

      const signalledAt = Date.now();
      server.kill('SIGTERM');
      const code = await exited;
      const tookMs = Date.now() - signalledAt;

      expect(tookMs).toBeLessThan(10_000);
      expect(code).toBe(0);
      expect(await job()).toMatchObject({ state: 'queued', locked_until: null, attempts: 0 });
    } finally {
      server.kill('SIGKILL');
      await setup.close();
    }
  }, 120_000);
});
