// Money reconciles (docs/api.md#settlement-offers, docs/api.md#milestones): missions driven through every
// ending this escrow settles — approved in full, contested then approved, approved on silence, split by
// agreement, refunded by agreement, split by the operator's verdict, resolved against the agent, reclaimed by
// the client after part was released by escrow v5's releasePart, every milestone approved (each part its own
// releasePart), and cancelled after a milestone (the rest refunded) — and, for each, the books (agent_earnings,
// a row per part released), the escrow's tasks(taskId) and released(taskId), every party's claimable balance
// and the token balances after every claim agree to the base unit. Run on PGlite and on PostgreSQL + Redis
// (TEST_DATABASE_URL, TEST_REDIS_URL).
import { eq } from 'drizzle-orm';
import { createTestClient, http } from 'viem';
import { foundry } from 'viem/chains';
import { expect, test } from 'vitest';
import { POST as claimRoute } from '@/app/api/agents/me/claim/route';
import { POST as sweepRoute } from '@/app/api/cron/sweep/route';
import { POST as answerRoute } from '@/app/api/missions/[id]/settlement-offers/[offerId]/route';
import { POST as offerRoute } from '@/app/api/missions/[id]/settlement-offers/route';
import { POST as createRoute } from '@/app/api/missions/route';
import { getDb } from '@/lib/db/client';
import { agentEarnings } from '@/lib/db/schema';
import { useTestEnvironment } from '../support/environment';
import {
  chainNow,
  claimableOnChain,
  fundTask,
  reclaimTask,
  releasedOnChain,
  releasePartOnChain,
  taskOnChain,
  tokenBalance,
} from '../support/escrow';
import { call } from '../support/http';
import { act, missionInput, missionRow, newAgent, ok, type Party, past, resolve, setTimes } from '../support/missions';
import { workerRpcUrl } from '../support/ports';
import { newWallet, signIn } from '../support/wallets';

const FEE_BPS = 1_000n;
// Short windows, so a task can expire soon after its deadline (docs/api.md#escrow's margin).
const RULES = { REVIEW_WINDOW_SECONDS: '60', MAX_CONTESTS: '2', RECLAIM_GRACE_SECONDS: '60' };
const { contracts } = useTestEnvironment({
  ...RULES,
  PLATFORM_FEE_BPS: FEE_BPS.toString(),
  WRITE_RATE_LIMIT_PER_MINUTE: '100000',
});

const REWARD = 9_999_999n; // odd, so every fee rounds
const STATE = { Open: 1, Released: 2, Refunded: 3, Reclaimed: 4 } as const;
const fee = (part: bigint) => (part * FEE_BPS) / 10_000n;
const anvil = () => createTestClient({ chain: foundry, mode: 'anvil', transport: http(workerRpcUrl()) });
const sweep = () =>
  call(sweepRoute, { method: 'POST', headers: { authorization: `Bearer ${process.env.CRON_SECRET}` } });

interface Ending {
  name: string;
  /**
   * The parts released to the agent (each before its fee, which the escrow takes on that part alone): one for
   * a settlement, one per approved milestone, none when nothing was paid. And how the mission ended.
   */
  parts: bigint[];
  status: 'COMPLETED' | 'CANCELLED';
  /** The task's state once settled, and whether agent_earnings holds the parts. */
  state: number;
  booked: boolean;
}

const sum = (amounts: bigint[]) => amounts.reduce((a, b) => a + b, 0n);

