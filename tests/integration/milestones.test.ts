// Milestone missions (docs/api.md#milestones) on escrow v5, through the route handlers and the real anvil: the
// creation rules; each milestone submitted, approved (or approved on silence, or contested) and released alone by
// releasePart, reconciled after each release with the task's amount, released(), claimable and token balances to
// the base unit; cancel and reclaim refunding only the rest; a retried sweep never releasing a milestone twice;
// and the mission's one ERC-8004 feedback from what its milestones released.
import { and, eq } from 'drizzle-orm';
import { createTestClient, http, type Hex } from 'viem';
import { foundry } from 'viem/chains';
import { describe, expect, test } from 'vitest';
import { POST as linkRoute } from '@/app/api/agents/me/erc8004/route';
import { POST as claimRoute } from '@/app/api/agents/me/claim/route';
import { POST as sweepRoute } from '@/app/api/cron/sweep/route';
import { POST as createRoute } from '@/app/api/missions/route';
import { POST as offerRoute } from '@/app/api/missions/[id]/settlement-offers/route';
import { taskEscrowV5Artifact } from '@/lib/chain/artifacts';
import { getDb } from '@/lib/db/client';
import { missionMilestones, reputationFeedback, settlements, webhookEvents } from '@/lib/db/schema';
import { processSettlement } from '@/lib/settlements/process';
import { config } from '@/lib/config';
import { publicClient } from '../support/chain';
import { agentWithWallet, registerIdentity } from '../support/erc8004';
import { call } from '../support/http';
import { useTestEnvironment } from '../support/environment';
import {
  chainNow,
  claimableOnChain,
  fundTask,
  reclaimTask,
  taskOnChain,
  tokenBalance,
  topUpTask,
} from '../support/escrow';
import {
  act,
  earningsOf,
  getMission,
  missionCountOf,
  missionInput,
  missionRow,
  newAgent,
  ok,
  type Party,
  past,
  resolve,
  setTimes,
} from '../support/missions';
import { workerRpcUrl } from '../support/ports';
import { newWallet, signIn } from '../support/wallets';

const RULES = { REVIEW_WINDOW_SECONDS: '60', MAX_CONTESTS: '1', RECLAIM_GRACE_SECONDS: '60' };
const { contracts } = useTestEnvironment({
  ...RULES,
  PLATFORM_FEE_BPS: '1000',
  WRITE_RATE_LIMIT_PER_MINUTE: '100000',
});

// Odd amounts, so the fee's rounding on each part shows: 10% of 3_333_333 is 333_333.3.
const PARTS = [3_333_333n, 5_000_001n, 1_666_666n];
const REWARD = PARTS.reduce((a, b) => a + b, 0n);
const feeOf = (gross: bigint) => (gross * 1_000n) / 10_000n;
const netOf = (gross: bigint) => gross - feeOf(gross);
const milestonesOf = (parts: bigint[]) =>
  parts.map((amount, i) => ({ title: `Part ${i + 1}`, amount: amount.toString(), criteria: `Delivers part ${i + 1}` }));

const cron = { authorization: `Bearer ${process.env.CRON_SECRET}` };
const sweep = () => call(sweepRoute, { method: 'POST', headers: cron });
const escrow = () => (contracts as unknown as { escrow: Hex }).escrow;
const releasedOnChain = (taskId: number) =>
  publicClient().readContract({
    address: escrow(),
    abi: taskEscrowV5Artifact.abi,
    functionName: 'released',
    args: [BigInt(taskId)],
  });
const partsOf = async (missionId: string) =>
  (await getDb())
    .select()
    .from(settlements)
    .where(and(eq(settlements.missionId, missionId), eq(settlements.kind, 'PART')));

/** A client whose wallet funded a task of `reward`, signed in. */
async function fundedClient(reward = REWARD, expiresAt?: bigint) {
  const wallet = newWallet();
  const taskId = await fundTask(wallet, reward, expiresAt);
  const { token, user } = await signIn(wallet);
  return { wallet, taskId, token, id: user.id as string, address: user.walletAddress as string };
}

