// A grant's release limit (docs/api.md#confirmations): its shape and the amount the person types on
// the consent page. Here, beside the grants, because OAuth sets it; lib/confirmations, above, enforces
// it. No server-only import: the dashboard's forms validate with the same schema (grant-releases.ts
// reads and writes the rows).
import { AmountError, formatAmount, parseAmount } from '@taskmarket/sdk/money';
import { z } from 'zod';
import { ApiError } from '../errors';

/** The window a release limit covers: a rolling 24 h. */
export const RELEASE_WINDOW_MS = 24 * 3600 * 1000;

/**
 * A release limit: base units over a rolling 24 h, a string like a reward; 0 (every release waits
 * for the person) up to 10^30 (no one needs more, and the sum of a day's releases stays exact).
 */
export const releaseLimitSchema = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,29})$/, 'must be a string of decimal digits (base units), at most 30 digits')
  .describe(
    'Base units a delegated token may release at once over a rolling 24 h; beyond it the person confirms. 0 by default',
  );

/**
 * A funding limit (docs/api.md#standing-allowance): base units a delegated token may fund at once from
 * the person's standing allowance over a rolling 24 h; the same shape as a release limit.
 */
export const fundingLimitSchema = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,29})$/, 'must be a string of decimal digits (base units), at most 30 digits')
  .describe(
    "Base units a delegated token may fund at once from the person's standing allowance over a rolling 24 h; " +
      'beyond it a post waits AWAITING_FUNDING. 0 by default',
  );

/**
 * The limit typed on the consent page, in whole tokens of the reward token ("25", "12.50", "1,000";
 * empty is 0), read with the token's own decimals (`decimals()`, asked only for an amount that is
 * not zero; null while the chain cannot say) as base units; a malformed amount is 400 and one that
 * cannot be read for want of the decimals 503 — never a guess at them.
 */
export async function consentReleaseLimit(
  field: string | string[] | undefined,
  decimals: () => Promise<number | null>,
  name = 'release_limit',
): Promise<string> {
  if (Array.isArray(field)) throw new ApiError(400, 'Validation failed', [`${name}: give it once`]);
  const text = (field ?? '').trim();
  if (text === '') return '0';
  // Zero is zero whatever the decimals: 255, the most a uint8 holds, reads any zero's places.
  if (baseUnits(text, 255, name) === 0n) return '0';
  const known = await decimals();
  if (known === null)
    throw new ApiError(503, 'The reward token cannot be read right now; try again', undefined, { 'Retry-After': '5' });
  const value = baseUnits(text, known, name).toString();
  if (!releaseLimitSchema.safeParse(value).success)
    throw new ApiError(400, 'Validation failed', [`${name}: at most 30 digits of base units`]);
  return value;
}

function baseUnits(text: string, decimals: number, name: string): bigint {
  try {
    return parseAmount(text, decimals);
  } catch (error) {
    if (!(error instanceof AmountError)) throw error;
    throw new ApiError(400, 'Validation failed', [`${name}: ${error.message}`]);
  }
}

/**
 * The consent page's field pre-filled with a grant's limit (base units) in whole tokens, as it is typed
 * back; null when it cannot be shown (the token's decimals unknown right now): the page then leaves the
 * field out, and the limit stays as it is.
 */
export function releaseLimitPrefill(limit: string, decimals: number | null): string | null {
  if (limit === '0') return '0';
  return decimals === null ? null : formatAmount(BigInt(limit), decimals, { group: false });
}
