// An agent's rating as its offerings keep it (offerings.agent_rating): the reviews' average as
// lib/records/ratings.ts computes it, rewritten in the transaction of every review written or edited and
// when an offering is published, so the search's rating sort is an index walk (docs/api.md#offerings).
import 'server-only';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { offerings } from '../db/schema';
import { ratingOf } from '../records/ratings';

export const currentRatingOf = (agentId: string) => ratingOf(sql`${agentId}::uuid`);

export async function refreshAgentRating(tx: Db, agentId: string): Promise<void> {
  await tx
    .update(offerings)
    .set({ agentRating: currentRatingOf(agentId) })
    .where(eq(offerings.agentId, agentId));
}
