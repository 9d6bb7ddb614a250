// Direct missions and declining (docs/api.md#direct-missions, docs/api.md#declining): a mission offered to one
// named agent is off the board and closed to everyone else; only that agent may accept it; the client may
// cancel it after ACCEPT_WINDOW_SECONDS. The named agent may decline it — OPEN, or an order within the decline
// window and before any submission — and the task is refunded on-chain in full, once (real anvil, escrow).
import { eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { POST as declineRoute } from '@/app/api/missions/[id]/decline/route';
import { GET as listRoute, POST as createRoute } from '@/app/api/missions/route';
import { getDb } from '@/lib/db/client';
import { missions, webhookEvents } from '@/lib/db/schema';
import { useTestEnvironment } from '../support/environment';
import { claimableOnChain, fundTask, taskOnChain } from '../support/escrow';
import { call } from '../support/http';
import { act, eventsOf, getMission, missionCountOf, missionInput, newAgent, ok, setTimes } from '../support/missions';
import { signAndFund } from '../support/funding';
import { order, PRICE, payingClient, publish } from '../support/offerings';
import { newWallet, signIn } from '../support/wallets';

useTestEnvironment({ WRITE_RATE_LIMIT_PER_MINUTE: '100000', MINT_WAIT_MS: '2000', ACCEPT_WINDOW_SECONDS: '3600' });

const REWARD = 4_000_000n;
const decline = (token: string, id: string, body: unknown = {}) =>
  call(declineRoute, { method: 'POST', token, params: { id }, body });

/** A client with a task of its own on the escrow, and its DIRECT mission to `agent`, OPEN. */
async function directMission(agentAddress: string) {
  const wallet = newWallet();
  const taskId = await fundTask(wallet, REWARD);
  const { token, user } = await signIn(wallet);
  const created = await call(createRoute, {
    token,
    body: missionInput({ reward: REWARD.toString(), onChainTaskId: taskId, assignment: 'DIRECT', agent: agentAddress }),
  });
  expect(created.status).toBe(201);
  return {
    client: { token, id: user.id as string, address: user.walletAddress as string },
    taskId,
    id: created.body.id,
  };
}

const listedBack = async (id: string, seconds: number) =>
  (await getDb())
    .update(missions)
    .set({ listedAt: new Date(Date.now() - seconds * 1000) })
    .where(eq(missions.id, id));

describe('a DIRECT mission', () => {
  test('is off the board, seen and accepted by its named agent alone (anyone else 404)', async () => {
    const named = await newAgent();
    const { client, id } = await directMission(named.address);
    const board = await call(listRoute, { path: '/api/missions?sort=created&limit=100' });
    expect(board.body.items.map((m: { id: string }) => m.id)).not.toContain(id);
    const seen = await getMission(named, id);
    expect(seen.body).toMatchObject({ status: 'OPEN', assignment: 'DIRECT', agent: { walletAddress: named.address } });
    expect((await getMission(client, id)).status).toBe(200);
    const stranger = await newAgent();
    expect((await getMission(stranger, id)).status).toBe(404);
    expect((await getMission(undefined, id)).status).toBe(404);
    expect((await act('accept', stranger, id)).status).toBe(404);
    expect((await decline(stranger.token, id)).status).toBe(404);
    expect((await getMission(client, id)).body.status).toBe('OPEN');
    // Announced to the named agent only, never to the board's watchers.
    const told = await (await getDb())
      .select({ event: webhookEvents.event, audience: webhookEvents.audience })
      .from(webhookEvents)
      .where(eq(webhookEvents.missionId, id));
    expect(told).toEqual([{ event: 'mission.created', audience: { users: [named.id] } }]);
    const accepted = await act('accept', named, id);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ status: 'ACCEPTED', agent: { walletAddress: named.address } });
  });

  test('error: DIRECT without an agent, an agent elsewhere, a client named as agent: 400, nothing posted', async () => {
    const wallet = newWallet();
    const { token, user } = await signIn(wallet);
    const named = await newAgent();
    const bad = [
      { assignment: 'DIRECT' },
      { assignment: 'FIRST_COME', agent: named.address },
      { assignment: 'DIRECT', agent: user.walletAddress },
      { assignment: 'DIRECT', agent: newWallet().address },
    ];
    for (const change of bad) {
      const response = await call(createRoute, { token, body: missionInput(change) });
      expect(response.status, JSON.stringify(change)).toBe(400);
      expect(response.body.details.join(' ')).toMatch(/^agent: /);
    }
    expect(await missionCountOf(user.id)).toBe(0);
  });

  test('the client may cancel it only after ACCEPT_WINDOW_SECONDS without acceptance; refunded', async () => {
    const named = await newAgent();
    const { client, id, taskId } = await directMission(named.address);
    const early = await act('cancel', client, id);
    expect(early.status).toBe(409);
    expect(early.body.error).toMatch(/until .* to accept/);
    await listedBack(id, 3601);
    await ok(act('cancel', client, id));
    expect((await taskOnChain(taskId)).state).toBe(3);
    expect(await claimableOnChain(client.address)).toBe(REWARD);
  });

  test('declined while OPEN by its named agent: CANCELLED, refunded in full, once', async () => {
    const named = await newAgent();
    const { client, id, taskId } = await directMission(named.address);
    const declined = await decline(named.token, id, { reason: 'Not my language pair' });
    expect(declined.status).toBe(200);
    expect(declined.body.status).toBe('CANCELLED');
    expect((await taskOnChain(taskId)).state).toBe(3);
    expect(await claimableOnChain(client.address)).toBe(REWARD);
    const again = await decline(named.token, id);
    expect(again.status).toBe(409);
    expect(await claimableOnChain(client.address)).toBe(REWARD);
    const events = await eventsOf(id);
    expect(events.at(-1)).toMatchObject({ action: 'declined', data: { reason: 'Not my language pair' } });
  });

  test('error: a mission not DIRECT cannot be declined', async () => {
    const agent = await newAgent();
    const wallet = newWallet();
    const taskId = await fundTask(wallet, REWARD);
    const { token } = await signIn(wallet);
    const created = await call(createRoute, {
      token,
      body: missionInput({ reward: REWARD.toString(), onChainTaskId: taskId }),
    });
    await ok(act('accept', agent, created.body.id));
    expect((await decline(agent.token, created.body.id)).status).toBe(403);
  });
});

