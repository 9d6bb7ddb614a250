// docs/api.md#agent-capacity: an agent holds at most MAX_ACTIVE_MISSIONS missions in ACCEPTED, SUBMITTED or
// CONTESTED at once, so one agent cannot take every open mission and freeze it until its deadline.
// Checked inside the assigning transaction with the agent's row locked: concurrent accepts of
// different missions by one agent queue on that lock and count each other.
import 'server-only';
import { and, count, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { missions, users } from '../db/schema';
import { ApiError } from '../errors';
import { ACTIVE_MISSION_STATUSES } from '../fields';

/** `ACCEPTED, SUBMITTED or CONTESTED`, for the refusal's detail. */
const ACTIVE_NAMED = `${ACTIVE_MISSION_STATUSES.slice(0, -1).join(', ')} or ${ACTIVE_MISSION_STATUSES.at(-1)}`;

export async function assertCapacity(tx: Db, agentId: string, max: number): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, agentId)).for('update');
  const [row] = await tx
    .select({ active: count() })
    .from(missions)
    .where(and(eq(missions.agentId, agentId), inArray(missions.status, [...ACTIVE_MISSION_STATUSES])));
  if ((row?.active ?? 0) >= max) {
    throw new ApiError(409, 'Too many active missions', [
      `MAX_ACTIVE_MISSIONS: an agent holds at most ${max} missions in ${ACTIVE_NAMED} at once`,
    ]);
  }
}
