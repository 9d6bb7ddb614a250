// docs/api.md#escrow: a client may reclaim an expired escrow task on-chain without asking anyone. The
// sweep notices and ends the mission CANCELLED (event `reclaimed`) with nothing sent for it. A task
// can only be reclaimed after deadline + expiresAfterDeadlineSeconds (create refuses an earlier
// expiry), so only unsettled funded missions past that point are looked at, a bounded few a run.
// A due task its client never reclaims stays due for good, so the few are taken in turn, from
// where the last run stopped (a cursor in the shared KV), round and round: oldest first on every
// run, 25 such tasks would hide every later one from the sweep.
import 'server-only';
import { and, asc, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { OnSettled } from '../settlements';
import { missions } from '../db/schema';
import type { Kv } from '../kv';
import { getChainClients } from '../chain/clients';
import { escrowOfTask, readTask, TASK_STATE } from '../chain/escrow';
import { readChain } from '../chain/rpc-errors';
import { ApiError, DependencyDown } from '../errors';
import { applyTransition } from '../missions/apply-transition';
import { expiresAfterDeadlineSeconds } from './escrow-expiry';
import { expiryRules } from './verify';
import { SYSTEM } from '../missions/visibility';

const PER_RUN = 25;
const UNSETTLED = ['OPEN', 'ACCEPTED', 'SUBMITTED', 'CONTESTED', 'DISPUTED', 'JUDGING', 'AWARDED'] as const;

const CURSOR = 'sweep:reclaim-cursor';
const CURSOR_TTL_MS = 7 * 86_400_000;

/** Where a run stopped: the (deadline, id) of the last mission it looked at. */
interface Position {
  key: string;
  id: string;
}

function dueAfter(db: Db, reclaimableFrom: Date, after: Position | undefined, limit: number) {
  return db
    .select({
      id: missions.id,
      taskId: missions.onChainTaskId,
      escrow: missions.escrow,
      // Exact (microseconds), so the next run starts right after this row.
      key: sql<string>`to_char(${missions.deadline} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
    })
    .from(missions)
    .where(
      and(
        isNotNull(missions.onChainTaskId),
        inArray(missions.status, [...UNSETTLED]),
        lte(missions.deadline, reclaimableFrom),
        after
          ? sql`(${missions.deadline}, ${missions.id}) > (${after.key}::timestamptz, ${after.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(asc(missions.deadline), asc(missions.id))
    .limit(limit);
}

// What dueAfter's key and a uuid look like: anything else would fail its cast in PostgreSQL and
// stop every sweep until the cursor expired, so it counts as no cursor (start from the oldest).
const KEY = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function positionOf(saved: string | null): Position | undefined {
  try {
    const value = saved ? (JSON.parse(saved) as Partial<Position>) : undefined;
    return typeof value?.key === 'string' &&
      KEY.test(value.key) &&
      !Number.isNaN(Date.parse(value.key)) &&
      typeof value.id === 'string' &&
      UUID.test(value.id)
      ? { key: value.key, id: value.id }
      : undefined;
  } catch {
    return undefined;
  }
}

export async function cancelReclaimedMissions(db: Db, kv: Kv, cfg: Config, now: Date): Promise<{ reclaimed: number }> {
  const clients = getChainClients();
  if (!clients || !cfg.chain.escrow) return { reclaimed: 0 };
  // Bounties (docs/api.md#bounties) have their own margin: the earlier of the two finds both kinds.
  const margin = Math.min(
    expiresAfterDeadlineSeconds(expiryRules(cfg)),
    expiresAfterDeadlineSeconds(expiryRules(cfg), true),
  );
  const reclaimableFrom = new Date(now.getTime() - margin * 1000);
  const after = positionOf(await kv.get(CURSOR));
  const due = await dueAfter(db, reclaimableFrom, after, PER_RUN);
  // Past the last due mission the turn starts again from the oldest.
  if (after && due.length < PER_RUN) {
    const seen = new Set(due.map((row) => row.id));
    due.push(
      ...(await dueAfter(db, reclaimableFrom, undefined, PER_RUN - due.length)).filter((row) => !seen.has(row.id)),
    );
  }
  let reclaimed = 0;
  let last: Position | undefined;
  for (const { id, taskId, escrow, key } of due) {
    let task;
    try {
      task = await readChain(() => readTask(clients.publicClient, escrowOfTask(cfg, escrow), BigInt(taskId!)));
    } catch (error) {
      // The RPC is down: the next run looks again. The sweep's other work (expired review
      // windows, webhooks, what the sweep sends once the chain is back) must not wait for it.
      if (error instanceof DependencyDown) break;
      throw error;
    }
    if (task.state === TASK_STATE.Reclaimed && (await markReclaimed(db, cfg, id, now))) reclaimed += 1;
    last = { key, id };
  }
  if (last) await kv.put(CURSOR, JSON.stringify(last), CURSOR_TTL_MS);
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

/** The missions' side of a settlement's outcome: a release the client's reclaim superseded ends its mission. */
export const reactToSettlement: OnSettled = async (db, cfg, row, now) => {
  if (
    (row.kind === 'RELEASE' || row.kind === 'SPLIT' || row.kind === 'PART' || row.kind === 'SETTLE') &&
    row.status === 'SUPERSEDED' &&
    row.missionId
  )
    await markReclaimed(db, cfg, row.missionId, now);
};
