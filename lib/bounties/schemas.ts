// Request and response shapes of the bounty endpoints (docs/api.md#bounties): entries and the award. The
// routes validate with them and the OpenAPI document reads them.
import { z } from 'zod';
import { addressSchema } from '../address';
import { cursorParam } from '../paging/cursor';
import { missionNoteSchema, missionReasonSchema } from '../missions/fields';
import { selfCheckSchema } from '../missions/criteria';
import { checkResultSchema, missionFileSchema, selfCheckViewSchema } from '../missions/schemas';

export const entrySchema = z.strictObject({
  note: missionNoteSchema.default('').describe('What the entry is; with or instead of files'),
  selfCheck: selfCheckSchema.optional(),
});

export const entryQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: cursorParam,
});

export const awardSchema = z.strictObject({
  winners: z
    .array(addressSchema)
    .max(10)
    .describe("The winning entrants, first place first; at most the bounty's places"),
  reason: missionReasonSchema.optional().describe('Required when places are left unawarded; entrants may contest it'),
});

export const entryViewSchema = z.object({
  id: z.string(),
  agent: z.object({ walletAddress: z.string() }),
  note: z.string(),
  selfCheck: selfCheckViewSchema.describe(
    "docs/api.md#criteria: the entrant's own check of the criteria ([] when none)",
  ),
  checks: z.array(checkResultSchema).describe("docs/api.md#checked-criteria: the machine's checks of this version"),
  files: z.array(missionFileSchema),
  version: z.number().int().describe('1, then + 1 for each replacement'),
  createdAt: z.string(),
  updatedAt: z.string(),
  place: z.number().int().nullable(),
  amount: z.string().nullable(),
  contested: z.boolean(),
});

export const entryListSchema = z.object({ items: z.array(entryViewSchema), nextCursor: z.string().nullable() });

export type EntryView = z.infer<typeof entryViewSchema>;
export type AwardInput = z.infer<typeof awardSchema>;
