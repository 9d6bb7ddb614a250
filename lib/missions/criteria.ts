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
/** Criteria as texts alone: an offering's, and the dashboard's one-per-line editor. */
export const criteriaTextsSchema = z.array(criterionTextSchema).min(1).max(MAX_CRITERIA);

// docs/api.md#checked-criteria: what a machine checks of a criterion, at submit (and a bounty entry).
/** A deliverable's name as a check names it: the file name the agent uploads, exactly. */
const deliverableName = line(255).min(1);
/** A JSON Schema's text is at most this long (its compact JSON, in bytes). */
export const MAX_SCHEMA_BYTES = 16 * 1024;
export const checkSchema = z
  .discriminatedUnion('type', [
    z.strictObject({
      type: z.literal('file'),
      name: deliverableName.optional().describe('A deliverable of exactly this name'),
      mime: line(100).min(1).optional().describe('Its content type, as the upload was classified'),
      maxBytes: z.number().int().min(1).optional().describe('At most this many bytes'),
      minCount: z.number().int().min(1).max(20).optional().describe('At least this many such files (1 by default)'),
    }),
    z.strictObject({
      type: z.literal('jsonSchema'),
      file: deliverableName.describe('The deliverable that must parse as JSON and match'),
      schema: z
        .union([z.record(z.string(), z.unknown()), z.boolean()])
        .describe('A JSON Schema (2020-12), at most 16 KB, no remote $ref'),
    }),
    z.strictObject({
      type: z.literal('sha256'),
      file: deliverableName,
      digest: z
        .string()
        .regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hex digits')
        .describe("The deliverable's SHA-256"),
    }),
    z.strictObject({
      type: z.literal('httpGet'),
      url: z.string().max(2000).describe('A public https URL, fetched at submit: 5 s, at most 1 MB, no redirects'),
      status: z.number().int().min(100).max(599).optional().describe('The status it must answer (200 by default)'),
      contentType: line(100).min(1).optional().describe('The media type its Content-Type must name'),
    }),
  ])
  .describe('docs/api.md#checked-criteria: what a machine checks of the criterion at submit');
export type CriterionCheck = z.infer<typeof checkSchema>;

/** A criterion: a text, or `{ text, check }` (docs/api.md#checked-criteria). */
export const criterionSchema = z.union([
  criterionTextSchema,
  z.strictObject({ text: criterionTextSchema, check: checkSchema.optional() }),
]);
/**
 * Every check of a mission together, as compact JSON: the board shows them on each listing, so a poster's
 * checks are bounded as a whole, not 16 KB times 20.
 */
export const MAX_CHECKS_BYTES = 16 * 1024;
export const criteriaSchema = z
  .array(criterionSchema)
  .min(1)
  .max(MAX_CRITERIA)
  .superRefine((list, ctx) => {
    const checks = list.map((c) => (typeof c === 'string' ? null : (c.check ?? null)));
    const bytes = new TextEncoder().encode(JSON.stringify(checks)).length;
    if (bytes > MAX_CHECKS_BYTES)
      ctx.addIssue({ code: 'custom', message: `the checks together must be at most 16 KB of JSON (${bytes} bytes)` });
  });
export type CriterionInput = z.infer<typeof criterionSchema>;

/** The criteria's texts, and their checks in the same order (null: none has one). */
export function splitCriteria(list: readonly CriterionInput[]): {
  texts: string[];
  checks: (CriterionCheck | null)[] | null;
} {
  const texts = list.map((c) => (typeof c === 'string' ? c : c.text));
  const checks = list.map((c) => (typeof c === 'string' ? null : (c.check ?? null)));
  return { texts, checks: checks.some((c) => c !== null) ? checks : null };
}

/** A check's result (docs/api.md#checked-criteria): `submission.checks`, one per checked criterion. */
export interface CheckResult {
  criterion: number;
  passed: boolean;
  detail: string;
  checkedAt: string;
}

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
export function canonicalCriteria(
  criteria: readonly string[],
  checks?: readonly (CriterionCheck | null)[] | null,
): string {
  if (!checks) return JSON.stringify(criteria);
  // docs/api.md#checked-criteria: a checked criterion is `{"text":…,"check":…}`, every object's keys sorted.
  return JSON.stringify(criteria.map((text, i) => (checks[i] ? sortedKeys({ text, check: checks[i] }) : text)));
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([key, inner]) => [key, sortedKeys(inner)]));
}

export function criteriaHash(criteria: readonly string[], checks?: readonly (CriterionCheck | null)[] | null): Hex {
  return keccak256(stringToBytes(canonicalCriteria(criteria, checks)));
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
