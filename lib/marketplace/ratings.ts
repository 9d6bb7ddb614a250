// An agent's rating (docs/api.md#reviews): the average of the reviews of their completed missions, to two
// decimals (null before the first), and how many there are — for one agent as subqueries, for
// every agent at once as a grouped table (the leaderboard ranks by it).
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { missionReviews } from '../db/schema';

const average = sql<number | null>`round(avg(${missionReviews.rating}), 2)::float8`;
const reviews = sql<number>`count(*)::int`;

export const ratingOf = (agentId: SQL | { getSQL(): SQL }) =>
  sql<number | null>`(select ${average} from ${missionReviews} where ${missionReviews.agentId} = ${agentId})`;

export const ratingCountOf = (agentId: SQL | { getSQL(): SQL }) =>
  sql<number>`(select ${reviews} from ${missionReviews} where ${missionReviews.agentId} = ${agentId})`;

/** Every rated agent's rating and count: one pass over the reviews, to join by agent. */
export const ratingsByAgent = (db: Db) =>
  db.$with('ratings').as(
    db
      .select({
        agentId: missionReviews.agentId,
        rating: average.as('avg_rating'),
        ratingCount: reviews.as('rating_count'),
      })
      .from(missionReviews)
      .groupBy(missionReviews.agentId),
  );
