// The shapes of docs/api.md#post-and-pay: the funding link in an unfunded mission's creation answer,
// GET /api/missions/{id}/funding's terms and typed data, and the POST's two bodies.
import { z } from 'zod';
import { missionSchema, onChainTaskIdSchema } from '../missions/schemas';

/** The cap that kept a delegated post from being funded at once (docs/api.md#standing-allowance). */
export const FUNDING_REASONS = [
  'grant',
  'no-mandate',
  'mandate-per-mission',
  'mandate-per-day',
  'allowance',
  'balance',
  'relayer',
] as const;
export type FundingReason = (typeof FUNDING_REASONS)[number];

export const fundingLinkSchema = z.object({
  url: z.string().describe('The funding page, where the poster signs'),
  expiresAt: z.string().describe('When the unfunded mission lapses (ISO time); the authorization is valid until then'),
  status: z
    .enum(['relaying', 'funded', 'failed'])
    .optional()
    .describe(
      "A post funded at once from the person's standing allowance (docs/api.md#standing-allowance): the " +
        'relayed createTaskFor being mined, mined (the mission is OPEN), or failed (it waits for a signature)',
    ),
  reason: z
    .enum(FUNDING_REASONS)
    .optional()
    .describe(
      'A delegated post not funded at once: the cap that stopped it — grant (its fundingLimit over 24 h), ' +
        "no-mandate, mandate-per-mission, mandate-per-day, allowance (the permit's remainder), balance, relayer",
    ),
  txHash: z.string().optional(),
  error: z.string().optional().describe('Why the relay failed (status failed)'),
});

/** POST /api/missions' answer: the mission, and for an unfunded one where and until when to fund it. */
export const createdMissionSchema = missionSchema.extend({
  funding: fundingLinkSchema.optional().describe('AWAITING_FUNDING only (docs/api.md#post-and-pay)'),
});

export const FUNDING_STATUSES = ['awaiting_signature', 'relaying', 'funded', 'failed'] as const;

const typedDataField = z.object({ name: z.string(), type: z.string() });

export const fundingSchema = z.object({
  typedData: z
    .object({
      domain: z.object({
        name: z.string(),
        version: z.string(),
        chainId: z.number().int(),
        verifyingContract: z.string(),
      }),
      types: z.record(z.string(), z.array(typedDataField)),
      primaryType: z.literal('ReceiveWithAuthorization'),
      message: z.object({
        from: z.string(),
        to: z.string(),
        value: z.string(),
        validAfter: z.string(),
        validBefore: z.string(),
        nonce: z.string(),
      }),
    })
    .describe('EIP-712 typed data of a USDC ReceiveWithAuthorization (EIP-3009); uint256 fields as decimal strings'),
  escrow: z.string(),
  token: z.string(),
  amount: z.string().describe('The reward in base units'),
  ref: z.string().describe('The task ref (bytes32) the nonce commits to'),
  expiresAt: z.string().describe('The task expiry the nonce commits to (unix seconds, decimal)'),
  fundBy: z.string().describe("When the unfunded mission lapses (ISO time): the authorization's validBefore"),
  status: z.enum(FUNDING_STATUSES),
  reason: z.string().optional().describe('Why the last relay failed (status failed)'),
  txHash: z.string().optional(),
  onChainTaskId: z.number().int().optional(),
  relayAvailable: z
    .boolean()
    .describe('Whether the relayer would take a signature now; if not, fund from the wallet (approve + createTask)'),
});

export const fundMissionSchema = z.union([
  z.strictObject({
    signature: z
      .string()
      .regex(/^0x[0-9a-fA-F]{130,20000}$/, 'a 0x-prefixed hex signature')
      .describe("The poster's signature of typedData"),
  }),
  z.strictObject({
    onChainTaskId: onChainTaskIdSchema.describe('A task the poster opened with createTask, same ref and expiresAt'),
  }),
]);

export type FundingView = z.infer<typeof fundingSchema>;
export type FundMissionInput = z.infer<typeof fundMissionSchema>;
