import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

// Tests of what only PostgreSQL does (dropped connections, the start lock) are named *.pg.test.ts and run
// when TEST_DATABASE_URL names a database (scripts/pg-test.sh); on SQLite they are not collected at all,
// rather than reported as skipped.
const hasPostgres = (process.env.TEST_DATABASE_URL?.trim() ?? '') !== '';

// The PostgreSQL run (scripts/pg-test.sh) runs the API files that reach the database server: those that
// build a test app (helpers.ts's buildTestApp opens TEST_DATABASE_URL) or start a server with a
// DATABASE_URL, themselves or through a support module of theirs, and the PostgreSQL-only files. The rest (the PDF
// engine, the CA's cryptography, the rendering sandbox, migrations on a SQLite file) would only run again
// what the main run ran, now that it runs on every Node release. sqlite-driver.test.ts stays: the run's
// Node 20 is where better-sqlite3 loads.
const API_DIR = 'tests/api';
const REACHES_DATABASE_SERVER = /\bbuildTestApp\b|\bDATABASE_URL\b/;
function reachesDatabaseServer(file: string, seen = new Set<string>()): boolean {
  if (seen.has(file)) return false;
  seen.add(file);
  const text = readFileSync(path.join(API_DIR, file), 'utf8');
  if (REACHES_DATABASE_SERVER.test(text)) return true;
  const local = [...text.matchAll(/from '\.\/([\w.-]+\.ts)'/g)].map((match) => match[1] ?? '');
  // helpers.ts names buildTestApp by defining it: its other helpers (a row inserted into a file) do not.
  return local.some((support) => support !== 'helpers.ts' && reachesDatabaseServer(support, seen));
}
// Files about the PDF engine whose app only stores the documents they send through it, as the upload and
// signing files that do run on PostgreSQL store theirs: what they check (odd files, the sandbox's limits,
// verification reports) does not depend on the database, and they were a seventh of the run's time.
const PDF_ENGINE_TESTS = new Set([
  'odd-pdfs-upload.test.ts',
  'render-limits.test.ts',
  'render-max-pages.test.ts',
  'verification.test.ts',
  'verification-ltv.test.ts',
]);
const POSTGRES_API_TESTS = readdirSync(API_DIR)
  .filter((file) => file.endsWith('.test.ts'))
  .filter(
    (file) =>
      file.endsWith('.pg.test.ts') ||
      file === 'sqlite-driver.test.ts' ||
      (reachesDatabaseServer(file) && !PDF_ENGINE_TESTS.has(file)),
  )
  .map((file) => `${API_DIR}/${file}`);

// A file that replaces a module (vi.mock) needs modules of its own: pki-async-crypto.test.ts replaces
// node:crypto's key generation. The views have none: a view test passes its fakes in (props, a machine's
// provided actors, the composition's arguments), and sets a browser global (fetch) for itself only, given
// back in its afterAll, so every view file shares its worker's modules.
const ISOLATED_API_TESTS = ['tests/api/pki-async-crypto.test.ts'];

// Browser journeys live in tests/e2e and run under Playwright, not here.
export default defineConfig({
  test: {
    // Vitest's default: one less than the CPUs, a single worker on this project's 2-CPU machines. `npm test`
    // asks for two at least (scripts/test.mjs): 245 s in one worker, 176 s in two. View tests then once
    // waited over 5 s for a Fluent dialog on a busy machine; tests/views/setup.ts now waits up to 10 s.
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'tests/machines/**/*.test.ts',
            'tests/scripts/**/*.test.ts',
            ...ISOLATED_API_TESTS.filter((file) => !hasPostgres || POSTGRES_API_TESTS.includes(file)),
          ],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          setupFiles: ['tests/api/pg-worker-setup.ts'],
        },
      },
      {
        test: {
          name: 'api',
          environment: 'node',
          include: hasPostgres ? POSTGRES_API_TESTS : ['tests/api/**/*.test.ts'],
          exclude: [
            ...configDefaults.exclude,
            ...ISOLATED_API_TESTS,
            ...(hasPostgres ? [] : ['tests/api/**/*.pg.test.ts']),
          ],
          // The API files share their worker's modules instead of importing the server afresh for each
          // file (Fastify, the AWS SDK, pdf-lib, pdfjs: over a second per file, three suite runs in CI).
          // Each file builds its own app, database and store, so nothing of one reaches the next.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
          setupFiles: ['tests/api/pg-worker-setup.ts'],
        },
      },
      {
        esbuild: { jsx: 'automatic' },
        test: {
          name: 'views',
          environment: 'jsdom',
          include: ['tests/views/**/*.test.tsx'],
          // One jsdom and one import of React, Fluent UI and the app per worker rather than per file: the
          // imports and the environment were half of the views' time. setup.ts unmounts after each test.
          isolate: false,
          setupFiles: ['tests/views/setup.ts'],
          testTimeout: 30_000,
        },
      },
    ],
  },
});
