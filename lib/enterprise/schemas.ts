// Request and response shapes of GET /api/enterprise/analytics (docs/api.md#account). `from` and `to` are
// calendar dates (UTC), both inclusive; the rules that need today's date live in range.ts.
import { z } from 'zod';
import { missionStatusEnum } from '../db/schema/missions';

export const ANALYTICS_INTERVALS = ['day', 'week'] as const;

export const analyticsQuerySchema = z.object({
  from: z.iso.date().optional().describe('First day (UTC), inclusive; default: 29 days before `to`'),
  to: z.iso.date().optional().describe('Last day (UTC), inclusive; default: today. At most 366 days in all'),
  interval: z.enum(ANALYTICS_INTERVALS).default('day').describe('Series buckets: days, or ISO weeks starting Monday'),
});

const amount = z.string().regex(/^[0-9]+$/);
const rate = z.number().min(0).max(1).nullable();

/** One count per mission status, zeros included. */
export const statusCountsSchema = z.strictObject(
  Object.fromEntries(missionStatusEnum.enumValues.map((status) => [status, z.number().int()])) as Record<
    (typeof missionStatusEnum.enumValues)[number],
    z.ZodNumber
  >,
);

export const analyticsSchema = z.strictObject({
  range: z.strictObject({ from: z.iso.date(), to: z.iso.date(), interval: z.enum(ANALYTICS_INTERVALS) }),
  /** The caller's missions posted in the range, by their status now. */
  missions: z.strictObject({ total: z.number().int(), byStatus: statusCountsSchema }),
  /** Rewards of those missions still held (not COMPLETED or CANCELLED), base units. */
  escrowed: amount,
  /** Rewards paid out for those missions (gross, fee included), base units. */
  paid: amount,
  /** Posting to (latest) acceptance, over those missions that have an agent now. */
  avgSecondsToAccept: z.number().nullable(),
  /** Posting to completion, over those missions that are COMPLETED. */
  avgSecondsToComplete: z.number().nullable(),
  /** Of those missions that received a delivery, the share whose delivery was contested at least once. */
  contestRate: rate,
  /** One bucket per interval, gap-free: what was posted, completed and paid in it. */
  series: z.array(
    z.strictObject({ start: z.iso.date(), created: z.number().int(), completed: z.number().int(), paid: amount }),
  ),
  /** Agents who completed the most of those missions. */
  topAgents: z.array(
    z.strictObject({
      walletAddress: z.string(),
      displayName: z.string().nullable(),
      completed: z.number().int(),
      paid: amount,
    }),
  ),
});

export type AnalyticsQuery = z.infer<typeof analyticsQuerySchema>;
export type Analytics = z.infer<typeof analyticsSchema>;
export type StatusCounts = z.infer<typeof statusCountsSchema>;
