// Escrow v2 on the server (docs/api.md#escrow): a funded task must not expire before its mission can be
// settled (create refuses it, naming the earliest acceptable expiresAt); when a client reclaims an
// expired task on-chain the sweep ends its mission CANCELLED (event `reclaimed`) and sends nothing;
// and a release still in flight when the task is reclaimed is never paid on top of the reclaim.
import { eq, inArray } from 'drizzle-orm';
import { createTestClient, http } from 'viem';
import { generatePrivateKey } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { describe, expect, test } from 'vitest';
import { POST as registerAgent } from '@/app/api/auth/register-agent/route';
import { POST as sweepRoute } from '@/app/api/cron/sweep/route';
import { POST as createRoute } from '@/app/api/missions/route';
import { GET as publicConfigRoute } from '@/app/api/public/config/route';
import { ANVIL_KEYS } from '@/lib/chain/anvil-node';
import { getDb } from '@/lib/db/client';
import { getKv } from '@/lib/kv';
import { agentEarnings, missions, settlements } from '@/lib/db/schema';
import { call } from '../support/http';
import { setEnv, useTestEnvironment } from '../support/environment';
import { chainNow, claimableOnChain, fundTask, reclaimTask, taskOnChain } from '../support/escrow';
import { act, eventsOf, missionInput, missionRow, ok, past, setTimes } from '../support/missions';
import { workerRpcUrl } from '../support/ports';
import { newWallet, signIn } from '../support/wallets';

// A margin of 60 × (2 + 1) + 60 = 240 s between a deadline and the earliest expiry.
const RULES = { REVIEW_WINDOW_SECONDS: '60', MAX_CONTESTS: '2', RECLAIM_GRACE_SECONDS: '60' };
const MARGIN = 240;
useTestEnvironment({ ...RULES, WRITE_RATE_LIMIT_PER_MINUTE: '100000', MINT_WAIT_MS: '3000' });

const REWARD = 6_000_000n;
const anvil = () => createTestClient({ chain: foundry, mode: 'anvil', transport: http(workerRpcUrl()) });
const sweep = () =>
  call(sweepRoute, { method: 'POST', headers: { authorization: `Bearer ${process.env.CRON_SECRET}` } });
/**
 * Sweeps until the mission's reclaim is noticed: a run looks at 25 due missions, in turn, and other
 * tests leave due missions in this worker's database. Bounded; the caller asserts the outcome.
 */
async function sweepUntilCancelled(id: string) {
  for (let run = 0; run < 20 && (await missionRow(id)).status !== 'CANCELLED'; run++) await ok(sweep());
}
const deadlineIn = (seconds: number) => new Date(Date.now() + seconds * 1000);
const unix = (date: Date) => BigInt(Math.ceil(date.getTime() / 1000));

/**
 * The earliest acceptable expiry for `deadline`, and later if the chain's clock already runs ahead.
 * The latest block's time is as old as the last transaction, so a block is mined first to read the
 * clock as it is; the minute after it covers the three transactions that fund the task on a loaded host.
 */
async function expiryFor(deadline: Date): Promise<bigint> {
  const earliest = unix(deadline) + BigInt(MARGIN);
  await anvil().mine({ blocks: 1 });
  const chain = (await chainNow()) + 60n;
  return earliest > chain ? earliest : chain;
}

/** Moves the chain past `expiresAt` (the worker's chain only ever moves forward). */
async function expire(expiresAt: bigint) {
  const ahead = Number(expiresAt - (await chainNow())) + 5;
  if (ahead > 0) await anvil().increaseTime({ seconds: ahead });
  await anvil().mine({ blocks: 1 });
}

async function fundedMission(deadline: Date, expiresAt: bigint) {
  const wallet = newWallet();
  const taskId = await fundTask(wallet, REWARD, expiresAt);
  const client = await signIn(wallet);
  const created = await call(createRoute, {
    token: client.token,
    body: missionInput({ reward: REWARD.toString(), onChainTaskId: taskId, deadline: deadline.toISOString() }),
  });
  return { wallet, client, taskId, created };
}

