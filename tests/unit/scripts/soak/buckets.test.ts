import { describe, expect, it } from 'vitest';
import { type Bucket, type Ending, passed, verdict } from '../../../../scripts/soak/buckets';

// A minute of a healthy run with the given p99: no errors, flat memory.
const minute = (n: number, p99: number): Bucket =>
  ({
    minute: n,
    noAnswer: 0,
    all: { count: 1000, p50: 10, p95: 40, p99, errors5xx: 0 },
    rssMeanMb: [500, 500],
  }) as Bucket;
const clean: Ending = {
  settlements: { MINED: 3 },
  settlementsPending: 0,
  webhooksPending: 0,
  webhookBadSignatures: 0,
  visits: { soak: { browse: { made: 100, failed: 0, skipped: 0 }, lifecycle: { made: 3, failed: 0, skipped: 1 } } },
};
const p99Check = (buckets: Bucket[]) => verdict(buckets, clean).checks.find((c) => c.rule.startsWith('p99'))!;

describe('the soak verdict', () => {
  it('behavior: a run past minute 5 fails when its last p99 is over 1.2x minute 5s', () => {
    const run = [80, 90, 100, 100, 100, 130].map((p99, i) => minute(i + 1, p99));
    expect(p99Check(run).pass).toBe(false);
    expect(passed(verdict(run, clean).checks)).toBe(false);
    run[5] = minute(6, 119);
    expect(p99Check(run).pass).toBe(true);
  });

  it('behavior: a 3-minute run reports its p99 ratio unjudged, and is judged by the other rules', () => {
    const run = [61, 77, 99].map((p99, i) => minute(i + 1, p99));
    const check = p99Check(run);
    expect(check.pass).toBeUndefined();
    expect(check.measured).toContain('1.62×');
    expect(passed(verdict(run, clean).checks)).toBe(true);
    expect(passed(verdict(run, { ...clean, webhooksPending: 1 }).checks)).toBe(false);
    run[2] = { ...run[2]!, all: { ...run[2]!.all, errors5xx: 1 } };
    expect(passed(verdict(run, clean).checks)).toBe(false);
  });

  it('behavior: one visit answered otherwise than its scenario expects fails the run, in any phase', () => {
    const run = [61, 77, 99].map((p99, i) => minute(i + 1, p99));
    const failing = (phase: string): Ending => ({
      ...clean,
      visits: { ...clean.visits, [phase]: { lifecycle: { made: 40, failed: 1, skipped: 0 } } },
    });
    for (const phase of ['soak', 'capacity']) {
      const checks = verdict(run, failing(phase)).checks;
      expect(passed(checks)).toBe(false);
      expect(checks.find((c) => c.rule.startsWith('every visit'))!.measured).toContain(
        `${phase}: 1 of 41 failed (1 lifecycle)`,
      );
    }
    // Skipped visits (every party busy) are not failures, but a run that made none is.
    expect(passed(verdict(run, clean).checks)).toBe(true);
    expect(
      passed(verdict(run, { ...clean, visits: { soak: { browse: { made: 0, failed: 0, skipped: 5 } } } }).checks),
    ).toBe(false);
  });
});
