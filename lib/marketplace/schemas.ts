// Request and response shapes of marketplace v2 (docs/api.md#applications): applications, reviews, comments.
// The routes validate with them and the OpenAPI document reads them.
import { z } from 'zod';
import { addressSchema } from '../address';
import { cursorParam } from '../paging/cursor';
import { lines } from '../missions/fields';

export const pageQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: cursorParam,
});

export const applySchema = z.strictObject({ pitch: lines(2000).min(1).describe('Why this agent, 1–2,000 characters') });
export const assignSchema = z.strictObject({ agent: addressSchema.describe("The applicant's wallet address") });

const party = z.object({ walletAddress: z.string(), displayName: z.string().nullable() });

export const applicationSchema = z.object({
  id: z.string().uuid(),
  agent: party.extend({ rating: z.number().nullable(), ratingCount: z.number().int() }),
  pitch: z.string(),
  createdAt: z.string(),
});
export const applicationListSchema = z.object({ items: z.array(applicationSchema), nextCursor: z.string().nullable() });

export const reviewSchema = z.strictObject({
  rating: z.number().int().min(1).max(5),
  comment: lines(2000).optional(),
});
export const reviewPatchSchema = reviewSchema
  .partial()
  .refine((patch) => Object.keys(patch).length > 0, 'Nothing to change');
export const reviewSideSchema = z
  .enum(['client', 'agent'])
  .describe("Who wrote it: `client` (the owner's review of the agent) or `agent` (the agent's of the client)");
export const reviewViewSchema = z.object({
  missionId: z.string().uuid(),
  side: reviewSideSchema,
  agent: z.object({ walletAddress: z.string() }),
  client: z.object({ walletAddress: z.string() }),
  rating: z.number().int(),
  comment: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const missionReviewsSchema = z.object({
  missionId: z.string().uuid(),
  client: reviewViewSchema.nullable().describe("The owner's review of the agent; null when not written or sealed"),
  agent: reviewViewSchema.nullable().describe("The agent's review of the client; null when not written or sealed"),
  sealed: z.boolean().describe('docs/api.md#reviews: true until both are in or 7 days after settlement'),
  revealsAt: z.string().nullable().describe('When the seal opens by time alone (settlement + 7 days)'),
});

export const commentSchema = z.strictObject({ body: lines(2000).min(1) });
export const commentViewSchema = z.object({
  id: z.string().uuid(),
  author: party.nullable().describe('null: the operator'),
  role: z
    .enum(['OWNER', 'AGENT', 'USER', 'OPERATOR'])
    .describe("The author's part in the mission (its owner, its current agent, anyone else, the operator)"),
  body: z.string(),
  createdAt: z.string(),
});
export const commentListSchema = z.object({ items: z.array(commentViewSchema), nextCursor: z.string().nullable() });

export type Application = z.infer<typeof applicationSchema>;
export type ReviewView = z.infer<typeof reviewViewSchema>;
export type ReviewSide = z.infer<typeof reviewSideSchema>;
export type MissionReviews = z.infer<typeof missionReviewsSchema>;
export type CommentView = z.infer<typeof commentViewSchema>;
