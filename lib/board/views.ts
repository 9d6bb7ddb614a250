// The single-mission read: applies what time did first (an expired review window, a bounty's
// deadline), so no state is shown past its time, and answers the mission as the viewer may see it.
import 'server-only';
import { eq, sql } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { builtOnce } from '../db/prepared';
import { missions } from '../db/schema';
import { ApiError } from '../errors';
import { applyDue } from '../missions/due-transitions';
import { type MissionJson, missionJson, storedJson } from './present';
import { actionFactsJson, viewWithActions } from './action-facts';
import { dueAction } from '../missions/transitions';
import {
  ANONYMOUS_SEES_WORK,
  canSeeMission,
  canSeeWork,
  enteredBy,
  type Viewer,
  viewerValues,
} from '../missions/visibility';

// The facts that decide whether the viewer may see the mission, with its view, in one round trip.
const readStatement = builtOnce((db: Db) =>
  db
    .select({
      status: missions.status,
      clientId: missions.clientId,
      agentId: missions.agentId,
      directAgentId: missions.directAgentId,
      reviewDeadline: missions.reviewDeadline,
      deadline: missions.deadline,
      assignmentMode: missions.assignmentMode,
      entryCount: missions.entryCount,
      entered: enteredBy(sql`${sql.placeholder('viewer')}::uuid`),
      view: storedJson(canSeeWork),
      facts: actionFactsJson(sql`${sql.placeholder('viewer')}::uuid`),
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
  // docs/api.md#next-actions: what this caller may do next, from the same read.
  if (mission.view !== null) return viewWithActions(cfg, mission.view, mission.facts, viewer, now);
  const [written] = await publicViewStatement(db, undefined).execute({ id });
  if (!written) throw new ApiError(404, 'Mission not found');
  return viewWithActions(cfg, written.view, mission.facts, viewer, now);
}
