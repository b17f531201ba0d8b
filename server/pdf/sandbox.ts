// The PDF sandbox: uploads are inspected and pages rendered in a child process, never on the API's event
// loop. Its limits:
// - memory: V8's old space is capped, and a watchdog here reads the child's resident memory every 50 ms
//   and kills it above the cap (pdfjs's and the canvas's buffers live outside the V8 heap, so the
//   watchdog is the real cap);
// - time: a request that outlives its limit kills the child (code stuck in native canvas drawing cannot
//   be interrupted; a process can always be killed);
// - inflation: no stream may decode to more than the limit (stream-limit.ts, checked in the child).
// A killed child is started again for the next request; the request that broke a limit fails alone.
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import type { Readable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { pino, type Logger } from 'pino';
import type { PdfSandboxLimits } from '../config.ts';
import { logOptions } from '../http/logging.ts';
import type { VerificationOutcome } from '../verification/report.ts';
import type { TrustContext } from '../verification/trust.ts';
import type { PdfInspection } from './inspect-bytes.ts';
import type { SandboxReply, SandboxRequest } from './sandbox-protocol.ts';
import { patchedWorkerUrl } from './stream-limit.ts';

export type SandboxFailureReason = 'stream_limit' | 'timeout' | 'memory' | 'crashed' | 'error' | 'stopped';

export class SandboxFailure extends Error {
  reason: SandboxFailureReason;

  constructor(reason: SandboxFailureReason, message: string) {
    super(message);
    this.reason = reason;
    this.name = 'SandboxFailure';
  }
}

export type SandboxPage = { png: Buffer; width: number; height: number };

const CHILD_ENTRY = path.join(path.dirname(fileURLToPath(import.meta.url)), 'sandbox-boot.mjs');
// The child runs TypeScript with the loader the server itself runs under (`node --import tsx`), found from
// here so that it works whatever the parent's own flags are (a test runner's, for one). The boot script
// registers it once the PDF libraries are loaded.
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const WATCHDOG_MS = 50;
// Loading pdfjs and the canvas takes a moment on a busy machine; a child that cannot start at all is
// broken, not slow.
const START_TIMEOUT_MS = 60_000;
// pdf-lib reads a 50 MB upload in a few seconds; far longer is a file built to be slow.
const INSPECT_TIMEOUT_MS = 30_000;
// A verification reads the file once more for each revision a signature ends, then checks each signature.
const VERIFY_TIMEOUT_MS = 45_000;
// An idle child gives its memory back, after long enough that a person uploading a few files in a row,
// or a queue of page images, pays the start (a second or more on a busy machine) once.
const IDLE_MS = 5 * 60_000;

// What a child writes to stderr (a broken page's rejected promise, V8's report when it runs out of heap)
// reaches the server's log as JSON lines like every other: one logger for every sandbox.
let childLog: Logger | null = null;

function sandboxLog(): Logger {
  const level = process.env.PARAPH_LOG_LEVEL?.trim() ?? '';
  childLog ??= pino(logOptions(level in pino.levels.values ? level : 'info'));
  return childLog;
}

/** Each line of `stderr` as a warn line of `log`, with `fields`. */
export function forwardLines(stderr: Readable, log: Logger, fields: Record<string, unknown>): void {
  readline.createInterface({ input: stderr, crlfDelay: Infinity }).on('line', (line) => {
    if (line.trim() !== '') log.warn(fields, line);
  });
}

type Pending = {
  id: number;
  resolve: (reply: SandboxReply) => void;
  reject: (error: SandboxFailure) => void;
};

function residentBytes(pid: number): number | null {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'latin1'));
    return match?.[1] === undefined ? null : Number(match[1]) * 1024;
  } catch {
    // No /proc (not Linux), or the child just exited: V8's heap cap is then the only memory limit.
    return null;
  }
}

/** The program a sandbox runs: its boot script, and the environment it needs besides its limits. */
export type SandboxProgram = { entry: string; env: () => Record<string, string> };

const RENDERER: SandboxProgram = {
  entry: CHILD_ENTRY,
  env: () => ({ PARAPH_SANDBOX_WORKER: patchedWorkerUrl(), PARAPH_SANDBOX_LOADER: TSX_LOADER }),
};

/** The loader the server runs under, for a boot script that imports TypeScript after its libraries. */
export const SANDBOX_TSX_LOADER = TSX_LOADER;

