// `npm run dev`: the whole product on a bare machine — a local anvil with our contracts (state
// kept under .data/), the embedded database, the in-memory KV, generated dev secrets, and Next.js
// in development mode behind server.ts. Settings already in the environment win.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { createPublicClient, createWalletClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { ANVIL_KEYS } from '../lib/chain/anvil-node';
import { mockUsdcArtifact } from '../lib/chain/artifacts';
import { type LocalChain, startLocalChain } from '../lib/chain/local-chain';

const dataDir = resolve(process.env.DATA_DIR ?? '.data');
const CHAIN_PORT = Number(process.env.CHAIN_PORT ?? 8545);

const DEV_USDC = 1_000_000n * 10n ** 6n;

/** Stops with one line when another program holds the chain's port, before anything starts. */
async function requireFreePort(port: number) {
  if (!Number.isInteger(port) || port < 1 || port > 65_535)
    throw new Error(`CHAIN_PORT must be a port number, not "${process.env.CHAIN_PORT}"`);
  const taken = await new Promise<boolean>((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(true));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(false)));
  });
  if (taken)
    throw new Error(
      `port ${port} is taken: stop what listens there, or start on another with CHAIN_PORT=<port> npm run dev`,
    );
}

/** Tops every anvil account up to a million test USDC, so a newcomer can fund missions at once. */
async function fundDevAccounts(chain: LocalChain) {
  const transport = http(chain.rpcUrl);
  const reader = createPublicClient({ chain: foundry, transport });
  const minter = createWalletClient({ chain: foundry, transport, account: privateKeyToAccount(chain.registrarKey) });
  for (const key of ANVIL_KEYS) {
    const { address } = privateKeyToAccount(key);
    const balance = await reader.readContract({
      address: chain.contracts.rewardToken,
      abi: mockUsdcArtifact.abi,
      functionName: 'balanceOf',
      args: [address],
    });
    if (balance >= DEV_USDC) continue;
    const hash = await minter.writeContract({
      address: chain.contracts.rewardToken,
      abi: mockUsdcArtifact.abi,
      functionName: 'mint',
      args: [address, DEV_USDC - balance],
    });
    await reader.waitForTransactionReceipt({ hash });
  }
}

async function main() {
  mkdirSync(dataDir, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, NODE_ENV: 'development' };
  let stopChain = async () => {};
  if (!process.env.RPC_URL) {
    await requireFreePort(CHAIN_PORT);
    const chain = await startLocalChain({
      port: CHAIN_PORT,
      statePath: join(dataDir, 'anvil-state.json'),
      recordFile: join(dataDir, 'dev-contracts.json'),
    });
    stopChain = chain.stop;
    Object.assign(env, {
      RPC_URL: chain.rpcUrl,
      BASE_CHAIN_ID: String(chain.chainId),
      // Anvil's account 0: a public test key, good for the local chain and nothing else.
      REGISTRAR_PRIVATE_KEY: env.REGISTRAR_PRIVATE_KEY ?? chain.registrarKey,
      PASSPORT_ADDRESS: chain.contracts.passport,
      ESCROW_ADDRESS: chain.contracts.escrow,
      REWARD_TOKEN_ADDRESS: chain.contracts.rewardToken,
      // docs/api.md#erc-8004: the local chain's own ERC-8004 registries.
      ERC8004_IDENTITY_ADDRESS: chain.contracts.identityRegistry,
      ERC8004_REPUTATION_ADDRESS: chain.contracts.reputationRegistry,
    });
    await fundDevAccounts(chain);
    console.log(`local chain ${chain.chainId} at ${chain.rpcUrl}: ${JSON.stringify(chain.contracts)}`);
    console.log(
      'anvil accounts 0–9 hold test USDC; import one of their keys into your browser wallet to post missions',
    );
  }
  const server = spawn(join('node_modules', '.bin', 'tsx'), ['server.ts'], { stdio: 'inherit', env });
  const shutdown = async (code: number) => {
    server.kill('SIGTERM');
    await stopChain();
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));
  server.on('exit', (code) => void shutdown(code ?? 0));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
