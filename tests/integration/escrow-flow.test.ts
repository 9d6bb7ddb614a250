// Missions funded on-chain, end to end through the route handlers: fund → create → accept →
// submit → approve → release mined → earnings → claim → the agent's tokens; cancel → refund.
import { describe, expect, test } from 'vitest';
import { GET as earningsRoute } from '@/app/api/agents/me/earnings/route';
import { POST as claimRoute } from '@/app/api/agents/me/claim/route';
import { POST as createRoute } from '@/app/api/missions/route';
import { POST as registerAgent } from '@/app/api/auth/register-agent/route';
import { call } from '../support/http';
import { setEnv, useTestEnvironment, BOOKKEEPING } from '../support/environment';
import { claimableOnChain, fundTask, taskOnChain, tokenBalance, topUpTask } from '../support/escrow';
import { act, inDays, missionInput, ok } from '../support/missions';
import { newWallet, signIn } from '../support/wallets';

const { contracts } = useTestEnvironment({ PLATFORM_FEE_BPS: '1000', WRITE_RATE_LIMIT_PER_MINUTE: '100000' });

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

describe('funded missions', () => {
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

  test('behavior: with the RPC down approve still completes; the sweep releases later, exactly once', async () => {
    const { worker, approve, client, id } = await completedMission();
    const rpc = process.env.RPC_URL;
    setEnv({ RPC_URL: 'http://127.0.0.1:9' });
    const approved = await approve();
    expect(approved.status).toBe(200);
    expect(approved.body.status).toBe('COMPLETED');
    setEnv({ RPC_URL: rpc });
    expect((await taskOnChain(client.taskId)).state).toBe(1); // still Open
    const cron = { authorization: `Bearer ${process.env.CRON_SECRET}` };
    const { POST: sweep } = await import('@/app/api/cron/sweep/route');
    const [a, b] = await Promise.all([
      call(sweep, { method: 'POST', headers: cron }),
      call(sweep, { method: 'POST', headers: cron }),
    ]);
    expect(a.body.settlements.mined + b.body.settlements.mined).toBe(1);
    expect((await taskOnChain(client.taskId)).state).toBe(2);
    expect(await claimableOnChain(worker.address)).toBe((REWARD * 9_000n) / 10_000n);
    void id;
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
      /less than the reward/,
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
    const bumped = await act('bump', client, body.id, { reward: raised });
    expect(bumped.status).toBe(200);
    expect(bumped.body.reward).toBe(raised);
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

  test('error: earnings and claim are for agents only', async () => {
    const { token } = await signIn();
    expect((await call(earningsRoute, { token })).status).toBe(403);
    expect((await call(claimRoute, { token, method: 'POST' })).status).toBe(403);
  });
});
