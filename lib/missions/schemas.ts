// The request and response shapes of the mission endpoints (docs/api.md#missions): the single source for
// validation, the TypeScript types and, later, the OpenAPI document. Rules that need the clock
// (deadline in the future) are checked where `now` is known, in lib/marketplace/create-mission.ts.
import { z } from 'zod';
import { missionStatusEnum } from '../db/schema/missions';
import { MILESTONE_STATUSES } from '../db/schema/milestones';
import { cursorParam } from '../paging/cursor';
import { clientStatsSchema } from '../clients/schemas';
import { categorySchema, tagSchema } from '../fields';
import {
  lines,
  MAX_MILESTONES,
  tagsSchema,
  MIN_MILESTONES,
  MAX_WINNERS,
  missionDescriptionSchema,
  missionNoteSchema,
  missionReasonSchema,
  missionSearchSchema,
  missionTitleSchema,
  shareSchema,
  splitProblems,
  winnersSchema,
} from './fields';
import { addressSchema } from '../address';
import { checkSchema, criteriaSchema, selfCheckSchema, unmetSchema, verdictsSchema } from './criteria';

const UINT256_MAX = (1n << 256n) - 1n;

export const missionStatusSchema = z.enum(missionStatusEnum.enumValues);

/** A token amount in base units: a decimal string, positive, within uint256 (docs/api.md#conventions). */
export const rewardSchema = z
  .string()
  .regex(/^[0-9]{1,78}$/, 'must be a string of decimal digits (base units)')
  .transform((value) => BigInt(value))
  .refine((value) => value > 0n, 'must be greater than zero')
  .refine((value) => value <= UINT256_MAX, 'must fit in uint256');

/** An amount in base units that may be zero (docs/api.md#settlement-offers: nothing to the agent). */
export const amountSchema = z
  .string()
  .regex(/^[0-9]{1,78}$/, 'must be a string of decimal digits (base units)')
  .transform((value) => BigInt(value))
  .refine((value) => value <= UINT256_MAX, 'must fit in uint256');

export const onChainTaskIdSchema = z.union([
  z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  z
    .string()
    .regex(/^[0-9]{1,16}$/, 'must be a non-negative integer')
    .transform(Number)
    .refine(Number.isSafeInteger, 'is too large'),
]);

export const ASSIGNMENT_MODES = ['FIRST_COME', 'APPLICATION', 'BOUNTY', 'DIRECT'] as const;
export const assignmentSchema = z.enum(ASSIGNMENT_MODES);

// A whole number as JSON or as a form field's digits.
const smallInt = z.union([
  z.number(),
  z
    .string()
    .regex(/^[0-9]{1,3}$/, 'must be a whole number')
    .transform(Number),
]);

/** docs/api.md#milestones: one part of the reward, with what its delivery must show. */
export const milestoneInputSchema = z.strictObject({
  title: missionTitleSchema,
  amount: rewardSchema,
  criteria: lines(2000).min(1).optional(),
});

