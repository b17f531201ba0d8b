// One Paraph server process of the fleet, started as production starts it (node server/start.mjs), with
// its output in a log file, and the readiness probe the proxy uses.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync, statSync } from 'node:fs';

export type InstanceName = 'A' | 'B';

export type ExitRecord = {
  at: number;
  pid: number;
  code: number | null;
  signal: string | null;
  // True when the driver asked for it (SIGTERM); anything else is the instance dying by itself.
  expected: boolean;
};

export type Health = 'ready' | 'unready' | 'down';

// Which probe answered: the server's /readyz, or (a server without one) any answer from the API.
export type ProbeVia = 'readyz' | 'fallback';

export type Probe = { health: Health; via: ProbeVia | null; status: number | null };

const PROBE_TIMEOUT_MS = 1500;

/**
 * /readyz when the server has it: 200 ready, 503 not ready (draining, or no database). A server without it
 * answers 404 there; it is then called ready when the API answers at all below 500 (an unauthenticated
 * /api/profile is a 401 that needs no database).
 */
export async function probe(port: number): Promise<Probe> {
  const get = (path: string) =>
    fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) }).then(
      async (response) => {
        await response.arrayBuffer();
        return response.status;
      },
    );
  try {
    const readyz = await get('/readyz');
    if (readyz === 200) return { health: 'ready', via: 'readyz', status: readyz };
    if (readyz !== 404) return { health: 'unready', via: 'readyz', status: readyz };
    const api = await get('/api/smart_cards');
    return { health: api < 500 ? 'ready' : 'unready', via: 'fallback', status: api };
  } catch {
    return { health: 'down', via: null, status: null };
  }
}

export class Instance {
  readonly name: InstanceName;
  readonly port: number;
  private readonly env: NodeJS.ProcessEnv;
  readonly logPath: string;
  private readonly now: () => number;
  private readonly cwd: string;
  readonly exits: ExitRecord[] = [];
  // Where each run's output begins in the log file.
  readonly starts: { at: number; pid: number; logOffset: number }[] = [];
  private child: ChildProcess | null = null;
  private expectingExit = false;
  private exitWaiters: ((exit: ExitRecord) => void)[] = [];

  constructor(
    name: InstanceName,
    port: number,
    env: NodeJS.ProcessEnv,
    logPath: string,
    now: () => number,
    cwd: string,
  ) {
    this.name = name;
    this.port = port;
    this.env = env;
    this.logPath = logPath;
    this.now = now;
    this.cwd = cwd;
  }

  get isRunning(): boolean {
    return this.child !== null;
  }

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  start(): void {
    if (this.child !== null) throw new Error(`instance ${this.name} is already running`);
    let logOffset = 0;
    try {
      logOffset = statSync(this.logPath).size;
    } catch {
      // No log yet.
    }
    const log = openSync(this.logPath, 'a');
    const child = spawn(process.execPath, ['server/start.mjs'], {
      cwd: this.cwd,
      env: this.env,
      stdio: ['ignore', log, log],
    });
    closeSync(log);
    const pid = child.pid ?? -1;
    this.child = child;
    this.expectingExit = false;
    this.starts.push({ at: this.now(), pid, logOffset });
    child.once('exit', (code, signal) => {
      const exit: ExitRecord = { at: this.now(), pid, code, signal, expected: this.expectingExit };
      this.exits.push(exit);
      this.child = null;
      const waiters = this.exitWaiters;
      this.exitWaiters = [];
      for (const resolve of waiters) resolve(exit);
    });
  }

  private waitExit(timeoutMs: number): Promise<ExitRecord | null> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(null), timeoutMs);
      this.exitWaiters.push((exit) => {
        clearTimeout(timer);
        resolve(exit);
      });
    });
  }

  /** SIGTERM, as an orchestrator stops a container; answers the exit, or null if it outlived `limitMs`. */
  async terminate(limitMs: number): Promise<ExitRecord | null> {
    const child = this.child;
    if (child === null) return null;
    this.expectingExit = true;
    const exited = this.waitExit(limitMs);
    child.kill('SIGTERM');
    return exited;
  }

  /** The end of the test: SIGTERM, then SIGKILL whatever is left after 12 s. */
  async stop(): Promise<void> {
    const child = this.child;
    if (child === null) return;
    const exit = await this.terminate(12_000);
    if (exit === null) {
      child.kill('SIGKILL');
      await this.waitExit(5_000);
    }
  }

  /** At the driver's exit, whatever state it is in. */
  kill(): void {
    this.child?.kill('SIGKILL');
  }

  /** Waits until the probe says ready; answers the last probe (health ready, or what it was at the end). */
  async waitReady(timeoutMs: number): Promise<Probe> {
    const deadline = this.now() + timeoutMs;
    let last: Probe = { health: 'down', via: null, status: null };
    while (this.now() < deadline) {
      if (this.child === null) return last;
      last = await probe(this.port);
      if (last.health === 'ready') return last;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return last;
  }

  /**
   * What the run that began at `startIndex` said about its end: its error lines (an unhandled 'error'
   * event prints the error and the emitter), or its last lines when there are none.
   */
  crashReport(startIndex: number): string {
    const start = this.starts[startIndex];
    const next = this.starts[startIndex + 1];
    let text: string;
    try {
      text = readFileSync(this.logPath)
        .subarray(start?.logOffset ?? 0, next?.logOffset)
        .toString('utf8');
    } catch {
      return '(no log)';
    }
    const lines = text.trimEnd().split('\n');
    // Node prints an uncaught error and its emitter from the first column; pino's errors are levels 50/60.
    const errors = lines.filter((line) =>
      /^(\w*Error\b|error:|Emitted 'error' event on|Paraph could not start)|^\{.*"level":(50|60)/.test(line),
    );
    const picked = errors.length > 0 ? [...new Set(errors)].slice(0, 6) : lines.slice(-8);
    return picked.map((line) => line.slice(0, 300)).join('\n');
  }

  logTail(lines: number): string {
    try {
      const text = readFileSync(this.logPath, 'utf8').trimEnd().split('\n');
      return text.slice(-lines).join('\n');
    } catch {
      return '(no log)';
    }
  }
}