async function funded(expiresAt?: bigint, deadline?: string, milestones?: bigint[]) {
  const wallet = newWallet();
  const taskId = await fundTask(wallet, REWARD, expiresAt);
  const { token, user } = await signIn(wallet);
  const client: Party = { token, id: user.id, address: user.walletAddress };
  const created = await call(createRoute, {
    token,
    body: missionInput({
      reward: REWARD.toString(),
      onChainTaskId: taskId,
      ...(deadline && { deadline }),
      ...(milestones && {
        milestones: milestones.map((amount, i) => ({
          title: `Part ${i + 1}`,
          amount: amount.toString(),
          criteria: `Delivers part ${i + 1}`,
        })),
      }),
    }),
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const agent = await newAgent();
  const id = created.body.id as string;
  await ok(act('accept', agent, id));
  return { id, taskId, client, agent, wallet };
}

async function delivered() {
  const m = await funded();
  await ok(act('submit', m.agent, m.id, { note: 'Done.' }));
  return m;
}

async function disputed() {
  const m = await delivered();
  for (let round = 1; round <= 2; round += 1) {
    await ok(act('contest', m.client, m.id, { reason: `Round ${round}.` }));
    await ok(act('submit', m.agent, m.id, { note: `Again ${round}.` }));
  }
  await ok(act('contest', m.client, m.id, { reason: 'The operator, please.' }));
  return m;
}

async function agree(m: Awaited<ReturnType<typeof delivered>>, by: Party, other: Party, part: bigint) {
  const made = await call(offerRoute, {
    method: 'POST',
    token: by.token,
    params: { id: m.id },
    body: { agentAmount: part.toString() },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const accepted = await call(answerRoute, {
    method: 'POST',
    token: other.token,
    params: { id: m.id, offerId: made.body.offer.id },
    body: { decision: 'accept' },
  });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
}

/** The books, the escrow and the balances of one mission, against what its ending says. */
async function reconcile(m: Awaited<ReturnType<typeof funded>>, ending: Ending) {
  const row = await missionRow(m.id);
  expect(row.status, ending.name).toBe(ending.status);
  const released = sum(ending.parts);
  const fees = sum(ending.parts.map(fee));
  const net = released - fees;
  const refund = REWARD - released;
  // One row per part, in milestone order (a settlement's one row has no milestone).
  const earnings = (await (await getDb()).select().from(agentEarnings).where(eq(agentEarnings.missionId, m.id)))
    .sort((a, b) => (a.milestone ?? 0) - (b.milestone ?? 0))
    .map((e) => ({ gross: e.gross, fee: e.fee, amount: e.amount }));
  expect(earnings, ending.name).toEqual(
    ending.booked
      ? ending.parts.map((part) => ({
          gross: part.toString(),
          fee: fee(part).toString(),
          amount: (part - fee(part)).toString(),
        }))
      : [],
  );
  const task = await taskOnChain(m.taskId);
  // settle and the last releasePart leave a closed task's amount 0; v2's refund and reclaim (inherited
  // unchanged) leave what they paid: the remainder the parts did not release.
  const left = ending.state === STATE.Released ? 0n : refund;
  expect({ state: task.state, amount: task.amount }, ending.name).toEqual({ state: ending.state, amount: left });
  // released() counts what settle and releasePart sent: the parts' sum, fees included, refunded or reclaimed after.
  expect(await releasedOnChain(m.taskId), ending.name).toBe(released);
  // Each wallet is fresh: what it is owed is this mission's alone.
  expect(await claimableOnChain(m.agent.address), ending.name).toBe(net);
  expect(await claimableOnChain(m.client.address), ending.name).toBe(refund);
  // The agent claims through the API; the client from its own wallet. Each gets exactly that, once.
  if (net > 0n) {
    const claimed = await call(claimRoute, { token: m.agent.token, method: 'POST' });
    expect(claimed.body, ending.name).toMatchObject({ amount: net.toString(), status: 'MINED' });
    expect(await tokenBalance(m.agent.address), ending.name).toBe(net);
    expect((await call(claimRoute, { token: m.agent.token, method: 'POST' })).status).toBe(409);
  }
  expect(await tokenBalance(m.client.address), ending.name).toBe(0n);
  return { net, fee: fees, refund };
}

test('behavior: money reconciles through every ending, to the base unit', async () => {
  const escrowBefore = await tokenBalance(contracts.escrow);
  let fees = 0n;
  let refunds = 0n;
  let funding = 0n;
  const tally = (r: { fee: bigint; refund: bigint }) => {
    fees += r.fee;
    refunds += r.refund;
    funding += REWARD;
  };

  const full = await delivered();
  await ok(act('approve', full.client, full.id));
  // release() reports no released(taskId): it is v2's code, which v5 inherits unchanged.
  tally(await reconcileRelease(full));

  const contested = await delivered();
  await ok(act('contest', contested.client, contested.id, { reason: 'Fix it.' }));
  await ok(act('submit', contested.agent, contested.id, { note: 'Fixed.' }));
  await ok(act('approve', contested.client, contested.id));
  tally(await reconcileRelease(contested));

  // Approved on silence: the review window runs out, and the sweep (or any read) completes and pays it.
  const silent = await delivered();
  await setTimes(silent.id, { reviewDeadline: past(5) });
  for (let run = 0; run < 20 && (await missionRow(silent.id)).status !== 'COMPLETED'; run++) await ok(sweep());
  tally(await reconcileRelease(silent));

  const split = await delivered();
  await agree(split, split.agent, split.client, 3_333_333n);
  tally(
    await reconcile(split, {
      name: 'split by agreement',
      parts: [3_333_333n],
      status: 'COMPLETED',
      state: STATE.Released,
      booked: true,
    }),
  );

  const nothing = await delivered();
  await agree(nothing, nothing.client, nothing.agent, 0n);
  tally(
    await reconcile(nothing, {
      name: 'refund by agreement',
      parts: [],
      status: 'CANCELLED',
      state: STATE.Refunded,
      booked: true,
    }),
  );

  const verdict = await disputed();
  expect((await resolve(verdict.id, { outcome: 'SPLIT', agentAmount: '6666667' })).status).toBe(200);
  tally(
    await reconcile(verdict, {
      name: 'split by verdict',
      parts: [6_666_667n],
      status: 'COMPLETED',
      state: STATE.Released,
      booked: true,
    }),
  );

  const against = await disputed();
  expect((await resolve(against.id, { outcome: 'CANCELLED' })).status).toBe(200);
  tally(
    await reconcile(against, {
      name: 'resolved against',
      parts: [],
      status: 'CANCELLED',
      state: STATE.Refunded,
      booked: true,
    }),
  );

  // Reclaimed after part was released: releasePart straight on the escrow (as milestones send it), then
  // the task expires and its client takes back the remainder; the sweep ends the mission CANCELLED.
  const deadline = new Date(Date.now() + 30_000);
  await anvil().mine({ blocks: 1 });
  const earliest = BigInt(Math.ceil(deadline.getTime() / 1000)) + 240n;
  const chain = (await chainNow()) + 60n;
  const expiresAt = earliest > chain ? earliest : chain;
  const reclaimed = await funded(expiresAt, deadline.toISOString());
  const part = 4_000_001n;
  await releasePartOnChain(reclaimed.taskId, reclaimed.agent.address, part, Number(FEE_BPS));
  expect(await taskOnChain(reclaimed.taskId)).toMatchObject({ state: STATE.Open, amount: REWARD - part });
  await anvil().increaseTime({ seconds: Number(expiresAt - (await chainNow())) + 5 });
  await anvil().mine({ blocks: 1 });
  await reclaimTask(reclaimed.wallet, reclaimed.taskId);
  // The sweep looks at missions past their deadline and the reclaim margin, by the server's clock.
  await setTimes(reclaimed.id, { deadline: past(600) });
  for (let run = 0; run < 20 && (await missionRow(reclaimed.id)).status !== 'CANCELLED'; run++) await ok(sweep());
  const r = await reconcile(reclaimed, {
    name: 'reclaimed after a part',
    parts: [part],
    status: 'CANCELLED',
    state: STATE.Reclaimed,
    booked: false,
  });
  tally(r);

  // Every milestone approved through the API: each part its own releasePart, its fee on that part alone.
  const halves = [4_444_443n, 5_555_556n]; // odd fees: 444_444.3 and 555_555.6, each rounded down
  expect(sum(halves)).toBe(REWARD);
  const staged = await funded(undefined, undefined, halves);
  for (const number of [1, 2]) {
    await ok(act('submit', staged.agent, staged.id, { milestone: number, note: `Part ${number} done.` }));
    await ok(act('approve', staged.client, staged.id, { milestone: number }));
  }
  tally(
    await reconcile(staged, {
      name: 'milestones approved',
      parts: halves,
      status: 'COMPLETED',
      state: STATE.Released,
      booked: true,
    }),
  );

  // Cancelled after a milestone: the first part stays paid, the task refunds the rest to the client.
  const firstOnly = [2_345_677n, 7_654_322n];
  expect(sum(firstOnly)).toBe(REWARD);
  const stopped = await funded(undefined, undefined, firstOnly);
  await ok(act('submit', stopped.agent, stopped.id, { milestone: 1, note: 'Part 1 done.' }));
  await ok(act('approve', stopped.client, stopped.id, { milestone: 1 }));
  await setTimes(stopped.id, { deadline: past() });
  expect((await ok(act('cancel', stopped.client, stopped.id))).status).toBe('CANCELLED');
  tally(
    await reconcile(stopped, {
      name: 'cancelled after a milestone',
      parts: [firstOnly[0]!],
      status: 'CANCELLED',
      state: STATE.Refunded,
      booked: true,
    }),
  );

  // The escrow holds exactly what it still owes: the fee recipient's fees and the clients' refunds (unclaimed).
  expect(await tokenBalance(contracts.escrow)).toBe(escrowBefore + fees + refunds);
  expect(funding).toBe(10n * REWARD);
}, 300_000);

/** A full release: the agent's credit is the reward less the fee; nothing refunded. */
async function reconcileRelease(m: Awaited<ReturnType<typeof delivered>>) {
  const net = REWARD - fee(REWARD);
  const earnings = await (await getDb()).select().from(agentEarnings).where(eq(agentEarnings.missionId, m.id));
  expect(earnings.map((e) => e.amount)).toEqual([net.toString()]);
  expect(await taskOnChain(m.taskId)).toMatchObject({ state: STATE.Released });
  expect(await claimableOnChain(m.agent.address)).toBe(net);
  expect(await claimableOnChain(m.client.address)).toBe(0n);
  const claimed = await call(claimRoute, { token: m.agent.token, method: 'POST' });
  expect(claimed.body).toMatchObject({ amount: net.toString(), status: 'MINED' });
  expect(await tokenBalance(m.agent.address)).toBe(net);
  return { fee: fee(REWARD), refund: 0n };
}
