import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Two cores: two workers, each with its own anvil (tests/support/global-setup.ts).
export const TEST_WORKERS = 2;

export default defineConfig({
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('.', import.meta.url)),
      // Next.js guards server modules with "server-only"; outside Next it is an empty module.
      'server-only': fileURLToPath(new URL('./tests/support/server-only.ts', import.meta.url)),
    },
  },
  test: {
    include: [
      'tests/unit/**/*.test.ts',
      'tests/integration/**/*.test.ts',
      'tests/contracts/**/*.test.ts',
      'tests/fuzz/**/*.test.ts',
      'tests/sdk/**/*.test.ts',
      // What only a PostgreSQL server has (a statement timeout): part of the suite where one is named.
      ...(process.env.TEST_DATABASE_URL ? ['tests/postgres/**/*.test.ts'] : []),
    ],
    globalSetup: ['tests/support/global-setup.ts'],
    pool: 'forks',
    maxWorkers: TEST_WORKERS,
    // The fuzz properties run thousands of cases in one test; two cores shared with anvil need room.
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
});
