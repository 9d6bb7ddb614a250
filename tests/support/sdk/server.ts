// What the SDK, CLI and MCP suites drive: a production build of the app (`next build`, then
// `server.ts` with NODE_ENV=production) on the run's backends (server-backends.ts) and an anvil of
// the suite's own with our contracts: the stack an agent author meets on `npm run dev`, nothing mocked.
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
import { serverBackends } from '../server-backends';

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
 * Builds if stale, starts anvil and the server. `env` overrides the server's settings (for
 * example JWT_TTL_SECONDS or WEBHOOK_ALLOW_PRIVATE).
 */
export async function startSdkTestServer(env: Record<string, string> = {}): Promise<SdkTestServer> {
  await ensureFreshBuild();
  const chain = await startLocalChain({ port: await freePort() });
  const dataDir = mkdtempSync(join(tmpdir(), 'taskmarket-sdk-'));
  const backend = await serverBackends('sdk', inject('kvRest'));
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
      await createTestClient({ chain: foundry, mode: 'anvil', transport }).setBalance({
        address: account.address,
        value: parseEther('10'),
      });
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
  const hash = await minter.writeContract({
    address: server.chain.contracts.rewardToken as Address,
    abi: mockUsdcArtifact.abi,
    functionName: 'mint',
    args: [holder, amount],
  });
  await createPublicClient({ chain: foundry, transport }).waitForTransactionReceipt({ hash });
}
