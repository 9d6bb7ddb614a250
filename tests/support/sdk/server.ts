// What the SDK, CLI and MCP suites drive: a production build of the app (`next build`, then
// `server.ts` with NODE_ENV=production) on an embedded PGlite database — or the run's PostgreSQL
// and Redis when TEST_DATABASE_URL / TEST_REDIS_URL are set — and an anvil of the suite's own with
// our contracts: the stack an agent author meets on `npm run dev`, nothing mocked.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, createTestClient, createWalletClient, http, parseEther, type Address } from 'viem';
import { foundry } from 'viem/chains';
import { inject } from 'vitest';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { startLocalChain, type LocalChain } from '../../../lib/chain/local-chain';
import { startAppServer } from '../app-server';
import { freePort } from '../../../lib/chain/anvil-node';
import { ensureFreshBuild } from '../production-build';

export interface SdkTestServer {
  /** The server's base URL, e.g. http://localhost:41234 (SIWE domain localhost:41234). */
  url: string;
  chain: LocalChain;
  logFile: string;
  /** A fresh wallet with 10 ETH on the suite's chain. */
  newFundedAccount(): Promise<PrivateKeyAccount>;
  stop(): Promise<void>;
}

/** Long enough for a production build on two cores when the sources changed since the last one. */
export const SERVER_START_TIMEOUT = 600_000;

/**
 * The run's backends, as the other suites use them: PGlite and memory by default; a database of
 * this server's own on TEST_DATABASE_URL's server (its chain's task ids must not meet another
 * chain's); TEST_REDIS_URL, or with TEST_KV=vercel the Upstash stand-in, under a prefix of its own.
 */
async function backends(): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  const env: Record<string, string> = {};
  let drop = async () => {};
  const server = process.env.TEST_DATABASE_URL;
  if (server) {
    const { default: postgres } = await import('postgres');
    const name = `taskmarket_sdk_${process.pid}_${randomBytes(4).toString('hex')}`;
    const admin = postgres(server, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    await admin.end();
    const url = new URL(server);
    url.pathname = `/${name}`;
    env.DATABASE_URL = url.toString();
    drop = async () => {
      const sql = postgres(server, { max: 1, onnotice: () => {} });
      await sql.unsafe(`drop database if exists ${name} with (force)`);
      await sql.end();
    };
  }
  const kvRest = inject('kvRest');
  if (kvRest) Object.assign(env, { KV_REST_API_URL: kvRest.url, KV_REST_API_TOKEN: kvRest.token });
  else if (process.env.TEST_REDIS_URL) env.REDIS_URL = process.env.TEST_REDIS_URL;
  if (env.KV_REST_API_URL || env.REDIS_URL) Object.assign(env, { KV_PREFIX: `sdk:${randomUUID()}:`, SINGLE_INSTANCE: '0' });
  return { env, drop };
}

/**
 * Builds if stale, starts anvil and the server. `env` overrides the server's settings (for
 * example JWT_TTL_SECONDS or WEBHOOK_ALLOW_PRIVATE).
 */
export async function startSdkTestServer(env: Record<string, string> = {}): Promise<SdkTestServer> {
  await ensureFreshBuild();
  const chain = await startLocalChain({ port: await freePort() });
  const dataDir = mkdtempSync(join(tmpdir(), 'taskmarket-sdk-'));
  const backend = await backends();
  let server;
  try {
    server = await startAppServer(await freePort(), chain, dataDir, { ...backend.env, ...env });
  } catch (error) {
    await chain.stop();
    await backend.drop();
    throw error;
  }
  const transport = http(chain.rpcUrl);
  return {
    url: server.url,
    chain,
    logFile: server.logFile,
    newFundedAccount: async () => {
      const account = privateKeyToAccount(generatePrivateKey());
      await createTestClient({ chain: foundry, mode: 'anvil', transport }).setBalance({ address: account.address, value: parseEther('10') });
      return account;
    },
    stop: async () => {
      await server.stop();
      await chain.stop();
      await backend.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Test USDC for `holder` on the suite's chain (MockUSDC's open mint), as a faucet would give. A
 * wallet of its own sends it: the registrar key is the server's, and sharing it would race its nonces.
 */
export async function mintTestUsdc(server: SdkTestServer, holder: Address, amount: bigint): Promise<void> {
  const { mockUsdcArtifact } = await import('../../../lib/chain/artifacts');
  const transport = http(server.chain.rpcUrl);
  const minter = createWalletClient({ chain: foundry, transport, account: await server.newFundedAccount() });
  const hash = await minter.writeContract({ address: server.chain.contracts.rewardToken as Address, abi: mockUsdcArtifact.abi, functionName: 'mint', args: [holder, amount] });
  await createPublicClient({ chain: foundry, transport }).waitForTransactionReceipt({ hash });
}
