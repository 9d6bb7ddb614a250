// How the CLI speaks: `--json` prints the API's JSON exactly as it answered; otherwise short lines
// and tables for a person. Failures go to stderr as `Error: <the API's message>` (plus its details).
// Nothing here talks to the server.
import { formatAmount as formatTokens } from '../money.js';

/** Exit codes: 1 for a failed command (the API refused, the network failed), 2 for a usage error. */
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

export interface Output {
  json: boolean;
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function printLine(text = ''): void {
  process.stdout.write(`${text}\n`);
}

/** A plain-text table (gh style): a header row, columns padded to their widest cell, the last left ragged. */
export function printTable(headers: string[], rows: string[][]): void {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  printLine(line(headers));
  for (const row of rows) printLine(line(row));
}

/** Key–value lines (`stripe` style) for one object. */
export function printFields(fields: [string, string | number | null | undefined][]): void {
  const width = Math.max(...fields.map(([k]) => k.length));
  for (const [key, value] of fields) printLine(`${`${key}:`.padEnd(width + 1)} ${value ?? '—'}`);
}

export function printError(message: string, details: readonly string[] = []): void {
  process.stderr.write(`Error: ${message}\n`);
  for (const detail of details) process.stderr.write(`  - ${detail}\n`);
}

/**
 * Base units → a grouped decimal amount with the token's symbol ("1,025 USDC"; money.ts), or the base units when the
 * token is unknown.
 */
export function formatAmount(
  baseUnits: string | null | undefined,
  token: { symbol: string | null; decimals: number | null } | null,
): string {
  if (baseUnits === null || baseUnits === undefined) return '—';
  if (!token || token.decimals === null) return `${baseUnits} (base units)`;
  return formatTokens(BigInt(baseUnits), token.decimals, token.symbol ? { symbol: token.symbol } : {});
}

/** An ISO timestamp shortened to minutes, UTC ("2026-11-30 12:00Z"). */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  return `${iso.slice(0, 16).replace('T', ' ')}Z`;
}

export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
