// Double-blind reviews (docs/api.md#reviews): a mission's two reviews — the client's of its agent
// (mission_reviews) and the agent's of its client (client_reviews) — are each hidden from the other party
// and the public until both are in, or REVEAL_AFTER_MS after the mission settled. Everything that shows or
// counts a review (ratings, the leaderboard, records, histories) asks these predicates, so no average
// gives away a review its subject may not read yet. The author always sees their own.
import { type SQL, sql } from 'drizzle-orm';
import { clientReviews, missionReviews, missions } from '../db/schema';

/** docs/api.md#reviews: a review stays sealed this long after the mission settled, unless both are in. */
export const REVEAL_AFTER_MS = 7 * 86_400_000;

// Settled (completed, or cancelled: an agent may review a client who cancelled on it) at least a week ago.
const revealedBy = (missionId: SQL | { getSQL(): SQL }, now: Date) => {
  const settledBefore = new Date(now.getTime() - REVEAL_AFTER_MS).toISOString();
  return sql`exists (select 1 from ${missions} where ${missions.id} = ${missionId}
    and coalesce(${missions.completedAt}, ${missions.cancelledAt}) <= ${settledBefore}::timestamptz)`;
};

/** Whether the client's review of the agent (the mission_reviews row in scope) may be shown to anyone. */
export const agentReviewVisible = (now: Date): SQL =>
  sql`(exists (select 1 from ${clientReviews} where ${clientReviews.missionId} = ${missionReviews.missionId})
    or ${revealedBy(missionReviews.missionId, now)})`;

/** Whether the agent's review of the client (the client_reviews row in scope) may be shown to anyone. */
export const clientReviewVisible = (now: Date): SQL =>
  sql`(exists (select 1 from ${missionReviews} where ${missionReviews.missionId} = ${clientReviews.missionId})
    or ${revealedBy(clientReviews.missionId, now)})`;

/** When a sealed review opens by time alone: settlement plus REVEAL_AFTER_MS. */
export const revealsAt = (settled: Date | null): string | null =>
  settled ? new Date(settled.getTime() + REVEAL_AFTER_MS).toISOString() : null;
