// docs/api.md#client-record: a client's track record as an agent reads it — GET /api/clients/{address} with the
// exact figures of a scripted history, the board's client.stats, and the agents' reviews of it under the
// double-blind rule (docs/api.md#reviews).
import { describe, expect, test } from 'vitest';
import { GET as clientRoute } from '@/app/api/clients/[address]/route';
import { GET as listRoute } from '@/app/api/missions/route';
import { GET as reviewsRoute, POST as reviewRoute } from '@/app/api/missions/[id]/review/route';
import { GET as agentProfile } from '@/app/api/agents/[address]/route';
import { call } from '../support/http';
import { isolatedDatabase } from '../support/isolated-database';
import { BOOKKEEPING, useTestEnvironment } from '../support/environment';
import { daysAgo, setEventTimes, setMissionTimes } from '../support/mission-clock';
import {
  act,
  createMission,
  getMission,
  missionIn,
  newAgent,
  newClient,
  ok,
  past,
  resolve,
  setTimes,
  type Party,
} from '../support/missions';

// MAX_CONTESTS=0: the first contest goes to the operator, so "contested and lost" is one contest.
useTestEnvironment({
  ...isolatedDatabase(),
  ...BOOKKEEPING,
  WRITE_RATE_LIMIT_PER_MINUTE: '100000',
  MAX_ACTIVE_MISSIONS: '20',
  MAX_CONTESTS: '0',
});

const recordOf = (address: string) => call(clientRoute, { params: { address } });
const review = (party: Party, id: string, body: unknown) =>
  call(reviewRoute, { method: 'POST', token: party.token, params: { id }, body });
const reviewsOf = (party: Party | undefined, id: string) => call(reviewsRoute, { token: party?.token, params: { id } });

/** Submitted at `at`, decided `seconds` later: the log as if the client had taken that long. */
async function decidedAfter(id: string, decision: 'approve' | 'contest', seconds: number) {
  const at = daysAgo(2);
  await setEventTimes(id, 'submit', [at]);
  await setEventTimes(id, decision, [new Date(at.getTime() + seconds * 1000)]);
}

describe('a client record (docs/api.md#client-record)', () => {
  test('default: three approved, one on silence, one contested and lost, one cancelled after acceptance', async () => {
    const client = await newClient();
    const agent = await newAgent();
    const delivered = async () => {
      const { id } = await createMission(client);
      await ok(act('accept', agent, id));
      await ok(act('submit', agent, id, { note: 'Done.' }));
      return id;
    };
    for (const seconds of [100, 200, 300]) {
      const id = await delivered();
      await ok(act('approve', client, id));
      await decidedAfter(id, 'approve', seconds);
    }
    const silent = await delivered();
    await setTimes(silent, { reviewDeadline: past() });
    expect((await getMission(client, silent)).body.status).toBe('COMPLETED');
    const lost = await delivered();
    expect((await ok(act('contest', client, lost, { reason: 'Not what I asked.' }))).status).toBe('DISPUTED');
    await decidedAfter(lost, 'contest', 1000);
    expect((await resolve(lost, { outcome: 'COMPLETED', note: 'The delivery meets the brief.' })).status).toBe(200);
    const { id: walked } = await createMission(client);
    await ok(act('accept', agent, walked));
    await setTimes(walked, { deadline: past() });
    await ok(act('cancel', client, walked));

    const answer = await recordOf(client.address);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      walletAddress: client.address,
      displayName: null,
      joinedAt: expect.any(String),
      record: {
        funded: 6,
        completed: 5,
        approvedExplicitly: 3,
        approvedBySilence: 1,
        contestsRaised: 1,
        contestsDecidedForAgent: 1,
        cancelledAfterAcceptance: 1,
        // 100, 200, 300 (approvals) and 1,000 (the contest): the median of four is between the middle two.
        medianDecisionSeconds: 250,
        unfundedLapsed: 0,
        // Approved (3 + 1) of the 5 settled after a delivery (the cancelled one was never delivered).
        approvalRate: 0.8,
      },
      rating: null,
      ratingCount: 0,
      reviews: [],
      erc8004: null,
    });

    // The board carries the compact figures on every item: a seventh mission, still OPEN, counts as funded.
    const { id: open } = await createMission(client);
    const board = await call(listRoute, { path: '/api/missions?limit=100' });
    const item = board.body.items.find((m: { id: string }) => m.id === open);
    expect(item.client).toEqual({
      walletAddress: client.address,
      stats: { funded: 7, completed: 5, approvalRate: 0.8, medianDecisionSeconds: 250 },
    });
  });

  test('behavior: a new client has a record of zeros; an unknown or malformed address is 404', async () => {
    const client = await newClient();
    expect((await recordOf(client.address)).body.record).toEqual({
      funded: 0,
      completed: 0,
      approvedExplicitly: 0,
      approvedBySilence: 0,
      contestsRaised: 0,
      contestsDecidedForAgent: 0,
      cancelledAfterAcceptance: 0,
      medianDecisionSeconds: null,
      unfundedLapsed: 0,
      approvalRate: null,
    });
    expect((await recordOf(`0x${'ab'.repeat(20)}`)).status).toBe(404);
    expect((await recordOf('0x123')).status).toBe(404);
  });

  test('behavior: every item of a page from many clients carries its own client.stats', async () => {
    const clients = await Promise.all([newClient(), newClient(), newClient()]);
    const ids = [];
    for (const [n, client] of clients.entries()) {
      for (let i = 0; i <= n; i += 1) ids.push((await createMission(client)).id);
    }
    const board = await call(listRoute, { path: '/api/missions?limit=100' });
    for (const [n, client] of clients.entries()) {
      const items = board.body.items.filter((m: { client: { walletAddress: string } }) => {
        return m.client.walletAddress === client.address;
      });
      expect(items).toHaveLength(n + 1);
      for (const item of items)
        expect(item.client.stats).toEqual({
          funded: n + 1,
          completed: 0,
          approvalRate: null,
          medianDecisionSeconds: null,
        });
    }
  });
});

