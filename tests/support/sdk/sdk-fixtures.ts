// What the SDK suites share beyond the server: a client for an account on the suite's server and
// chain, reads of the chain to check outcomes, files on disk, and an ERC-1271 wallet.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createPublicClient,
  createWalletClient,
  http,
  parseAbi,
  type Abi,
  type Address,
  type Hex,
  type LocalAccount,
  type PrivateKeyAccount,
} from 'viem';
import { toAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { createClient, type ClientOptions } from '../../../sdk/src/index';
import { mintTestUsdc, type SdkTestServer } from './server';

export function sdkClient(
  server: SdkTestServer,
  account: LocalAccount | undefined,
  options: Partial<ClientOptions> = {},
) {
  return createClient({ baseUrl: server.url, account, rpcUrl: server.chain.rpcUrl, ...options });
}

export const chainReader = (server: SdkTestServer) =>
  createPublicClient({ chain: foundry, transport: http(server.chain.rpcUrl), pollingInterval: 50 });

const escrowReads = parseAbi([
  'function claimable(address holder) view returns (uint256)',
  'function tasks(uint256) view returns (address client, uint256 amount, uint8 state, uint64 expiresAt)',
]);
const tokenReads = parseAbi(['function balanceOf(address holder) view returns (uint256)']);
const passportReads = parseAbi(['function passportOf(address holder) view returns (uint256)']);

export const usdcBalance = (server: SdkTestServer, holder: Address) =>
  chainReader(server).readContract({
    address: server.chain.contracts.rewardToken as Address,
    abi: tokenReads,
    functionName: 'balanceOf',
    args: [holder],
  });
export const claimableOf = (server: SdkTestServer, holder: Address) =>
  chainReader(server).readContract({
    address: server.chain.contracts.escrow as Address,
    abi: escrowReads,
    functionName: 'claimable',
    args: [holder],
  });
export const escrowTask = (server: SdkTestServer, taskId: number) =>
  chainReader(server).readContract({
    address: server.chain.contracts.escrow as Address,
    abi: escrowReads,
    functionName: 'tasks',
    args: [BigInt(taskId)],
  });
export const passportOf = (server: SdkTestServer, holder: Address) =>
  chainReader(server).readContract({
    address: server.chain.contracts.passport as Address,
    abi: passportReads,
    functionName: 'passportOf',
    args: [holder],
  });

/** A funded wallet holding `usdc` test USDC (a faucet's work, not the SDK's). */
export async function clientWallet(server: SdkTestServer, usdc: bigint): Promise<PrivateKeyAccount> {
  const account = await server.newFundedAccount();
  await mintTestUsdc(server, account.address, usdc);
  return account;
}

/** A deadline `days` from now, as the API takes it. */
export const deadlineIn = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

/** Waits for `check` to hold, polling; fails with `what` after `ms`. */
export async function eventually<T>(
  read: () => Promise<T>,
  check: (value: T) => boolean,
  what: string,
  ms = 30_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline)
      throw new Error(
        `timed out waiting for ${what}; last: ` +
          JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)),
      );
    await new Promise((r) => setTimeout(r, 250));
  }
}

// The smallest PNG: the signature, IHDR, IDAT, IEND of a 1×1 pixel. The server sniffs its magic bytes.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** Two deliverables on disk: a text report and a PNG. */
export function deliverablesOnDisk(): { report: string; image: string; reportText: string; imageBytes: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'taskmarket-sdk-files-'));
  const reportText = 'Report: the work is done.\n';
  const report = join(dir, 'report.txt');
  const image = join(dir, 'screenshot.png');
  writeFileSync(report, reportText);
  writeFileSync(image, PNG);
  return { report, image, reportText, imageBytes: PNG };
}

/**
 * An OwnedWallet (contracts/test/OwnedWallet.sol, ERC-1271) of `owner` deployed on the suite's
 * chain, as a viem account: the wallet's address, signing with its owner's key — what a
 * smart-account SDK hands an app.
 */
export async function erc1271Account(server: SdkTestServer, owner: PrivateKeyAccount): Promise<LocalAccount> {
  const { abi, bytecode } = JSON.parse(
    readFileSync(new URL('../../../contracts/out/test/OwnedWallet.json', import.meta.url), 'utf8'),
  ) as { abi: Abi; bytecode: Hex };
  const deployer = await server.newFundedAccount();
  const hash = await createWalletClient({
    chain: foundry,
    transport: http(server.chain.rpcUrl),
    account: deployer,
  }).deployContract({ abi, bytecode, args: [owner.address] });
  const receipt = await chainReader(server).waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error('OwnedWallet deployment failed');
  return toAccount({
    address: receipt.contractAddress,
    signMessage: ({ message }) => owner.signMessage({ message }),
    signTypedData: (typedData) => owner.signTypedData(typedData),
    signTransaction: () => Promise.reject(new Error('a contract wallet does not sign transactions')),
  });
}