describe('declining an order', () => {
  async function acceptedOrder() {
    const agent = await newAgent();
    const offering = await publish(agent);
    const client = await payingClient();
    const placed = await order(client.token, offering.id);
    expect((await signAndFund(client.wallet, client.token, placed.body.id)).status).toBe(202);
    const mission = (await getMission(agent, placed.body.id)).body;
    expect(mission.status).toBe('ACCEPTED');
    return { agent, client, offering, id: mission.id as string, taskId: mission.onChainTaskId as number };
  }

  test('within the window: CANCELLED, the task refunded in full, mission.declined to both, later 409', async () => {
    const { agent, client, offering, id, taskId } = await acceptedOrder();
    const before = await claimableOnChain(client.address);
    const declined = await decline(agent.token, id);
    expect(declined.status).toBe(200);
    expect(declined.body.status).toBe('CANCELLED');
    expect((await taskOnChain(taskId)).state).toBe(3);
    expect(await claimableOnChain(client.address)).toBe(before + PRICE);
    const told = await (await getDb())
      .select({ event: webhookEvents.event, audience: webhookEvents.audience })
      .from(webhookEvents)
      .where(eq(webhookEvents.missionId, id));
    const declinedHook = told.find((t) => t.event === 'mission.declined');
    expect(declinedHook).toBeDefined();
    expect((await decline(agent.token, id)).status).toBe(409);
    expect(await claimableOnChain(client.address)).toBe(before + PRICE);
    // Its place is free again.
    expect(
      (await call((await import('@/app/api/offerings/[id]/route')).GET, { params: { id: offering.id } })).body.offering
        .openOrders,
    ).toBe(0);
  });

  test('error: past DECLINE_WINDOW_SECONDS, or after a submission, it is 409 and nothing changes', async () => {
    const late = await acceptedOrder();
    await setTimes(late.id, { acceptedAt: new Date(Date.now() - 86_401_000) });
    const refused = await decline(late.agent.token, late.id);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/decline window closed/);
    expect((await getMission(late.client, late.id)).body.status).toBe('ACCEPTED');
    const worked = await acceptedOrder();
    await ok(act('submit', worked.agent, worked.id, { note: 'Done' }));
    const after = await decline(worked.agent.token, worked.id);
    expect(after.status).toBe(409);
    expect((await getMission(worked.client, worked.id)).body.status).toBe('SUBMITTED');
    expect((await taskOnChain(worked.taskId)).state).toBe(1);
  });
});
