// The client's side of the escrow, as the dashboard or the SDK does it: mint test USDC, approve
// the escrow, createTask — real transactions from the client's own wallet on this worker's anvil.
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  http,
  keccak256,
  parseEther,
  parseEventLogs,
  toHex,
  type Hex,
  type PrivateKeyAccount,
} from 'viem';
import { foundry } from 'viem/chains';
import { inject } from 'vitest';
import { privateKeyToAccount } from 'viem/accounts';
import { ANVIL_KEYS } from '@/lib/chain/anvil-node';
import { mockUsdcArtifact, taskEscrowArtifact, taskEscrowV5Artifact } from '@/lib/chain/artifacts';
import { deployEscrow, type EscrowVersion } from '@/lib/chain/deploy';
import { publicClient, walletOf } from './chain';
import { newDeployer } from './test-contracts';
import { workerRpcUrl } from './ports';

const contracts = () => inject('contracts') as { passport: Hex; escrow: Hex; rewardToken: Hex };

async function mined(hash: Hex) {
  const receipt = await publicClient().waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`);
  return receipt;
}

// Far enough out for any deadline a test sets (≤ 1 year) plus the review rounds and the reclaim
// grace (docs/api.md#escrow), and for the worker's chain clock that reclaim tests move forward.
const LATE_EXPIRY_SECONDS = 1_000 * 86_400;

/**
 * A deployment as it was before an upgrade (docs/escrow.md): an escrow of `version` beside this worker's, on the
 * same token, operated by the server's key (ANVIL_KEYS[0]), its fee ceiling 10 %. Answers its address, lowercase.
 */
export async function deployOlderEscrow(version: Exclude<EscrowVersion, 'v5'>): Promise<Hex> {
  const deployer = await newDeployer();
  const operator = privateKeyToAccount(ANVIL_KEYS[0]).address;
  const address = await deployEscrow(
    {
      walletClient: walletOf(deployer),
      publicClient: publicClient(),
      registrar: deployer.address,
      owner: deployer.address,
      operator,
      feeRecipient: operator,
      maxFeeBps: 1000,
    },
    contracts().rewardToken,
    version,
  );
  return address.toLowerCase() as Hex;
}

/** Funds a new escrow task of `reward` from `wallet` on this worker's chain; answers its task id. */
export async function fundTask(wallet: PrivateKeyAccount, reward: bigint, expiresAt?: bigint): Promise<number> {
  return fundTaskOn({ rpcUrl: workerRpcUrl(), ...contracts() }, wallet, reward, expiresAt);
}

/** The same on any local chain: mint test USDC, approve the escrow, createTask. */
export async function fundTaskOn(
  chain: { rpcUrl: string; escrow: Hex; rewardToken: Hex },
  wallet: PrivateKeyAccount,
  reward: bigint,
  expiresAt = BigInt(Math.floor(Date.now() / 1000) + LATE_EXPIRY_SECONDS),
): Promise<number> {
  const transport = http(chain.rpcUrl);
  const reader = createPublicClient({ chain: foundry, transport });
  const mined = async (hash: Hex) => {
    const receipt = await reader.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`);
    return receipt;
  };
  await createTestClient({ chain: foundry, mode: 'anvil', transport }).setBalance({
    address: wallet.address,
    value: parseEther('10'),
  });
  const client = createWalletClient({ chain: foundry, transport, account: wallet });
  const { escrow, rewardToken } = chain;
  await mined(
    await client.writeContract({
      address: rewardToken,
      abi: mockUsdcArtifact.abi,
      functionName: 'mint',
      args: [wallet.address, reward],
    }),
  );
  await mined(
    await client.writeContract({
      address: rewardToken,
      abi: mockUsdcArtifact.abi,
      functionName: 'approve',
      args: [escrow, reward],
    }),
  );
  const receipt = await mined(
    await client.writeContract({
      address: escrow,
      abi: taskEscrowArtifact.abi,
      functionName: 'createTask',
      args: [reward, keccak256(toHex(crypto.randomUUID())), expiresAt],
    }),
  );
  const [created] = parseEventLogs({ abi: taskEscrowArtifact.abi, eventName: 'TaskCreated', logs: receipt.logs });
  return Number(created!.args.taskId);
}

export async function topUpTask(wallet: PrivateKeyAccount, taskId: number, amount: bigint): Promise<void> {
  const { escrow, rewardToken } = contracts();
  const client = walletOf(wallet);
  await mined(
    await client.writeContract({
      address: rewardToken,
      abi: mockUsdcArtifact.abi,
      functionName: 'mint',
      args: [wallet.address, amount],
    }),
  );
  await mined(
    await client.writeContract({
      address: rewardToken,
      abi: mockUsdcArtifact.abi,
      functionName: 'approve',
      args: [escrow, amount],
    }),
  );
  await mined(
    await client.writeContract({
      address: escrow,
      abi: taskEscrowArtifact.abi,
      functionName: 'topUp',
      args: [BigInt(taskId), amount],
    }),
  );
}

export async function taskOnChain(taskId: number) {
  const [client, amount, state, expiresAt] = await publicClient().readContract({
    address: contracts().escrow,
    abi: taskEscrowArtifact.abi,
    functionName: 'tasks',
    args: [BigInt(taskId)],
  });
  return { client: client.toLowerCase(), amount, state, expiresAt };
}

/** The client takes an expired task back (TaskEscrow.reclaim), from its own wallet. */
export async function reclaimTask(wallet: PrivateKeyAccount, taskId: number): Promise<void> {
  const { escrow } = contracts();
  await mined(
    await walletOf(wallet).writeContract({
      address: escrow,
      abi: taskEscrowArtifact.abi,
      functionName: 'reclaim',
      args: [BigInt(taskId)],
    }),
  );
}

/** The chain's own clock, in unix seconds (tests move it with evm_increaseTime). */
export async function chainNow(): Promise<bigint> {
  return (await publicClient().getBlock()).timestamp;
}

export const claimableOnChain = (holder: string) =>
  publicClient().readContract({
    address: contracts().escrow,
    abi: taskEscrowArtifact.abi,
    functionName: 'claimable',
    args: [holder as Hex],
  });

export const tokenBalance = (holder: string) =>
  publicClient().readContract({
    address: contracts().rewardToken,
    abi: mockUsdcArtifact.abi,
    functionName: 'balanceOf',
    args: [holder as Hex],
  });

/** Escrow v5: the sum released from a task so far by releasePart and settle (docs/escrow.md#escrow-v5). */
export const releasedOnChain = (taskId: number) =>
  publicClient().readContract({
    address: contracts().escrow,
    abi: taskEscrowV5Artifact.abi,
    functionName: 'released',
    args: [BigInt(taskId)],
  });

/** Escrow v5's releasePart, sent with the operator key (anvil account 0) as milestones would send it. */
export async function releasePartOnChain(taskId: number, agent: string, amount: bigint, feeBps: number) {
  await mined(
    await walletOf(privateKeyToAccount(ANVIL_KEYS[0])).writeContract({
      address: contracts().escrow,
      abi: taskEscrowV5Artifact.abi,
      functionName: 'releasePart',
      args: [BigInt(taskId), agent as Hex, amount, feeBps],
    }),
  );
}