export class PdfSandbox {
  readonly limits: PdfSandboxLimits;
  readonly program: SandboxProgram;
  // Page images are background work: on a small machine the API's requests go first. An upload's
  // inspection is what a person waits for, so it keeps the server's own priority.
  readonly niceness: number;
  #child: ChildProcess | null = null;
  #ready: Promise<void> | null = null;
  #pending: Pending | null = null;
  #killReason: SandboxFailureReason | null = null;
  #watchdog: NodeJS.Timeout | null = null;
  #idle: NodeJS.Timeout | null = null;
  #queue: Promise<unknown> = Promise.resolve();
  #nextId = 1;
  #openKey: string | null = null;
  #openPages = 0;

  constructor(limits: PdfSandboxLimits, niceness = 0, program: SandboxProgram = RENDERER) {
    this.limits = limits;
    this.niceness = niceness;
    this.program = program;
  }

  /** Starts the child now, so that the first request does not wait for pdfjs to load. */
  warmUp(): Promise<void> {
    return this.#exclusive(async () => {
      const child = await this.#start();
      child.channel?.unref();
      this.#scheduleIdle();
    }).catch(() => undefined);
  }

  /** The child's process id while one runs (for measurements). */
  get pid(): number | null {
    return this.#child?.pid ?? null;
  }

  inspect(bytes: Uint8Array): Promise<PdfInspection> {
    return this.#exclusive(async () => {
      const reply = await this.#call({ type: 'inspect', id: 0, bytes }, INSPECT_TIMEOUT_MS);
      return reply as PdfInspection;
    });
  }

  /** The signature report of `bytes` (server/verification/verify-pdf.ts), made in the child. */
  verify(bytes: Uint8Array, trust: TrustContext, now: Date): Promise<VerificationOutcome> {
    return this.#exclusive(async () => {
      const request = {
        type: 'verify' as const,
        id: 0,
        bytes,
        anchors: trust.anchors,
        currentCrls: trust.currentCrls,
        now: now.toISOString(),
      };
      return (await this.#call(request, VERIFY_TIMEOUT_MS)) as VerificationOutcome;
    });
  }

  /**
   * Opens a document in the child (unless it is the one already open) and answers its page count.
   * `key` names the bytes; `load` is called only when they must be sent.
   */
  open(key: string, load: () => Promise<Uint8Array>): Promise<number> {
    return this.#exclusive(() => this.#open(key, load));
  }

  renderPage(key: string, load: () => Promise<Uint8Array>, pageNumber: number): Promise<SandboxPage> {
    return this.#exclusive(async () => {
      await this.#open(key, load);
      const value = (await this.#call({ type: 'render', id: 0, pageNumber }, this.limits.pageTimeoutMs)) as {
        png: Uint8Array;
        width: number;
        height: number;
      };
      return {
        png: Buffer.from(value.png.buffer, value.png.byteOffset, value.png.byteLength),
        width: value.width,
        height: value.height,
      };
    });
  }

  /** One request of the program's own protocol, answered within `timeoutMs` or failed with `timeout`. */
  request(request: { type: string; [field: string]: unknown }, timeoutMs: number): Promise<unknown> {
    return this.#exclusive(() => this.#call({ ...request, id: 0 } as unknown as SandboxRequest, timeoutMs));
  }

  /** Kills the child now; a request in flight fails with `stopped`. A later request starts a new child. */
  stop(): void {
    this.#kill('stopped');
  }

  async #open(key: string, load: () => Promise<Uint8Array>): Promise<number> {
    if (this.#openKey === key && this.#child !== null) return this.#openPages;
    this.#openKey = null;
    const bytes = await load();
    const value = (await this.#call({ type: 'open', id: 0, bytes }, this.limits.pageTimeoutMs)) as {
      numPages: number;
    };
    this.#openKey = key;
    this.#openPages = value.numPages;
    return value.numPages;
  }

  #exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task, task);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #call(request: SandboxRequest, timeoutMs: number): Promise<unknown> {
    if (this.#idle !== null) clearTimeout(this.#idle);
    this.#idle = null;
    const child = await this.#start();
    const id = this.#nextId++;
    child.channel?.ref();
    try {
      const reply = await new Promise<SandboxReply>((resolve, reject) => {
        this.#pending = { id, resolve, reject };
        const timer = setTimeout(() => this.#kill('timeout'), timeoutMs);
        const clear = (): void => clearTimeout(timer);
        this.#pending.resolve = (value) => {
          clear();
          resolve(value);
        };
        this.#pending.reject = (error) => {
          clear();
          reject(error);
        };
        child.send({ ...request, id });
      });
      if (reply.type === 'failed') throw new SandboxFailure(reply.reason, reply.message);
      if (reply.type !== 'result') throw new SandboxFailure('error', 'The sandbox answered out of turn');
      return reply.value;
    } finally {
      this.#pending = null;
      if (this.#child === child) {
        child.channel?.unref();
        this.#scheduleIdle();
      }
    }
  }

  #scheduleIdle(): void {
    if (this.#idle !== null) clearTimeout(this.#idle);
    this.#idle = setTimeout(() => this.#retire(), IDLE_MS);
    this.#idle.unref();
  }

  // The idle child is forgotten before it is killed: a request arriving before its exit is seen then
  // starts a new child instead of being sent to the dying one.
  #retire(): void {
    const child = this.#child;
    this.#idle = null;
    if (child === null || this.#pending !== null) return;
    this.#child = null;
    this.#ready = null;
    this.#openKey = null;
    if (this.#watchdog !== null) clearInterval(this.#watchdog);
    this.#watchdog = null;
    child.kill('SIGKILL');
  }

  #start(): Promise<ChildProcess> {
    if (this.#child !== null && this.#ready !== null) {
      const child = this.#child;
      return this.#ready.then(() => child);
    }
    this.#killReason = null;
    const child = fork(this.program.entry, [], {
      execArgv: [`--max-old-space-size=${this.limits.memoryMb}`],
      // Only what the child needs: no database URL, no keys.
      env: {
        PATH: process.env.PATH ?? '',
        ...(process.env.TMPDIR === undefined ? {} : { TMPDIR: process.env.TMPDIR }),
        PARAPH_SANDBOX_LIMITS: JSON.stringify(this.limits),
        ...this.program.env(),
      },
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    this.#child = child;
    child.unref();
    const stderr = child.stderr as Socket | null;
    if (stderr !== null) {
      // Like the child itself, its pipe never keeps the server alive.
      stderr.unref();
      forwardLines(stderr, sandboxLog(), { source: 'pdf-sandbox', childPid: child.pid });
    }
    if (child.pid !== undefined && this.niceness !== 0) {
      try {
        os.setPriority(child.pid, this.niceness);
      } catch {
        // Not permitted here: the sandbox runs at the server's priority.
      }
    }
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => this.#kill('timeout'), START_TIMEOUT_MS);
      this.#pending = {
        id: 0,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
    });
    this.#ready = ready;
    child.on('message', (reply: SandboxReply) => {
      const pending = this.#pending;
      if (pending === null) return;
      if (reply.type === 'ready' ? pending.id === 0 : reply.id === pending.id) pending.resolve(reply);
    });
    const onGone = (): void => {
      if (this.#child !== child) return;
      const reason = this.#killReason ?? 'crashed';
      this.#child = null;
      this.#ready = null;
      this.#openKey = null;
      if (this.#watchdog !== null) clearInterval(this.#watchdog);
      this.#watchdog = null;
      if (this.#idle !== null) clearTimeout(this.#idle);
      this.#idle = null;
      this.#pending?.reject(new SandboxFailure(reason, MESSAGES[reason]));
      this.#pending = null;
    };
    child.on('exit', onGone);
    child.on('error', onGone);
    const capBytes = this.limits.memoryMb * 1024 * 1024;
    this.#watchdog = setInterval(() => {
      const rss = child.pid === undefined ? null : residentBytes(child.pid);
      if (rss !== null && rss > capBytes) this.#kill('memory');
    }, WATCHDOG_MS);
    this.#watchdog.unref();
    return ready.then(() => {
      this.#pending = null;
      return child;
    });
  }

  #kill(reason: SandboxFailureReason): void {
    const child = this.#child;
    if (child === null) return;
    this.#killReason ??= reason;
    child.kill('SIGKILL');
  }
}

const MESSAGES: Record<SandboxFailureReason, string> = {
  stream_limit: 'A stream inflates beyond the limit',
  timeout: 'The PDF sandbox ran out of time',
  memory: 'The PDF sandbox went over its memory limit',
  crashed: 'The PDF sandbox stopped unexpectedly',
  error: 'The PDF sandbox failed',
  stopped: 'The PDF sandbox was stopped',
};

// Enough to let the API's requests go first on a busy machine, not so much that page images starve
// beside other busy programs.
const RENDER_NICENESS = 5;

// One sandbox for uploads, one for page images and one for signature reports, per set of limits: an
// inspection never waits behind a slow page or a stranger's verification, and tests that build many apps
// share the processes.
const sandboxes = new Map<string, PdfSandbox>();

export function pdfSandbox(role: 'inspect' | 'render' | 'verify', limits: PdfSandboxLimits): PdfSandbox {
  const key = `${role}:${JSON.stringify(limits)}`;
  let sandbox = sandboxes.get(key);
  if (sandbox === undefined) {
    sandbox = new PdfSandbox(limits, role === 'render' ? RENDER_NICENESS : 0);
    sandboxes.set(key, sandbox);
  }
  return sandbox;
}
