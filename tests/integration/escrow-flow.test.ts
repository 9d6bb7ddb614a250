// Missions funded on-chain, end to end through the route handlers: fund → create → accept →
// submit → approve → release mined → earnings → claim → the agent's tokens; cancel → refund.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { GET as missionRoute } from '@/app/api/missions/[id]/route';
import { POST as addWebhook } from '@/app/api/webhooks/route';
import { GET as earningsRoute } from '@/app/api/agents/me/earnings/route';
import { POST as claimRoute } from '@/app/api/agents/me/claim/route';
import { POST as createRoute } from '@/app/api/missions/route';
import { POST as registerAgent } from '@/app/api/auth/register-agent/route';
import { call } from '../support/http';
import { routes } from '../support/missions';
import { setEnv, useTestEnvironment, BOOKKEEPING } from '../support/environment';
import { claimableOnChain, fundTask, taskOnChain, tokenBalance, topUpTask } from '../support/escrow';
import { act, earningsOf, inDays, missionInput, missionRow, ok, past, setTimes } from '../support/missions';
import { isolatedDatabase } from '../support/isolated-database';
import { startWebhookReceiver } from '../support/webhook-receiver';
import { newWallet, signIn } from '../support/wallets';
import { chainReadsOf } from '../support/shared-loads';

// A database of its own on PostgreSQL: the webhooks asserted here are exactly these missions', not
// also what earlier files of this worker left due (their endpoints, their fan-outs).
const { contracts } = useTestEnvironment({
  ...isolatedDatabase(),
  PLATFORM_FEE_BPS: '1000',
  WRITE_RATE_LIMIT_PER_MINUTE: '100000',
  WEBHOOK_ALLOW_PRIVATE: '1',
});

const REWARD = 25_000_000n;

async function fundedClient(reward = REWARD) {
  const wallet = newWallet();
  const taskId = await fundTask(wallet, reward);
  const { token, user } = await signIn(wallet);
  return { wallet, token, user, taskId, id: user.id, address: user.walletAddress };
}

async function agent() {
  const { token, user } = await signIn();
  const response = await call(registerAgent, { token, method: 'POST' });
  return { token: response.body.token as string, id: user.id as string, address: user.walletAddress as string };
}

const create = (token: string, body: Record<string, unknown>) => call(createRoute, { token, body: missionInput(body) });

async function completedMission() {
  const client = await fundedClient();
  const worker = await agent();
  const created = await create(client.token, { reward: REWARD.toString(), onChainTaskId: client.taskId });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.id as string;
  await ok(act('accept', worker, id));
  await ok(act('submit', worker, id, { note: 'Done.' }));
  return { client, worker, id, approve: () => act('approve', client, id) };
}

let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver.close());

/** What each party's endpoint heard of the mission: event types, in order. */
async function listening(parties: Record<string, { token: string }>) {
  for (const [name, party] of Object.entries(parties)) {
    const events = ['mission.completed', 'earnings.released'];
    const added = await call(addWebhook, { token: party.token, body: { url: `${receiver.url}?${name}`, events } });
    expect(added.status).toBe(201);
  }
  return (id: string) =>
    Object.fromEntries(
      Object.keys(parties).map((name) => [
        name,
        receiver.received
          .filter((r) => r.path.endsWith(`?${name}`) && r.body.includes(id))
          .map((r) => JSON.parse(r.body).type),
      ]),
    );
}

