// Once per e2e run: a fresh anvil with our contracts, a production build, and the production
// server on PGlite in a temporary directory — or, with TEST_DATABASE_URL / TEST_REDIS_URL set, on a
// database of its own on that PostgreSQL and on that Redis (server-backends.ts), as CI runs it too. Tests find them
// through E2E_* variables (Playwright workers inherit the environment global setup leaves behind).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalChain } from '../../../lib/chain/local-chain';
import { startAppServer } from '../app-server';
import { freePort } from '../../../lib/chain/anvil-node';
import { ensureFreshBuild } from '../production-build';
import { serverBackends } from '../server-backends';

export default async function globalSetup() {
  await ensureFreshBuild();
  const chain = await startLocalChain({ port: await freePort() });
  const dataDir = mkdtempSync(join(tmpdir(), 'taskmarket-e2e-'));
  const backend = await serverBackends('e2e');
  // The operator's secret, fresh per run (docs/api.md#operator-secrets: 32 characters at least in production).
  const adminToken = randomBytes(24).toString('hex');
  let server;
  try {
    server = await startAppServer(await freePort(), chain, dataDir, { ...backend.env, ADMIN_TOKEN: adminToken });
  } catch (error) {
    await chain.stop();
    await backend.drop();
    throw error;
  }
  Object.assign(process.env, {
    E2E_BASE_URL: server.url,
    E2E_RPC_URL: chain.rpcUrl,
    E2E_CHAIN_ID: String(chain.chainId),
    E2E_ESCROW: chain.contracts.escrow,
    E2E_REWARD_TOKEN: chain.contracts.rewardToken,
    E2E_PASSPORT: chain.contracts.passport,
    E2E_SERVER_LOG: server.logFile,
    E2E_ADMIN_TOKEN: adminToken,
  });
  console.log(
    `e2e: server ${server.url} on ${backend.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'} + ` +
      `${backend.env.REDIS_URL ? 'Redis' : 'memory KV'} (log ${server.logFile}), anvil ` +
      `${chain.rpcUrl}`,
  );
  return async () => {
    await server.stop();
    await chain.stop();
    await backend.drop();
    if (!process.env.E2E_KEEP_DATA) rmSync(dataDir, { recursive: true, force: true });
  };
}
