// Token amounts for people (docs/api.md#conventions): base units, as the API counts them (a bigint),
// shown in the token's own units with the whole part grouped in thousands ("1,000.000001"), and
// an amount a person typed turned back into base units. Exact: digits and bigints, never a float.
// The one statement of the arithmetic for the CLI, the dashboard and the consent form; the
// token's decimals come from the token (ERC-20 `decimals()`), never assumed.
// Browser-safe and dependency-free: `@taskmarket/sdk/money` loads this module alone.

/** A typed amount that is not one: the message says what to type instead, fit to show a person. */
export class AmountError extends Error {
  override readonly name = 'AmountError';
}

export interface FormatAmountOptions {
  /** Commas between thousands of the whole part ("1,000"): on unless `false`. */
  group?: boolean;
  /** The token's symbol, after a space ("25 USDC"). */
  symbol?: string;
}

/** An ERC-20's decimals are a uint8. */
function checkDecimals(decimals: number): void {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 255)
    throw new RangeError(`Token decimals must be a whole number from 0 to 255, not ${decimals}`);
}

const THOUSANDS = /\B(?=(\d{3})+(?!\d))/g;

/**
 * `baseUnits` in whole tokens: `formatAmount(1000000001n, 6)` is `1,000.000001`, trailing zeros of
 * the fraction dropped (`25000000n` is `25`). A negative amount keeps its sign.
 */
export function formatAmount(baseUnits: bigint, decimals: number, options: FormatAmountOptions = {}): string {
  checkDecimals(decimals);
  const sign = baseUnits < 0n ? '-' : '';
  const digits = (baseUnits < 0n ? -baseUnits : baseUnits).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  const grouped = options.group === false ? whole : whole.replace(THOUSANDS, ',');
  const amount = `${sign}${grouped}${fraction && `.${fraction}`}`;
  return options.symbol ? `${amount} ${options.symbol}` : amount;
}

// Digits, either plain ("1000") or grouped in thousands throughout ("1,000"), then an optional fraction.
const AMOUNT = /^([0-9]+|[0-9]{1,3}(?:,[0-9]{3})+)(?:\.([0-9]+))?$/;

/**
 * Base units from an amount typed in whole tokens ("25", "12.50", "1,000.000001"; spaces around it
 * are ignored). Throws AmountError for anything else: empty, negative, more decimal places than the
 * token has, an exponent, misplaced commas, any other character.
 */
export function parseAmount(text: string, decimals: number): bigint {
  checkDecimals(decimals);
  const trimmed = text.trim();
  if (trimmed.startsWith('-')) throw new AmountError('An amount cannot be negative.');
  const match = AMOUNT.exec(trimmed);
  if (!match) throw new AmountError('Enter an amount such as 25 or 12.50.');
  const [, whole, fraction = ''] = match;
  if (fraction.length > decimals)
    throw new AmountError(decimals === 0 ? 'Whole tokens only.' : `At most ${decimals} decimal places.`);
  return BigInt(whole!.replaceAll(',', '')) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
}
