// lib/missions/shares.ts: each place's share of a bounty, and the payout of an award — exact to the
// unit for any reward, fee, number of places and split; dueAction, what time does to a bounty.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { payoutOf, placeShares } from '@/lib/missions/shares';
import { dueAction } from '@/lib/missions/transitions';

const splitArb = (places: number) =>
  fc.array(fc.integer({ min: 1, max: 50 }), { minLength: places, maxLength: places }).map((raw) => {
    const sum = raw.reduce((a, b) => a + b, 0);
    const split = raw.map((w) => Math.max(1, Math.floor((w * 100) / sum)));
    split[0]! += 100 - split.reduce((a, b) => a + b, 0);
    return split[0]! >= 1 ? split : null;
  });

describe('placeShares', () => {
  test('default: equal places; the fee on the whole, rounded down; the remainder to first place', () => {
    expect(placeShares(10n, 1000, 3, null)).toEqual({
      fee: 1n,
      places: [
        { place: 1, gross: 4n, fee: 1n, net: 3n },
        { place: 2, gross: 3n, fee: 0n, net: 3n },
        { place: 3, gross: 3n, fee: 0n, net: 3n },
      ],
    });
    expect(placeShares(9_000_000n, 0, 2, [70, 30]).places.map((p) => p.net)).toEqual([6_300_000n, 2_700_000n]);
  });

  test(
    'property: places plus the fee are the reward, to the unit; each gross is its net plus ' +
      'its fee; no share is negative',
    () => {
      fc.assert(
        fc.property(
          fc.bigInt({ min: 1n, max: 10n ** 30n }),
          fc.integer({ min: 0, max: 2000 }),
          fc.integer({ min: 1, max: 10 }).chain((n) => fc.tuple(fc.constant(n), splitArb(n))),
          (reward, feeBps, [places, split]) => {
            const { fee, places: shares } = placeShares(reward, feeBps, places, split);
            expect(fee).toBe((reward * BigInt(feeBps)) / 10_000n);
            expect(shares.reduce((sum, s) => sum + s.net, 0n) + fee).toBe(reward);
            expect(shares.reduce((sum, s) => sum + s.gross, 0n)).toBe(reward);
            for (const s of shares) {
              expect(s.gross).toBe(s.net + s.fee);
              expect(s.net >= 0n && s.fee >= 0n).toBe(true);
            }
          },
        ),
      );
    },
  );
});

describe('payoutOf', () => {
  test('property: winners + refund of unawarded places + fee = the reward, whichever places are awarded', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 20n }),
        fc.integer({ min: 0, max: 1000 }),
        fc.integer({ min: 1, max: 10 }),
        fc.nat(),
        (reward, feeBps, places, k) => {
          const awarded = Array.from({ length: k % (places + 1) }, (_, i) => ({
            agentId: `a${i}`,
            address: `0x${i}`,
            place: i + 1,
          }));
          const payout = payoutOf(reward, feeBps, places, null, awarded);
          expect(payout.winners.reduce((sum, w) => sum + w.amount, 0n) + payout.refund + payout.fee).toBe(reward);
          expect(payout.refund >= 0n).toBe(true);
          if (awarded.length === places) expect(payout.refund).toBe(0n);
        },
      ),
    );
  });
});

describe('dueAction: what time does to a bounty', () => {
  const base = {
    status: 'OPEN' as const,
    assignmentMode: 'BOUNTY' as const,
    deadline: new Date(1_000),
    reviewDeadline: null,
    entryCount: 0,
  };
  test(
    'behavior: the deadline judges a bounty with entries and lapses one without; windows ' +
      'escalate and finalize; other missions only expire',
    () => {
      expect(dueAction(base, new Date(999))).toBeUndefined();
      expect(dueAction(base, new Date(1_000))).toBe('lapse');
      expect(dueAction({ ...base, entryCount: 1 }, new Date(1_000))).toBe('judge');
      expect(
        dueAction({ ...base, status: 'JUDGING', reviewDeadline: new Date(2_000) }, new Date(1_999)),
      ).toBeUndefined();
      expect(dueAction({ ...base, status: 'JUDGING', reviewDeadline: new Date(2_000) }, new Date(2_000))).toBe(
        'escalate',
      );
      expect(dueAction({ ...base, status: 'AWARDED', reviewDeadline: new Date(2_000) }, new Date(2_000))).toBe(
        'finalize',
      );
      expect(dueAction({ ...base, status: 'DISPUTED' }, new Date(9_999))).toBeUndefined();
      expect(dueAction({ ...base, assignmentMode: 'FIRST_COME' }, new Date(9_999))).toBeUndefined();
      expect(
        dueAction(
          { ...base, assignmentMode: 'FIRST_COME', status: 'SUBMITTED', reviewDeadline: new Date(5) },
          new Date(5),
        ),
      ).toBe('expire');
    },
  );
});
