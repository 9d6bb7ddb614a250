// Response shapes of the earnings and claim endpoints (docs/api.md#earnings); amounts are base-unit strings.
import { z } from 'zod';

const amount = z.string().regex(/^\d+$/).describe('Integer base units of the reward token');

export const earningsEntrySchema = z.object({
  type: z.enum(['EARNED', 'CLAIM']),
  missionId: z.string().uuid().nullable(),
  title: z.string().nullable(),
  gross: amount.nullable(),
  fee: amount.nullable(),
  amount,
  status: z.enum(['PENDING', 'MINED', 'FAILED', 'SUPERSEDED']).nullable(),
  txHash: z.string().nullable(),
  at: z.string().datetime(),
});

export const earningsSchema = z.object({
  pending: amount,
  claimed: amount,
  inFlight: amount,
  history: z.array(earningsEntrySchema),
});

export const claimResponseSchema = z.object({
  amount,
  txHash: z.string().nullable(),
  status: z.enum(['PENDING', 'MINED', 'FAILED', 'SUPERSEDED']),
});

/** A settlement as the operator sees it (docs/api.md#settlements). */
export const settlementSchema = z.object({
  id: z.string().uuid(),
  kind: z.enum(['RELEASE', 'REFUND', 'CLAIM', 'SPLIT', 'PART', 'SETTLE']),
  status: z.enum(['PENDING', 'MINED', 'FAILED', 'SUPERSEDED']),
  missionId: z.string().uuid().nullable(),
  beneficiary: z.string(),
  amount,
  txHash: z.string().nullable(),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
});