// Strict objects: fields a client may not set (status, agent, client…) are a 400, not ignored.
export const createMissionSchema = z
  .strictObject({
    title: missionTitleSchema,
    description: missionDescriptionSchema,
    category: categorySchema.default('general'),
    tags: tagsSchema.prefault([]),
    reward: rewardSchema,
    deadline: z.iso.datetime({ offset: true }).transform((value) => new Date(value)),
    // Bookkeeping mode: optional; the escrow issue checks it against the chain.
    onChainTaskId: onChainTaskIdSchema.optional(),
    // docs/api.md#applications: FIRST_COME (accept) or APPLICATION (apply, then the owner assigns);
    // docs/api.md#bounties: BOUNTY.
    assignment: assignmentSchema.default('FIRST_COME'),
    winners: smallInt.pipe(winnersSchema).optional().describe('BOUNTY: places to award, 1–10 (default 1)'),
    split: z
      .array(smallInt.pipe(shareSchema))
      .min(1)
      .max(MAX_WINNERS)
      .optional()
      .describe("BOUNTY: each place's percentage of the reward, first place first, summing to 100 (default: equal)"),
    // docs/api.md#direct-missions: the one agent a DIRECT mission is offered to.
    agent: addressSchema.optional().describe('DIRECT: the wallet of the one agent this mission is offered to'),
    // docs/api.md#criteria: frozen once OPEN.
    criteria: criteriaSchema
      .optional()
      .describe(
        'Acceptance criteria, numbered from 1 in this order: 1–20 texts of 1–500 characters, each a string or ' +
          '{ text, check } with a check a machine runs at submit (docs/api.md#checked-criteria)',
      ),
    // docs/api.md#checked-criteria: completed at submit when every check passes (every criterion has one).
    autoApprove: z
      .literal('onChecks')
      .optional()
      .describe('onChecks: COMPLETED and paid at submit when every criterion has a check and all pass'),
    // docs/api.md#milestones: the reward in 2–10 parts, each submitted, approved and released on its own.
    milestones: z
      .array(milestoneInputSchema)
      .min(MIN_MILESTONES)
      .max(MAX_MILESTONES)
      .optional()
      .describe('2–10 parts of the reward, submitted and released in order; their amounts sum to the reward'),
  })
  .superRefine((input, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (input.milestones) {
      if (input.assignment === 'BOUNTY') issue('milestones', 'a BOUNTY has places, not milestones');
      const sum = input.milestones.reduce((total, m) => total + m.amount, 0n);
      if (sum !== input.reward) issue('milestones', `amounts must sum to the reward ${input.reward}, not ${sum}`);
    }
    const checked = (input.criteria ?? []).some((c) => typeof c !== 'string' && c.check);
    if (checked && input.milestones)
      issue('criteria', 'a milestone mission is delivered in parts: its criteria are texts, without checks');
    if (input.autoApprove) {
      const unchecked = (input.criteria ?? []).findIndex((c) => typeof c === 'string' || !c.check);
      if (!input.criteria) issue('autoApprove', 'onChecks needs criteria, each with a check');
      else if (unchecked >= 0)
        issue('autoApprove', `onChecks needs a check on every criterion (${unchecked + 1} has none)`);
      if (input.assignment === 'BOUNTY') issue('autoApprove', 'a BOUNTY is settled by its award');
      if (input.milestones) issue('autoApprove', 'a milestone mission is approved milestone by milestone');
    }
    if (input.assignment === 'DIRECT' && input.agent === undefined) issue('agent', 'a DIRECT mission names its agent');
    if (input.assignment !== 'DIRECT' && input.agent !== undefined)
      issue('agent', 'only a DIRECT mission names an agent');
    if (input.assignment !== 'BOUNTY') {
      if (input.winners !== undefined) issue('winners', 'only a BOUNTY has winners');
      if (input.split !== undefined) issue('split', 'only a BOUNTY has a split');
      return;
    }
    if (input.split === undefined) return;
    const winners = input.winners ?? 1;
    for (const problem of splitProblems(input.split, winners)) {
      issue(
        'split',
        problem === 'count' ? `must name one percentage for each of the ${winners} places` : 'must sum to 100',
      );
    }
  });

/** docs/api.md#milestones: which milestone an action on a milestone mission is about. */
const milestoneNumber = smallInt.pipe(z.number().int().min(1).max(MAX_MILESTONES));

export const submitSchema = z.strictObject({
  milestone: milestoneNumber.optional().describe('A milestone mission: the milestone delivered (the one at hand)'),
  note: missionNoteSchema.default(''),
  selfCheck: selfCheckSchema.optional(),
});
export const contestSchema = z.strictObject({
  milestone: milestoneNumber.optional().describe('A milestone mission: the milestone contested (the one at hand)'),
  reason: missionReasonSchema,
  unmet: unmetSchema.optional(),
});
export const approveSchema = z.strictObject({
  milestone: milestoneNumber.optional().describe('A milestone mission: the milestone approved (the one at hand)'),
});
export const bumpSchema = z.strictObject({ reward: rewardSchema.optional() });
export const resolveSchema = z.strictObject({
  outcome: z.enum(['COMPLETED', 'CANCELLED', 'SPLIT']),
  // docs/api.md#split-verdicts: the agent's part of the reward (before the fee), the rest refunded.
  agentAmount: amountSchema.optional().describe('SPLIT only: base units to the agent, 1 to reward − 1'),
  note: lines(2000).optional(),
  // docs/api.md#bounties: a DISPUTED bounty is completed with the operator's award.
  winners: z
    .array(addressSchema)
    .max(10)
    .optional()
    .describe('BOUNTY, outcome COMPLETED: the winning entrants, first place first'),
  reason: missionReasonSchema.optional().describe('BOUNTY: why places are left unawarded'),
  verdicts: verdictsSchema.optional(),
});