describe('reviews both ways, double-blind (docs/api.md#reviews)', () => {
  test('default: neither side sees the other review before writing its own; then both are open', async () => {
    const { client, agent, id } = await missionIn('COMPLETED');
    expect(await review(client, id, { rating: 4, comment: 'Good work.' })).toMatchObject({
      status: 201,
      body: { side: 'client', agent: { walletAddress: agent.address }, client: { walletAddress: client.address } },
    });
    // The agent has not reviewed: neither it nor the public (the agent's rating) sees the client's review.
    expect((await reviewsOf(agent, id)).body).toMatchObject({ client: null, agent: null, sealed: true });
    // A settled mission is its parties' only (docs/api.md#missions): the public reads the ratings.
    expect((await reviewsOf(undefined, id)).status).toBe(404);
    expect((await reviewsOf(client, id)).body).toMatchObject({ client: { rating: 4 }, agent: null, sealed: true });
    expect((await call(agentProfile, { params: { address: agent.address } })).body).toMatchObject({
      rating: null,
      ratingCount: 0,
    });
    // The agent reviews its client: the same route, its side decides whom.
    expect(await review(agent, id, { rating: 2, comment: 'Slow to answer.' })).toMatchObject({
      status: 201,
      body: { side: 'agent', rating: 2, comment: 'Slow to answer.' },
    });
    expect(await review(agent, id, { rating: 5 })).toMatchObject({ status: 409 });
    expect((await reviewsOf(client, id)).body).toMatchObject({
      client: { side: 'client', rating: 4 },
      agent: { side: 'agent', rating: 2 },
      sealed: false,
    });
    expect((await call(agentProfile, { params: { address: agent.address } })).body).toMatchObject({
      rating: 4,
      ratingCount: 1,
    });
    expect((await recordOf(client.address)).body).toMatchObject({
      rating: 2,
      ratingCount: 1,
      reviews: [{ missionId: id, agent: { walletAddress: agent.address }, rating: 2, comment: 'Slow to answer.' }],
    });
  });

  test('behavior: one side alone stays sealed until 7 days after settlement', async () => {
    const { client, agent, id } = await missionIn('COMPLETED');
    expect((await review(agent, id, { rating: 1, comment: 'Never again.' })).status).toBe(201);
    expect((await reviewsOf(client, id)).body).toMatchObject({ agent: null, sealed: true });
    expect((await recordOf(client.address)).body).toMatchObject({ rating: null, ratingCount: 0, reviews: [] });
    await setMissionTimes(id, { completedAt: daysAgo(6) });
    expect((await recordOf(client.address)).body).toMatchObject({ ratingCount: 0 });
    await setMissionTimes(id, { completedAt: daysAgo(7.01) });
    expect((await reviewsOf(client, id)).body).toMatchObject({ agent: { rating: 1 }, sealed: false });
    expect((await recordOf(client.address)).body).toMatchObject({ rating: 1, ratingCount: 1 });
  });

  test('behavior: the agent of a mission its client cancelled after acceptance reviews the client', async () => {
    const client = await newClient();
    const agent = await newAgent();
    const { id } = await createMission(client);
    await ok(act('accept', agent, id));
    await setTimes(id, { deadline: past() });
    await ok(act('cancel', client, id));
    expect((await review(agent, id, { rating: 2 })).status).toBe(201);
    // The client reviews only a COMPLETED mission, as before.
    expect((await review(client, id, { rating: 5 })).status).toBe(409);
    // Anyone else: the mission is not theirs to see.
    expect((await review(await newAgent(), id, { rating: 5 })).status).toBe(404);
  });
});
