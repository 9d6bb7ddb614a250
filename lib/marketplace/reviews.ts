// Reviews (docs/api.md#reviews): the owner of a COMPLETED mission rates its agent once, 1–5 with an optional
// comment, and may edit the review for 24 hours; the ratings feed the agent's profile.
import 'server-only';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../db/client';
import { missionReviews, users } from '../db/schema';
import { uniqueViolation } from '../db/unique-violation';
import { ApiError } from '../errors';
import { recordEvent } from '../missions/events';
import { findMission } from '../missions/queries';
import { canSeeMission, isOwner, type Viewer } from '../missions/visibility';
import type { ReviewView, reviewPatchSchema, reviewSchema } from './schemas';

const EDIT_WINDOW_MS = 24 * 3_600_000;

async function ownedCompletedMission(db: Db, missionId: string, viewer: Viewer) {
  const mission = await findMission(db, missionId);
  if (!mission || !canSeeMission(mission, viewer)) throw new ApiError(404, 'Mission not found');
  if (!isOwner(mission, viewer)) throw new ApiError(403, "Only the mission's owner may review it");
  if (mission.status !== 'COMPLETED' || !mission.agentId)
    throw new ApiError(409, `Mission is ${mission.status}; only a COMPLETED mission is reviewed`);
  return { ...mission, agentId: mission.agentId };
}

export async function reviewMission(
  db: Db,
  missionId: string,
  viewer: Viewer,
  input: z.infer<typeof reviewSchema>,
  now: Date,
): Promise<ReviewView> {
  const mission = await ownedCompletedMission(db, missionId, viewer);
  try {
    await db.transaction(async (tx) => {
      await tx.insert(missionReviews).values({
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
        from: 'COMPLETED',
        to: 'COMPLETED',
        data: { rating: input.rating },
        now,
      });
    });
  } catch (error) {
    if (uniqueViolation(error) === 'mission_reviews_pkey')
      throw new ApiError(409, 'This mission has already been reviewed');
    throw error;
  }
  return readReview(db, missionId);
}

/** Changes the owner's review within 24 hours of writing it; after that it stands. */
export async function editReview(
  db: Db,
  missionId: string,
  viewer: Viewer,
  patch: z.infer<typeof reviewPatchSchema>,
  now: Date,
): Promise<ReviewView> {
  const mission = await ownedCompletedMission(db, missionId, viewer);
  const [existing] = await db
    .select({ createdAt: missionReviews.createdAt })
    .from(missionReviews)
    .where(eq(missionReviews.missionId, missionId));
  if (!existing) throw new ApiError(404, 'This mission has no review yet');
  if (now.getTime() - existing.createdAt.getTime() > EDIT_WINDOW_MS)
    throw new ApiError(409, 'A review can only be edited within 24 hours of writing it');
  await db.transaction(async (tx) => {
    await tx
      .update(missionReviews)
      .set({
        ...(patch.rating !== undefined && { rating: patch.rating }),
        ...(patch.comment !== undefined && { comment: patch.comment }),
        updatedAt: now,
      })
      .where(eq(missionReviews.missionId, missionId));
    await recordEvent(tx, {
      missionId,
      clientId: mission.clientId,
      viewer,
      action: 'review-edit',
      from: 'COMPLETED',
      to: 'COMPLETED',
      data: patch,
      now,
    });
  });
  return readReview(db, missionId);
}

async function readReview(db: Db, missionId: string): Promise<ReviewView> {
  const [row] = await db
    .select({ review: missionReviews, walletAddress: users.walletAddress })
    .from(missionReviews)
    .innerJoin(users, eq(users.id, missionReviews.agentId))
    .where(eq(missionReviews.missionId, missionId));
  const { review } = row!;
  return {
    missionId,
    agent: { walletAddress: row!.walletAddress },
    rating: review.rating,
    comment: review.comment,
    createdAt: review.createdAt.toISOString(),
    updatedAt: review.updatedAt.toISOString(),
  };
}
