// Reviews (docs/api.md#reviews), both ways: the owner of a COMPLETED mission rates its agent, and the agent
// of a settled mission (COMPLETED, or CANCELLED while it held it) rates its client — once each, 1–5 with an
// optional comment, editable for 24 hours. The caller's side decides whom it reviews. Each review is sealed
// from the other party and the public until both are in or 7 days after settlement (review-visibility.ts).
import { refreshAgentRating } from '../offerings/agent-rating';
import 'server-only';
import { eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { Db } from '../db/client';
import { clientReviews, missionReviews, users } from '../db/schema';
import { uniqueViolation } from '../db/unique-violation';
import { ApiError } from '../errors';
import { recordEvent } from '../missions/events';
import type { Mission } from '../missions/queries';
import { findMission } from '../missions/queries';
import { canSeeMission, isAssignee, isOwner, type Viewer } from '../missions/visibility';
import { REVEAL_AFTER_MS, revealsAt } from '../records/review-visibility';
import type { MissionReviews, ReviewSide, ReviewView, reviewPatchSchema, reviewSchema } from './schemas';

const EDIT_WINDOW_MS = 24 * 3_600_000;

type Reviewable = Mission & { agentId: string };

/** The mission and the side the caller reviews from: its owner rates the agent, its agent rates the client. */
async function reviewableMission(db: Db, missionId: string, viewer: Viewer): Promise<[Reviewable, ReviewSide]> {
  const mission = await findMission(db, missionId);
  if (!mission || !canSeeMission(mission, viewer)) throw new ApiError(404, 'Mission not found');
  if (isOwner(mission, viewer)) {
    if (mission.status !== 'COMPLETED' || !mission.agentId)
      throw new ApiError(409, `Mission is ${mission.status}; only a COMPLETED mission is reviewed`);
    return [{ ...mission, agentId: mission.agentId }, 'client'];
  }
  if (mission.agentId && isAssignee(mission, viewer)) {
    if (mission.status !== 'COMPLETED' && mission.status !== 'CANCELLED')
      throw new ApiError(409, `Mission is ${mission.status}; only a settled mission is reviewed`);
    return [{ ...mission, agentId: mission.agentId }, 'agent'];
  }
  throw new ApiError(403, "Only the mission's owner or its agent may review it");
}

/** The table a side writes to: the client's review is of the agent, the agent's of the client. */
const tableOf = (side: ReviewSide) => (side === 'client' ? missionReviews : clientReviews);

export async function reviewMission(
  db: Db,
  missionId: string,
  viewer: Viewer,
  input: z.infer<typeof reviewSchema>,
  now: Date,
): Promise<ReviewView> {
  const [mission, side] = await reviewableMission(db, missionId, viewer);
  try {
    await db.transaction(async (tx) => {
      await tx.insert(tableOf(side)).values({
        missionId,
        clientId: mission.clientId,
        agentId: mission.agentId,
        rating: input.rating,
        comment: input.comment ?? null,
        createdAt: now,
        updatedAt: now,
      });
      // In the mission's log too: rankings memoised on the log's last event see the new rating.
      await recordEvent(tx, {
        missionId,
        clientId: mission.clientId,
        viewer,
        action: 'review',
        from: mission.status,
        to: mission.status,
        data: side === 'client' ? { rating: input.rating } : { rating: input.rating, side },
        now,
      });
      await refreshAgentRating(tx, mission.agentId);
    });
  } catch (error) {
    const constraint = uniqueViolation(error);
    if (constraint === 'mission_reviews_pkey' || constraint === 'client_reviews_pkey')
      throw new ApiError(409, 'This mission has already been reviewed');
    throw error;
  }
  return (await readReview(db, missionId, side))!;
}

/** Changes the caller's own review within 24 hours of writing it; after that it stands. */
export async function editReview(
  db: Db,
  missionId: string,
  viewer: Viewer,
  patch: z.infer<typeof reviewPatchSchema>,
  now: Date,
): Promise<ReviewView> {
  const [mission, side] = await reviewableMission(db, missionId, viewer);
  const table = tableOf(side);
  const [existing] = await db.select({ createdAt: table.createdAt }).from(table).where(eq(table.missionId, missionId));
  if (!existing) throw new ApiError(404, 'This mission has no review yet');
  if (now.getTime() - existing.createdAt.getTime() > EDIT_WINDOW_MS)
    throw new ApiError(409, 'A review can only be edited within 24 hours of writing it');
  await db.transaction(async (tx) => {
    await tx
      .update(table)
      .set({
        ...(patch.rating !== undefined && { rating: patch.rating }),
        ...(patch.comment !== undefined && { comment: patch.comment }),
        updatedAt: now,
      })
      .where(eq(table.missionId, missionId));
    await recordEvent(tx, {
      missionId,
      clientId: mission.clientId,
      viewer,
      action: 'review-edit',
      from: mission.status,
      to: mission.status,
      data: side === 'client' ? patch : { ...patch, side },
      now,
    });
    await refreshAgentRating(tx, mission.agentId);
  });
  return (await readReview(db, missionId, side))!;
}

/**
 * GET /api/missions/{id}/review: both reviews as the caller may see them — its own always, the other
 * side's only once both are in or the seal's time is up; `null` for one not written or still sealed.
 */
export async function readMissionReviews(
  db: Db,
  missionId: string,
  viewer: Viewer,
  now: Date,
): Promise<MissionReviews> {
  const mission = await findMission(db, missionId);
  if (!mission || !canSeeMission(mission, viewer)) throw new ApiError(404, 'Mission not found');
  const [byClient, byAgent] = await Promise.all([
    readReview(db, missionId, 'client'),
    readReview(db, missionId, 'agent'),
  ]);
  const settled = mission.completedAt ?? mission.cancelledAt;
  const open =
    (byClient !== undefined && byAgent !== undefined) ||
    (settled !== null && now.getTime() >= settled.getTime() + REVEAL_AFTER_MS);
  const mine: ReviewSide | undefined = isOwner(mission, viewer)
    ? 'client'
    : mission.agentId && isAssignee(mission, viewer)
      ? 'agent'
      : undefined;
  const shown = (side: ReviewSide, review: ReviewView | undefined) =>
    review && (open || side === mine) ? review : null;
  return {
    missionId,
    client: shown('client', byClient),
    agent: shown('agent', byAgent),
    sealed: !open,
    revealsAt: revealsAt(settled),
  };
}

const agentUser = alias(users, 'agent_user');
const clientUser = alias(users, 'client_user');

async function readReview(db: Db, missionId: string, side: ReviewSide): Promise<ReviewView | undefined> {
  const table = tableOf(side);
  const [row] = await db
    .select({
      rating: table.rating,
      comment: table.comment,
      createdAt: table.createdAt,
      updatedAt: table.updatedAt,
      agent: agentUser.walletAddress,
      client: clientUser.walletAddress,
    })
    .from(table)
    .innerJoin(agentUser, eq(agentUser.id, table.agentId))
    .innerJoin(clientUser, eq(clientUser.id, table.clientId))
    .where(eq(table.missionId, missionId));
  if (!row) return undefined;
  return {
    missionId,
    side,
    agent: { walletAddress: row.agent },
    client: { walletAddress: row.client },
    rating: row.rating,
    comment: row.comment,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
