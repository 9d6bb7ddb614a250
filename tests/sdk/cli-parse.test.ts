// The CLI's pure parts: amounts and deadlines as a person types them, and the human formats.
import { describe, expect, test, vi } from 'vitest';
import { UsageError } from '../../sdk/src/session/settings';
import { renderMissionTable } from '../../sdk/src/cli/commands/render';
import { formatAmount, formatTime } from '../../sdk/src/cli/output';
import {
  parseAmount,
  parseDeadline,
  parseLimit,
  parseReward,
  parseSelfCheck,
  parseTaskId,
  parseUnmet,
} from '../../sdk/src/cli/parse';
import { readSettings } from '../../sdk/src/session/settings';

const USDC = { symbol: 'USDC', decimals: 6 };

describe('parseAmount', () => {
  test('default: base units pass through', () => {
    expect(parseAmount('--reward', '25000000', USDC)).toBe('25000000');
    expect(parseAmount('--reward', '007', null)).toBe('7');
  });
  test('behavior: the token symbol converts with its decimals, any case, with or without a space', () => {
    expect(parseAmount('--reward', '25USDC', USDC)).toBe('25000000');
    expect(parseAmount('--reward', '2.5 usdc', USDC)).toBe('2500000');
    expect(parseAmount('--reward', '0.000001USDC', USDC)).toBe('1');
    expect(parseAmount('--reward', '1,000.5USDC', USDC)).toBe('1000500000');
  });
  test('error: another symbol, too many decimals, an unknown token, not an amount', () => {
    expect(() => parseAmount('--reward', '25ETH', USDC)).toThrow('the reward token is USDC, not ETH');
    expect(() => parseAmount('--reward', '0.0000001USDC', USDC)).toThrow('--reward: At most 6 decimal places.');
    expect(() => parseAmount('--reward', '25USDC', null)).toThrow('give base units');
    expect(() => parseAmount('--min-reward', '-5', USDC)).toThrow(UsageError);
    expect(() => parseAmount('--min-reward', '1e6', USDC)).toThrow('--min-reward');
    expect(() => parseAmount('--reward', '1,00USDC', USDC)).toThrow('--reward: Enter an amount');
  });
  test('error: a zero reward is refused before any transaction', () => {
    expect(() => parseReward('0', USDC)).toThrow('--reward must be more than zero');
    expect(() => parseReward('0USDC', USDC)).toThrow('--reward must be more than zero');
  });
});

describe('parseDeadline', () => {
  const now = Date.parse('2026-11-24T12:00:00Z');
  test('behavior: durations count from now', () => {
    expect(parseDeadline('30m', now)).toBe('2026-11-24T12:30:00.000Z');
    expect(parseDeadline('12h', now)).toBe('2026-11-25T00:00:00.000Z');
    expect(parseDeadline('7d', now)).toBe('2026-12-01T12:00:00.000Z');
    expect(parseDeadline('2w', now)).toBe('2026-12-08T12:00:00.000Z');
  });
  test('behavior: dates become ISO 8601 UTC', () => {
    expect(parseDeadline('2026-12-01T12:00:00+01:00', now)).toBe('2026-12-01T11:00:00.000Z');
  });
  test('error: neither a date nor a duration', () => {
    expect(() => parseDeadline('next week', now)).toThrow(UsageError);
  });
});

test('parseLimit takes page sizes from 1 to 100', () => {
  expect(parseLimit('100')).toBe(100);
  for (const bad of ['0', '101', 'abc', '2.5']) expect(() => parseLimit(bad)).toThrow(UsageError);
});

test('parseTaskId takes decimal task ids only', () => {
  expect(parseTaskId('42')).toBe(42);
  expect(() => parseTaskId('0x2a')).toThrow(UsageError);
});

test('formatAmount shows token units with the symbol, or base units when the token is unknown', () => {
  expect(formatAmount('25000000', USDC)).toBe('25 USDC');
  expect(formatAmount('2500001', USDC)).toBe('2.500001 USDC');
  expect(formatAmount('1234567000001', USDC)).toBe('1,234,567.000001 USDC');
  expect(formatAmount('0', USDC)).toBe('0 USDC');
  expect(formatAmount('25000000', null)).toBe('25000000 (base units)');
  expect(formatTime('2026-11-24T12:34:56.000Z')).toBe('2026-11-24 12:34Z');
});

// A searched board page may be empty and still not the last (lib/board/matched-page.ts).
test('renderMissionTable: an empty page that is not the last still names the next cursor', () => {
  const printed: string[] = [];
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (printed.push(String(chunk)), true));
  try {
    renderMissionTable([], USDC, 'abc');
    renderMissionTable([], USDC, null);
  } finally {
    write.mockRestore();
  }
  expect(printed.join('')).toBe('No matches on this page.\nMore: --cursor abc\nNo missions match.\n');
});

describe('readSettings', () => {
  test('default: the local server, no key, no chain', () => {
    expect(readSettings({})).toEqual({ baseUrl: 'http://localhost:3000' });
  });
  test('behavior: TASKMARKET_* settings, trailing slashes trimmed', () => {
    const key = `0x${'11'.repeat(32)}`;
    expect(
      readSettings({
        TASKMARKET_URL: 'https://tm.example/',
        TASKMARKET_PRIVATE_KEY: key,
        TASKMARKET_RPC_URL: 'http://127.0.0.1:8545',
      }),
    ).toEqual({
      baseUrl: 'https://tm.example',
      privateKey: key,
      rpcUrl: 'http://127.0.0.1:8545',
    });
  });
  test('error: a key that is not 32 bytes of hex', () => {
    expect(() => readSettings({ TASKMARKET_PRIVATE_KEY: '0x1234' })).toThrow('TASKMARKET_PRIVATE_KEY must be');
  });
});

// docs/api.md#criteria: submit and enter --self-check, contest --unmet.
describe('criteria flags', () => {
  test('default: --self-check N:met or N:unmet with an optional note', () => {
    expect(parseSelfCheck('2:met')).toEqual({ criterion: 2, met: true });
    expect(parseSelfCheck(' 3 : UNMET : took three days: sorry ')).toEqual({
      criterion: 3,
      met: false,
      note: 'took three days: sorry',
    });
  });
  test('default: --unmet N:reason keeps colons in the reason', () => {
    expect(parseUnmet('2:not COCO: plain CSV')).toEqual({ criterion: 2, reason: 'not COCO: plain CSV' });
  });
  test('error: anything else names the flag', () => {
    for (const bad of ['met', '2', '2:yes', 'x:met', '']) expect(() => parseSelfCheck(bad)).toThrow('--self-check');
    for (const bad of ['2', '2:', '2:  ', 'two:why']) expect(() => parseUnmet(bad)).toThrow('--unmet');
  });
});
