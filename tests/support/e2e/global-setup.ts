// Once per e2e run: a fresh anvil with our contracts, a production build, and the production
// server on PGlite in a temporary directory. Tests find them through E2E_* variables (Playwright
// workers inherit the environment global setup leaves behind).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalChain } from '../../../lib/chain/local-chain';
import { startAppServer } from '../app-server';
import { freePort } from '../../../lib/chain/anvil-node';
import { ensureFreshBuild } from '../production-build';

export default async function globalSetup() {
  await ensureFreshBuild();
  const chain = await startLocalChain({ port: await freePort() });
  const dataDir = mkdtempSync(join(tmpdir(), 'taskmarket-e2e-'));
  let server;
  try {
    server = await startAppServer(await freePort(), chain, dataDir);
  } catch (error) {
    await chain.stop();
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
  });
  console.log(`e2e: server ${server.url} (log ${server.logFile}), anvil ${chain.rpcUrl}`);
  return async () => {
    await server.stop();
    await chain.stop();
    if (!process.env.E2E_KEEP_DATA) rmSync(dataDir, { recursive: true, force: true });
  };
}
