import { defineConfig } from 'vitest/config';

// Browser journeys live in tests/e2e and run under Playwright, not here.
export default defineConfig({
  test: {
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
