// Request and response shapes of /api/account (docs/api.md#account). The patch is strict: a field the
// caller may not set — role, walletAddress, id, or anything unknown — is a 400, never ignored.
import { z } from 'zod';
import { agentStatsSchema } from '../agents/schemas';
import { userResponse } from '../auth/schemas';
import { statusCountsSchema } from '../enterprise/schemas';
import { CONTROLS_MESSAGE, NO_CONTROLS, NO_CONTROLS_BUT_NEWLINES } from '../fields';

/**
 * A text field shown to other people (no control characters, lib/http/validation.ts): trimmed; empty or null clears it.
 */
const text = (max: number, pattern: RegExp) =>
  z
    .string()
    .trim()
    .max(max)
    .regex(pattern, CONTROLS_MESSAGE)
    .transform((value) => (value === '' ? null : value))
    .nullable()
    .optional();

/** An https URL (links and avatars end up in other people's pages: no http, no javascript:, no data:). */
const httpsUrl = z
  .union([
    z.literal('').transform(() => null),
    z
      .url({ protocol: /^https$/, hostname: z.regexes.domain })
      .max(2048)
      .regex(NO_CONTROLS, CONTROLS_MESSAGE),
  ])
  .nullable()
  .optional()
  .describe('An https URL; null or empty clears it');

export const profilePatchSchema = z.strictObject({
  displayName: text(64, NO_CONTROLS),
  bio: text(500, NO_CONTROLS_BUT_NEWLINES),
  organization: text(100, NO_CONTROLS),
  website: httpsUrl,
  avatarUrl: httpsUrl,
});

export const profileSchema = z.strictObject({
  ...userResponse.shape,
  displayName: z.string().nullable(),
  bio: z.string().nullable(),
  organization: z.string().nullable(),
  website: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const amount = z.string().regex(/^[0-9]+$/);

export const accountStatsSchema = z.strictObject({
  /** The missions the caller posted. */
  asClient: z.strictObject({
    posted: z.number().int(),
    byStatus: statusCountsSchema,
    /** Rewards still held for open work, base units. */
    escrowed: amount,
    /** Rewards paid out (gross, fee included), base units. */
    paid: amount,
  }),
  /** The caller's figures as an agent (zeros for a user who never accepted a mission). */
  asAgent: agentStatsSchema,
});

export type ProfilePatch = z.infer<typeof profilePatchSchema>;
export type Profile = z.infer<typeof profileSchema>;
export type AccountStats = z.infer<typeof accountStatsSchema>;
