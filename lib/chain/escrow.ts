// The TaskEscrow contract as the backend uses it: reading tasks and balances, and the calls the
// operator key sends (release, releaseSplit, refund, claimFor) as plain call data for the outbox
// to sign. Each version's ABI is the one before plus its additions (v3 releaseSplit, v4
// createTaskWithAuthorization, v5 settle, releasePart and the funding mandate), so v5's serves a
// v2, v3 or v4 escrow kept after an upgrade — for the calls that version has.
import 'server-only';
import { encodeFunctionData, type Hex, parseEventLogs, type PublicClient, type TransactionReceipt } from 'viem';
import type { Config } from '../config';
import { taskEscrowV5Artifact } from './artifacts';

const abi = taskEscrowV5Artifact.abi;

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

/**
 * Escrow v5 (docs/escrow.md#escrow-v5): `agentAmount` of the task's remainder to the agent (less the
 * fee on that part), the rest refunded to the client, the task closed.
 */
export const settleCall = (taskId: bigint, agent: Hex, agentAmount: bigint, feeBps: number): Hex =>
  encodeFunctionData({ abi, functionName: 'settle', args: [taskId, agent, agentAmount, feeBps] });

/** Escrow v5: `amount` of the task to the agent (less its fee), the task kept open with the rest. */
export const releasePartCall = (taskId: bigint, agent: Hex, amount: bigint, feeBps: number): Hex =>
  encodeFunctionData({ abi, functionName: 'releasePart', args: [taskId, agent, amount, feeBps] });

/** Escrow v5: the sum released from a task so far by releasePart and settle (fees included). */
export async function readReleased(publicClient: PublicClient, escrow: Hex, taskId: bigint): Promise<bigint> {
  return publicClient.readContract({ address: escrow, abi, functionName: 'released', args: [taskId] });
}

export const claimForCall = (beneficiary: Hex): Hex =>
  encodeFunctionData({ abi, functionName: 'claimFor', args: [beneficiary] });

/** The amount a mined claimFor paid, from its Claimed event. */
export function claimedAmount(receipt: TransactionReceipt): bigint | undefined {
  return parseEventLogs({ abi, eventName: 'Claimed', logs: receipt.logs })[0]?.args.amount;
}

// Public RPCs refuse eth_getLogs over large ranges, so the search for a task's creation goes back
// in chunks of this many blocks, newest first, at most REF_LOOKBACK_BLOCKS (a mission waits for its
// funding 24 h: past that on any chain with blocks of a second or more).
const REF_CHUNK_BLOCKS = 2_000n;
const REF_LOOKBACK_BLOCKS = 100_000n;

/**
 * The `ref` a task was created with: the contract keeps it only in its TaskCreated(taskId, client,
 * reward, ref) event, found by the indexed task id. Undefined when not within the look-back.
 */
export async function readTaskRef(publicClient: PublicClient, escrow: Hex, taskId: bigint): Promise<Hex | undefined> {
  // Uncached: the task may have been mined a moment ago, after viem's cached block number.
  const latest = await publicClient.getBlockNumber({ cacheTime: 0 });
  const floor = latest > REF_LOOKBACK_BLOCKS ? latest - REF_LOOKBACK_BLOCKS : 0n;
  for (let to = latest; to >= floor; to -= REF_CHUNK_BLOCKS) {
    const from = to - floor >= REF_CHUNK_BLOCKS ? to - REF_CHUNK_BLOCKS + 1n : floor;
    const logs = await publicClient.getContractEvents({
      address: escrow,
      abi,
      eventName: 'TaskCreated',
      args: { taskId },
      fromBlock: from,
      toBlock: to,
    });
    const created = parseEventLogs({ abi, eventName: 'TaskCreated', logs })[0];
    if (created) return created.args.ref.toLowerCase() as Hex;
    if (from === floor) break;
  }
  return undefined;
}

/**
 * What a mined release, releaseSplit or settle credited, from its TaskReleased / TaskSplitReleased /
 * TaskSettled event: for a settle, the agent's net (its part less the fee) and the fee.
 */
export function releasedCredit(
  receipt: Pick<TransactionReceipt, 'logs'>,
  taskId: bigint,
): { recipients: { address: Hex; amount: bigint }[]; fee: bigint } | undefined {
  const single = parseEventLogs({ abi, eventName: 'TaskReleased', logs: receipt.logs }).find(
    (e) => e.args.taskId === taskId,
  );
  if (single) {
    const { agent, agentAmount, fee } = single.args;
    return { recipients: [{ address: agent.toLowerCase() as Hex, amount: agentAmount }], fee };
  }
  const settled = parseEventLogs({ abi, eventName: 'TaskSettled', logs: receipt.logs }).find(
    (e) => e.args.taskId === taskId,
  );
  if (settled) {
    const { agent, agentAmount, fee } = settled.args;
    return { recipients: [{ address: agent.toLowerCase() as Hex, amount: agentAmount - fee }], fee };
  }
  const split = parseEventLogs({ abi, eventName: 'TaskSplitReleased', logs: receipt.logs }).find(
    (e) => e.args.taskId === taskId,
  );
  if (!split) return undefined;
  const { recipients, amounts, fee } = split.args;
  return {
    recipients: recipients.map((address, i) => ({ address: address.toLowerCase() as Hex, amount: amounts[i]! })),
    fee,
  };
}
