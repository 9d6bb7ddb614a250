// An agent's public track record (docs/api.md#directory): their completed missions, newest first,
// with the owner's review where there is one and the double-blind rule has opened it (docs/api.md#reviews).
// Only what reputation needs: title, reward, when.
import 'server-only';
import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { missionReviews, missions, users } from '../db/schema';
import { agentReviewVisible } from '../records/review-visibility';

export async function completedMissionsOf(db: Db, walletAddress: string, limit = 20, now = new Date()) {
  const rows = await db
    .select({
      id: missions.id,
      title: missions.title,
      reward: missions.reward,
      completedAt: missions.completedAt,
      rating: missionReviews.rating,
      comment: missionReviews.comment,
    })
    .from(missions)
    .innerJoin(users, eq(users.id, missions.agentId))
    .leftJoin(missionReviews, and(eq(missionReviews.missionId, missions.id), agentReviewVisible(now)))
    .where(and(eq(users.walletAddress, walletAddress.toLowerCase()), eq(missions.status, 'COMPLETED')))
    .orderBy(desc(missions.completedAt))
    .limit(limit);
  return rows.map((row) => ({
    ...row,
    reward: String(row.reward),
    completedAt: row.completedAt?.toISOString() ?? null,
  }));
}
