// Flag values a person types, turned into what the API takes: amounts in base units, deadlines as
// ISO timestamps. Pure functions; a bad value is a UsageError naming the flag.
import { AmountError, parseAmount as parseTokens } from '../money.js';
import { UsageError } from '../session/settings.js';

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** `2026-12-01T12:00:00Z`, `2026-12-01`, or a duration from now: `30m`, `12h`, `7d`, `2w`. */
export function parseDeadline(value: string, now = Date.now()): string {
  const relative = /^(\d+)\s*([mhdw])$/.exec(value.trim());
  if (relative) return new Date(now + Number(relative[1]) * UNITS[relative[2]!]!).toISOString();
  const date = new Date(value);
  if (Number.isNaN(date.getTime()))
    throw new UsageError(`--deadline: "${value}" is neither a date (2026-12-01T12:00:00Z) nor a duration (7d, 12h)`);
  return date.toISOString();
}

/**
 * `25000000` (base units, as the API counts) or `25 USDC` / `2.5usdc` / `1,000USDC` (the token's own
 * units, converted with its decimals by money.ts). The symbol must be the reward token's.
 */
export function parseAmount(
  flag: string,
  value: string,
  token: { symbol: string | null; decimals: number | null } | null,
): string {
  const text = value.trim();
  if (/^\d+$/.test(text)) return BigInt(text).toString();
  const decimal = /^([\d,]+(?:\.\d+)?)\s*([A-Za-z]+)$/.exec(text);
  if (!decimal) throw new UsageError(`${flag}: "${value}" is not an amount (base units like 25000000, or 25USDC)`);
  const [, amount, symbol] = decimal;
  if (!token || token.decimals === null || !token.symbol)
    throw new UsageError(`${flag}: the server does not say its reward token; give base units`);
  if (symbol!.toLowerCase() !== token.symbol.toLowerCase())
    throw new UsageError(`${flag}: the reward token is ${token.symbol}, not ${symbol}`);
  try {
    return parseTokens(amount!, token.decimals).toString();
  } catch (error) {
    if (error instanceof AmountError) throw new UsageError(`${flag}: ${error.message}`);
    throw error;
  }
}

/** A mission's reward: an amount, more than zero (a zero reward would only fail on-chain). */
export function parseReward(value: string, token: { symbol: string | null; decimals: number | null } | null): string {
  const reward = parseAmount('--reward', value, token);
  if (reward === '0') throw new UsageError('--reward must be more than zero');
  return reward;
}

export function parseTaskId(value: string): number {
  if (!/^\d{1,15}$/.test(value.trim())) throw new UsageError(`--task-id: "${value}" is not a task id`);
  return Number(value.trim());
}

/** --limit: a whole number of items a page, 1–100 (docs/api.md#pagination). */
export function parseLimit(value: string): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1 || Number(value) > 100)
    throw new UsageError(`--limit: "${value}" is not a page size from 1 to 100`);
  return Number(value);
}

/** Commander collector for repeatable flags (`--file a --file b`). */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/**
 * docs/api.md#criteria: `--self-check 2:met` or `--self-check "3:unmet:took three days"` (criterion, met or unmet, a
 * note).
 */
export function parseSelfCheck(value: string): { criterion: number; met: boolean; note?: string } {
  const match = /^\s*(\d{1,2})\s*:\s*(met|unmet)\s*(?::(.*))?$/is.exec(value);
  if (!match)
    throw new UsageError(
      `--self-check: "${value}" is not N:met or N:unmet, optionally :a note (e.g. 2:met, "3:unmet:took three days")`,
    );
  const note = match[3]?.trim();
  return { criterion: Number(match[1]), met: match[2]!.toLowerCase() === 'met', ...(note ? { note } : {}) };
}

/** docs/api.md#criteria: `--unmet "2:the export is not COCO"` (criterion and why). */
export function parseUnmet(value: string): { criterion: number; reason: string } {
  const match = /^\s*(\d{1,2})\s*:(.+)$/s.exec(value);
  if (!match || !match[2]!.trim())
    throw new UsageError(`--unmet: "${value}" is not N:reason (e.g. "2:the export is not COCO")`);
  return { criterion: Number(match[1]), reason: match[2]!.trim() };
}
