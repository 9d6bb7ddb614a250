// Field rules several domains share: the ids of missions, files and settlements, and the category
// and tags a mission is labelled with (webhook filters match on them too).
import { z } from 'zod';
import { ApiError } from './errors';

// The one list of mission states (docs/api.md#mission-states): the database enum, the API's schemas and the
// dashboard's status filter all read it. JUDGING and AWARDED are a bounty's (docs/api.md#bounties);
// AWAITING_FUNDING (docs/api.md#post-and-pay): posted, its reward not yet on-chain, seen only by its poster.
export const MISSION_STATUSES = [
  'OPEN',
  'ACCEPTED',
  'SUBMITTED',
  'CONTESTED',
  'DISPUTED',
  'COMPLETED',
  'CANCELLED',
  'JUDGING',
  'AWARDED',
  'AWAITING_FUNDING',
] as const;

/**
 * The states in which a mission is an agent's active work (docs/api.md#agent-capacity): what counts
 * against MAX_ACTIVE_MISSIONS and what a profile's `active` counts. A DISPUTED mission waits for the
 * operator, not for the agent.
 */
export const ACTIVE_MISSION_STATUSES = [
  'ACCEPTED',
  'SUBMITTED',
  'CONTESTED',
] as const satisfies readonly (typeof MISSION_STATUSES)[number][];

/** Mission and file ids: any UUID-shaped string; anything else is a 404, never a 500 (docs/api.md#conventions). */
export const idSchema = z.guid();

// Tags are comma-separated in multipart forms, so a tag can never hold a comma.
export const tagSchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(32)
  .regex(/^[\p{L}\p{N}][\p{L}\p{N} ._+#-]*$/u, 'letters, digits, space and . _ + # - only');

export const categorySchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(50)
  .regex(/^[\p{L}\p{N}][\p{L}\p{N} _-]*$/u, 'letters, digits, space, _ and - only');

// Text that people read and PostgreSQL stores: no control characters (text columns and jsonb
// cannot hold NUL at all), except line breaks and tabs where the field is multi-line, and no
// unpaired surrogate (jsonb refuses one; a text column would silently store U+FFFD instead).
export const NO_CONTROLS = /^[^\p{Cc}\p{Cs}]*$/u;
export const NO_CONTROLS_BUT_NEWLINES = /^(?:[^\p{Cc}\p{Cs}]|[\n\r\t])*$/u;
export const CONTROLS_MESSAGE = 'must not contain control characters';
// A name shown to someone deciding whom to trust (an OAuth client's, on the consent page) also refuses
// format characters (\p{Cf}): a bidi override or a zero-width character makes it read as something
// it is not ("Claude\u202Etxt.exe"). Not for prose, where emoji need the zero-width joiner.
export const NO_CONTROLS_OR_FORMAT = /^[^\p{Cc}\p{Cs}\p{Cf}]*$/u;

/** Lists every issue as `path: message`, so a client can fix all of them in one round. */
export function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String).join('.');
    return path ? `${path}: ${issue.message}` : issue.message;
  });
}

/** The input as the schema reads it, or 400 naming every problem by field (docs/api.md#errors). */
export function validate<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new ApiError(400, 'Validation failed', describeIssues(result.error));
  return result.data;
}
