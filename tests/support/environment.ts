// Per test file: a configuration of its own through the real environment path — a temporary
// DATA_DIR (PGlite) or TEST_DATABASE_URL, memory or TEST_REDIS_URL under a unique key prefix,
// this worker's anvil and contracts, and fresh secrets.
import { randomBytes, randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, inject } from 'vitest';
import { resetConfig } from '@/lib/config';
import { closeDb } from '@/lib/db/client';
import { closeKv } from '@/lib/kv';
import { ANVIL_KEYS } from '@/lib/chain/anvil-node';
import { workerRpcUrl } from './ports';

export const TEST_CHAIN_ID = 31337;

/**
 * Bookkeeping mode (docs/api.md#missions): no ESCROW_ADDRESS, so missions need no on-chain funding. Suites
 * about mission rules use it; tests/integration/escrow-*.test.ts run the same flows funded on-chain.
 */
export const BOOKKEEPING = { ESCROW_ADDRESS: undefined };
export const TEST_DOMAIN = 'app.example.com';

/** Sets this file's environment; later calls change single settings (and reset the parsed config). */
export function setEnv(overrides: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(overrides)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetConfig();
}

export function useTestEnvironment(overrides: Record<string, string | undefined> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'taskmarket-test-'));
  const contracts = inject('contracts');
  const databases = inject('databaseUrls');
  const kvRest = inject('kvRest');
  const databaseUrl = databases[Number(process.env.VITEST_POOL_ID ?? '0') % Math.max(1, databases.length)];
  if (!databaseUrl) cpSync(inject('pgliteTemplate'), join(dataDir, 'pglite'), { recursive: true });
  setEnv({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    // TEST_KV=vercel: the Vercel KV driver over the Upstash REST stand-in; else Redis or memory.
    REDIS_URL: kvRest ? undefined : process.env.TEST_REDIS_URL,
    KV_REST_API_URL: kvRest?.url,
    KV_REST_API_TOKEN: kvRest?.token,
    KV_PREFIX: `test:${randomUUID()}:`,
    JWT_SECRET: randomBytes(32).toString('hex'),
    SESSION_SECRET: randomBytes(32).toString('hex'),
    BASE_CHAIN_ID: String(TEST_CHAIN_ID),
    SIWE_DOMAIN: `${TEST_DOMAIN},localhost:3000`,
    RPC_URL: workerRpcUrl(),
    REGISTRAR_PRIVATE_KEY: ANVIL_KEYS[0],
    PASSPORT_ADDRESS: contracts.passport,
    ESCROW_ADDRESS: contracts.escrow,
    REWARD_TOKEN_ADDRESS: contracts.rewardToken,
    ERC8004_IDENTITY_ADDRESS: contracts.identityRegistry,
    ERC8004_REPUTATION_ADDRESS: contracts.reputationRegistry,
    MINT_WAIT_MS: '10000',
    TRUST_PROXY: '0',
    CRON_SECRET: 'test-cron-secret-0123456789abcdef',
    ADMIN_TOKEN: 'test-admin-token-0123456789abcdef',
    // Suites share one agent across many missions for speed; tests/integration/agent-capacity.test.ts
    // holds the default of 3 (docs/api.md#agent-capacity).
    MAX_ACTIVE_MISSIONS: '1000',
    ...overrides,
  });
  afterAll(async () => {
    await closeDb();
    await closeKv();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return { dataDir, contracts };
}
