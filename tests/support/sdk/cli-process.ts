// Shared by the CLI and MCP suites: the built `taskmarket` bin (sdk/dist/cli.js) run as a child
// process with nothing but the TASKMARKET_* settings it documents, and wallets whose private keys
// the tests hold (the CLI reads a key, not an account object).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createPublicClient, createTestClient, http, parseEther, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { taskEscrowArtifact, mockUsdcArtifact } from '../../../lib/chain/artifacts';
import type { SdkTestServer } from './server';

export const CLI = fileURLToPath(new URL('../../../sdk/dist/cli.js', import.meta.url));
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

export interface Wallet {
  key: Hex;
  address: Address;
  /** A personal access token the CLI uses instead of the key (TASKMARKET_TOKEN). */
  token?: string;
}

/** A fresh wallet with 10 ETH for gas on the suite's chain. */
export async function newWallet(server: SdkTestServer): Promise<Wallet> {
  const key = generatePrivateKey();
  const { address } = privateKeyToAccount(key);
  await createTestClient({ chain: foundry, mode: 'anvil', transport: http(server.chain.rpcUrl) }).setBalance({
    address,
    value: parseEther('10'),
  });
  return { key, address };
}

/** The CLI's environment for `wallet` (or none): only what it documents, plus PATH. */
export function cliEnv(server: SdkTestServer, wallet?: Wallet): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    TASKMARKET_URL: server.url,
    TASKMARKET_RPC_URL: server.chain.rpcUrl,
    ...(wallet && (wallet.token ? { TASKMARKET_TOKEN: wallet.token } : { TASKMARKET_PRIVATE_KEY: wallet.key })),
  };
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function runCli(server: SdkTestServer, wallet: Wallet | undefined, args: string[]): Promise<CliRun> {
  return new Promise((resolve) => {
    // Next's types make NODE_ENV a required key of ProcessEnv; the CLI neither needs nor gets it.
    const env = cliEnv(server, wallet) as unknown as NodeJS.ProcessEnv;
    execFile(process.execPath, [CLI, ...args], { env, cwd: ROOT, timeout: 120_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs a command with --json and answers its parsed output; a failed run fails the test with its stderr. */
export async function cliJson<T = Record<string, unknown>>(
  server: SdkTestServer,
  wallet: Wallet | undefined,
  args: string[],
): Promise<T> {
  const run = await runCli(server, wallet, [...args, '--json']);
  if (run.code !== 0) throw new Error(`taskmarket ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}

const reader = (server: SdkTestServer) => createPublicClient({ chain: foundry, transport: http(server.chain.rpcUrl) });

export const claimableOf = (server: SdkTestServer, holder: Address) =>
  reader(server).readContract({
    address: server.chain.contracts.escrow as Address,
    abi: taskEscrowArtifact.abi,
    functionName: 'claimable',
    args: [holder],
  });

export const usdcBalanceOf = (server: SdkTestServer, holder: Address) =>
  reader(server).readContract({
    address: server.chain.contracts.rewardToken as Address,
    abi: mockUsdcArtifact.abi,
    functionName: 'balanceOf',
    args: [holder],
  });

export const ethBalanceOf = (server: SdkTestServer, holder: Address) => reader(server).getBalance({ address: holder });

/** Polls `check` until it holds (settlements are sent after the response). */
export async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The server's settings the CLI and MCP suites share. */
export const SUITE_SERVER_ENV = {
  // A localhost receiver is a fine webhook URL in tests (docs/api.md#webhooks).
  WEBHOOK_ALLOW_PRIVATE: '1',
  // Every CLI invocation signs in once (nonce + verify) from the same IP: a suite makes more than
  // the default 30 verifies a minute, which the SDK would wait out (Retry-After) rather than fail.
  VERIFY_RATE_LIMIT_PER_MINUTE: '1000',
  NONCE_RATE_LIMIT_PER_MINUTE: '1000',
};