describe('funded missions', () => {
  // docs/api.md#one-door: whichever request applies a transition, what it settles leaves the same way.
  test('behavior: a read that finds the review window over pays and notifies like an approve', async () => {
    const approved = await completedMission();
    const heardApproved = await listening({ client: approved.client, agent: approved.worker });
    const answer = await call(routes.approve, {
      method: 'POST',
      token: approved.client.token,
      params: { id: approved.id },
      afterResponse: true,
    });
    expect(answer.status).toBe(200);

    const read = await completedMission();
    const heardRead = await listening({ client: read.client, agent: read.worker });
    await setTimes(read.id, { reviewDeadline: past() });
    const seen = await call(missionRoute, { token: read.client.token, params: { id: read.id }, afterResponse: true });
    expect(seen.body.status).toBe('COMPLETED');
    // Paid on-chain by the read itself, not by a later sweep.
    expect((await taskOnChain(read.client.taskId)).state).toBe(2); // Released
    expect(await claimableOnChain(read.worker.address)).toBe((REWARD * 9_000n) / 10_000n);
    const told = { client: ['mission.completed'], agent: ['mission.completed', 'earnings.released'] };
    expect(heardApproved(approved.id)).toEqual(told);
    expect(heardRead(read.id)).toEqual(told);
  });

  test('default: approve releases the reward less the fee on-chain, and claim pays it to the agent', async () => {
    const { worker, approve, client } = await completedMission();
    expect((await approve()).status).toBe(200);
    expect((await taskOnChain(client.taskId)).state).toBe(2); // Released
    const net = (REWARD * 9_000n) / 10_000n;
    expect(await claimableOnChain(worker.address)).toBe(net);

    const before = await call(earningsRoute, { token: worker.token });
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ pending: net.toString(), claimed: '0', inFlight: '0' });
    expect(before.body.history[0]).toMatchObject({ type: 'EARNED', amount: net.toString(), gross: REWARD.toString() });

    const balance = await tokenBalance(worker.address);
    const claim = await call(claimRoute, { token: worker.token, method: 'POST' });
    expect(claim.status).toBe(200);
    expect(claim.body).toEqual({
      amount: net.toString(),
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      status: 'MINED',
    });
    expect(await tokenBalance(worker.address)).toBe(balance + net);

    const after = await call(earningsRoute, { token: worker.token });
    expect(after.body).toMatchObject({ pending: '0', claimed: net.toString(), inFlight: '0' });
    expect(await call(claimRoute, { token: worker.token, method: 'POST' })).toMatchObject({
      status: 409,
      body: { error: 'Nothing to claim' },
    });
  });

  test('behavior: cancel refunds the task to the client', async () => {
    const client = await fundedClient();
    const created = await create(client.token, { reward: REWARD.toString(), onChainTaskId: client.taskId });
    await ok(act('cancel', client, created.body.id));
    expect((await taskOnChain(client.taskId)).state).toBe(3); // Refunded
    expect(await claimableOnChain(client.address)).toBe(REWARD);
  });

  test('behavior: 20 concurrent claims pay once', async () => {
    const { worker, approve } = await completedMission();
    await approve();
    const claimable = await claimableOnChain(worker.address);
    const balance = await tokenBalance(worker.address);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => call(claimRoute, { token: worker.token, method: 'POST' })),
    );
    const paid = results.filter((r) => r.status === 200);
    expect(paid).toHaveLength(1);
    expect(results.every((r) => [200, 409, 429].includes(r.status))).toBe(true);
    expect(await tokenBalance(worker.address)).toBe(balance + claimable);
    expect(await claimableOnChain(worker.address)).toBe(0n);
    // The books agree with the chain: what was paid counts as claimed once.
    expect((await call(earningsRoute, { token: worker.token })).body).toMatchObject({
      claimed: claimable.toString(),
      inFlight: '0',
    });
  });

  test('behavior: a claim retried with the same Idempotency-Key answers the first result', async () => {
    const { worker, approve } = await completedMission();
    await approve();
    const headers = { 'idempotency-key': `claim-${crypto.randomUUID()}` };
    const first = await call(claimRoute, { token: worker.token, method: 'POST', headers });
    const again = await call(claimRoute, { token: worker.token, method: 'POST', headers });
    expect(first.status).toBe(200);
    expect(again).toMatchObject({ status: 200, body: first.body });
  });

  test('behavior: RPC down: approve is 503 (task unread); time completes it, the sweep releases once', async () => {
    const { worker, approve, client, id } = await completedMission();
    const rpc = process.env.RPC_URL;
    const cron = { authorization: `Bearer ${process.env.CRON_SECRET}` };
    const { POST: sweep } = await import('@/app/api/cron/sweep/route');
    setEnv({ RPC_URL: 'http://127.0.0.1:9' });
    try {
      // docs/api.md#confirmations: a release reads what the task holds first; unread, nothing is released.
      const approved = await approve();
      expect(approved.status).toBe(503);
      expect((await missionRow(id)).status).toBe('SUBMITTED');
      // The review window ends with the chain still down: time completes it, and the release waits.
      await setTimes(id, { reviewDeadline: past() });
      await call(sweep, { method: 'POST', headers: cron });
      expect((await missionRow(id)).status).toBe('COMPLETED');
    } finally {
      setEnv({ RPC_URL: rpc });
    }
    expect((await taskOnChain(client.taskId)).state).toBe(1); // still Open
    const [a, b] = await Promise.all([
      call(sweep, { method: 'POST', headers: cron }),
      call(sweep, { method: 'POST', headers: cron }),
    ]);
    expect(a.body.settlements.mined + b.body.settlements.mined).toBe(1);
    expect((await taskOnChain(client.taskId)).state).toBe(2);
    expect(await claimableOnChain(worker.address)).toBe((REWARD * 9_000n) / 10_000n);
  });
});

