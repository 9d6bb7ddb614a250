// The escrow's side of posting and bumping (docs/api.md#escrow): before a mission is written, its
// on-chain task must exist, belong to the caller's wallet, hold exactly the reward (the contract's
// release pays the whole task, so a task holding more would pay more than the mission says) and
// still be open, and not expire before the mission can be settled; a raised reward must equal the
// task after a top-up already on-chain. Without ESCROW_ADDRESS (bookkeeping mode) there is nothing to check.
import 'server-only';
import type { Hex } from 'viem';
import type { Config } from '../config';
import { getChainClients } from '../chain/clients';
import { escrowOfTask, TASK_STATE, readTask } from '../chain/escrow';
import { readChain } from '../chain/rpc-errors';
import { ApiError, DependencyDown } from '../errors';
import { earliestExpiresAt } from './escrow-expiry';

const refuse = (detail: string) => new ApiError(400, 'Validation failed', [detail]);

// New missions are funded on the current escrow; a top-up reads the one its task is on.
async function taskOf(cfg: Config, taskId: number, escrow = cfg.chain.escrow!) {
  const clients = getChainClients();
  if (!clients) throw new DependencyDown('chain');
  return readChain(() => readTask(clients.publicClient, escrow, BigInt(taskId)));
}

export async function verifyFunding(
  cfg: Config,
  wallet: string,
  taskId: number | undefined,
  reward: bigint,
  deadline: Date,
  bounty: boolean,
): Promise<void> {
  if (!cfg.chain.escrow) return;
  if (taskId === undefined) throw refuse('onChainTaskId: required — fund the escrow with createTask first');
  const task = await taskOf(cfg, taskId);
  if (task.state === TASK_STATE.None) throw refuse('onChainTaskId: no such task in the escrow');
  if (task.client !== (wallet.toLowerCase() as Hex))
    throw refuse('onChainTaskId: the task was created by another wallet');
  if (task.state !== TASK_STATE.Open) throw refuse('onChainTaskId: the task is already released or refunded');
  if (task.amount !== reward) throw refuse(exactly('onChainTaskId', task.amount, reward));
  // docs/api.md#escrow: the client must not be able to reclaim the reward while the work can still be
  // delivered, reviewed and contested.
  const earliest = earliestExpiresAt(deadline, expiryRules(cfg), bounty);
  if (task.expiresAt < earliest) {
    throw refuse(
      `onChainTaskId: the task expires at ${task.expiresAt} (${iso(task.expiresAt)}); ` +
        `for this deadline it must not expire before ${earliest} (${iso(earliest)}) ` +
        `— call extend(${taskId}, ${earliest}) or fund a new task`,
    );
  }
}

/** docs/api.md#escrow: a mission links only a task holding exactly its reward. */
const exactly = (field: string, held: bigint, reward: bigint) =>
  `${field}: the task holds ${held}, ${held < reward ? 'less' : 'more'} than the reward ${reward}; ` +
  'a mission links only a task holding exactly its reward';

const iso = (seconds: bigint) => new Date(Number(seconds) * 1000).toISOString();

export const expiryRules = (cfg: Config) => ({
  reviewWindowSeconds: cfg.missions.reviewWindowSeconds,
  maxContests: cfg.missions.maxContests,
  reclaimGraceSeconds: cfg.chain.reclaimGraceSeconds,
  disputeAllowanceSeconds: cfg.missions.disputeAllowanceSeconds,
});

export async function verifyTopUp(
  cfg: Config,
  mission: { onChainTaskId: number | null; escrow: string | null },
  newReward: bigint,
): Promise<void> {
  if (!cfg.chain.escrow || mission.onChainTaskId === null) return;
  const task = await taskOf(cfg, mission.onChainTaskId, escrowOfTask(cfg, mission.escrow));
  if (task.amount < newReward) throw refuse(`reward: the escrow task holds ${task.amount}; call topUp first`);
  // docs/api.md#escrow: the new reward is the task's amount after its top-up, to the unit.
  if (task.amount > newReward)
    throw refuse(`reward: the escrow task holds ${task.amount}; the new reward must equal it exactly`);
}
