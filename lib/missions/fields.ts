// A mission's fields as the API validates them, browser-safe (zod and the text rules only), so the
// dashboard's forms check the server's own rules before anything is signed or sent.
import { z } from 'zod';
import { CONTROLS_MESSAGE, NO_CONTROLS, NO_CONTROLS_BUT_NEWLINES, tagSchema } from '../fields';

// Free text is stored and shown to others: no control characters (PostgreSQL refuses NUL in text
// and jsonb, which would be a 500), line breaks and tabs only where the text has lines.
export const line = (max: number) => z.string().trim().max(max).regex(NO_CONTROLS, CONTROLS_MESSAGE);
export const lines = (max: number) => z.string().trim().max(max).regex(NO_CONTROLS_BUT_NEWLINES, CONTROLS_MESSAGE);

export const missionTitleSchema = line(200).min(1);
export const missionDescriptionSchema = lines(10_000).min(1);
export const MAX_TAGS = 10;

/** A mission's or an offering's tags: at most MAX_TAGS, repeats dropped. */
export const tagsSchema = z
  .array(tagSchema)
  .max(MAX_TAGS)
  .transform((tags) => [...new Set(tags)]);
/** A delivery's or a bounty entry's note. */
export const missionNoteSchema = lines(10_000);
/** Why: a contest's reason, or an award's for the places it leaves unawarded. */
export const missionReasonSchema = lines(2000).min(1);
/** The board's text search. */
export const missionSearchSchema = line(200).min(1);

/** The latest deadline a mission posted at `now` may have: a year ahead. */
export function latestDeadline(now: Date): Date {
  const latest = new Date(now);
  latest.setUTCFullYear(latest.getUTCFullYear() + 1);
  return latest;
}

// docs/api.md#bounties: a bounty pays 1 to MAX_WINNERS places, each a whole percentage of the reward.
export const MAX_WINNERS = 10;
/** docs/api.md#milestones: a milestone mission's reward is cut into 2–10 parts. */
export const MIN_MILESTONES = 2;
export const MAX_MILESTONES = 10;
export const winnersSchema = z.number().int().min(1).max(MAX_WINNERS);
export const shareSchema = z.number().int().min(1).max(100);

/** What a bounty's split gets wrong for its places: one share for each, summing to 100. */
export function splitProblems(split: readonly number[], winners: number): ('count' | 'sum')[] {
  const problems: ('count' | 'sum')[] = [];
  if (split.length !== winners) problems.push('count');
  if (split.reduce((a, b) => a + b, 0) !== 100) problems.push('sum');
  return problems;
}
