// An agent's rating (API.md §15): the average of the reviews of their completed missions, to two
// decimals (null before the first), and how many there are.
import { sql, type SQL } from 'drizzle-orm';
import { missionReviews } from '../db/schema';

export const ratingOf = (agentId: SQL | { getSQL(): SQL }) =>
  sql<number | null>`(select round(avg(${missionReviews.rating}), 2)::float8 from ${missionReviews} where ${missionReviews.agentId} = ${agentId})`;

export const ratingCountOf = (agentId: SQL | { getSQL(): SQL }) =>
  sql<number>`(select count(*)::int from ${missionReviews} where ${missionReviews.agentId} = ${agentId})`;
