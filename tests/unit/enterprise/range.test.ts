// The analytics date range (lib/enterprise/range.ts) and the success rate (lib/agents/success-rate.ts):
// pure rules, checked densely.
import { describe, expect, test } from 'vitest';
import { successRate } from '@/lib/agents/success-rate';
import { resolveRange } from '@/lib/enterprise/range';

const NOW = new Date('2026-03-10T15:30:00Z');
const failure = (query: Parameters<typeof resolveRange>[0]) => {
  try {
    resolveRange(query, NOW);
  } catch (error) {
    return error as { status: number; details: string[] };
  }
  throw new Error('expected a refusal');
};

describe('resolveRange', () => {
  test('default: the 30 days ending today (UTC), by day', () => {
    expect(resolveRange({ interval: 'day' }, NOW)).toEqual({
      from: '2026-02-09',
      to: '2026-03-10',
      interval: 'day',
      start: new Date('2026-02-09T00:00:00Z'),
      end: new Date('2026-03-11T00:00:00Z'),
    });
  });

  test('args: `to` is inclusive — the range ends at the next midnight', () => {
    expect(resolveRange({ from: '2026-01-31', to: '2026-02-01', interval: 'week' }, NOW)).toMatchObject({
      start: new Date('2026-01-31T00:00:00Z'),
      end: new Date('2026-02-02T00:00:00Z'),
      interval: 'week',
    });
  });

  test('args: only `from` runs to today; only `to` covers the 30 days before it', () => {
    expect(resolveRange({ from: '2026-03-01', interval: 'day' }, NOW)).toMatchObject({
      from: '2026-03-01',
      to: '2026-03-10',
    });
    expect(resolveRange({ to: '2026-01-30', interval: 'day' }, NOW)).toMatchObject({
      from: '2026-01-01',
      to: '2026-01-30',
    });
  });

  test('args: one day (from = to) and 366 days are allowed', () => {
    expect(resolveRange({ from: '2026-03-10', to: '2026-03-10', interval: 'day' }, NOW).end).toEqual(
      new Date('2026-03-11T00:00:00Z'),
    );
    expect(() => resolveRange({ from: '2024-01-01', to: '2024-12-31', interval: 'day' }, NOW)).not.toThrow();
  });

  test('error: `to` before `from`, and 367 days, are 400 with a detail', () => {
    expect(failure({ from: '2026-03-02', to: '2026-03-01', interval: 'day' })).toMatchObject({
      status: 400,
      details: ['to: must not be before from'],
    });
    expect(failure({ from: '2025-01-01', to: '2026-01-02', interval: 'day' })).toMatchObject({
      status: 400,
      details: ['to: the range is at most 366 days'],
    });
    // Only `from`, more than a year back from today.
    expect(failure({ from: '2025-03-09', interval: 'day' }).status).toBe(400);
  });
});

describe('successRate', () => {
  test('behavior: completed ÷ accepted to 4 decimals; null before the first accept', () => {
    expect(successRate(0, 0)).toBeNull();
    expect(successRate(0, 3)).toBe(0);
    expect(successRate(1, 3)).toBe(0.3333);
    expect(successRate(2, 3)).toBe(0.6667);
    expect(successRate(5, 5)).toBe(1);
  });
});