describe('funding checks', () => {
  // Without onChainTaskId the mission is posted AWAITING_FUNDING instead (tests/integration/mission-funding.test.ts).
  test.each([
    ['a task that does not exist', async () => ({ onChainTaskId: 999_999 }), /no such task/],
    [
      'a task created by another wallet',
      async () => ({ onChainTaskId: (await fundedClient()).taskId }),
      /another wallet/,
    ],
    [
      'a task holding less than the reward',
      async (c: Awaited<ReturnType<typeof fundedClient>>) => ({
        onChainTaskId: c.taskId,
        reward: (REWARD + 1n).toString(),
      }),
      /holds 25000000, less than the reward 25000001/,
    ],
    [
      // The reproduced attack: a one-unit mission on a task of the poster's holding much more, whose
      // release pays the whole task.
      'a task holding more than the reward (a one-unit mission on a 25 USDC task)',
      async (c: Awaited<ReturnType<typeof fundedClient>>) => ({ onChainTaskId: c.taskId, reward: '1' }),
      /holds 25000000, more than the reward 1; a mission links only a task holding exactly its reward/,
    ],
  ])('error: %s is 400 with details', async (_name, fields, detail) => {
    const client = await fundedClient();
    const response = await create(client.token, { reward: REWARD.toString(), ...(await fields(client)) });
    expect(response.status).toBe(400);
    expect(response.body.details.join(' ')).toMatch(detail);
  });

  test('error: a released or refunded task, and a task already linked to a mission', async () => {
    const client = await fundedClient();
    const first = await create(client.token, { reward: REWARD.toString(), onChainTaskId: client.taskId });
    expect(first.status).toBe(201);
    const linked = await create(client.token, {
      reward: REWARD.toString(),
      onChainTaskId: client.taskId,
      deadline: inDays(3),
    });
    expect(linked.status).toBe(400);
    expect(linked.body.details.join(' ')).toMatch(/another mission/);
    await ok(act('cancel', client, first.body.id));
    const refunded = await create(client.token, { reward: REWARD.toString(), onChainTaskId: client.taskId });
    expect(refunded.status).toBe(400);
    expect(refunded.body.details.join(' ')).toMatch(/already released or refunded/);
  });

  test('behavior: a bump that raises the reward needs the top-up on-chain first', async () => {
    const client = await fundedClient();
    const { body } = await create(client.token, { reward: REWARD.toString(), onChainTaskId: client.taskId });
    const raised = (REWARD + 5_000_000n).toString();
    const refused = await act('bump', client, body.id, { reward: raised });
    expect(refused.status).toBe(400);
    expect(refused.body.details.join(' ')).toMatch(/topUp/);
    await topUpTask(client.wallet, client.taskId, 5_000_000n);
    // The new reward is the task's amount after the top-up, to the unit.
    const short = await act('bump', client, body.id, { reward: (REWARD + 1n).toString() });
    expect(short.status).toBe(400);
    expect(short.body.details.join(' ')).toMatch(/must equal it exactly/);
    const bumped = await act('bump', client, body.id, { reward: raised });
    expect(bumped.status).toBe(200);
    expect(bumped.body.reward).toBe(raised);
  });

  test('security: topped up without a bump: approve is 409 naming the bump; bumped, it pays the task', async () => {
    const { worker, approve, client, id } = await completedMission();
    await topUpTask(client.wallet, client.taskId, 5_000_000n);
    const refused = await approve();
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(refused.body.error).toMatch(/holds 30000000, not this mission's reward 25000000.*bump/i);
    expect((await taskOnChain(client.taskId)).state).toBe(1); // still Open
    expect((await act('bump', client, id, {})).status).toBe(409); // past OPEN a bump names the reward
    expect((await act('bump', client, id, { reward: '30000000' })).status).toBe(200);
    expect((await approve()).status).toBe(200);
    expect(await claimableOnChain(worker.address)).toBe(27_000_000n);
  });

  test('behavior: the books record what the chain credited (a top-up approved by time pays the task)', async () => {
    const { worker, client, id } = await completedMission();
    await topUpTask(client.wallet, client.taskId, 5_000_000n);
    // Time approves it (the review window over); the escrow's release pays the whole task.
    await setTimes(id, { reviewDeadline: past() });
    const { POST: sweep } = await import('@/app/api/cron/sweep/route');
    await call(sweep, { method: 'POST', headers: { authorization: `Bearer ${process.env.CRON_SECRET}` } });
    expect((await taskOnChain(client.taskId)).state).toBe(2); // Released
    const credited = await claimableOnChain(worker.address);
    expect(credited).toBe(27_000_000n);
    const [earning] = await earningsOf(id);
    expect(earning).toMatchObject({ amount: credited.toString(), fee: '3000000', gross: '30000000' });
    const earnings = await call(earningsRoute, { token: worker.token });
    expect(earnings.body.history[0]).toMatchObject({ type: 'EARNED', amount: credited.toString() });
  });
});

describe('bookkeeping mode', () => {
  test('error: claim is 503 without an escrow, earnings come from the ledger', async () => {
    setEnv(BOOKKEEPING);
    const worker = await agent();
    expect(await call(claimRoute, { token: worker.token, method: 'POST' })).toMatchObject({
      status: 503,
      body: { error: 'Payouts are not configured' },
    });
    expect(await call(earningsRoute, { token: worker.token })).toMatchObject({
      status: 200,
      body: { pending: '0', claimed: '0', inFlight: '0', history: [] },
    });
    setEnv({ ESCROW_ADDRESS: contracts.escrow });
  });

  test('behavior: concurrent earnings reads share one claimable read per escrow', async () => {
    const worker = await agent();
    const { reads, answers } = await chainReadsOf('claimable', contracts.escrow, 6, () =>
      call(earningsRoute, { token: worker.token }),
    );
    expect(reads).toBe(1);
    for (const answer of answers) expect(answer.body).toMatchObject({ pending: '0', claimed: '0', inFlight: '0' });
  });

  test('error: earnings and claim are for agents only', async () => {
    const { token } = await signIn();
    expect((await call(earningsRoute, { token })).status).toBe(403);
    expect((await call(claimRoute, { token, method: 'POST' })).status).toBe(403);
  });
});
