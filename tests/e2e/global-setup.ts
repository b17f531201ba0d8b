// Starting and stopping the real server for the browser tests, and the runner's checks before any starts:
// each journey worker starts one of its own (tests/e2e/fixtures.ts), QA's replayed paths one per file.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { E2E_CHROMIUM } from '../../playwright.config.ts';
import { startMailbox } from './mailbox.ts';
import { STATE_FILE } from './server-state.ts';

/** Where the geocoder stand-in says the browser's faked position is (tests/e2e/signing.spec.ts). */
export const GEOCODED_CITY = 'Utrecht';

// A reverse-geocoding service of our own, answering like Nominatim (`address.city`), so the sign screen's
// locate-me button runs its real request from the browser without reaching the internet. It lives as long
// as the runner process.
export async function startGeocoder(): Promise<string> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://geocoder.invalid');
    const known = url.pathname === '/reverse' && url.searchParams.get('lat') !== null;
    res.writeHead(known ? 200 : 404, {
      'content-type': 'application/json',
      'access-control-allow-origin': '*',
    });
    res.end(JSON.stringify(known ? { address: { city: GEOCODED_CITY, country: 'Nederland' } } : {}));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  const { port } = server.address() as AddressInfo;
  return `http://127.0.0.1:${port}/reverse?format=json&lat={lat}&lon={lon}`;
}

export type E2eServer = { url: string; pid: number; dataDir: string };

/**
 * The real server on a free port with a fresh data folder (the demo accounts and documents) and a
 * geocoder stand-in: each journey worker has one for the files it runs (tests/e2e/fixtures.ts), and QA's
 * replayed paths one per file (tests/e2e/model-paths/private-server.ts), so no two workers share data.
 */
export async function startE2eServer(
  smtpUrl = process.env.PARAPH_E2E_SMTP_URL,
  demoData = process.env.PARAPH_E2E_DEMO_DATA,
): Promise<E2eServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'paraph-e2e-'));
  // A copy of the demo data the global setup seeded once (below), rather than seeding again: seeding
  // signs documents and draws their pages, 10 of the 16 CPU seconds a server's start took.
  if (demoData) cpSync(demoData, dataDir, { recursive: true });
  const geocoderUrl = await startGeocoder();
  const child = spawn(process.execPath, ['server/start.mjs'], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      PARAPH_DATA_DIR: dataDir,
      PARAPH_DEMO: '1',
      PARAPH_GEOCODER_URL: geocoderUrl,
      // A mail server of the tests' own (tests/e2e/mailbox.ts): the journey worker's, or the runner's.
      ...(smtpUrl ? { SMTP_URL: smtpUrl } : {}),
      // The workspace journey makes its 45 documents through the API in well under a minute.
      PARAPH_UPLOAD_GRANTS_PER_MINUTE: '1000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  // Seeding the demo signs documents: beside three other servers starting at once on two cores it has
  // taken more than a minute (the demo data seeded once, below, spares the journeys' servers that).
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      // A server that never started must not outlive the attempt, seeding and holding a port.
      child.kill('SIGKILL');
      reject(new Error(`server did not start in 180 s:\n${output}`));
    }, 180_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Paraph is running at (http:\/\/[^\s]+)\/app\//.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  child.stdout.removeAllListeners('data');
  child.stderr.removeAllListeners('data');
  // Keep draining so the server never blocks on a full pipe.
  child.stdout.resume();
  child.stderr.resume();
  if (child.pid === undefined) throw new Error('the server has no pid');
  return { url, pid: child.pid, dataDir };
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: there, but not ours to signal; ESRCH: gone (this process reaps its own children).
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the process `pid` has exited within `ms`, looked at every 50 ms. */
async function exitsWithin(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (isRunning(pid)) {
    if (Date.now() >= deadline) return false;
    await sleep(50);
  }
  return true;
}

/**
 * Stops a server that startE2eServer started and returns once its process is gone, so that its data
 * folder can go: SIGTERM, on which it drains, closes its database and exits, after 10 s at the latest
 * (PARAPH_SHUTDOWN_TIMEOUT_MS). One still running 15 s later is killed, and that is an error: its
 * shutdown hangs.
 */
export async function stopE2eServer(pid: number): Promise<void> {
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return; // already gone
  }
  if (await exitsWithin(pid, 15_000)) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    return; // gone just now
  }
  await exitsWithin(pid, 5_000);
  throw new Error(`the server (pid ${pid}) had not exited 15 s after SIGTERM: killed`);
}

/** The sum of a Prometheus gauge's samples whose labels match `labels` (the server's GET /metrics). */
function gaugeSum(metrics: string, name: string, labels: RegExp): number {
  let sum = 0;
  for (const line of metrics.split('\n')) {
    const match = new RegExp(`^${name}\\{([^}]*)\\} (\\S+)$`).exec(line);
    if (match && labels.test(match[1] ?? '')) sum += Number(match[2]);
  }
  return sum;
}

/**
 * Seeds the demo once for every server of the run: a server seeds a fresh folder, draws its documents'
 * pages and hands its messages on, then stops; each server of the run starts on a copy of that folder
 * (startE2eServer), as a fresh one would after its own seeding, ids and CA included.
 */
async function seedDemoData(): Promise<string> {
  const server = await startE2eServer('', '');
  try {
    const deadline = Date.now() + 120_000;
    for (;;) {
      // The server inherits this process's settings: a metrics token there is asked for here too.
      const token = process.env.PARAPH_METRICS_TOKEN?.trim();
      const metrics = await (
        await fetch(`${server.url}/metrics`, token ? { headers: { authorization: `Bearer ${token}` } } : {})
      ).text();
      if (!metrics.includes('paraph_jobs{')) throw new Error(`no job counts in the metrics:\n${metrics}`);
      const waiting =
        gaugeSum(metrics, 'paraph_jobs', /state="(queued|running)"/) +
        gaugeSum(metrics, 'paraph_mail_queue', /state="(queued|sending)"/);
      if (waiting === 0) break;
      if (Date.now() > deadline) throw new Error(`the demo's background work did not end:\n${metrics}`);
      await sleep(200);
    }
  } catch (error) {
    await stopE2eServer(server.pid);
    rmSync(server.dataDir, { recursive: true, force: true });
    throw error;
  }
  await stopE2eServer(server.pid);
  return server.dataDir;
}

export default async function globalSetup(): Promise<void> {
  if (!existsSync(E2E_CHROMIUM)) {
    throw new Error(
      `Chromium is missing at ${E2E_CHROMIUM}: install it with "apt-get install -y chromium-headless-shell".`,
    );
  }
  if (!existsSync('dist/index.html') && !process.env.PARAPH_APP_DIR) {
    throw new Error('The app is not built: run "npm run build" first (npm test does it).');
  }
  // Where the replayed paths' servers send mail; the workers inherit the variable. A journey worker
  // starts a mail server of its own with its server, whose mailbox its journeys read.
  const mailbox = path.resolve(`test-results/e2e-mailbox-${process.pid}`);
  process.env.PARAPH_E2E_SMTP_URL = await startMailbox(mailbox);
  const demoData = await seedDemoData();
  process.env.PARAPH_E2E_DEMO_DATA = demoData;
  mkdirSync(path.dirname(STATE_FILE), { recursive: true });
  writeFileSync(STATE_FILE, JSON.stringify({ mailbox, demoData }));
}
