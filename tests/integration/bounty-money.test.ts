// The money of a bounty, property-tested on anvil (docs/api.md#bounties): along any path — awarded in full or
// in part, contested and re-awarded by the operator, escalated for want of an award, cancelled by
// the operator, lapsed without entries, reclaimed by the client after expiry — what the escrow
// credits the winners, the fee recipient and the client adds up to the reward exactly, each winner
// gets its place's share (an oracle written here from the spec), and the server's books agree.
import { createTestClient, http } from 'viem';
import fc from 'fast-check';
import { beforeAll, describe, expect, test } from 'vitest';
import { ANVIL_KEYS } from '@/lib/chain/anvil-node';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { setEnv, useTestEnvironment } from '../support/environment';
import { chainNow, claimableOnChain, fundTask, reclaimTask, taskOnChain } from '../support/escrow';
import { earningsOf, getMission, missionRow, newAgent, ok, type Party, resolve, setTimes } from '../support/missions';
import { workerRpcUrl } from '../support/ports';
import { newWallet, signIn } from '../support/wallets';
import { award, closeEntries, contestAward, createBounty, endWindow, enter, sweep } from '../support/bounties';

// Short windows so the reclaim path can move the chain past expiry: margin = 2 × 600 + 600 + 60.
const WINDOWS = { REVIEW_WINDOW_SECONDS: '600', DISPUTE_ALLOWANCE_SECONDS: '600', RECLAIM_GRACE_SECONDS: '60' };
const MARGIN = 2 * 600 + 600 + 60;
useTestEnvironment({ ...WINDOWS, WRITE_RATE_LIMIT_PER_MINUTE: '100000', ENTRY_RATE_LIMIT_PER_MINUTE: '100000' });

// the dev chain's deployment (lib/chain/local-chain.ts)
const FEE_RECIPIENT = privateKeyToAccount(ANVIL_KEYS[0]).address;
const anvil = () => createTestClient({ chain: foundry, mode: 'anvil', transport: http(workerRpcUrl()) });

let pool: Party[];
beforeAll(async () => {
  pool = await Promise.all(Array.from({ length: 6 }, () => newAgent()));
}, 120_000);

/**
 * The spec, written out: fee on the whole reward rounded down; the rest by weight, floors, remainder to first place.
 */
function oracle(reward: bigint, feeBps: number, places: number, split: number[] | null) {
  const fee = (reward * BigInt(feeBps)) / 10_000n;
  const weights = split ?? Array.from({ length: places }, () => 1);
  const total = BigInt(weights.reduce((a, b) => a + b, 0));
  const shares = weights.map((w) => ((reward - fee) * BigInt(w)) / total);
  shares[0]! += reward - fee - shares.reduce((a, b) => a + b, 0n);
  return { fee, shares };
}

const PATHS = [
  'awarded',
  'partly-awarded',
  'contested',
  'escalated',
  'operator-cancelled',
  'no-entries',
  'reclaimed',
] as const;
type Path = (typeof PATHS)[number];

const runArb = fc
  .record({
    path: fc.constantFrom(...PATHS),
    reward: fc.bigInt({ min: 1n, max: 50_000_000n }),
    feeBps: fc.integer({ min: 0, max: 1000 }),
    places: fc.integer({ min: 1, max: 4 }),
    entrants: fc.integer({ min: 1, max: 6 }),
    splitSeed: fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 4, maxLength: 4 }),
    equal: fc.boolean(),
    pick: fc.array(fc.nat(), { minLength: 8, maxLength: 8 }),
  })
  .map((r) => {
    // Percentages summing to 100, one per place, each ≥ 1.
    const raw = r.splitSeed.slice(0, r.places);
    const sum = raw.reduce((a, b) => a + b, 0);
    const split = raw.map((w) => Math.max(1, Math.floor((w * 100) / sum)));
    split[0]! += 100 - split.reduce((a, b) => a + b, 0);
    return { ...r, split: r.equal || split.some((p) => p < 1) ? null : split };
  });

/** Distinct entrants chosen by `pick`, at most `n`. */
const choose = (entrants: Party[], pick: number[], n: number) => {
  const left = [...entrants];
  return pick
    .slice(0, n)
    .map((p) => left.splice(p % left.length, 1)[0]!)
    .filter(Boolean);
};

async function claimables(parties: string[]) {
  return Promise.all(parties.map((p) => claimableOnChain(p)));
}

type Run = typeof runArb extends fc.Arbitrary<infer T> ? T : never;