export const MISSION_SORTS = ['bumped', 'reward', 'deadline', 'created'] as const;

export const listQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: cursorParam,
  status: z
    .string()
    .transform((value) => value.split(',').map((s) => s.trim().toUpperCase()))
    .pipe(z.array(missionStatusSchema).min(1).max(9))
    .optional(),
  category: categorySchema.optional(),
  tag: tagSchema.optional(),
  minReward: z
    .string()
    .regex(/^[0-9]{1,78}$/, 'must be a string of decimal digits (base units)')
    .transform((value) => BigInt(value))
    .optional(),
  q: missionSearchSchema.optional(),
  sort: z.enum(MISSION_SORTS).default('bumped'),
  mine: z.enum(['client', 'agent']).optional(),
});

export const missionFileSchema = z.object({
  id: z.string(),
  filename: z.string(),
  contentType: z.string(),
  size: z.number().int(),
  sha256: z.string(),
});

const timestamp = z.string().nullable();

// docs/api.md#next-actions: one of the transition table's rows this caller may take now.
export const nextActionSchema = z.object({
  action: z.string(),
  method: z.string(),
  path: z.string().describe("Relative to the origin, e.g. /api/missions/{id}/submit with the mission's id"),
  tool: z.string().optional().describe('The MCP tool that calls it'),
  until: z.string().optional().describe('When it stops being allowed'),
  needsScope: z.string().optional().describe('The scope this token lacks for it: a step-up brings it'),
});
// docs/api.md#checked-criteria: one checked criterion's result, as the submission records it.
export const checkResultSchema = z.object({
  criterion: z.number().int(),
  passed: z.boolean(),
  detail: z.string(),
  checkedAt: z.string(),
});
export const selfCheckViewSchema = z.array(
  z.object({ criterion: z.number().int(), met: z.boolean(), note: z.string().optional() }),
);

export const milestoneViewSchema = z.object({
  number: z.number().int(),
  title: z.string(),
  amount: z.string(),
  criteria: z.string().nullable(),
  status: z.enum(MILESTONE_STATUSES),
  releasedAmount: z.string(),
  reviewDeadline: timestamp,
  contests: z.number().int(),
  submittedAt: timestamp,
  approvedAt: timestamp,
});

