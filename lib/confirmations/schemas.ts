// Request and response shapes of /api/confirmations and of a grant's release limit (docs/api.md#confirmations).
import { z } from 'zod';
import { ApiError } from '../errors';
import { fundingLimitSchema, releaseLimitSchema } from '../oauth/release-limit';

export const decisionSchema = z.strictObject({
  decision: z.enum(['approve', 'deny']),
  termsHash: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, 'a 0x-prefixed keccak256 hash')
    .optional()
    .describe('The termsHash of the confirmation the person saw: 409 when it is not this one’s'),
});
export type DecisionInput = z.infer<typeof decisionSchema>;

/** docs/api.md#confirmation-terms: what the person is asked to judge; termsHash is over exactly this. */
export const termsSchema = z.object({
  action: z.enum(['approve', 'award', 'settle']),
  agent: z.string().nullable().describe("The agent's wallet (an approve)"),
  agentId: z.string().nullable(),
  assignment: z.number().int().describe("The mission's assignment counter"),
  missionId: z.string(),
  reward: z.string().describe("The mission's reward, base units"),
  round: z.number().int().describe('The submission round (an approve)'),
  taskAmount: z.string().nullable().describe('What the escrow task holds, base units; null without an escrow'),
  winners: z.array(z.string()).nullable().describe("An award's winners in place order"),
  offerId: z.string().nullable().optional().describe('A settle: the settlement offer accepted'),
  agentAmount: z.string().nullable().optional().describe('A settle: the base units it releases to the agent'),
});

export const grantLimitSchema = z
  .strictObject({ releaseLimit: releaseLimitSchema.optional(), fundingLimit: fundingLimitSchema.optional() })
  .refine((body) => body.releaseLimit !== undefined || body.fundingLimit !== undefined, 'releaseLimit or fundingLimit');

/** What a 202 answers: the release waits for the person at `url`. */
export const confirmationRequestSchema = z.object({
  confirmation: z.object({ id: z.uuid(), url: z.string(), expiresAt: z.string() }),
});

export const confirmationSchema = z.object({
  id: z.uuid(),
  url: z.string(),
  status: z.enum(['PENDING', 'APPROVED', 'DENIED', 'EXPIRED', 'SUPERSEDED']),
  reason: z.string().nullable().describe('Why it was superseded'),
  action: z.enum(['approve', 'award', 'settle']),
  amount: z.string().describe('Base units the action releases from the escrow (the task’s amount on approve)'),
  terms: termsSchema.nullable().describe('The terms it was asked on; null for one asked before terms were stored'),
  termsHash: z
    .string()
    .nullable()
    .describe('keccak256 of the canonical JSON of terms (docs/api.md#confirmation-terms)'),
  live: z
    .object({ terms: termsSchema, termsHash: z.string(), changed: z.array(z.string()) })
    .optional()
    .describe('The same terms as they are now, on GET /api/confirmations/{id} only; changed names the differences'),
  mission: z.object({ id: z.uuid(), title: z.string(), status: z.string(), reward: z.string() }),
  recipients: z.array(z.object({ walletAddress: z.string(), amount: z.string().nullable() })),
  body: z.record(z.string(), z.unknown()).describe('The request as the token sent it (an award: winners, reason)'),
  grant: z.object({
    id: z.uuid(),
    name: z.string().describe('The name the app gave itself (unverified) or the personal token’s'),
    kind: z.enum(['oauth', 'token']),
    clientDomain: z
      .string()
      .nullable()
      .describe("The host of the app's client metadata document (its client_id URL); null otherwise"),
  }),
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
