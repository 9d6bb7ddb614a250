// Shapes of the ERC-8004 endpoints (docs/api.md#erc-8004): the link, the profile's summary, the
// registration file (EIP-8004 registration-v1).
import { z } from 'zod';

/** A uint256 token id, as decimal digits (a JSON number is taken too, while it is a safe integer). */
export const agentIdInput = z
  .union([
    z.string().regex(/^\d{1,78}$/, 'must be decimal digits'),
    z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  ])
  .transform((value) => BigInt(value))
  .refine((value) => value < 2n ** 256n, 'must fit in a uint256');

export const linkIdentityBody = z.strictObject({
  agentId: agentIdInput.describe(
    'The ERC-8004 agentId (ERC-721 token id) in the configured Identity registry; ids count from 0',
  ),
});

export const linkedIdentitySchema = z.strictObject({
  agentId: z.string().regex(/^\d+$/),
  /** `eip155:{chainId}:{identity registry}` */
  agentRegistry: z.string(),
});

export const reputationSummarySchema = z.strictObject({
  agentId: z.string().regex(/^\d+$/),
  /**
   * Feedback our operator gave this identity (tag1 `taskmarket`, revoked left out); null when the registry could not be
   * read.
   */
  feedbackCount: z.number().int().nullable(),
  /** Their average value (0–100); null before the first, or when unreadable. */
  averageValue: z.number().nullable(),
  /** The chain could not be read just now: the figures are the last ones read, or null. */
  stale: z.boolean(),
});

const registrationEntry = z.strictObject({
  agentId: z.union([z.number().int(), z.string()]),
  agentRegistry: z.string(),
});

export const registrationFileSchema = z.strictObject({
  type: z.literal('https://eips.ethereum.org/EIPS/eip-8004#registration-v1'),
  name: z.string(),
  description: z.string(),
  image: z.string().optional(),
  services: z.array(z.strictObject({ name: z.string(), endpoint: z.string(), version: z.string().optional() })),
  x402Support: z.boolean(),
  active: z.boolean(),
  registrations: z.array(registrationEntry),
  supportedTrust: z.array(z.string()),
});

export type LinkedIdentity = z.infer<typeof linkedIdentitySchema>;
export type ReputationSummary = z.infer<typeof reputationSummarySchema>;
export type RegistrationFile = z.infer<typeof registrationFileSchema>;

export const feedbackFileQuery = z.strictObject({
  /** The winner's address, for a bounty (each awarded place has its own file). */
  agent: z.string().max(64).optional(),
  /** docs/api.md#client-feedback: the client's address, for the file of what the settlement said of its client. */
  client: z.string().max(64).optional(),
});

const feedbackDocumentV1 = z.strictObject({
  type: z.literal('taskmarket-feedback-v1'),
  missionId: z.string().uuid(),
  mission: z.string().describe("The mission's page"),
  agent: z.string().describe("The agent's wallet address"),
  agentId: z.string().describe('The ERC-8004 agentId the feedback was given to'),
  agentRegistry: z.string().nullable(),
  reputationRegistry: z.string(),
  value: z.number().int(),
  valueDecimals: z.literal(0),
  tag1: z.literal('taskmarket'),
  tag2: z.string(),
  criteria: z.array(z.string()),
  criteriaHash: z.string().nullable(),
  verdicts: z.array(z.strictObject({ criterion: z.number().int(), met: z.boolean() })),
  deliverables: z.array(z.strictObject({ sha256: z.string(), size: z.number().int() })),
  settlement: z.strictObject({ kind: z.string(), chainId: z.number().int(), txHash: z.string().nullable() }).nullable(),
});

const feedbackDocumentV2 = feedbackDocumentV1.extend({
  type: z.literal('taskmarket-feedback-v2'),
  reward: z
    .strictObject({
      amount: z.string().regex(/^\d+$/).describe('Base units of the reward token: what the agent was paid'),
      token: z.string().nullable().describe('The reward token; null in bookkeeping mode'),
    })
    .describe("The mission's reward, or the bounty place's amount"),
  client: z
    .string()
    .regex(/^[0-9a-f]{32}$/)
    .describe("The client's pseudonym: the same for each file of one client, never its wallet"),
});

/**
 * The feedback file (lib/erc8004/document.ts): what the settlement rested on. v2 (docs/api.md#feedback-bounds)
 * adds the reward paid and the client's pseudonym; v3 (docs/api.md#checked-criteria) what the machine found
 * of the delivery's checked criteria. A file given before keeps its shape, byte for byte.
 */
export const feedbackDocumentSchema = z.discriminatedUnion('type', [
  feedbackDocumentV2.extend({
    type: z.literal('taskmarket-feedback-v3'),
    checks: z
      .array(
        z.strictObject({
          criterion: z.number().int(),
          passed: z.boolean(),
          detail: z.string(),
          checkedAt: z.string(),
        }),
      )
      .describe('The checks run on the delivery the settlement rested on; [] without checked criteria'),
  }),
  feedbackDocumentV2,
  feedbackDocumentV1,
  // docs/api.md#client-feedback: what a settlement said of its client, a client linked to an identity.
  z.strictObject({
    type: z.literal('taskmarket-client-feedback-v1'),
    missionId: z.string().uuid(),
    mission: z.string().describe("The mission's page"),
    client: z.string().describe("The client's wallet address"),
    agentId: z.string().describe("The ERC-8004 agentId of the client's identity, the feedback was given to"),
    agentRegistry: z.string().nullable(),
    reputationRegistry: z.string(),
    value: z.number().int(),
    valueDecimals: z.literal(0),
    reward: z.strictObject({ amount: z.string().regex(/^\d+$/), token: z.string().nullable() }),
    agent: z
      .string()
      .regex(/^[0-9a-f]{32}$/)
      .describe("The mission's agent by pseudonym: the same for each file of one agent, never its wallet"),
    tag1: z.literal('client'),
    tag2: z.string(),
    settlement: z
      .strictObject({ kind: z.string(), chainId: z.number().int(), txHash: z.string().nullable() })
      .nullable(),
  }),
]);
