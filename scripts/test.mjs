#!/usr/bin/env node
// `npm test`: every test — machines, views and API under Vitest, and the browser journeys under Playwright
// against a fresh build, side by side. Ends with one plain "N passed, N failed" line over all of them.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

mkdirSync('test-results', { recursive: true });
const env = { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' };
const E2E_OUTPUT = 'test-results/e2e-output.txt';

function run(command, args) {
  console.log(`\n> ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { stdio: 'inherit', env });
  return result.status ?? 1;
}

// Resolves with the exit code; the output goes to the terminal, or to a file when one is named.
function start(command, args, outputFile) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      stdio: outputFile === undefined ? 'inherit' : ['ignore', 'pipe', 'pipe'],
      env,
    });
    if (outputFile !== undefined) {
      const file = createWriteStream(outputFile);
      child.stdout.pipe(file, { end: false });
      child.stderr.pipe(file, { end: false });
      child.on('close', (code) => file.end(() => resolve(code ?? 1)));
    } else {
      child.on('close', (code) => resolve(code ?? 1));
    }
  });
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

let passed = 0;
let failed = 0;
let exitCode = 0;

const browsers = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'];
const hasBrowser = browsers.some((browser) => existsSync(browser)) || Boolean(process.env.CHROMIUM_PATH);
let e2eRun = null;
if (!hasBrowser) {
  console.error('Browser tests need Chromium: apt-get install -y chromium-headless-shell');
  failed += 1;
  exitCode = 1;
} else {
  const buildCode = run('npx', ['vite', 'build', '--logLevel', 'warn']);
  if (buildCode !== 0) {
    failed += 1;
    exitCode = buildCode;
  } else {
    // The journeys run beside Vitest rather than after it: each leaves a core idle much of the time (a
    // test waiting for a server, a timer, a browser), and together they keep both busy. Their output comes
    // after Vitest's, from the file it is kept in.
    console.log(
      `\n> npx playwright test (beside Vitest; its output follows Vitest's, and is kept in ${E2E_OUTPUT})`,
    );
    e2eRun = start('npx', ['playwright', 'test'], E2E_OUTPUT);
  }
}

// At least two workers: Vitest's default, one less than the CPUs, is a single worker on a 2-CPU machine,
// where the suite then left a core idle (245 s in one worker, 176 s in two).
const vitestArgs = [
  'vitest',
  'run',
  `--maxWorkers=${Math.max(2, availableParallelism() - 1)}`,
  '--reporter=default',
  '--reporter=json',
  '--outputFile.json=test-results/vitest-report.json',
];
console.log(`\n> npx ${vitestArgs.join(' ')}`);
const vitestCode = await start('npx', vitestArgs);
const vitest = readJson('test-results/vitest-report.json');
if (vitest) {
  passed += vitest.numPassedTests ?? 0;
  failed += vitest.numFailedTests ?? 0;
}
if (vitestCode !== 0) exitCode = vitestCode;

if (e2eRun !== null) {
  const e2eCode = await e2eRun;
  console.log('\n> npx playwright test');
  process.stdout.write(readFileSync(E2E_OUTPUT));
  const e2e = readJson('test-results/e2e-report.json');
  if (e2e?.stats) {
    passed += e2e.stats.expected ?? 0;
    failed += (e2e.stats.unexpected ?? 0) + (e2e.stats.flaky ?? 0);
  } else if (e2eCode !== 0) {
    failed += 1;
  }
  if (e2eCode !== 0) exitCode = e2eCode;
  // A journey that failed and passed on its retry (playwright.config.ts retries once, to record a trace)
  // is a failure: Playwright itself exits 0 for it.
  else if ((e2e?.stats?.flaky ?? 0) > 0) exitCode = 1;
}

if (exitCode !== 0 && failed === 0) failed = 1;
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(exitCode);
