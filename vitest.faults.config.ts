import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// `npm run test:faults`: production instances of server.ts on real PostgreSQL, Redis and anvil,
// with those services stopped and started under load. One file at a time: each one owns
// processes, ports and load, and two cores are not enough for two such files side by side.
export default defineConfig({
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('.', import.meta.url)),
      'server-only': fileURLToPath(new URL('./tests/support/server-only.ts', import.meta.url)),
    },
  },
  test: {
    include: ['tests/faults/**/*.test.ts'],
    globalSetup: ['tests/faults/support/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
