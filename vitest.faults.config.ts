import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config';

// `npm run test:faults`: production instances of server.ts on real PostgreSQL, Redis and anvil,
// with those services stopped and started under load. One file at a time: each one owns
// processes, ports and load, and two cores are not enough for two such files side by side.
export default mergeConfig(
  { ...base, test: { ...base.test, include: [], globalSetup: [] } },
  defineConfig({
    test: {
      include: ['tests/faults/**/*.test.ts'],
      globalSetup: ['tests/support/faults/global-setup.ts'],
      maxWorkers: 1,
      fileParallelism: false,
      testTimeout: 120_000,
      hookTimeout: 120_000,
    },
  }),
);
