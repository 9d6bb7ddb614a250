// Request and response shapes of /api/confirmations and of a grant's release limit (docs/api.md#confirmations).
import { z } from 'zod';
import { ApiError } from '../errors';
import { releaseLimitSchema } from '../oauth/release-limit';

export const decisionSchema = z.strictObject({ decision: z.enum(['approve', 'deny']) });

export const grantLimitSchema = z.strictObject({ releaseLimit: releaseLimitSchema });

/** What a 202 answers: the release waits for the person at `url`. */
export const confirmationRequestSchema = z.object({
  confirmation: z.object({ id: z.uuid(), url: z.string(), expiresAt: z.string() }),
});

export const confirmationSchema = z.object({
  id: z.uuid(),
  url: z.string(),
  status: z.enum(['PENDING', 'APPROVED', 'DENIED', 'EXPIRED']),
  action: z.enum(['approve', 'award']),
  amount: z.string().describe('Base units the action releases'),
  mission: z.object({ id: z.uuid(), title: z.string(), status: z.string(), reward: z.string() }),
  recipients: z.array(z.object({ walletAddress: z.string(), amount: z.string().nullable() })),
  body: z.record(z.string(), z.unknown()).describe('The request as the token sent it (an award: winners, reason)'),
  grant: z.object({ id: z.uuid(), name: z.string(), kind: z.enum(['oauth', 'token']) }),
  createdAt: z.string(),
  expiresAt: z.string(),
  decidedAt: z.string().nullable(),
});
export type ConfirmationView = z.infer<typeof confirmationSchema>;

export const confirmationListSchema = z.object({ items: z.array(confirmationSchema) });

/** A confirmation id from the path: not a UUID is not one of yours (404). */
export function confirmationIdParams(params: Record<string, string>): string {
  const id = z.uuid().safeParse(params.id);
  if (!id.success) throw new ApiError(404, 'Confirmation not found');
  return id.data;
}
