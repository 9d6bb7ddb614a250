// The client's side of the escrow, as the dashboard or the SDK does it: mint test USDC, approve
// the escrow, createTask — real transactions from the client's own wallet on this worker's anvil.
import { keccak256, parseEventLogs, toHex, type Hex, type PrivateKeyAccount } from 'viem';
import { inject } from 'vitest';
import { mockUsdcArtifact, taskEscrowArtifact } from '@/lib/chain/artifacts';
import { fund, publicClient, walletOf } from './chain';

const contracts = () => inject('contracts') as { passport: Hex; escrow: Hex; rewardToken: Hex };

async function mined(hash: Hex) {
  const receipt = await publicClient().waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`);
  return receipt;
}

/** Funds a new escrow task of `reward` from `wallet`; answers its task id. */
export async function fundTask(wallet: PrivateKeyAccount, reward: bigint): Promise<number> {
  const { escrow, rewardToken } = contracts();
  await fund(wallet.address);
  const client = walletOf(wallet);
  await mined(await client.writeContract({ address: rewardToken, abi: mockUsdcArtifact.abi, functionName: 'mint', args: [wallet.address, reward] }));
  await mined(await client.writeContract({ address: rewardToken, abi: mockUsdcArtifact.abi, functionName: 'approve', args: [escrow, reward] }));
  const receipt = await mined(
    await client.writeContract({ address: escrow, abi: taskEscrowArtifact.abi, functionName: 'createTask', args: [reward, keccak256(toHex(crypto.randomUUID()))] }),
  );
  const [created] = parseEventLogs({ abi: taskEscrowArtifact.abi, eventName: 'TaskCreated', logs: receipt.logs });
  return Number(created!.args.taskId);
}

export async function topUpTask(wallet: PrivateKeyAccount, taskId: number, amount: bigint): Promise<void> {
  const { escrow, rewardToken } = contracts();
  const client = walletOf(wallet);
  await mined(await client.writeContract({ address: rewardToken, abi: mockUsdcArtifact.abi, functionName: 'mint', args: [wallet.address, amount] }));
  await mined(await client.writeContract({ address: rewardToken, abi: mockUsdcArtifact.abi, functionName: 'approve', args: [escrow, amount] }));
  await mined(await client.writeContract({ address: escrow, abi: taskEscrowArtifact.abi, functionName: 'topUp', args: [BigInt(taskId), amount] }));
}

export async function taskOnChain(taskId: number) {
  const [client, amount, state] = await publicClient().readContract({ address: contracts().escrow, abi: taskEscrowArtifact.abi, functionName: 'tasks', args: [BigInt(taskId)] });
  return { client: client.toLowerCase(), amount, state };
}

export const claimableOnChain = (holder: string) =>
  publicClient().readContract({ address: contracts().escrow, abi: taskEscrowArtifact.abi, functionName: 'claimable', args: [holder as Hex] });

export const tokenBalance = (holder: string) =>
  publicClient().readContract({ address: contracts().rewardToken, abi: mockUsdcArtifact.abi, functionName: 'balanceOf', args: [holder as Hex] });
