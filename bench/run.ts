// `npm run bench [bundle|api|api-1m|upload|list|viewer|concurrency ...]`: runs the benchmarks one after the
// other (all of them but the long ones, such as api-1m, when none is named), prints their tables and
// writes test-results/bench.json; a benchmark run alone replaces its own entry there and keeps the others.
// Exits non-zero when a benchmark breaks a rule (pdfjs or Konva on the list's path) or cannot run; a
// budget missed is printed with its ratio: a number to look at, not a failure.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { apiBench, apiLargeBench } from './api.ts';
import { bundleBench } from './bundle.ts';
import { concurrencyBench } from './concurrency.ts';
import { lighthouseBench } from './lighthouse.ts';
import { listPagingBench } from './list-paging.ts';
import { pdfLimitsBench } from './pdf-limits.ts';
import { placementBench } from './placement.ts';
import { formatTable, type Bench, type BenchResult } from './report.ts';
import { ROOT_DIR } from './server-process.ts';
import { signEngineBench } from './sign-engine.ts';
import { signingBench } from './signing.ts';
import { uploadBench } from './upload.ts';
import { viewerBench } from './viewer.ts';

const BENCHES: Bench[] = [
  bundleBench,
  apiBench,
  apiLargeBench,
  uploadBench,
  listPagingBench,
  viewerBench,
  concurrencyBench,
  placementBench,
  signingBench,
  signEngineBench,
  pdfLimitsBench,
  lighthouseBench,
];
const OUTPUT = path.join(ROOT_DIR, 'test-results', 'bench.json');

function selected(names: string[]): Bench[] {
  if (names.length === 0) return BENCHES.filter((bench) => bench.onlyWhenNamed !== true);
  const unknown = names.filter((name) => !BENCHES.some((bench) => bench.name === name));
  if (unknown.length > 0) {
    throw new Error(
      `Unknown benchmark ${unknown.join(', ')}; choose from ${BENCHES.map((bench) => bench.name).join(', ')}`,
    );
  }
  return BENCHES.filter((bench) => names.includes(bench.name));
}

type StoredResult = { name: string } & Record<string, unknown>;

async function previousResults(): Promise<StoredResult[]> {
  try {
    const stored = JSON.parse(await readFile(OUTPUT, 'utf8')) as { results?: unknown };
    if (!Array.isArray(stored.results)) return [];
    return stored.results.filter(
      (entry): entry is StoredResult =>
        typeof entry === 'object' &&
        entry !== null &&
        typeof (entry as { name?: unknown }).name === 'string' &&
        BENCHES.some((bench) => bench.name === (entry as { name: string }).name),
    );
  } catch {
    return [];
  }
}

function print(result: BenchResult, seconds: number): void {
  console.log(`\n== ${result.name}: ${result.title} (${seconds.toFixed(1)} s)`);
  for (const table of result.tables) console.log(`\n${formatTable(table)}`);
  if (result.notes.length > 0) console.log(`\n${result.notes.map((note) => `  note: ${note}`).join('\n')}`);
  for (const problem of result.problems) console.log(`  PROBLEM: ${problem}`);
}

async function main(): Promise<number> {
  const benches = selected(process.argv.slice(2));
  const results: (BenchResult & { seconds: number })[] = [];
  for (const bench of benches) {
    process.stderr.write(`bench: ${bench.name} (${bench.title})…\n`);
    const startedAt = performance.now();
    let result: BenchResult;
    try {
      result = await bench.run();
    } catch (error) {
      result = {
        name: bench.name,
        title: bench.title,
        tables: [],
        metrics: {},
        notes: [],
        problems: [
          `could not run: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
        ],
      };
    }
    const seconds = (performance.now() - startedAt) / 1000;
    print(result, seconds);
    results.push({ ...result, seconds: Math.round(seconds * 10) / 10 });
  }

  await mkdir(path.dirname(OUTPUT), { recursive: true });
  const machine = {
    node: process.version,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    totalMemoryBytes: os.totalmem(),
  };
  // A benchmark run on its own replaces only its own entry; each entry says when it was measured.
  const kept = (await previousResults()).filter(
    (entry) => !results.some((result) => result.name === entry.name),
  );
  const at = new Date().toISOString();
  const entries = [...kept, ...results.map((result) => ({ ...result, at, machine }))];
  entries.sort(
    (a, b) =>
      BENCHES.findIndex((bench) => bench.name === a.name) -
      BENCHES.findIndex((bench) => bench.name === b.name),
  );
  await writeFile(OUTPUT, `${JSON.stringify({ at, results: entries }, null, 2)}\n`);
  const failed = results.filter((result) => result.problems.length > 0);
  console.log(
    `\nWrote ${path.relative(ROOT_DIR, OUTPUT)}. ${failed.length === 0 ? 'No problems.' : `Problems in: ${failed.map((result) => result.name).join(', ')}.`}`,
  );
  return failed.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
