// Once per test run: one anvil per vitest worker with our contracts deployed (same addresses on
// each, as the deployer's nonces are the same), and a clean PostgreSQL schema when
// TEST_DATABASE_URL is set. Each worker finds its chain by VITEST_POOL_ID.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startLocalChain } from '../../lib/chain/local-chain';
import { TEST_WORKERS } from '../../vitest.config';
import { ANVIL_BASE_PORT } from './ports';

declare module 'vitest' {
  export interface ProvidedContext {
    contracts: { passport: string; escrow: string; rewardToken: string };
    /** A migrated PGlite data directory each test file copies, instead of running initdb (~15 s) itself. */
    pgliteTemplate: string;
  }
}

async function resetPostgres(url: string) {
  const { default: postgres } = await import('postgres');
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  await sql.unsafe('drop schema if exists public cascade; drop schema if exists drizzle cascade; create schema public;');
  await sql.end();
}

async function migratedPgliteTemplate(): Promise<string> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const dir = join(mkdtempSync(join(tmpdir(), 'taskmarket-template-')), 'pglite');
  const client = await PGlite.create(dir);
  await migrate(drizzle(client), { migrationsFolder: join(process.cwd(), 'drizzle') });
  await client.close();
  return dir;
}

export default async function setup(project: TestProject) {
  if (process.env.TEST_DATABASE_URL) await resetPostgres(process.env.TEST_DATABASE_URL);
  const template = await migratedPgliteTemplate();
  project.provide('pgliteTemplate', template);
  const chains = await Promise.all(
    Array.from({ length: TEST_WORKERS + 1 }, (_, i) => startLocalChain({ port: ANVIL_BASE_PORT + i })),
  );
  const contracts = chains[0]!.contracts;
  if (chains.some((chain) => chain.contracts.passport !== contracts.passport)) throw new Error('anvil deployments differ');
  project.provide('contracts', contracts);
  return async () => {
    await Promise.all(chains.map((chain) => chain.stop()));
    rmSync(dirname(template), { recursive: true, force: true });
  };
}
