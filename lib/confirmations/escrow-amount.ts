// What a release would actually move (docs/api.md#confirmations): the escrow's `release` pays the whole
// task, whatever the mission's reward says, so the amount counted against a grant's limit, shown on a
// confirmation and stored in its terms is the task's amount read from the chain — and a release whose
// task holds another amount than the reward (topped up without a bump) is refused: the person judged
// the reward, not the task.
import 'server-only';
import { eq } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { missions } from '../db/schema';
import { getChainClients } from '../chain/clients';
import { escrowOfTask, readTask } from '../chain/escrow';
import { readChain } from '../chain/rpc-errors';
import { ApiError, DependencyDown } from '../errors';
import type { TransitionGate } from '../missions/changes';
import type { Mission } from '../missions/queries';

/**
 * The task's amount of a mission funded on-chain; null in bookkeeping mode, for a mission with no task,
 * or for a caller who is not the mission's client (the action refuses them without the chain being asked).
 */
export async function escrowAmountOf(db: Db, cfg: Config, missionId: string, clientId: string): Promise<bigint | null> {
  if (!cfg.chain.escrow) return null;
  const [mission] = await db
    .select({ onChainTaskId: missions.onChainTaskId, escrow: missions.escrow, clientId: missions.clientId })
    .from(missions)
    .where(eq(missions.id, missionId));
  if (!mission || mission.onChainTaskId === null || mission.clientId !== clientId) return null;
  const clients = getChainClients();
  if (!clients) throw new DependencyDown('chain', new Error('chain not configured'));
  const task = await readChain(() =>
    readTask(clients.publicClient, escrowOfTask(cfg, mission.escrow), BigInt(mission.onChainTaskId!)),
  );
  return task.amount;
}

/** The 409 of a release whose task does not hold exactly the reward: what to do about it, in the message. */
export function assertEscrowMatches(
  mission: Pick<Mission, 'id' | 'reward'> & { released?: string },
  taskAmount: bigint | null,
): void {
  // docs/api.md#milestones: the task holds what milestones have not released yet.
  if (taskAmount === null || taskAmount === BigInt(mission.reward) - BigInt(mission.released ?? '0')) return;
  throw new ApiError(
    409,
    `The escrow task holds ${taskAmount}, not this mission's reward ${mission.reward}: releasing it would pay ` +
      `${taskAmount}. Nothing was released. Bump the reward to the task's amount ` +
      `(POST /api/missions/${mission.id}/bump { "reward": "${taskAmount}" }), then release again`,
    [`reward: ${mission.reward}`, `taskAmount: ${taskAmount}`],
  );
}

/** The same check on the locked mission, inside the release's transaction: a bump racing it is seen. */
export const escrowGate =
  (taskAmount: bigint | null): TransitionGate =>
  async (_tx, mission) =>
    assertEscrowMatches(mission, taskAmount);

/** Gates run in order; the first that throws stops the transition. */
export const allGates =
  (...gates: (TransitionGate | undefined)[]): TransitionGate =>
  async (tx, mission, input) => {
    for (const gate of gates) if (gate) await gate(tx, mission, input);
  };
