// How many cases each property runs. FUZZ_RUNS is the total of one `vitest run tests/fuzz`
// (all files together; 10,000 by default, as issue 7 asks of CI); each property gets a fixed share
// of it, and the shares add up to 1.
export const TOTAL_RUNS = Math.max(1, Number(process.env.FUZZ_RUNS ?? 10_000) || 10_000);

export const SHARES = {
  /** every-route.test.ts: every handler of app/api, split evenly between them. */
  everyRoute: 0.44,
  /** missions.test.ts */
  transitions: 0.16,
  reads: 0.02,
  create: 0.08,
  multipart: 0.1,
  profile: 0.04,
  /** siwe.test.ts */
  siweGrammar: 0.1,
  siweRefusals: 0.06,
} as const;

/** The cases of one property: its share of the total, split `ways` (at least a few, so a tiny FUZZ_RUNS still runs each). */
export const casesFor = (share: keyof typeof SHARES, ways = 1) => Math.max(3, Math.round((TOTAL_RUNS * SHARES[share]) / ways));

/**
 * fast-check parameters. A failure is reported as found, with its seed and path; FUZZ_SEED (with
 * `-t` naming the property) runs the same cases again, and FUZZ_PATH as well replays only the
 * failing one. FUZZ_SHRINK=1 shrinks a failure to a minimal case first, which replays many requests
 * against a world that has moved on, so it is for a local investigation rather than CI.
 */
export const runs = (numRuns: number) => ({
  numRuns,
  endOnFailure: !process.env.FUZZ_SHRINK,
  ...(process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {}),
  ...(process.env.FUZZ_PATH ? { path: process.env.FUZZ_PATH } : {}),
});

/** Per-test timeout for a property of `numRuns` cases of about `msPerCase` each, with room to spare. */
export const timeoutFor = (numRuns: number, msPerCase: number) => 60_000 + numRuns * msPerCase * 4;
