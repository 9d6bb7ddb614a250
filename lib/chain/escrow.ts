// The TaskEscrow contract as the backend uses it: reading tasks and balances, and the calls the
// operator key sends (release, releaseSplit, refund, claimFor) as plain call data for the outbox
// to sign. Each version's ABI is the one before plus its additions (v3 releaseSplit, v4
// createTaskWithAuthorization), so v4's serves a v2 or v3 escrow kept after an upgrade.
import 'server-only';
import { encodeFunctionData, type Hex, parseEventLogs, type PublicClient, type TransactionReceipt } from 'viem';
import type { Config } from '../config';
import { taskEscrowV4Artifact } from './artifacts';

const abi = taskEscrowV4Artifact.abi;

/**
 * The escrow holding a task, from what its mission or settlement recorded (docs/api.md#bounties): rows
 * written before v3 recorded none, and their tasks are on the v2 escrow — ESCROW_V2_ADDRESS after
 * an upgrade, ESCROW_ADDRESS while there was none.
 */
export const escrowOfTask = (cfg: Pick<Config, 'chain'>, recorded: string | null): Hex =>
  (recorded ?? cfg.chain.escrowV2 ?? cfg.chain.escrow!) as Hex;

// TaskEscrow's State enum.
export const TASK_STATE = { None: 0, Open: 1, Released: 2, Refunded: 3, Reclaimed: 4 } as const;

export interface OnChainTask {
  client: Hex;
  amount: bigint;
  state: number;
  /** Unix seconds from which the client may reclaim the task while it is still open. */
  expiresAt: bigint;
}

export async function readTask(publicClient: PublicClient, escrow: Hex, taskId: bigint): Promise<OnChainTask> {
  const [client, amount, state, expiresAt] = await publicClient.readContract({
    address: escrow,
    abi,
    functionName: 'tasks',
    args: [taskId],
  });
  return { client: client.toLowerCase() as Hex, amount, state, expiresAt: BigInt(expiresAt) };
}

export async function readClaimable(publicClient: PublicClient, escrow: Hex, holder: Hex): Promise<bigint> {
  return publicClient.readContract({ address: escrow, abi, functionName: 'claimable', args: [holder] });
}

export const releaseCall = (taskId: bigint, agent: Hex, feeBps: number): Hex =>
  encodeFunctionData({ abi, functionName: 'release', args: [taskId, agent, feeBps] });

export const releaseSplitCall = (
  taskId: bigint,
  recipients: { address: string; amount: string }[],
  feeBps: number,
): Hex =>
  encodeFunctionData({
    abi,
    functionName: 'releaseSplit',
    args: [taskId, recipients.map((r) => r.address as Hex), recipients.map((r) => BigInt(r.amount)), feeBps],
  });

export const refundCall = (taskId: bigint): Hex => encodeFunctionData({ abi, functionName: 'refund', args: [taskId] });

export const claimForCall = (beneficiary: Hex): Hex =>
  encodeFunctionData({ abi, functionName: 'claimFor', args: [beneficiary] });

/** The amount a mined claimFor paid, from its Claimed event. */
export function claimedAmount(receipt: TransactionReceipt): bigint | undefined {
  return parseEventLogs({ abi, eventName: 'Claimed', logs: receipt.logs })[0]?.args.amount;
}
