// bench/pdf-limits: one hostile or heavy upload at a time through the real server (a child process), while
// the document list is kept busy with autocannon. For each, the growth of the server's memory (its RSS plus
// its PDF sandbox processes', sampled every 50 ms) and the list's p99 against its idle p99 on the same
// server, as ratios to the budget: at most 300 MB of growth, and a p99 within 2x the idle one. The p99 is
// over the whole processing (one load run from the upload until the document is no longer processing),
// measured the way the idle one is, in a process of its own (bench/load-process.mjs).
// Uploads: a 4 GiB inflate bomb, a 10,000-page PDF (refused by PARAPH_MAX_PAGES), one of 1,000 pages (just
// at the limit: rendered a few pages per turn) and a page with a 34862x4332 soft mask.
import { fork } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Options, Result } from 'autocannon';
import { multipartForm, storageFormFields, type UploadAttributes } from '../tests/api/storage-form.ts';
import { makeInflateBombPdf, makePdf, makeSoftMaskPdf } from '../tests/fixtures/pdfs.ts';
import { signInForApi } from './browser.ts';
import { mib, ms, ratio, round, type Bench, type BenchResult, type Cell } from './report.ts';
import { createBenchUser, makeDataDir, startServer } from './server-process.ts';

const MIB = 1024 * 1024;
const GROWTH_BUDGET_BYTES = 300 * MIB;
const P99_BUDGET = 2;
const SAMPLE_MS = 50;
const POLL_MS = 250;
const IDLE_SECONDS = 6;
const CONNECTIONS = 4;
// The 1,000-page document takes minutes; the measurement stops here and says so.
const PROCESSING_LIMIT_MS = 10 * 60 * 1000;
const USER = { email: 'limits@example.test', fullName: 'Lim Its', password: 'bench-password-not-secret' };

type Case = { key: string; label: string; make: () => Promise<Buffer> };

const ALL_CASES: Case[] = [
  {
    key: 'bomb',
    label: 'inflate bomb (4 GiB in one content stream)',
    make: () => makeInflateBombPdf({ pages: 2, page: 1, inflatedBytes: 4 * 1024 * MIB }),
  },
  {
    key: 'pages10000',
    label: '10,000 pages (over PARAPH_MAX_PAGES)',
    make: () => makePdf({ pages: 10_000 }),
  },
  { key: 'pages1000', label: '1,000 pages (at PARAPH_MAX_PAGES)', make: () => makePdf({ pages: 1_000 }) },
  {
    key: 'softMask',
    label: 'one page, 34862x4332 soft mask',
    make: () => makeSoftMaskPdf({ width: 34_862, height: 4_332 }),
  },
];

function rssOf(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'latin1'));
    return match?.[1] === undefined ? 0 : Number(match[1]) * 1024;
  } catch {
    return 0;
  }
}

// The server and every process it started (the PDF sandboxes), found by their parent ids.
function treeRss(rootPid: number): number {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(entry), Number(fields[1]));
    } catch {
      // Gone meanwhile.
    }
  }
  const tree = new Set([rootPid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, parent] of parents) {
      if (tree.has(parent) && !tree.has(pid)) {
        tree.add(pid);
        grew = true;
      }
    }
  }
  let total = 0;
  for (const pid of tree) total += rssOf(pid);
  return total;
}

// The upload dialog's three requests; answers createDocument's status and the document id, if any.
async function upload(
  origin: string,
  token: string,
  pdf: Buffer,
): Promise<{ status: number; id: string | null }> {
  const auth = { authorization: `Bearer ${token}` };
  const requested = await fetch(`${origin}/api/upload_requests`, { method: 'POST', headers: auth });
  const attributes = ((await requested.json()) as { data: { attributes: UploadAttributes } }).data.attributes;
  const { payload, headers } = multipartForm([...storageFormFields(attributes), ['file', pdf, 'bench.pdf']]);
  const stored = await fetch(new URL(attributes.url, origin), {
    method: 'POST',
    headers,
    body: new Uint8Array(payload),
  });
  if (stored.status !== 201) throw new Error(`the storage POST answered ${stored.status}`);
  const created = await fetch(`${origin}/api/documents`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({
      original_filename: 'bench.pdf',
      file_url: `${attributes.url}/${attributes.key}`,
      filename: attributes.key,
    }),
  });
  const body = (await created.json()) as { data?: { id?: string } };
  return { status: created.status, id: body.data?.id ?? null };
}

async function processing(origin: string, token: string, id: string): Promise<boolean> {
  const response = await fetch(`${origin}/api/documents/${id}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await response.json()) as { data: { attributes: { processing: boolean } } };
  return body.data.attributes.processing;
}

type ListLoad = { result: Promise<Result>; stop(): void };

// The list kept busy for up to `seconds`, or until stopped.
function listLoad(origin: string, token: string, seconds: number): ListLoad {
  const options: Options = {
    url: `${origin}/api/documents/active`,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { authorization: `Bearer ${token}` },
  };
  const child = fork(new URL('./load-process.mjs', import.meta.url), [], { execArgv: [] });
  child.send(options);
  const result = new Promise<Result>((resolve, reject) => {
    child.once('message', (message: { result?: Result; error?: string }) => {
      if (message.result === undefined) reject(new Error(`autocannon failed: ${message.error}`));
      else resolve(message.result);
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the load process exited with ${code}`)));
  });
  return { result, stop: () => child.send('stop') };
}

