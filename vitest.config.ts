import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Browser journeys live in tests/e2e and run under Playwright, not here.
export default defineConfig({
  test: {
    // Vitest's default (one less than the CPUs) is a single worker on this project's 2-CPU machines, which
    // left a CPU idle while files import their modules: two workers take the suite from 245 s to 175 s.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['tests/machines/**/*.test.ts', 'tests/api/**/*.test.ts', 'tests/scripts/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
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
