// Mission views for readers: the single-mission read (which settles an expired review window
// before answering, so SUBMITTED is never shown past its deadline) and the batch loading of
// files and contests that lists share.
import 'server-only';
import { asc, eq, inArray } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { missionContests, missions } from '../db/schema';
import { ApiError } from '../http/errors';
import { applyTransition, isReviewOver } from './apply-transition';
import { listFiles } from './files';
import { presentMission } from './present';
import { findMission, type MissionWithParties } from './queries';
import { idSchema, type MissionView } from './schemas';
import { canSeeMission, canSeeWork, SYSTEM, type Viewer } from './visibility';

/** Files and contests for a page of missions in two queries, whatever the page size. */
export async function presentMissions(db: Db, rows: MissionWithParties[], viewer: Viewer): Promise<MissionView[]> {
  const withWork = rows.filter((m) => canSeeWork(m, viewer)).map((m) => m.id);
  const publicOnly = rows.filter((m) => !canSeeWork(m, viewer)).map((m) => m.id);
  const [files, workFiles, contests] = await Promise.all([
    listFiles(db, publicOnly, ['ATTACHMENT']),
    listFiles(db, withWork, ['ATTACHMENT', 'DELIVERABLE', 'EVIDENCE']),
    withWork.length === 0
      ? []
      : db.select().from(missionContests).where(inArray(missionContests.missionId, withWork)).orderBy(asc(missionContests.round)),
  ]);
  const filesOf = byMission([...files, ...workFiles]);
  const contestsOf = byMission(contests);
  return rows.map((m) => presentMission(m, filesOf.get(m.id) ?? [], contestsOf.get(m.id) ?? [], viewer));
}

// Map.groupBy arrives with Node 21.
function byMission<T extends { missionId: string }>(items: T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(item.missionId);
    if (group) group.push(item);
    else groups.set(item.missionId, [item]);
  }
  return groups;
}

export async function getMissionOrThrow(db: Db, cfg: Config, id: string, viewer: Viewer, now: Date): Promise<MissionView> {
  if (!idSchema.safeParse(id).success) throw new ApiError(404, 'Mission not found');
  let mission = await findMission(db, eq(missions.id, id));
  if (!mission || !canSeeMission(mission, viewer)) throw new ApiError(404, 'Mission not found');
  if (isReviewOver(mission, now)) {
    await settle(db, cfg, id, now);
    mission = (await findMission(db, eq(missions.id, id)))!;
  }
  const [view] = await presentMissions(db, [mission], viewer);
  return view!;
}

/** Completes one mission whose review window is over; a concurrent settler winning is fine. */
export async function settle(db: Db, cfg: Config, id: string, now: Date): Promise<boolean> {
  try {
    await applyTransition(db, cfg, 'expire', id, SYSTEM, {}, now);
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) return false;
    throw error;
  }
}
