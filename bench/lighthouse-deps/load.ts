// Lighthouse and chrome-launcher for bench/lighthouse only. They live in a package of their own here
// (package.json, package-lock.json), installed with `npm ci` the first time the benchmark runs: they are 157
// of the project's packages and 170 MB that no test, build or server needs, and every `npm ci` (CI's
// first minutes) wrote them. The types below are the parts of theirs the benchmark reads, written out so
// the project type-checks without them installed.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const DEPS_DIR = path.dirname(fileURLToPath(import.meta.url));
const LIGHTHOUSE_ENTRY = path.join(DEPS_DIR, 'node_modules', 'lighthouse', 'core', 'index.js');
const LAUNCHER_ENTRY = path.join(DEPS_DIR, 'node_modules', 'chrome-launcher', 'dist', 'index.js');

export type Flags = {
  port: number;
  logLevel: 'silent' | 'error' | 'info' | 'verbose';
  output: 'html' | 'json';
  onlyCategories: string[];
  disableStorageReset: boolean;
};

export type Audit = {
  id: string;
  title: string;
  score: number | null;
  scoreDisplayMode: string;
  displayValue?: string;
  numericValue?: number;
  details?: unknown;
  metricSavings?: { LCP?: number; FCP?: number; TBT?: number; CLS?: number; INP?: number };
};

export type Result = {
  lighthouseVersion: string;
  finalDisplayedUrl: string;
  runtimeError?: { code: string; message: string };
  categories: Record<
    string,
    { score: number | null; auditRefs: { id: string; weight: number }[] } | undefined
  >;
  audits: Record<string, Audit>;
};

export type Lighthouse = (
  url: string,
  flags: Flags,
) => Promise<{ lhr: Result; report: string | string[] } | undefined>;

export type LaunchedChrome = { port: number; kill(): void };

export type ChromeLauncher = {
  launch(options: { chromePath: string; chromeFlags: string[]; logLevel: 'silent' }): Promise<LaunchedChrome>;
};

/** Lighthouse and chrome-launcher, installed here first if they are not yet (the lockfile's versions). */
export async function loadLighthouse(
  notes: string[],
): Promise<{ lighthouse: Lighthouse; launcher: ChromeLauncher }> {
  if (!existsSync(LIGHTHOUSE_ENTRY) || !existsSync(LAUNCHER_ENTRY)) {
    process.stderr.write('lighthouse: installing it into bench/lighthouse-deps (npm ci, once)…\n');
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts'], {
      cwd: DEPS_DIR,
      stdio: 'inherit',
    });
    notes.push('Lighthouse was installed into bench/lighthouse-deps first (npm ci)');
  }
  const lighthouse = ((await import(pathToFileURL(LIGHTHOUSE_ENTRY).href)) as { default: Lighthouse })
    .default;
  const launcher = (await import(pathToFileURL(LAUNCHER_ENTRY).href)) as ChromeLauncher;
  return { lighthouse, launcher };
}
