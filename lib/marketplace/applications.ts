// Applications (docs/api.md#applications): on an APPLICATION mission agents apply with a pitch — once each, at
// most 50 a round, OPEN only — the owner reads them and assigns one agent, which is the mission's
// transition to ACCEPTED (one winner under races, the agent-capacity rule applied). A mission
// reopened or withdrawn from takes a fresh round: its `assignment` count names the round.
import 'server-only';
import { and, count, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { missionApplications, users } from '../db/schema';
import { uniqueViolation } from '../db/unique-violation';
import { ApiError } from '../errors';
import { applyTransition, precheckTransition } from '../missions/apply-transition';
import { findMission, lockMission, type Mission } from '../missions/queries';
import { decide } from '../missions/transitions';
import { getMissionOrThrow } from '../board/views';
import { canSeeMission, isOwner, type Viewer } from '../missions/visibility';
import { afterCursor, pageOf, pageOrder } from '../paging/created-pages';
import { ratingCountOf, ratingOf } from '../records/ratings';
import type { Application, applySchema, assignSchema, pageQuerySchema } from './schemas';

export const MAX_APPLICATIONS = 50;

const notFound = () => new ApiError(404, 'Mission not found');

/** Whether `agentId` applied to the mission's current round (the `apply` row's `applied`). */
export async function hasApplied(db: Db, mission: Pick<Mission, 'id' | 'assignment'>, agentId: string) {
  const [row] = await db
    .select({ id: missionApplications.id })
    .from(missionApplications)
    .where(
      and(
        eq(missionApplications.missionId, mission.id),
        eq(missionApplications.round, mission.assignment),
        eq(missionApplications.agentId, agentId),
      ),
    )
    .limit(1);
  return row !== undefined;
}

export async function applyToMission(
  db: Db,
  cfg: Config,
  missionId: string,
  agent: Viewer,
  input: z.infer<typeof applySchema>,
  now: Date,
) {
  if (agent.kind !== 'user') throw new ApiError(401, 'Authentication required');
  try {
    const id = await db.transaction(async (tx) => {
      // The row lock counts concurrent applications against the cap one at a time.
      const mission = await lockMission(tx, missionId);
      if (!mission) throw notFound();
      // The table's `apply` row decides (lib/missions/transitions.ts): party, state, mode, once per round.
      const applied = await hasApplied(tx, mission, agent.id);
      const decision = decide('apply', { ...mission, applied }, agent, now, cfg.missions);
      if (!decision.ok) throw new ApiError(decision.status, decision.message);
      const round = mission.assignment;
      const [{ taken } = { taken: 0 }] = await tx
        .select({ taken: count() })
        .from(missionApplications)
        .where(and(eq(missionApplications.missionId, missionId), eq(missionApplications.round, round)));
      if (taken >= MAX_APPLICATIONS)
        throw new ApiError(409, `This mission has taken the most applications it may (${MAX_APPLICATIONS})`);
      const [row] = await tx
        .insert(missionApplications)
        .values({ missionId, round, agentId: agent.id, pitch: input.pitch, createdAt: now })
        .returning({ id: missionApplications.id });
      return row!.id;
    });
    return presentApplication((await listApplicationRows(db, missionId, undefined, { id }))[0]!);
  } catch (error) {
    if (uniqueViolation(error) === 'mission_applications_once_idx')
      throw new ApiError(409, 'You have already applied to this mission');
    throw error;
  }
}

/** The current round's applications, oldest first; the owner's to read. */
export async function listApplications(
  db: Db,
  missionId: string,
  viewer: Viewer,
  query: z.infer<typeof pageQuerySchema>,
) {
  const mission = await findMission(db, missionId);
  if (!mission || !canSeeMission(mission, viewer)) throw notFound();
  if (!isOwner(mission, viewer) && viewer.kind !== 'operator')
    throw new ApiError(403, "Only the mission's owner may read its applications");
  const rows = await listApplicationRows(db, missionId, mission, { limit: query.limit + 1, cursor: query.cursor });
  return pageOf(rows, query.limit, presentApplication);
}

/** The owner gives the mission to an agent who applied this round: OPEN → ACCEPTED. */
export async function assignMission(
  db: Db,
  cfg: Config,
  missionId: string,
  viewer: Viewer,
  input: z.infer<typeof assignSchema>,
  now: Date,
) {
  // Party, state and mode first: a stranger learns nothing about who applied.
  await precheckTransition(db, cfg, 'assign', missionId, viewer, now);
  const mission = (await findMission(db, missionId))!;
  const [application] = await db
    .select({ agentId: missionApplications.agentId })
    .from(missionApplications)
    .innerJoin(users, eq(users.id, missionApplications.agentId))
    .where(
      and(
        eq(missionApplications.missionId, missionId),
        eq(missionApplications.round, mission.assignment),
        eq(users.walletAddress, input.agent),
      ),
    )
    .limit(1);
  if (!application) throw new ApiError(409, 'That agent has not applied to this mission');
  await applyTransition(db, cfg, 'assign', missionId, viewer, { assigneeId: application.agentId }, now);
  return getMissionOrThrow(db, cfg, missionId, viewer, now);
}

async function listApplicationRows(
  db: Db,
  missionId: string,
  mission: Mission | undefined,
  page: { id?: string; limit?: number; cursor?: string },
) {
  const a = missionApplications;
  return db
    .select({
      id: a.id,
      pitch: a.pitch,
      createdAt: a.createdAt,
      walletAddress: users.walletAddress,
      displayName: users.displayName,
      rating: ratingOf(a.agentId),
      ratingCount: ratingCountOf(a.agentId),
    })
    .from(a)
    .innerJoin(users, eq(users.id, a.agentId))
    .where(
      and(
        eq(a.missionId, missionId),
        page.id ? eq(a.id, page.id) : undefined,
        mission ? eq(a.round, mission.assignment) : undefined,
        afterCursor(page.cursor, a.createdAt, a.id),
      ),
    )
    .orderBy(...pageOrder(a.createdAt, a.id))
    .limit(page.limit ?? 1);
}

type ApplicationRow = Awaited<ReturnType<typeof listApplicationRows>>[number];

const presentApplication = (row: ApplicationRow): Application => ({
  id: row.id,
  agent: {
    walletAddress: row.walletAddress,
    displayName: row.displayName,
    rating: row.rating,
    ratingCount: row.ratingCount,
  },
  pitch: row.pitch,
  createdAt: row.createdAt.toISOString(),
});
