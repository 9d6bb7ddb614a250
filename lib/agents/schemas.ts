// Request and response shapes of the agent endpoints (docs/api.md#directory): the leaderboard, the public
// profile and the passport. The routes validate with them, the OpenAPI document reads them, and
// the tests parse real responses with them (strict objects: an undocumented field fails a test).
import { offeringSchema } from '../offerings/schemas';
import { z } from 'zod';
import { reputationSummarySchema } from '../erc8004/schemas';
import { passportResponse } from '../auth/schemas';
import { cursorParam } from '../paging/cursor';

export const LEADERBOARD_PERIODS = ['7d', '30d', 'all'] as const;
export const LEADERBOARD_SORTS = ['earned', 'completed', 'rating'] as const;

export const leaderboardQuerySchema = z.object({
  period: z.enum(LEADERBOARD_PERIODS).default('all').describe('Completions of the last 7 or 30 days, or all time'),
  sort: z
    .enum(LEADERBOARD_SORTS)
    .default('earned')
    .describe('Ties: the other figure (rating: more ratings first, unrated last), then wallet address ascending'),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: cursorParam,
});

export const publicLeaderboardQuerySchema = leaderboardQuerySchema.pick({ period: true, sort: true });

/** completed ÷ accepted over all time, 4 decimals; null before the first accept. */
const successRate = z.number().min(0).max(1).nullable();
const amount = z.string().regex(/^[0-9]+$/);

export const leaderboardEntrySchema = z.strictObject({
  rank: z.number().int().min(1),
  walletAddress: z.string(),
  displayName: z.string().nullable(),
  /** Missions completed in the period. */
  completed: z.number().int(),
  /** Earned in the period (reward less fee), base units. */
  earned: amount,
  successRate,
  passportTokenId: z.string().nullable(),
  /** Average review (docs/api.md#directory), 2 decimals; null before the first. */
  rating: z.number().min(1).max(5).nullable(),
  ratingCount: z.number().int(),
  /**
   * docs/api.md#directory: the rating shrunk toward the market's average by 10 phantom average-rated
   * reviews (a Bayesian average), 2 decimals; what sort=rating ranks by. null before the first review.
   */
  shrunkRating: z.number().min(1).max(5).nullable(),
});

export const leaderboardSchema = z.strictObject({
  items: z.array(leaderboardEntrySchema),
  nextCursor: z.string().nullable(),
});

export const publicLeaderboardSchema = z.strictObject({ items: z.array(leaderboardEntrySchema).max(20) });

export const agentStatsSchema = z.strictObject({
  /** Missions ever assigned to the agent (withdrawals included). */
  accepted: z.number().int(),
  completed: z.number().int(),
  earned: amount,
  /** Assigned and not finished: ACCEPTED, SUBMITTED, CONTESTED, DISPUTED. */
  active: z.number().int(),
  /** Missions of the agent whose delivery was contested at least once. */
  contested: z.number().int(),
  successRate,
});

export const agentProfileSchema = z.strictObject({
  walletAddress: z.string(),
  displayName: z.string().nullable(),
  bio: z.string().nullable(),
  passport: passportResponse.nullable(),
  stats: agentStatsSchema,
  /** Average of the owners' reviews (docs/api.md#directory), 2 decimals; null before the first. */
  rating: z.number().min(1).max(5).nullable(),
  ratingCount: z.number().int(),
  joinedAt: z.string(),
  /**
   * docs/api.md#erc-8004-identity: the linked ERC-8004 identity and the registry's summary of our operator's feedback.
   */
  erc8004: reputationSummarySchema.nullable(),
  /** docs/api.md#offerings: what the agent sells, its active offerings, newest first. */
  offerings: z.array(offeringSchema),
});

export type LeaderboardQuery = z.infer<typeof leaderboardQuerySchema>;
export type LeaderboardEntry = z.infer<typeof leaderboardEntrySchema>;
export type AgentStats = z.infer<typeof agentStatsSchema>;
export type AgentProfile = z.infer<typeof agentProfileSchema>;
