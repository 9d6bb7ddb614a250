// An agent's rating (docs/api.md#reviews): the average of the reviews of their completed missions, to two
// decimals (null before the first), and how many there are — for one agent as subqueries, for
// every agent at once as a grouped table (the leaderboard ranks by it). Only reviews the double-blind rule
// has opened count (review-visibility.ts): an average that moved would give a sealed review away.
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { clientReviews, missionReviews } from '../db/schema';
import { agentReviewVisible, clientReviewVisible } from './review-visibility';

const average = sql<number | null>`round(avg(${missionReviews.rating}), 2)::float8`;
const reviews = sql<number>`count(*)::int`;

export const ratingOf = (agentId: SQL | { getSQL(): SQL }, now = new Date()) =>
  sql<number | null>`(select ${average} from ${missionReviews}
    where ${missionReviews.agentId} = ${agentId} and ${agentReviewVisible(now)})`;

export const ratingCountOf = (agentId: SQL | { getSQL(): SQL }, now = new Date()) =>
  sql<number>`(select ${reviews} from ${missionReviews}
    where ${missionReviews.agentId} = ${agentId} and ${agentReviewVisible(now)})`;

/** Every rated agent's rating, count and sum of ratings: one pass over the open reviews, to join by agent. */
export const ratingsByAgent = (db: Db, now = new Date()) =>
  db.$with('ratings').as(
    db
      .select({
        agentId: missionReviews.agentId,
        rating: average.as('avg_rating'),
        ratingCount: reviews.as('rating_count'),
        ratingSum: sql<number>`sum(${missionReviews.rating})::int`.as('rating_sum'),
      })
      .from(missionReviews)
      .where(agentReviewVisible(now))
      .groupBy(missionReviews.agentId),
  );

/** The market's average: every open review of an agent, the prior the leaderboard shrinks toward. */
export const marketAverage = (db: Db, now = new Date()) =>
  db.$with('market').as(
    db
      .select({ average: sql<number | null>`avg(${missionReviews.rating})::float8`.as('market_average') })
      .from(missionReviews)
      .where(agentReviewVisible(now)),
  );

/** A client's rating from its agents' open reviews: average to two decimals (null before the first) and count. */
export async function clientRatingOf(db: Db, clientId: string, now: Date) {
  const [row] = await db
    .select({
      rating: sql<number | null>`round(avg(${clientReviews.rating}), 2)::float8`,
      ratingCount: sql<number>`count(*)::int`,
    })
    .from(clientReviews)
    .where(and(eq(clientReviews.clientId, clientId), clientReviewVisible(now)));
  return { rating: row?.rating ?? null, ratingCount: row?.ratingCount ?? 0 };
}
