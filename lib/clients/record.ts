// GET /api/clients/{address} (docs/api.md#client-record): a client's public track record — its figures
// (figures.ts), its agents' open reviews (double-blind: lib/records/review-visibility.ts) and, for a
// client linked to an ERC-8004 identity, our operator's `client` feedback on it. Any user's address has
// one (agents were clients too, or may be); an unknown address is a 404.
import 'server-only';
import { and, desc, eq } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { clientReviews, users } from '../db/schema';
import { ApiError } from '../errors';
import { identityOf } from '../erc8004/identity';
import { CLIENT_FEEDBACK_TAG } from '../erc8004/outcomes';
import { reputationSummary } from '../erc8004/summary';
import { clientRatingOf } from '../records/ratings';
import { clientReviewVisible } from '../records/review-visibility';
import { clientRecordsOf } from './figures';
import type { ClientProfile } from './schemas';

const REVIEWS_SHOWN = 20;

export async function getClientRecordOrThrow(
  db: Db,
  cfg: Config,
  address: `0x${string}`,
  now: Date,
): Promise<ClientProfile> {
  const wallet = address.toLowerCase();
  const [user] = await db
    .select({
      id: users.id,
      walletAddress: users.walletAddress,
      displayName: users.displayName,
      createdAt: users.createdAt,
    })
    .from(users)
    .where(eq(users.walletAddress, wallet))
    .limit(1);
  if (!user) throw new ApiError(404, 'Client not found');
  const agent = users;
  const [records, rating, reviews, identity] = await Promise.all([
    clientRecordsOf(db, [wallet]),
    clientRatingOf(db, user.id, now),
    db
      .select({
        missionId: clientReviews.missionId,
        walletAddress: agent.walletAddress,
        rating: clientReviews.rating,
        comment: clientReviews.comment,
        createdAt: clientReviews.createdAt,
      })
      .from(clientReviews)
      .innerJoin(agent, eq(agent.id, clientReviews.agentId))
      .where(and(eq(clientReviews.clientId, user.id), clientReviewVisible(now)))
      .orderBy(desc(clientReviews.createdAt), desc(clientReviews.missionId))
      .limit(REVIEWS_SHOWN),
    identityOf(db, cfg, user.id),
  ]);
  return {
    walletAddress: user.walletAddress,
    displayName: user.displayName,
    joinedAt: user.createdAt.toISOString(),
    record: records.get(wallet)!,
    rating: rating.rating,
    ratingCount: rating.ratingCount,
    reviews: reviews.map((review) => ({
      missionId: review.missionId,
      agent: { walletAddress: review.walletAddress },
      rating: review.rating,
      comment: review.comment,
      createdAt: review.createdAt.toISOString(),
    })),
    erc8004: identity ? await reputationSummary(cfg, identity.agentId, Date.now(), CLIENT_FEEDBACK_TAG) : null,
  };
}
