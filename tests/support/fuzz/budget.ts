// How many cases each property runs. FUZZ_RUNS is the total of one `vitest run tests/fuzz`
// (all files together; 10,000 by default, as issue 7 asks of CI); each property gets a fixed share
// of it, and the shares add up to 1.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
export const TOTAL_RUNS = Math.max(1, Number(process.env.FUZZ_RUNS ?? 10_000) || 10_000);

export const SHARES = {
  /** every-route.test.ts: every handler of app/api, split evenly between them. */
  everyRoute: 0.4,
  /** missions.test.ts */
  transitions: 0.16,
  reads: 0.02,
  create: 0.08,
  multipart: 0.1,
  profile: 0.04,
  /** siwe.test.ts */
  siweGrammar: 0.1,
  siweRefusals: 0.06,
  /** mcp-tool-call.test.ts */
  mcpToolCall: 0.04,
} as const;

/**
 * The cases of one property: its share of the total, split `ways` (at least a few, so a tiny FUZZ_RUNS still runs
 * each).
 */
export const casesFor = (share: keyof typeof SHARES, ways = 1) =>
  Math.max(3, Math.round((TOTAL_RUNS * SHARES[share]) / ways));

/**
 * The seed of this run: the same for every run of one commit, so a CI failure replays exactly —
 * FUZZ_SEED=<n> names one, FUZZ_SEED=random asks for a fresh one (a local hunt for new finds).
 * Every find gets its own regression test beside the rule it broke, named for the seed that found it.
 */
export const FUZZ_SEED = chooseSeed(process.env.FUZZ_SEED);

function chooseSeed(wanted: string | undefined): number {
  if (wanted === 'random') return Math.floor(Math.random() * 2 ** 31);
  if (wanted && /^-?\d+$/.test(wanted)) return Number(wanted);
  let commit = 'no-commit';
  try {
    commit = execFileSync('git', ['rev-parse', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    // Outside a checkout: one fixed seed, still reproducible.
  }
  return createHash('sha256').update(commit).digest().readUInt32BE(0) & 0x7fffffff;
}

console.log(`fuzz: seed ${FUZZ_SEED} (replay with FUZZ_SEED=${FUZZ_SEED}; FUZZ_SEED=random for a fresh one)`);

/**
 * fast-check parameters. A failure is reported as found, with its seed and path; FUZZ_SEED (with
 * `-t` naming the property) runs the same cases again, and FUZZ_PATH as well replays only the
 * failing one. FUZZ_SHRINK=1 shrinks a failure to a minimal case first, which replays many requests
 * against a world that has moved on, so it is for a local investigation rather than CI.
 */
export const runs = (numRuns: number) => ({
  numRuns,
  endOnFailure: !process.env.FUZZ_SHRINK,
  seed: FUZZ_SEED,
  ...(process.env.FUZZ_PATH ? { path: process.env.FUZZ_PATH } : {}),
});

/** Per-test timeout for a property of `numRuns` cases of about `msPerCase` each, with room to spare. */
export const timeoutFor = (numRuns: number, msPerCase: number) => 60_000 + numRuns * msPerCase * 4;
