// Once per test run: one anvil per vitest worker with our contracts deployed (same addresses on
// each, as the deployer's nonces are the same), and — when TEST_DATABASE_URL is set — a database
// of this run's own on that server, so concurrent runs never see each other's rows. Each worker
// finds its chain by VITEST_POOL_ID.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startLocalChain } from '../../lib/chain/local-chain';
import { TEST_WORKERS } from '../../vitest.config';
import { startUpstashBridge } from './upstash-bridge';

declare module 'vitest' {
  export interface ProvidedContext {
    contracts: {
      passport: string;
      escrow: string;
      rewardToken: string;
      identityRegistry: string;
      reputationRegistry: string;
    };
    /** A migrated PGlite data directory each test file copies, instead of running initdb (~15 s) itself. */
    pgliteTemplate: string;
    /** One anvil per worker, indexed by VITEST_POOL_ID. */
    rpcUrls: string[];
    /** This run's own PostgreSQL databases, one per worker (none when the suites run on PGlite). */
    databaseUrls: string[];
    /** TEST_KV=vercel: the Upstash REST stand-in the suites reach through @vercel/kv. */
    kvRest: { url: string; token: string } | null;
  }
}

/** Creates a fresh database beside the one TEST_DATABASE_URL names; answers its URL and its removal. */
async function runDatabase(serverUrl: string) {
  const { default: postgres } = await import('postgres');
  const name = `taskmarket_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const drop = async () => {
    const sql = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await sql.unsafe(`drop database if exists ${name} with (force)`);
    await sql.end();
  };
  return { url: url.toString(), drop };
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
  // One database per worker, like its anvil: on-chain task ids are unique per chain, and so is their link to missions.
  const server = process.env.TEST_DATABASE_URL;
  const databases = server
    ? await Promise.all(Array.from({ length: TEST_WORKERS + 1 }, () => runDatabase(server)))
    : [];
  project.provide(
    'databaseUrls',
    databases.map((database) => database.url),
  );
  const bridge =
    process.env.TEST_KV === 'vercel'
      ? await startUpstashBridge(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379')
      : undefined;
  project.provide('kvRest', bridge ? { url: bridge.url, token: bridge.token } : null);
  const template = await migratedPgliteTemplate();
  project.provide('pgliteTemplate', template);
  const chains = await Promise.all(Array.from({ length: TEST_WORKERS + 1 }, () => startLocalChain()));
  const contracts = chains[0]!.contracts;
  if (chains.some((chain) => chain.contracts.passport !== contracts.passport))
    throw new Error('anvil deployments differ');
  project.provide('contracts', contracts);
  project.provide(
    'rpcUrls',
    chains.map((chain) => chain.rpcUrl),
  );
  return async () => {
    await Promise.all(chains.map((chain) => chain.stop()));
    rmSync(dirname(template), { recursive: true, force: true });
    await Promise.all(databases.map((database) => database.drop()));
    await bridge?.close();
  };
}
