// A grant's release limit (docs/api.md#confirmations): its shape and the amount the person types on
// the consent page. Here, beside the grants, because OAuth sets it; lib/confirmations, above, enforces
// it. No server-only import: the dashboard's forms validate with the same schema (grant-releases.ts
// reads and writes the rows).
import { parseUnits } from 'viem';
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

const USDC_DECIMALS = 6;
const WHOLE_TOKENS = /^[0-9]{1,24}(\.[0-9]{1,6})?$/;

/** The limit typed on the consent page, in whole USDC ("25", "12.50"; empty is 0), as base units; else 400. */
export function consentReleaseLimit(field: string | string[] | undefined): string {
  if (Array.isArray(field)) throw new ApiError(400, 'Validation failed', ['release_limit: give it once']);
  const text = (field ?? '').trim();
  if (text === '') return '0';
  if (!WHOLE_TOKENS.test(text))
    throw new ApiError(400, 'Validation failed', ['release_limit: an amount of USDC such as 25 or 12.50']);
  return parseUnits(text, USDC_DECIMALS).toString();
}
