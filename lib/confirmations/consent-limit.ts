// The release limit the person types on the consent page (docs/api.md#confirmations): whole USDC, as a
// person thinks of it ("25", "12.50"; empty is 0), turned into base units; anything else is 400.
import { parseUnits } from 'viem';
import { ApiError } from '../errors';

const USDC_DECIMALS = 6;
const WHOLE_TOKENS = /^[0-9]{1,24}(\.[0-9]{1,6})?$/;

export function consentReleaseLimit(field: string | string[] | undefined): string {
  if (Array.isArray(field)) throw new ApiError(400, 'Validation failed', ['release_limit: give it once']);
  const text = (field ?? '').trim();
  if (text === '') return '0';
  if (!WHOLE_TOKENS.test(text))
    throw new ApiError(400, 'Validation failed', ['release_limit: an amount of USDC such as 25 or 12.50']);
  return parseUnits(text, USDC_DECIMALS).toString();
}
