// PUT /api/missions/{id}/criteria (docs/api.md#criteria): the poster replaces, or clears, the criteria of
// its mission while it is AWAITING_FUNDING; from OPEN on they are frozen (409), with their hash.
import 'server-only';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { missions } from '../db/schema';
import { ApiError } from '../errors';
import { criteriaHash, criteriaSchema, splitCriteria } from '../missions/criteria';
import { checkProblems } from '../missions/criterion-checks';
import { recordEvent } from '../missions/events';
import type { MissionJson } from '../board/present';
import { lockMission } from '../missions/queries';
import { getMissionOrThrow } from '../board/views';
import { canSeeMission, isOwner, type Viewer } from '../missions/visibility';

export const criteriaEditSchema = z.strictObject({
  criteria: criteriaSchema
    .nullable()
    .describe('The new criteria (1–20, numbered from 1 in this order), or null for none'),
});

export async function editCriteria(
  db: Db,
  cfg: Config,
  id: string,
  viewer: Viewer,
  { criteria }: z.infer<typeof criteriaEditSchema>,
  now: Date,
): Promise<MissionJson> {
  // docs/api.md#checked-criteria: judged like a post's, before the row is locked.
  const split = criteria ? splitCriteria(criteria) : null;
  const problems = split?.checks ? await checkProblems(cfg, split.checks) : [];
  if (problems.length > 0) throw new ApiError(400, 'Validation failed', problems);
  await db.transaction(async (tx) => {
    const mission = await lockMission(tx, id);
    if (!mission || !canSeeMission(mission, viewer)) throw new ApiError(404, 'Mission not found');
    if (!isOwner(mission, viewer)) throw new ApiError(403, "Only the mission's owner may change its criteria");
    // docs/api.md#criteria: the agents saw them on the board; whatever they took on stays what it was.
    if (mission.status !== 'AWAITING_FUNDING')
      throw new ApiError(409, 'The criteria are frozen once the mission is OPEN');
    if (mission.autoApprove && !split?.checks?.every((check) => check !== null))
      throw new ApiError(400, 'Validation failed', ['criteria: autoApprove onChecks needs a check on every criterion']);
    const hash = split ? criteriaHash(split.texts, split.checks) : null;
    await tx
      .update(missions)
      .set({
        criteria: split?.texts ?? null,
        criteriaChecks: split?.checks ?? null,
        criteriaHash: hash,
        updatedAt: now,
      })
      .where(and(eq(missions.id, id), eq(missions.status, 'AWAITING_FUNDING')));
    await recordEvent(tx, {
      missionId: id,
      clientId: mission.clientId,
      viewer,
      action: 'criteria',
      from: mission.status,
      to: mission.status,
      data: { criteriaHash: hash },
      now,
    });
  });
  return getMissionOrThrow(db, cfg, id, viewer, now);
}
