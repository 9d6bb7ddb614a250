// The request and response shapes of the mission endpoints (docs/api.md#missions): the single source for
// validation, the TypeScript types and, later, the OpenAPI document. Rules that need the clock
// (deadline in the future) are checked where `now` is known, in create-mission.ts.
import { z } from 'zod';
import { missionStatusEnum } from '../db/schema/missions';
import { cursorParam } from '../paging/cursor';
import { categorySchema, tagSchema } from '../fields';
import {
  lines,
  MAX_TAGS,
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
import { criteriaSchema, selfCheckSchema, unmetSchema, verdictsSchema } from './criteria';

const UINT256_MAX = (1n << 256n) - 1n;

export const missionStatusSchema = z.enum(missionStatusEnum.enumValues);

/** A token amount in base units: a decimal string, positive, within uint256 (docs/api.md#conventions). */
export const rewardSchema = z
  .string()
  .regex(/^[0-9]{1,78}$/, 'must be a string of decimal digits (base units)')
  .transform((value) => BigInt(value))
  .refine((value) => value > 0n, 'must be greater than zero')
  .refine((value) => value <= UINT256_MAX, 'must fit in uint256');

export const onChainTaskIdSchema = z.union([
  z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  z
    .string()
    .regex(/^[0-9]{1,16}$/, 'must be a non-negative integer')
    .transform(Number)
    .refine(Number.isSafeInteger, 'is too large'),
]);

export const ASSIGNMENT_MODES = ['FIRST_COME', 'APPLICATION', 'BOUNTY'] as const;
export const assignmentSchema = z.enum(ASSIGNMENT_MODES);

// A whole number as JSON or as a form field's digits.
const smallInt = z.union([
  z.number(),
  z
    .string()
    .regex(/^[0-9]{1,3}$/, 'must be a whole number')
    .transform(Number),
]);

// Strict objects: fields a client may not set (status, agent, client…) are a 400, not ignored.
export const createMissionSchema = z
  .strictObject({
    title: missionTitleSchema,
    description: missionDescriptionSchema,
    category: categorySchema.default('general'),
    tags: z
      .array(tagSchema)
      .max(MAX_TAGS)
      .default([])
      .transform((tags) => [...new Set(tags)]),
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
    // docs/api.md#criteria: frozen once OPEN.
    criteria: criteriaSchema
      .optional()
      .describe('Acceptance criteria: 1–20 lines of 1–500 characters, numbered from 1 in this order'),
  })
  .superRefine((input, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
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

export const submitSchema = z.strictObject({
  note: missionNoteSchema.default(''),
  selfCheck: selfCheckSchema.optional(),
});
export const contestSchema = z.strictObject({ reason: missionReasonSchema, unmet: unmetSchema.optional() });
export const bumpSchema = z.strictObject({ reward: rewardSchema.optional() });
export const resolveSchema = z.strictObject({
  outcome: z.enum(['COMPLETED', 'CANCELLED']),
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
export const selfCheckViewSchema = z.array(
  z.object({ criterion: z.number().int(), met: z.boolean(), note: z.string().optional() }),
);

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
  client: z.object({ walletAddress: z.string() }),
  agent: z.object({ walletAddress: z.string() }).nullable(),
  onChainTaskId: z.number().nullable(),
  attachments: z.array(missionFileSchema),
  // docs/api.md#criteria
  criteria: z.array(z.object({ number: z.number().int(), text: z.string() })),
  criteriaHash: z.string().nullable(),
  verdicts: z.array(z.object({ criterion: z.number().int(), met: z.boolean() })).nullable(),
  submission: z
    .object({
      note: z.string(),
      selfCheck: selfCheckViewSchema,
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
  reviewDeadline: timestamp,
  bumpCount: z.number().int(),
  bumpedAt: timestamp,
  createdAt: z.string(),
  updatedAt: z.string(),
  acceptedAt: timestamp,
  submittedAt: timestamp,
  completedAt: timestamp,
  cancelledAt: timestamp,
});

export const missionListSchema = z.object({ items: z.array(missionSchema), nextCursor: z.string().nullable() });

export type CreateMissionInput = z.infer<typeof createMissionSchema>;
export type ListQuery = z.infer<typeof listQuerySchema>;
export type MissionView = z.infer<typeof missionSchema>;
export type MissionFileView = z.infer<typeof missionFileSchema>;
export type MissionList = z.infer<typeof missionListSchema>;
