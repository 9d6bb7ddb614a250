// Token amounts for people: base-unit strings (docs/api.md#conventions) shown in whole tokens, and typed
// whole-token amounts turned back into base units — the SDK's money module (@taskmarket/sdk/money, the
// CLI's too) with the reward token bound. Never floating point.
import { AmountError, formatAmount as formatTokens, parseAmount as parseTokens } from '@taskmarket/sdk/money';

export interface TokenInfo {
  symbol: string;
  decimals: number;
}

/** USDC's shape, for when the chain could not tell the token's own. */
export const DEFAULT_TOKEN: TokenInfo = { symbol: 'USDC', decimals: 6 };

/** "1,000.5 USDC": grouped, exact. */
export function formatAmount(baseUnits: string | bigint, token: TokenInfo): string {
  return formatTokens(BigInt(baseUnits), token.decimals, { symbol: token.symbol });
}

/** Base units from a typed amount ("25", "0.5", "1,000"), more than zero unless `orZero`, or what is wrong with it. */
export function parseAmount(
  text: string,
  token: TokenInfo,
  { orZero = false } = {},
): { ok: true; value: bigint } | { ok: false; reason: string } {
  let value: bigint;
  try {
    value = parseTokens(text, token.decimals);
  } catch (error) {
    if (error instanceof AmountError) return { ok: false, reason: error.message };
    throw error;
  }
  if (value === 0n && !orZero) return { ok: false, reason: 'The reward must be more than zero.' };
  return { ok: true, value };
}