describe('create: the task must outlive the mission (docs/api.md#escrow)', () => {
  test(
    'error: an expiry before deadline + review rounds + grace is 400 naming the earliest ' +
      'acceptable expiresAt; at it, 201',
    async () => {
      // Other files on this worker move its chain's clock forward (bounty-money): the deadline is put
      // far enough out that even one second before the earliest expiry is still ahead of the chain.
      const chainLead = Number(await chainNow()) - Math.floor(Date.now() / 1000);
      const deadline = deadlineIn(Math.max(3_600, chainLead - MARGIN + 3_600));
      const earliest = unix(deadline) + BigInt(MARGIN);
      const early = await fundedMission(deadline, earliest - 1n);
      expect(early.created.status).toBe(400);
      expect(early.created.body.details).toEqual([expect.stringContaining(`must not expire before ${earliest}`)]);
      const exact = await fundedMission(deadline, earliest);
      expect(exact.created.status).toBe(201);
    },
  );

  test('default: the public config says how far past the deadline a task must run', async () => {
    const response = await call(publicConfigRoute, { path: '/api/public/config' });
    expect(response.body.missions).toMatchObject({ reclaimGraceSeconds: 60, expiresAfterDeadlineSeconds: MARGIN });
  });
});

/** A funded mission its agent has delivered, due soon, its task expiring as early as allowed. */
async function deliveredMission() {
  const deadline = deadlineIn(120);
  const expiresAt = await expiryFor(deadline);
  const { wallet, client, taskId, created } = await fundedMission(deadline, expiresAt);
  const id = created.body.id as string;
  const worker = await signIn();
  const agentToken = (await call(registerAgent, { token: worker.token, method: 'POST' })).body.token as string;
  const agent = { token: agentToken, id: worker.user.id, address: worker.user.walletAddress };
  await ok(act('accept', agent, id));
  await ok(act('submit', agent, id, { note: 'Done.' }));
  return { wallet, client, taskId, id, agent, expiresAt };
}

/**
 * An OPEN funded mission whose client reclaimed its expired task, its deadline past the margin on the server's clock.
 */
async function reclaimedOpenMission() {
  const deadline = deadlineIn(120);
  const expiresAt = await expiryFor(deadline);
  const { wallet, client, taskId, created } = await fundedMission(deadline, expiresAt);
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  await expire(expiresAt);
  await reclaimTask(wallet, taskId);
  await setTimes(id, { deadline: past(MARGIN + 60) });
  return { client, id };
}

