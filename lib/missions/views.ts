// The single-mission read: applies what time did first (an expired review window, a bounty's
// deadline), so no state is shown past its time, and answers the mission as the viewer may see it.
import 'server-only';
import { eq, sql } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { builtOnce } from '../db/prepared';
import { missions } from '../db/schema';
import { ApiError } from '../errors';
import { applyTransition } from './apply-transition';
import { type MissionJson, missionJson, storedJson } from './present';
import { dueAction } from './transitions';
import {
  ANONYMOUS_SEES_WORK,
  canSeeMission,
  canSeeWork,
  enteredBy,
  SYSTEM,
  type Viewer,
  viewerValues,
} from './visibility';

// The facts that decide whether the viewer may see the mission, with its view, in one round trip.
const readStatement = builtOnce((db: Db) =>
  db
    .select({
      status: missions.status,
      clientId: missions.clientId,
      agentId: missions.agentId,
      reviewDeadline: missions.reviewDeadline,
      deadline: missions.deadline,
      assignmentMode: missions.assignmentMode,
      entryCount: missions.entryCount,
      entered: enteredBy(sql`${sql.placeholder('viewer')}::uuid`),
      view: storedJson(canSeeWork),
    })
    .from(missions)
    .where(eq(missions.id, sql.placeholder('id')))
    .prepare('mission_read'),
);

// The view no stored copy holds: a non-party's sight of a mission no longer OPEN (present.ts: storedJson).
const publicViewStatement = builtOnce((db: Db) =>
  db
    .select({ view: missionJson(ANONYMOUS_SEES_WORK) })
    .from(missions)
    .where(eq(missions.id, sql.placeholder('id')))
    .prepare('mission_read_public'),
);

/** The mission as the viewer may see it, as the JSON text the database wrote: answered as it is. */
export async function getMissionOrThrow(
  db: Db,
  cfg: Config,
  id: string,
  viewer: Viewer,
  now: Date,
): Promise<MissionJson> {
  const read = async () => (await readStatement(db, undefined).execute({ id, ...viewerValues(viewer) }))[0];
  let mission = await read();
  if (!mission || !canSeeMission(mission, viewer)) throw new ApiError(404, 'Mission not found');
  if (dueAction(mission, now)) {
    await applyDue(db, cfg, id, now);
    mission = (await read())!;
    // What time did may have closed it to this viewer (a bounty judged is no longer public).
    if (!canSeeMission(mission, viewer)) throw new ApiError(404, 'Mission not found');
  }
  if (mission.view !== null) return mission.view;
  const [written] = await publicViewStatement(db, undefined).execute({ id });
  if (!written) throw new ApiError(404, 'Mission not found');
  return written.view;
}

/**
 * Does what time alone does to one mission now (transitions.ts dueAction: a review window over, a
 * bounty's deadline or windows); nothing due or a concurrent sweep winning is fine.
 */
export async function applyDue(db: Db, cfg: Config, id: string, now: Date): Promise<boolean> {
  try {
    await applyTransition(db, cfg, (m) => dueAction(m, now) ?? 'expire', id, SYSTEM, {}, now);
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) return false;
    throw error;
  }
}