// PARAPH_BENCH_PDF_CASES=bomb,softMask measures only those (a run of all of them takes minutes).
const CASES = ((): Case[] => {
  const wanted = process.env.PARAPH_BENCH_PDF_CASES?.split(',').map((key) => key.trim());
  if (wanted === undefined || wanted.join('') === '') return ALL_CASES;
  const unknown = wanted.filter((key) => !ALL_CASES.some((item) => item.key === key));
  if (unknown.length > 0) throw new Error(`Unknown PDF case ${unknown.join(', ')}`);
  return ALL_CASES.filter((item) => wanted.includes(item.key));
})();

type Measured = {
  status: number;
  growth: number;
  p99: number;
  idleP99: number;
  seconds: number;
  finished: boolean;
};

async function measureCase(item: Case): Promise<Measured> {
  const pdf = await item.make();
  const dataDir = await makeDataDir('pdf-limits');
  await createBenchUser(dataDir, USER);
  const server = await startServer({ dataDir, demo: false });
  try {
    const token = await signInForApi(server.origin, USER.email, USER.password);
    // The sandboxes start with the first upload; a small one warms both before the baseline.
    const warm = await upload(server.origin, token, await makePdf({ pages: 1 }));
    while (warm.id !== null && (await processing(server.origin, token, warm.id))) await sleep(200);
    const idle = await listLoad(server.origin, token, IDLE_SECONDS).result;
    const baseline = treeRss(server.pid);
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, treeRss(server.pid));
    }, SAMPLE_MS);
    const startedAt = performance.now();
    let finished = false;
    let status = 0;
    // One load run spans the whole processing, so that its p99 is the list's p99 while the upload is
    // processed, comparable with the idle run's.
    const load = listLoad(server.origin, token, PROCESSING_LIMIT_MS / 1000);
    let p99 = 0;
    try {
      const created = await upload(server.origin, token, pdf);
      status = created.status;
      finished = created.id === null;
      while (!finished && created.id !== null && performance.now() - startedAt < PROCESSING_LIMIT_MS) {
        finished = !(await processing(server.origin, token, created.id));
        if (!finished) await sleep(POLL_MS);
      }
    } finally {
      load.stop();
      p99 = (await load.result).latency.p99;
      clearInterval(sampler);
    }
    return {
      status,
      growth: peak - baseline,
      p99,
      idleP99: idle.latency.p99,
      seconds: (performance.now() - startedAt) / 1000,
      finished,
    };
  } finally {
    await server.stop();
  }
}

async function measure(): Promise<BenchResult> {
  const rows: Cell[][] = [];
  const metrics: Record<string, number> = {};
  const notes: string[] = [];
  for (const item of CASES) {
    const result = await measureCase(item);
    const p99Multiple = result.p99 / Math.max(result.idleP99, 1);
    rows.push([
      item.label,
      result.status,
      `${result.seconds.toFixed(0)} s${result.finished ? '' : ' (cut off)'}`,
      mib(result.growth),
      ratio(result.growth / GROWTH_BUDGET_BYTES),
      ms(result.idleP99),
      ms(result.p99),
      ratio(p99Multiple / P99_BUDGET),
    ]);
    metrics[`${item.key}GrowthMB`] = round(result.growth / MIB);
    metrics[`${item.key}GrowthBudgetRatio`] = round(result.growth / GROWTH_BUDGET_BYTES);
    metrics[`${item.key}IdleP99Ms`] = result.idleP99;
    metrics[`${item.key}P99Ms`] = result.p99;
    metrics[`${item.key}P99BudgetRatio`] = round(p99Multiple / P99_BUDGET);
    if (!result.finished)
      notes.push(`${item.label}: still processing after ${PROCESSING_LIMIT_MS / 60_000} min`);
  }
  notes.push(
    'growth: peak RSS of the server and its sandbox processes minus the idle value, after a warm-up upload',
    'ratios are against the budget (300 MB; p99 within 2x idle): at most 1.00x is within it',
    'autocannon measures latency in whole milliseconds',
  );
  return {
    name: 'pdf-limits',
    title: 'PDF limits: memory and list latency while one heavy upload is processed',
    tables: [
      {
        title: `GET /api/documents/active under autocannon (${CONNECTIONS} connections) during each upload`,
        columns: [
          'upload',
          'createDocument',
          'processed in',
          'growth',
          'growth / 300 MB',
          'idle p99',
          'p99',
          'p99 ratio / 2x',
        ],
        rows,
      },
    ],
    metrics,
    notes,
    problems: [],
  };
}

export const pdfLimitsBench: Bench = {
  name: 'pdf-limits',
  title: 'PDF limits (memory, list p99)',
  run: measure,
};