describe('a task reclaimed on-chain (docs/api.md#escrow)', () => {
  test(
    'behavior: a reclaim behind more due tasks than one run looks at is still noticed — the ' +
      'runs take them in turn',
    async () => {
      const { id } = await reclaimedOpenMission();
      // Forty due missions ahead of it, older, whose tasks nobody reclaims (no such task on-chain):
      // they stay due on every run, and a sweep taking the oldest 25 each time would never reach it.
      const row = await missionRow(id);
      const older = past(MARGIN + 3_600);
      const fillers = await (await getDb())
        .insert(missions)
        .values(
          Array.from({ length: 40 }, (_, i) => ({
            clientId: row.clientId,
            title: `Never reclaimed ${i}`,
            description: 'Due, not reclaimed.',
            category: row.category,
            reward: row.reward,
            feeBps: row.feeBps,
            deadline: older,
            listedAt: older,
            createdAt: older,
            updatedAt: older,
            onChainTaskId: 9_000_000_000 + Math.floor(Math.random() * 1_000_000_000),
          })),
        )
        .returning({ id: missions.id });
      try {
        // A cursor that is not one (a stray write, a format from another version) starts the turn over.
        await getKv().put('sweep:reclaim-cursor', JSON.stringify({ key: "2024-01-01'; --", id: 'x' }), 60_000);
        expect((await sweep()).status).toBe(200);
        // However many due missions other tests left in this database: within a bounded number of runs.
        await sweepUntilCancelled(id);
        expect(await missionRow(id)).toMatchObject({ status: 'CANCELLED' });
        expect((await eventsOf(id)).at(-1)).toMatchObject({ action: 'reclaimed', toStatus: 'CANCELLED' });
      } finally {
        // Settled, so they are no one else's due missions.
        await (await getDb())
          .update(missions)
          .set({ status: 'CANCELLED' })
          .where(
            inArray(
              missions.id,
              fillers.map((f) => f.id),
            ),
          );
      }
    },
  );

  test('behavior: the sweep turns its OPEN mission CANCELLED with event reclaimed, and sends no refund', async () => {
    const { client, id } = await reclaimedOpenMission();
    await sweepUntilCancelled(id);
    expect(await missionRow(id)).toMatchObject({ status: 'CANCELLED', cancelledAt: expect.any(Date) });
    expect((await eventsOf(id)).at(-1)).toMatchObject({
      action: 'reclaimed',
      fromStatus: 'OPEN',
      toStatus: 'CANCELLED',
      actor: 'SYSTEM',
    });
    expect(await (await getDb()).select().from(settlements).where(eq(settlements.missionId, id))).toEqual([]);
    expect(await claimableOnChain(client.user.walletAddress)).toBe(REWARD);
    // A second sweep changes nothing.
    await ok(sweep());
    expect((await eventsOf(id)).filter((e) => e.action === 'reclaimed')).toHaveLength(1);
  });

  test(
    'behavior: with the RPC down the sweep still answers 200 and finishes its other work; ' +
      'the reclaim is noticed once the chain is back',
    async () => {
      const { id } = await reclaimedOpenMission();
      setEnv({ RPC_URL: 'http://127.0.0.1:9' });
      try {
        expect((await sweep()).status).toBe(200);
        expect(await missionRow(id)).toMatchObject({ status: 'OPEN' });
      } finally {
        setEnv({ RPC_URL: workerRpcUrl() });
      }
      await sweepUntilCancelled(id);
      expect(await missionRow(id)).toMatchObject({ status: 'CANCELLED' });
    },
  );

  test(
    'behavior: reclaimed while its release is in flight — the release is never sent, the ' +
      'mission ends CANCELLED, the agent is not credited twice or at all',
    async () => {
      const { wallet, client, taskId, id, agent, expiresAt } = await deliveredMission();
      // The release cannot get out (an operator key the escrow does not know), so it waits PENDING.
      setEnv({ OPERATOR_PRIVATE_KEY: generatePrivateKey() });
      try {
        await ok(act('approve', { token: client.token, id: client.user.id, address: client.user.walletAddress }, id));
      } finally {
        setEnv({ OPERATOR_PRIVATE_KEY: ANVIL_KEYS[0] });
      }
      const release = async () =>
        (await (await getDb()).select().from(settlements).where(eq(settlements.missionId, id)))[0]!;
      expect(await release()).toMatchObject({ kind: 'RELEASE', status: 'PENDING' });
      expect(await missionRow(id)).toMatchObject({ status: 'COMPLETED' });

      await expire(expiresAt);
      await reclaimTask(wallet, taskId);
      await ok(sweep());

      expect(await release()).toMatchObject({ status: 'SUPERSEDED', txHash: null });
      expect(await missionRow(id)).toMatchObject({ status: 'CANCELLED' });
      expect((await eventsOf(id)).at(-1)).toMatchObject({
        action: 'reclaimed',
        fromStatus: 'COMPLETED',
        toStatus: 'CANCELLED',
      });
      expect(await (await getDb()).select().from(agentEarnings).where(eq(agentEarnings.missionId, id))).toEqual([]);
      expect((await taskOnChain(taskId)).state).toBe(4);
      expect(await claimableOnChain(agent.address)).toBe(0n);
      expect(await claimableOnChain(client.user.walletAddress)).toBe(REWARD);
    },
  );

  test(
    'behavior: a release mined first wins — the client can no longer reclaim and the ' + 'mission stays COMPLETED',
    async () => {
      const { wallet, client, taskId, id, agent, expiresAt } = await deliveredMission();
      await ok(act('approve', { token: client.token, id: client.user.id, address: client.user.walletAddress }, id));
      await expire(expiresAt);
      await expect(reclaimTask(wallet, taskId)).rejects.toThrow();
      await ok(sweep());
      expect(await missionRow(id)).toMatchObject({ status: 'COMPLETED' });
      expect(await claimableOnChain(agent.address)).toBe(REWARD);
    },
  );
});
