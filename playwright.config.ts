import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

// Debian's Chromium, never a downloaded browser (downloads fail on these machines): its headless shell
// (`apt-get install chromium-headless-shell`) where installed, else the browser itself. The shell is the
// same Chromium release and Blink without the desktop browser around it; Playwright's own headless runs
// use it too. A journey cost 38 % less of the browser's CPU in it (docs/decisions.md, "CI: the browser").
// CHROMIUM_PATH names another.
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
export const E2E_CHROMIUM =
  process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results/e2e-artifacts',
  globalSetup: './tests/e2e/global-setup.ts',
  globalTeardown: './tests/e2e/global-teardown.ts',
  // The journeys three at a time, each worker on a server of its own (tests/e2e/fixtures.ts): a journey
  // mostly waits on the browser, about half a core. Beside them QA's replayed paths, one after the other
  // on servers of their own (tests/e2e/model-paths/private-server.ts).
  workers: 4,
  projects: [
    { name: 'journeys', testIgnore: 'model-paths/**', workers: 3 },
    { name: 'model-paths', testMatch: 'model-paths/**/*.spec.ts', workers: 1 },
  ],
  // A failed test runs once more, recording a trace (below); scripts/test.mjs still counts a test that
  // passed only then as failed.
  retries: 1,
  // A journey takes about 50 s on a quiet 2-core machine; beside the other project's browser and servers
  // it has taken over 90 s (seen with this code and the code before it). A passing wait returns as soon
  // as it passes, so the limits only decide how long a real failure takes to be reported.
  timeout: 180_000,
  expect: { timeout: 30_000 },
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e-report.json' }]],
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: E2E_CHROMIUM, args: CHROMIUM_ARGS },
    viewport: { width: 1280, height: 900 },
    // As a person who asked their system for less motion: the app's transitions (dialogs, row entrances,
    // the busy indicator) end at once or slow down, and the journeys' waits and pictures are of screens at
    // rest either way. Frames not drawn are the browser's CPU: 13 % of a journey's (workspace.spec.ts).
    reducedMotion: 'reduce',
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    // Recording a trace of every test was a third of the journeys' CPU (the browser streams a picture of
    // every frame it draws, and a DOM snapshot at every action, to the runner): 152 CPU s against 99 for
    // two spec files. Only the retry of a failed test records one, for test-results/e2e-artifacts.
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
  },
});
