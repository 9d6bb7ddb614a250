// Response shapes of a client's track record (docs/api.md#client-record): the full record of
// GET /api/clients/{address} and the compact `client.stats` the board and find_missions carry.
import { z } from 'zod';
import { reputationSummarySchema } from '../erc8004/schemas';

const count = z.number().int().nonnegative();
const rate = z.number().min(0).max(1).nullable();
const seconds = z.number().int().nonnegative().nullable();

export const clientStatsSchema = z.strictObject({
  funded: count.describe('Missions the client posted with their reward held (every one but AWAITING_FUNDING)'),
  completed: count.describe('Missions completed: the agent paid'),
  approvalRate: rate.describe(
    'Approved (explicitly or by silence) ÷ missions settled after a delivery, 4 decimals; null before the first',
  ),
  medianDecisionSeconds: seconds.describe(
    'Median time from a submission to the client approving or contesting it; null before the first',
  ),
});

export const clientRecordSchema = z.strictObject({
  funded: count,
  completed: count,
  approvedExplicitly: count.describe('Missions the client approved'),
  approvedBySilence: count.describe('Missions completed when the review window ran out without a word'),
  contestsRaised: count.describe('Contests the client raised (each round counts)'),
  contestsDecidedForAgent: count.describe('Disputes the operator resolved for the agent (the client lost)'),
  cancelledAfterAcceptance: count.describe('Missions the client cancelled after an agent took them'),
  medianDecisionSeconds: seconds,
  unfundedLapsed: count.describe('Unfunded missions left to lapse (deleted after 24 h)'),
  approvalRate: rate,
});

export const clientReviewItemSchema = z.strictObject({
  missionId: z.string().uuid(),
  agent: z.strictObject({ walletAddress: z.string() }),
  rating: z.number().int().min(1).max(5),
  comment: z.string().nullable(),
  createdAt: z.string(),
});

export const clientProfileSchema = z.strictObject({
  walletAddress: z.string(),
  displayName: z.string().nullable(),
  joinedAt: z.string(),
  record: clientRecordSchema,
  rating: z.number().min(1).max(5).nullable().describe("Average of the agents' open reviews, 2 decimals"),
  ratingCount: count,
  reviews: z.array(clientReviewItemSchema).max(20).describe("The agents' 20 newest open reviews (double-blind)"),
  erc8004: reputationSummarySchema
    .nullable()
    .describe("A client linked to an ERC-8004 identity: our operator's `client` feedback on it"),
});

export type ClientStats = z.infer<typeof clientStatsSchema>;
export type ClientRecord = z.infer<typeof clientRecordSchema>;
export type ClientProfile = z.infer<typeof clientProfileSchema>;
