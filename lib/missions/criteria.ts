// Acceptance criteria (docs/api.md#criteria): their shapes, their canonical hash, and the check that a
// self-check, a contest's unmet list or the operator's verdicts name only criteria the mission has.
// Browser-safe (zod and viem only): the dashboard's forms check the same rules.
import { keccak256, stringToBytes, type Hex } from 'viem';
import { z } from 'zod';
import { line, lines } from './fields';

export const MAX_CRITERIA = 20;
export const MAX_CRITERION_LENGTH = 500;

/** One criterion's text: one line, trimmed, 1–500 characters, no control characters. */
export const criterionTextSchema = line(MAX_CRITERION_LENGTH).min(1);
export const criteriaSchema = z.array(criterionTextSchema).min(1).max(MAX_CRITERIA);

/** A criterion named by its number, counted from 1 in the order the owner gave them. */
const criterionNumber = z.number().int().min(1).max(MAX_CRITERIA);
// 1–500 characters of free text beside one criterion.
const remark = lines(MAX_CRITERION_LENGTH);

/** Each criterion at most once in a list of items naming criteria. */
function once<T extends { criterion: number }>(items: T[], ctx: z.RefinementCtx): void {
  const seen = new Set<number>();
  for (const [index, item] of items.entries()) {
    if (seen.has(item.criterion))
      ctx.addIssue({
        code: 'custom',
        path: [index, 'criterion'],
        message: `criterion ${item.criterion} is named twice`,
      });
    seen.add(item.criterion);
  }
}

export const selfCheckSchema = z
  .array(z.strictObject({ criterion: criterionNumber, met: z.boolean(), note: remark.optional() }))
  .max(MAX_CRITERIA)
  .superRefine(once)
  .describe("docs/api.md#criteria: the deliverer's own check of each criterion it names (at most once each)");
export const unmetSchema = z
  .array(z.strictObject({ criterion: criterionNumber, reason: remark.min(1) }))
  .min(1)
  .max(MAX_CRITERIA)
  .superRefine(once)
  .describe('docs/api.md#criteria: required when the mission has criteria — the criteria not met, and why');
export const verdictsSchema = z
  .array(z.strictObject({ criterion: criterionNumber, met: z.boolean() }))
  .min(1)
  .max(MAX_CRITERIA)
  .superRefine(once)
  .describe("docs/api.md#criteria: the operator's verdict on each criterion it names");

export type SelfCheck = z.infer<typeof selfCheckSchema>;
export type Unmet = z.infer<typeof unmetSchema>;
export type Verdicts = z.infer<typeof verdictsSchema>;

/**
 * docs/api.md#criteria: the canonical JSON of the criteria is JSON.stringify of the array of their
 * texts in order (no whitespace; only `"` and `\` escaped, since no control character is allowed;
 * other characters as themselves), and the hash is keccak256 of its UTF-8 bytes, 0x-prefixed lowercase hex.
 */
export function canonicalCriteria(criteria: readonly string[]): string {
  return JSON.stringify(criteria);
}

export function criteriaHash(criteria: readonly string[]): Hex {
  return keccak256(stringToBytes(canonicalCriteria(criteria)));
}

/**
 * The problems with `items` for a mission whose criteria are `criteria` (null: none): every item must
 * name an existing criterion. `field` names the body field in the messages.
 */
export function unknownCriteria(
  field: string,
  items: readonly { criterion: number }[],
  criteria: readonly string[] | null,
): string[] {
  const count = criteria?.length ?? 0;
  if (count === 0 && items.length > 0) return [`${field}: the mission has no criteria`];
  return items
    .map((item, index) =>
      item.criterion > count
        ? `${field}.${index}.criterion: the mission has no criterion ${item.criterion} (it has ${count})`
        : undefined,
    )
    .filter((problem): problem is string => problem !== undefined);
}