export const missionSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  category: z.string(),
  tags: z.array(z.string()),
  reward: z.string(),
  deadline: z.string(),
  status: missionStatusSchema,
  assignment: assignmentSchema,
  client: z.object({
    walletAddress: z.string(),
    // docs/api.md#client-record: on list items (the board, `mine`, find_missions), the client's track record.
    stats: clientStatsSchema.optional(),
  }),
  agent: z.object({ walletAddress: z.string() }).nullable(),
  onChainTaskId: z.number().nullable(),
  attachments: z.array(missionFileSchema),
  // docs/api.md#criteria
  criteria: z.array(z.object({ number: z.number().int(), text: z.string(), check: checkSchema.optional() })),
  criteriaHash: z.string().nullable(),
  autoApprove: z
    .literal('onChecks')
    .nullable()
    .describe('docs/api.md#checked-criteria: paid at submit on passing checks'),
  verdicts: z.array(z.object({ criterion: z.number().int(), met: z.boolean() })).nullable(),
  submission: z
    .object({
      note: z.string(),
      selfCheck: selfCheckViewSchema,
      checks: z.array(checkResultSchema).describe("docs/api.md#checked-criteria: the machine's, apart from selfCheck"),
      files: z.array(missionFileSchema),
      submittedAt: z.string(),
    })
    .nullable(),
  contests: z.array(
    z.object({
      round: z.number().int(),
      reason: z.string(),
      unmet: z.array(z.object({ criterion: z.number().int(), reason: z.string() })),
      files: z.array(missionFileSchema),
      contestedAt: z.string(),
    }),
  ),
  bounty: z
    .object({
      winners: z.number().int(),
      split: z.array(z.number().int()).nullable(),
      entries: z.number().int(),
      awardedAt: timestamp,
      awardReason: z.string().nullable(),
      awards: z.array(z.object({ place: z.number().int(), walletAddress: z.string(), amount: z.string() })),
    })
    .nullable(),
  // docs/api.md#milestones: [] on a mission without milestones.
  milestones: z.array(milestoneViewSchema),
  released: z.string().describe('Base units released so far by milestones (releasePart)'),
  // docs/api.md#settlement-offers: how the mission ended in part, and the pending offer (its parties only).
  settlement: z
    .object({ agentAmount: z.string(), refund: z.string(), by: z.enum(['agreement', 'operator']) })
    .nullable(),
  settlementOffer: z
    .object({
      id: z.string(),
      by: z.enum(['client', 'agent']),
      agentAmount: z.string(),
      refund: z.string(),
      note: z.string().nullable(),
      expiresAt: z.string(),
    })
    .nullable(),
  // docs/api.md#offerings: the offering an order was placed from, and its requirements.
  offering: z.object({ id: z.string(), title: z.string() }).nullable(),
  requirements: z.unknown().nullable(),
  reviewDeadline: timestamp,
  bumpCount: z.number().int(),
  bumpedAt: timestamp,
  createdAt: z.string(),
  updatedAt: z.string(),
  acceptedAt: timestamp,
  submittedAt: timestamp,
  completedAt: timestamp,
  cancelledAt: timestamp,
  actions: z.array(nextActionSchema).describe('What this caller may do next (docs/api.md#next-actions)'),
});

/** docs/api.md#settlement-offers: `POST /api/missions/{id}/settlement-offers`. */
export const settlementOfferSchema = z.strictObject({
  agentAmount: amountSchema.describe('Base units to the agent (before the fee), 0 to the reward'),
  note: lines(2000).optional(),
});

/** docs/api.md#settlement-offers: the other party's answer. */
export const settlementAnswerSchema = z.strictObject({ decision: z.enum(['accept', 'reject']) });

export const settlementOfferViewSchema = z.object({
  offer: z.object({
    id: z.string(),
    by: z.enum(['client', 'agent']),
    agentAmount: z.string(),
    refund: z.string(),
    note: z.string().nullable(),
    expiresAt: z.string(),
  }),
});

export const missionListSchema = z.object({ items: z.array(missionSchema), nextCursor: z.string().nullable() });

export type CreateMissionInput = z.infer<typeof createMissionSchema>;
export type ListQuery = z.infer<typeof listQuerySchema>;
export type MissionView = z.infer<typeof missionSchema>;
export type MissionFileView = z.infer<typeof missionFileSchema>;
export type MissionList = z.infer<typeof missionListSchema>;

// docs/api.md#timeline
export const timelineQuerySchema = z.object({
  after: z.coerce.number().int().min(0).default(0).describe('The last seq seen; 0 for the first events'),
  wait: z.coerce.number().int().min(0).max(25).default(0).describe('Seconds to hold for the next event, 0–25'),
});

export const timelineEventSchema = z.object({
  seq: z.number().int(),
  event: z.string(),
  from: missionStatusSchema.nullable(),
  to: missionStatusSchema,
  at: z.string(),
  actor: z.enum(['OWNER', 'AGENT', 'OPERATOR', 'SYSTEM']),
  data: z.record(z.string(), z.unknown()).optional().describe("What came with it: the mission's parties only"),
});

export const timelineSchema = z.object({ events: z.array(timelineEventSchema) });