/** A funded milestone mission taken by `agent` (a new one unless given). */
async function takenMission(options: { agent?: Party; parts?: bigint[]; deadline?: Date; expiresAt?: bigint } = {}) {
  const parts = options.parts ?? PARTS;
  const reward = parts.reduce((a, b) => a + b, 0n);
  const client = await fundedClient(reward, options.expiresAt);
  const agent = options.agent ?? (await newAgent());
  const created = await call(createRoute, {
    token: client.token,
    body: missionInput({
      reward: reward.toString(),
      onChainTaskId: client.taskId,
      milestones: milestonesOf(parts),
      ...(options.deadline ? { deadline: options.deadline.toISOString() } : {}),
    }),
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.id as string;
  await ok(act('accept', agent, id));
  return { client, agent, id, reward };
}

describe('creating a milestone mission (docs/api.md#milestones)', () => {
  test('error: 1 or 11 milestones, a sum not the reward, a bounty, a zero amount: 400, nothing made', async () => {
    const { token, user } = await signIn();
    const post = (body: Record<string, unknown>) => call(createRoute, { token, body: missionInput(body) });
    const cases: [Record<string, unknown>, string][] = [
      [{ reward: '1000', milestones: milestonesOf([1000n]) }, 'milestones'],
      [{ reward: '1100', milestones: milestonesOf(Array.from({ length: 11 }, () => 100n)) }, 'milestones'],
      [{ reward: '1000', milestones: milestonesOf([400n, 500n]) }, 'milestones: amounts must sum to the reward 1000'],
      [{ reward: '1000', milestones: milestonesOf([600n, 500n]) }, 'milestones: amounts must sum to the reward 1000'],
      [{ reward: '1000', assignment: 'BOUNTY', milestones: milestonesOf([500n, 500n]) }, 'milestones: a BOUNTY'],
      [{ reward: '1000', milestones: milestonesOf([1000n, 0n]) }, 'must be greater than zero'],
    ];
    for (const [body, detail] of cases) {
      const response = await post(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.details.join('\n')).toContain(detail);
    }
    expect(await missionCountOf(user.id)).toBe(0);
  });

  test('default: the mission answers its milestones, numbered from 1, all PENDING, nothing released', async () => {
    const { id, client } = await takenMission();
    const mission = (await getMission(client, id)).body;
    expect(mission.status).toBe('ACCEPTED');
    expect(mission.released).toBe('0');
    expect(mission.milestones).toEqual(
      PARTS.map((amount, i) => ({
        number: i + 1,
        title: `Part ${i + 1}`,
        amount: amount.toString(),
        criteria: `Delivers part ${i + 1}`,
        status: 'PENDING',
        releasedAmount: '0',
        reviewDeadline: null,
        contests: 0,
        submittedAt: null,
        approvedAt: null,
      })),
    );
  });
});

describe('a milestone mission keeps its reward', () => {
  test('error: a bump cannot raise the reward past its milestones (409), even with the task topped up', async () => {
    const client = await fundedClient(2_000_000n);
    const created = await call(createRoute, {
      token: client.token,
      body: missionInput({
        reward: '2000000',
        onChainTaskId: client.taskId,
        milestones: milestonesOf([1_000_000n, 1_000_000n]),
      }),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await topUpTask(client.wallet, client.taskId, 500_000n);
    const bumped = await act('bump', client, created.body.id, { reward: '2500000' });
    expect(bumped.status, JSON.stringify(bumped.body)).toBe(409);
    expect(bumped.body.error).toContain('sum of its milestones');
    expect((await missionRow(created.body.id)).reward).toBe('2000000');
  });
});

describe('milestone by milestone on escrow v5', () => {
  test('behavior: each approval releases its part alone; books, task and balances agree to the unit', async () => {
    const { client, agent, id } = await takenMission();
    const taskId = client.taskId;
    const agentStart = await claimableOnChain(agent.address);
    let released = 0n;
    for (const [i, gross] of PARTS.entries()) {
      const number = i + 1;
      // Only the milestone at hand: the next one is 409, a plain submit without a number is the one at hand.
      if (number < PARTS.length) {
        const ahead = await act('submit', agent, id, { milestone: number + 1, note: 'Early.' });
        expect(ahead.status).toBe(409);
      }
      const submitted = await ok(act('submit', agent, id, { milestone: number, note: `Part ${number} done.` }));
      expect(submitted.status).toBe('SUBMITTED');
      expect(submitted.milestones[i]).toMatchObject({ status: 'SUBMITTED', reviewDeadline: expect.any(String) });
      const approved = await ok(act('approve', client, id, { milestone: number }));
      released += gross;
      expect(approved.status).toBe(number < PARTS.length ? 'ACCEPTED' : 'COMPLETED');
      expect(approved.released).toBe(released.toString());
      expect(approved.milestones[i]).toMatchObject({ status: 'APPROVED', releasedAmount: gross.toString() });
      // The chain: the remainder in the task, the sum released, the agent's credit (fee on each part alone).
      const task = await taskOnChain(taskId);
      expect(task.amount).toBe(REWARD - released);
      expect(task.state).toBe(number < PARTS.length ? 1 : 2); // Open, then Released
      expect(await releasedOnChain(taskId)).toBe(released);
      const credited = PARTS.slice(0, number).reduce((sum, part) => sum + netOf(part), 0n);
      expect(await claimableOnChain(agent.address)).toBe(agentStart + credited);
      const earnings = await earningsOf(id);
      expect(earnings.map((e) => [e.milestone, e.gross, e.fee, e.amount]).sort()).toEqual(
        PARTS.slice(0, number)
          .map((part, j) => [j + 1, part.toString(), feeOf(part).toString(), netOf(part).toString()])
          .sort(),
      );
      expect((await partsOf(id)).every((row) => row.status === 'MINED')).toBe(true);
    }
    expect(await claimableOnChain(client.address)).toBe(0n);
    // Each part is announced to both parties as it is approved, with the agent's credit; the last one completes.
    const announced = (await (await getDb()).select().from(webhookEvents).where(eq(webhookEvents.missionId, id)))
      .sort((a, b) => a.seq - b.seq)
      .filter((e) => ['mission.milestone_approved', 'mission.completed', 'earnings.released'].includes(e.event));
    expect(announced.map((e) => e.event)).toEqual(
      PARTS.flatMap((_, i) => [
        i < PARTS.length - 1 ? 'mission.milestone_approved' : 'mission.completed',
        'earnings.released',
      ]),
    );
    for (const event of announced.filter((e) => e.event === 'mission.milestone_approved'))
      expect(event.audience).toEqual({ users: expect.arrayContaining([expect.any(String), expect.any(String)]) });
    expect(
      announced.filter((e) => e.event === 'earnings.released').map((e) => (e.payload.data as any).earnings.gross),
    ).toEqual(PARTS.map(String));
    // The agent's claim pays what the parts credited, to the unit.
    const balance = await tokenBalance(agent.address);
    const claimable = await claimableOnChain(agent.address);
    const claim = await call(claimRoute, { token: agent.token, method: 'POST' });
    expect(claim.status, JSON.stringify(claim.body)).toBe(200);
    expect(await tokenBalance(agent.address)).toBe(balance + claimable);
    expect((await missionRow(id)).completedAt).not.toBeNull();
  });

  test('behavior: a milestone whose review window runs out is approved on silence and released', async () => {
    const { client, agent, id } = await takenMission({ parts: [2_000_001n, 3_000_000n] });
    await ok(act('submit', agent, id, { milestone: 1, note: 'First half.' }));
    await setTimes(id, { reviewDeadline: past() });
    await ok(sweep());
    const mission = (await getMission(client, id)).body;
    expect(mission.status).toBe('ACCEPTED');
    expect(mission.milestones.map((m: { status: string }) => m.status)).toEqual(['APPROVED', 'PENDING']);
    expect((await taskOnChain(client.taskId)).amount).toBe(3_000_000n);
    expect(await releasedOnChain(client.taskId)).toBe(2_000_001n);
    expect(await claimableOnChain(agent.address)).toBe(netOf(2_000_001n));
  });

  test('behavior: a contested milestone goes back to the agent, then past MAX_CONTESTS to the operator', async () => {
    const { client, agent, id } = await takenMission({ parts: [1_000_000n, 4_000_000n] });
    await ok(act('submit', agent, id, { milestone: 1, note: 'v1' }));
    const contested = await ok(act('contest', client, id, { milestone: 1, reason: 'Missing labels.' }));
    expect(contested.status).toBe('CONTESTED');
    expect(contested.milestones[0]).toMatchObject({ status: 'CONTESTED', contests: 1 });
    await ok(act('submit', agent, id, { milestone: 1, note: 'v2' }));
    // MAX_CONTESTS = 1: the second contest of this milestone needs the operator.
    const disputed = await ok(act('contest', client, id, { milestone: 1, reason: 'Still missing.' }));
    expect(disputed.status).toBe('DISPUTED');
    expect(disputed.milestones[0]).toMatchObject({ status: 'DISPUTED', contests: 2 });
    expect((await taskOnChain(client.taskId)).amount).toBe(5_000_000n);
    // The operator's COMPLETED approves the disputed milestone; the next one starts with its own rounds.
    const resolved = await resolve(id, { outcome: 'COMPLETED' });
    expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
    expect(resolved.body.status).toBe('ACCEPTED');
    expect(await claimableOnChain(agent.address)).toBe(netOf(1_000_000n));
    await ok(act('submit', agent, id, { milestone: 2, note: 'Part 2' }));
    const again = await ok(act('contest', client, id, { milestone: 2, reason: 'Wrong format.' }));
    expect(again.status).toBe('CONTESTED');
    expect(again.milestones[1]).toMatchObject({ status: 'CONTESTED', contests: 1 });
  });

  test('behavior: cancel after a part was released refunds only the rest', async () => {
    const { client, agent, id } = await takenMission({ parts: [1_500_000n, 2_500_001n] });
    await ok(act('submit', agent, id, { milestone: 1, note: 'Part 1' }));
    await ok(act('approve', client, id, { milestone: 1 }));
    await setTimes(id, { deadline: past() });
    const cancelled = await ok(act('cancel', client, id));
    expect(cancelled.status).toBe('CANCELLED');
    const task = await taskOnChain(client.taskId);
    expect(task.state).toBe(3); // Refunded: the remainder it held, credited to the client
    expect(task.amount).toBe(2_500_001n);
    expect(await releasedOnChain(client.taskId)).toBe(1_500_000n);
    expect(await claimableOnChain(client.address)).toBe(2_500_001n);
    expect(await claimableOnChain(agent.address)).toBe(netOf(1_500_000n));
    const [refund] = await (await getDb())
      .select()
      .from(settlements)
      .where(and(eq(settlements.missionId, id), eq(settlements.kind, 'REFUND')));
    expect(refund).toMatchObject({ amount: '2500001', status: 'MINED' });
    expect((await earningsOf(id)).map((e) => e.amount)).toEqual([netOf(1_500_000n).toString()]);
  });

  test('behavior: the client reclaiming an expired task after a part was released takes only the rest', async () => {
    const deadline = new Date(Date.now() + 120_000);
    // deadline + review window × (MAX_CONTESTS + 1) + grace, and ahead of the worker's chain clock.
    const earliest = BigInt(Math.ceil(deadline.getTime() / 1000)) + 60n * 2n + 60n;
    const anvil = createTestClient({ chain: foundry, mode: 'anvil', transport: http(workerRpcUrl()) });
    await anvil.mine({ blocks: 1 });
    const chain = (await chainNow()) + 60n;
    const expiresAt = earliest > chain ? earliest : chain;
    const { client, agent, id } = await takenMission({ parts: [1_000_001n, 2_000_000n], deadline, expiresAt });
    await ok(act('submit', agent, id, { milestone: 1, note: 'Part 1' }));
    await ok(act('approve', client, id, { milestone: 1 }));
    await ok(act('submit', agent, id, { milestone: 2, note: 'Part 2' }));
    await anvil.increaseTime({ seconds: Number(expiresAt - (await chainNow())) + 5 });
    await anvil.mine({ blocks: 1 });
    await reclaimTask(client.wallet, client.taskId);
    expect(await claimableOnChain(client.address)).toBe(2_000_000n);
    // Past the deadline by more than the margin, its review window still open: the sweep's reclaim scan finds it.
    await setTimes(id, { deadline: past(600), reviewDeadline: new Date(Date.now() + 3_600_000) });
    for (let run = 0; run < 20 && (await missionRow(id)).status !== 'CANCELLED'; run++) await ok(sweep());
    const row = await missionRow(id);
    expect(row.status).toBe('CANCELLED');
    expect(row.released).toBe('1000001');
    // The part paid stays paid, in the books and on-chain; nothing more was sent for the task.
    expect((await earningsOf(id)).map((e) => e.amount)).toEqual([netOf(1_000_001n).toString()]);
    expect(await claimableOnChain(agent.address)).toBe(netOf(1_000_001n));
    expect(await releasedOnChain(client.taskId)).toBe(1_000_001n);
  });

  test('behavior: a sweep retried over a released milestone never releases it twice', async () => {
    const { client, agent, id } = await takenMission({ parts: [1_234_567n, 1_000_000n] });
    await ok(act('submit', agent, id, { milestone: 1, note: 'Part 1' }));
    await ok(act('approve', client, id, { milestone: 1 }));
    const [part] = await partsOf(id);
    expect(part).toMatchObject({ status: 'MINED', milestone: 1 });
    // As if the worker crashed after the send and before writing MINED: the row is PENDING again, its hash kept.
    await (await getDb())
      .update(settlements)
      .set({ status: 'PENDING', lockedUntil: null, minedAt: null })
      .where(eq(settlements.id, part!.id));
    const [a, b] = await Promise.all([sweep(), sweep()]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    await processSettlement(await getDb(), config(), part!.id, 5_000);
    expect((await partsOf(id)).map((row) => row.status)).toEqual(['MINED']);
    // And with no hash recorded at all, the chain's released() says the part is paid.
    await (await getDb())
      .update(settlements)
      .set({ status: 'PENDING', lockedUntil: null, txHash: null })
      .where(eq(settlements.id, part!.id));
    await ok(sweep());
    expect((await partsOf(id)).map((row) => row.status)).toEqual(['MINED']);
    expect(await releasedOnChain(client.taskId)).toBe(1_234_567n);
    expect((await taskOnChain(client.taskId)).amount).toBe(1_000_000n);
    expect(await claimableOnChain(agent.address)).toBe(netOf(1_234_567n));
    const [milestone] = await (await getDb())
      .select()
      .from(missionMilestones)
      .where(and(eq(missionMilestones.missionId, id), eq(missionMilestones.number, 1)));
    expect(milestone).toMatchObject({ status: 'APPROVED', releasedAmount: '1234567' });
  });
});

describe('a milestone mission is not settled in part (docs/api.md#milestones)', () => {
  test('error: a settlement offer by either party and a SPLIT verdict are 409; task and books unchanged', async () => {
    const { client, agent, id } = await takenMission({ parts: [1_000_000n, 4_000_000n] });
    await ok(act('submit', agent, id, { milestone: 1, note: 'Part 1' }));
    await ok(act('approve', client, id, { milestone: 1 }));
    await ok(act('submit', agent, id, { milestone: 2, note: 'Part 2' }));
    for (const party of [agent, client]) {
      const offered = await call(offerRoute, {
        method: 'POST',
        token: party.token,
        params: { id },
        body: { agentAmount: '2000000' },
      });
      expect(offered.status, JSON.stringify(offered.body)).toBe(409);
      expect(offered.body.error).toMatch(/milestone by milestone/);
    }
    await ok(act('contest', client, id, { milestone: 2, reason: 'Wrong format.' }));
    await ok(act('submit', agent, id, { milestone: 2, note: 'Part 2 again' }));
    const disputed = await ok(act('contest', client, id, { milestone: 2, reason: 'Still wrong.' }));
    expect(disputed.status).toBe('DISPUTED');
    const split = await resolve(id, { outcome: 'SPLIT', agentAmount: '2000000' });
    expect(split.status, JSON.stringify(split.body)).toBe(409);
    const after = (await getMission(client, id)).body;
    expect(after).toMatchObject({ status: 'DISPUTED', settlement: null, settlementOffer: null, released: '1000000' });
    expect((await taskOnChain(client.taskId)).amount).toBe(4_000_000n);
    const rows = await (await getDb()).select().from(settlements).where(eq(settlements.missionId, id));
    expect(rows.map((r) => r.kind)).toEqual(['PART']);
  });
});

describe('reputation (docs/api.md#milestones)', () => {
  async function linkedAgent() {
    const agent = await agentWithWallet();
    const agentId = await registerIdentity(agent.wallet);
    const linked = await call(linkRoute, { token: agent.token, method: 'POST', body: { agentId: agentId.toString() } });
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    return agent;
  }
  const feedbackOf = async (missionId: string) =>
    (await getDb()).select().from(reputationFeedback).where(eq(reputationFeedback.missionId, missionId));

  test('behavior: one feedback when the mission ends: 100 approved when all was released', async () => {
    const agent = await linkedAgent();
    const { client, id } = await takenMission({ agent, parts: [3_000_000n, 3_000_000n] });
    await ok(act('submit', agent, id, { milestone: 1, note: 'Part 1' }));
    await ok(act('approve', client, id, { milestone: 1 }));
    expect(await feedbackOf(id)).toEqual([]);
    await ok(act('submit', agent, id, { milestone: 2, note: 'Part 2' }));
    await ok(act('approve', client, id, { milestone: 2 }));
    expect((await feedbackOf(id)).map((f) => [f.outcome, f.value, f.reward])).toEqual([['approved', 100, '6000000']]);
  });

  test('behavior: a mission cancelled after part was released gives the percent released, tag2 partial', async () => {
    const agent = await linkedAgent();
    const { client, id } = await takenMission({ agent, parts: [3_000_000n, 7_000_000n] });
    await ok(act('submit', agent, id, { milestone: 1, note: 'Part 1' }));
    await ok(act('approve', client, id, { milestone: 1 }));
    await setTimes(id, { deadline: past() });
    await ok(act('cancel', client, id));
    expect((await feedbackOf(id)).map((f) => [f.outcome, f.value, f.reward])).toEqual([['partial', 30, '3000000']]);
  });
});