async function runPath(run: Run) {
  setEnv({ PLATFORM_FEE_BPS: String(run.feeBps) });
  const wallet = newWallet();
  const deadline = new Date(Date.now() + 3_600_000);
  const chainClock = await chainNow();
  const expiresAt = [BigInt(Math.ceil(deadline.getTime() / 1000) + MARGIN), chainClock + 10n].reduce((a, b) =>
    a > b ? a : b,
  );
  const taskId = await fundTask(wallet, run.reward, expiresAt);
  const { token, user } = await signIn(wallet);
  const client: Party = { token, address: user.walletAddress, id: user.id };
  const bounty = await createBounty(client, {
    reward: run.reward.toString(),
    onChainTaskId: taskId,
    winners: run.places,
    split: run.split ?? undefined,
    deadline: deadline.toISOString(),
  });
  const id = bounty.id as string;
  const entrants = run.path === 'no-entries' ? [] : pool.slice(0, run.entrants);
  for (const agent of entrants) expect((await enter(agent, id, `Entry of ${agent.address}`)).status).toBe(201);
  const everyone = [FEE_RECIPIENT, client.address, ...pool.map((p) => p.address)];
  const before = await claimables(everyone);
  await closeEntries(id);
  await getMission(client, id);

  let winners: Party[] = [];
  const awardSome = async (who: 'client' | 'operator', n: number) => {
    winners = choose(entrants, run.pick.slice(who === 'client' ? 0 : 4), n);
    const body = {
      winners: winners.map((w) => w.address),
      ...(winners.length < run.places && { reason: 'Not every place was earned.' }),
    };
    return who === 'client' ? ok(award(client, id, body)) : ok(resolve(id, { outcome: 'COMPLETED', ...body }));
  };
  const places = Math.min(run.places, entrants.length);
  if (run.path === 'awarded' || run.path === 'partly-awarded') {
    await awardSome('client', run.path === 'awarded' ? places : run.pick[7]! % (places + 1));
    await endWindow(id);
    await ok(sweep());
  } else if (run.path === 'contested') {
    await awardSome('client', places);
    await ok(contestAward(entrants[run.pick[6]! % entrants.length]!, id));
    await awardSome('operator', run.pick[7]! % (places + 1));
  } else if (run.path === 'escalated' || run.path === 'operator-cancelled') {
    await endWindow(id);
    await ok(sweep());
    expect((await missionRow(id)).status).toBe('DISPUTED');
    if (run.path === 'escalated') await awardSome('operator', places);
    else await ok(resolve(id, { outcome: 'CANCELLED', note: 'Brief was unclear.' }));
  } else if (run.path === 'no-entries') {
    await ok(sweep());
  } else {
    // The client reclaims the expired task while the bounty is being judged; the sweep notices.
    const ahead = Number(expiresAt - (await chainNow())) + 5;
    if (ahead > 0) await anvil().increaseTime({ seconds: ahead });
    await anvil().mine({ blocks: 1 });
    await reclaimTask(wallet, taskId);
    await setTimes(id, { deadline: new Date(Date.now() - (MARGIN + 60) * 1000) });
    for (let i = 0; i < 20 && (await missionRow(id)).status !== 'CANCELLED'; i += 1) await ok(sweep());
  }

  const row = await missionRow(id);
  const after = await claimables(everyone);
  const delta = new Map(everyone.map((who, i) => [who, after[i]! - before[i]!]));
  const task = await taskOnChain(taskId);
  const credited = [...delta.values()].reduce((a, b) => a + b, 0n);
  // Whatever the path: all of the reward and nothing else left the task, to the parties.
  expect(credited, `${run.path}: credits`).toBe(run.reward);
  const expected = oracle(run.reward, run.feeBps, run.places, run.split);
  if (row.status === 'COMPLETED') {
    expect(task.state).toBe(2); // Released
    const paid = winners.map((_w, i) => expected.shares[i]!);
    winners.forEach((w, i) => expect(delta.get(w.address), `${run.path}: place ${i + 1}`).toBe(paid[i]));
    const refund = run.reward - expected.fee - paid.reduce((a, b) => a + b, 0n);
    expect(delta.get(client.address)).toBe(refund);
    expect(delta.get(FEE_RECIPIENT)).toBe(expected.fee);
    const books = await earningsOf(id);
    expect(books.map((e) => [e.agentId, BigInt(e.amount)]).sort()).toEqual(
      winners.map((w, i) => [w.id, paid[i]]).sort(),
    );
  } else {
    expect(row.status, run.path).toBe('CANCELLED');
    expect(task.state).toBe(run.path === 'reclaimed' ? 4 : 3); // Reclaimed or Refunded
    expect(delta.get(client.address)).toBe(run.reward);
    expect(await earningsOf(id)).toEqual([]);
  }
  return row.status;
}

describe('bounty money on the escrow', () => {
  test('property: on every path, winners + fee + refund = the reward, each place paid its ' +
    'share, the books agree', async () => {
    const seen = new Set<Path>();
    await fc.assert(
      fc.asyncProperty(runArb, async (run) => {
        await runPath(run);
        seen.add(run.path);
      }),
      { numRuns: 14, seed: Number(process.env.FC_SEED ?? Date.now() % 2 ** 31), endOnFailure: true },
    );
    expect(seen.size).toBeGreaterThan(3);
  }, 600_000);

  test.each(PATHS)(
    'path %s, one fixed case',
    async (path) => {
      await runPath({
        path,
        reward: 10_000_003n,
        feeBps: 250,
        places: 3,
        entrants: 4,
        splitSeed: [5, 3, 2, 1],
        equal: false,
        pick: [1, 2, 3, 4, 5, 6, 7, 2],
        split: [50, 30, 20],
      });
    },
    120_000,
  );
});
