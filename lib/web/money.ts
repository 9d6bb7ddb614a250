// Token amounts for people: base-unit strings (docs/api.md#conventions) shown in whole tokens, and typed
// whole-token amounts turned back into base units. Never floating point.
import { formatUnits, parseUnits } from 'viem';

export interface TokenInfo {
  symbol: string;
  decimals: number;
}

/** USDC's shape, for when the chain could not tell the token's own. */
export const DEFAULT_TOKEN: TokenInfo = { symbol: 'USDC', decimals: 6 };

export function formatAmount(baseUnits: string | bigint, token: TokenInfo): string {
  const whole = formatUnits(BigInt(baseUnits), token.decimals);
  const [int = '0', frac] = whole.split('.');
  const grouped = BigInt(int).toLocaleString('en-US');
  return `${frac ? `${grouped}.${frac}` : grouped} ${token.symbol}`;
}

/** Base units from a typed amount ("25", "0.5"), or an explanation of what is wrong with it. */
export function parseAmount(
  text: string,
  token: TokenInfo,
): { ok: true; value: bigint } | { ok: false; reason: string } {
  const trimmed = text.trim();
  if (!/^[0-9]+(\.[0-9]+)?$/.test(trimmed)) return { ok: false, reason: 'Enter an amount such as 25 or 12.50.' };
  const decimals = trimmed.split('.')[1]?.length ?? 0;
  if (decimals > token.decimals) return { ok: false, reason: `At most ${token.decimals} decimal places.` };
  const value = parseUnits(trimmed, token.decimals);
  if (value <= 0n) return { ok: false, reason: 'The reward must be more than zero.' };
  return { ok: true, value };
}
