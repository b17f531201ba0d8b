import { configDefaults, defineConfig } from 'vitest/config';

// Tests of what only PostgreSQL does (dropped connections, the start lock) are named *.pg.test.ts and run
// when TEST_DATABASE_URL names a database (scripts/pg-test.sh); on SQLite they are not collected at all,
// rather than reported as skipped.
const hasPostgres = (process.env.TEST_DATABASE_URL?.trim() ?? '') !== '';

// Browser journeys live in tests/e2e and run under Playwright, not here.
export default defineConfig({
  test: {
    // Vitest's default: one less than the CPUs, a single worker on this project's 2-CPU machines. Two
    // workers took the suite from 245 s to 176 s, but view tests then waited over 5 s for a Fluent dialog
    // and failed in CI when the machine was also busy (tests/views/setup.ts now waits up to 10 s).
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['tests/machines/**/*.test.ts', 'tests/api/**/*.test.ts', 'tests/scripts/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...(hasPostgres ? [] : ['tests/api/**/*.pg.test.ts'])],
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
          setupFiles: ['tests/views/setup.ts'],
          testTimeout: 30_000,
        },
      },
    ],
  },
});
