import { describe, expect, it } from 'vitest';
import { MIX, visitDealer, type VisitKind } from '../../../../scripts/soak/visits';

const count = (kinds: VisitKind[]) => {
  const counts: Partial<Record<VisitKind, number>> = {};
  for (const kind of kinds) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
};

describe('the soak deals its visits', () => {
  it('behavior: every stretch of 200 visits holds the mix exactly, so every minute carries the same work', () => {
    const next = visitDealer();
    const dealt = Array.from({ length: 2_000 }, next);
    for (let at = 0; at < dealt.length; at += 200) {
      expect(count(dealt.slice(at, at + 200))).toEqual({
        browse: 124,
        'sign-in': 30,
        dashboard: 42,
        lifecycle: 3,
        claim: 1,
      });
    }
  });

  it('behavior: the heavy visits are spread out evenly, never bunched', () => {
    const dealt = Array.from({ length: 2_000 }, visitDealer());
    const gaps = dealt
      .flatMap((kind, i) => (kind === 'lifecycle' ? [i] : []))
      .map((at, i, all) => (i ? at - all[i - 1]! : 0))
      .slice(1);
    const expected = Object.values(MIX).reduce((a, b) => a + b, 0) / MIX.lifecycle;
    // Smooth round robin lets the claim's turn nudge them: within 15 % of the even gap, not exact.
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(0.85 * expected);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(1.15 * expected);
  });

  it('behavior: two dealers deal the same sequence (the capacity probe and the soak see one mix)', () => {
    const a = visitDealer();
    const b = visitDealer();
    expect(Array.from({ length: 400 }, a)).toEqual(Array.from({ length: 400 }, b));
  });
});
