// API.md §13: a client may reclaim an expired escrow task on-chain without asking anyone. The
// sweep notices and ends the mission CANCELLED (event `reclaimed`) with nothing sent for it. A task
// can only be reclaimed after deadline + expiresAfterDeadlineSeconds (create refuses an earlier
// expiry), so only unsettled funded missions past that point are looked at, a bounded few a run.
import 'server-only';
import { and, asc, inArray, isNotNull, lte } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { missions } from '../db/schema';
import { getChainClients } from '../chain/clients';
import { readTask, TASK_STATE } from '../chain/escrow';
import { readChain } from '../chain/rpc-errors';
import { ApiError, DependencyDown } from '../http/errors';
import { applyTransition } from './apply-transition';
import { expiresAfterDeadlineSeconds } from './escrow-expiry';
import { expiryRules } from './funding';
import { SYSTEM } from './visibility';

const PER_RUN = 25;
const UNSETTLED = ['OPEN', 'ACCEPTED', 'SUBMITTED', 'CONTESTED', 'DISPUTED'] as const;

export async function settleReclaimedMissions(db: Db, cfg: Config, now: Date): Promise<{ reclaimed: number }> {
  const clients = getChainClients();
  const escrow = cfg.chain.escrow;
  if (!clients || !escrow) return { reclaimed: 0 };
  const reclaimableFrom = new Date(now.getTime() - expiresAfterDeadlineSeconds(expiryRules(cfg)) * 1000);
  const due = await db
    .select({ id: missions.id, taskId: missions.onChainTaskId })
    .from(missions)
    .where(and(isNotNull(missions.onChainTaskId), inArray(missions.status, [...UNSETTLED]), lte(missions.deadline, reclaimableFrom)))
    .orderBy(asc(missions.deadline))
    .limit(PER_RUN);
  let reclaimed = 0;
  for (const { id, taskId } of due) {
    let task;
    try {
      task = await readChain(() => readTask(clients.publicClient, escrow, BigInt(taskId!)));
    } catch (error) {
      // The RPC is down: the next run looks again. The sweep's other work (expired review
      // windows, webhooks, what the sweep sends once the chain is back) must not wait for it.
      if (error instanceof DependencyDown) break;
      throw error;
    }
    if (task.state === TASK_STATE.Reclaimed && (await markReclaimed(db, cfg, id, now))) reclaimed += 1;
  }
  return { reclaimed };
}

/** The mission of a reclaimed task ends CANCELLED; false when another worker got there first. */
export async function markReclaimed(db: Db, cfg: Config, missionId: string, now: Date): Promise<boolean> {
  try {
    await applyTransition(db, cfg, 'reclaim', missionId, SYSTEM, {}, now);
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) return false;
    throw error;
  }
}
