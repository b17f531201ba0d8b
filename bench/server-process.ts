// The real server as `npm start` runs it, in a child process of its own, so a benchmark can measure that
// process (its RSS) and a browser can talk to it without sharing an event loop with the measuring code.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import { hashPassword } from '../server/auth/passwords.ts';
import { openMigratedDatabase } from '../server/db/database.ts';
import type { Database } from '../server/db/schema.ts';

export const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;
const READY_POLL_MS = 100;

export type ServerProcess = {
  // The origin, e.g. http://localhost:41234 (no trailing slash).
  origin: string;
  pid: number;
  dataDir: string;
  stop(): Promise<void>;
};

export async function makeDataDir(prefix: string): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), `paraph-bench-${prefix}-`));
}

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

// A port nobody listens on now. The server's own "running at" banner is an info line, which the
// server's warn level below leaves out, so the bench chooses the port and asks /healthz instead.
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address !== null
          ? resolve(address.port)
          : reject(new Error('no free port')),
      );
    });
  });
}

async function answersHealth(origin: string): Promise<boolean> {
  try {
    return (await fetch(`${origin}/healthz`)).ok;
  } catch {
    return false;
  }
}

// Starts `node server/start.mjs` on a free port with the given data folder, which `stop()`
// removes. The server's output is kept (for the error message should it fail to start) and drained.
export async function startServer(options: {
  dataDir: string;
  demo: boolean;
  env?: Record<string, string>;
}): Promise<ServerProcess> {
  const port = await freePort();
  // The public origin the server derives on a loopback address: its links and sign-in forms use it.
  const origin = `http://localhost:${port}`;
  const child = spawn(process.execPath, ['server/start.mjs'], {
    cwd: ROOT_DIR,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PARAPH_DATA_DIR: options.dataDir,
      PARAPH_DEMO: options.demo ? '1' : '0',
      // Per-request info lines would only slow the server and flood the terminal.
      PARAPH_LOG_LEVEL: 'warn',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let exit: string | null = null;
  const onData = (chunk: Buffer): void => {
    output += chunk.toString();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  child.once('exit', (code, signal) => {
    exit = String(signal ?? code);
  });
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      if (!(await waitForExit(child, STOP_TIMEOUT_MS))) {
        child.kill('SIGKILL');
        await waitForExit(child, STOP_TIMEOUT_MS);
      }
    }
    await rm(options.dataDir, { recursive: true, force: true });
  };
  try {
    const deadline = performance.now() + START_TIMEOUT_MS;
    while (!(await answersHealth(`http://127.0.0.1:${port}`))) {
      if (exit !== null) throw new Error(`the server exited (${exit}) before it was ready:\n${output}`);
      if (performance.now() > deadline)
        throw new Error(`the server did not start in ${START_TIMEOUT_MS / 1000} s:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS));
    }
    if (child.pid === undefined) throw new Error('the server process has no pid');
    // Keep reading so the server never blocks on a full pipe; warnings still reach the terminal.
    child.stdout?.removeAllListeners('data');
    child.stderr?.removeAllListeners('data');
    child.stdout?.resume();
    child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(`[server] ${chunk.toString()}`));
    return { origin, pid: child.pid, dataDir: options.dataDir, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * A document row written straight into the server's database, ready to act on ('uploaded', its page
 * images done): the benches that measure an action need many documents without timing their uploads.
 * The file itself, if the action reads it, is the caller's to store under `fileKey`.
 */
export async function insertReadyDocument(
  db: Kysely<Database>,
  document: { ownerId: string; name: string; fileSize: number; pageCount: number },
): Promise<{ id: string; fileKey: string }> {
  const id = randomUUID();
  const now = new Date();
  const fileKey = `documents/${id}/original.pdf`;
  await db
    .insertInto('documents')
    .values({
      id,
      owner_id: document.ownerId,
      original_filename: `${document.name}-${id.slice(0, 8)}.pdf`,
      file_key: fileKey,
      file_size: document.fileSize,
      sha256: '0'.repeat(64),
      page_count: document.pageCount,
      state: 'uploaded',
      images_state: 'ready',
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
      autodeletion_at: new Date(now.getTime() + 365 * 86_400_000).toISOString(),
      signed_file_key: null,
    })
    .execute();
  return { id, fileKey };
}

// An account in a fresh data folder, written before the server starts (the bench's own sign-in).
export async function createBenchUser(
  dataDir: string,
  user: { email: string; fullName: string; password: string },
): Promise<void> {
  const { db } = await openMigratedDatabase({ dataDir, databaseUrl: null });
  try {
    await db
      .insertInto('users')
      .values({
        id: randomUUID(),
        email: user.email,
        full_name: user.fullName,
        initials: user.fullName
          .split(/\s+/)
          .map((part) => part[0] ?? '')
          .join('')
          .slice(0, 2)
          .toUpperCase(),
        password_hash: await hashPassword(user.password),
        locale: 'en',
        country_code: 'nl',
        location: '',
        welcome_screen_watched: 1,
        plan: 'basic',
        created_at: new Date().toISOString(),
        last_seen_at: null,
      })
      .execute();
  } finally {
    await db.destroy();
  }
}
