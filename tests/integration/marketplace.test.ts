// Marketplace v2 through the routes (docs/api.md#applications): applications and assignment (capacity and races
// included), reviews feeding the agent's rating, and comments' visibility by state and party.
import { describe, expect, test } from 'vitest';
import { GET as adminCommentsList, POST as adminComment } from '@/app/api/admin/missions/[id]/comments/route';
import { GET as agentProfile } from '@/app/api/agents/[address]/route';
import { GET as applicationsRoute } from '@/app/api/missions/[id]/applications/route';
import { POST as applyRoute } from '@/app/api/missions/[id]/apply/route';
import { POST as assignRoute } from '@/app/api/missions/[id]/assign/route';
import { POST as reopenRoute } from '@/app/api/missions/[id]/reopen/route';
import { GET as listCommentsRoute, POST as commentRoute } from '@/app/api/missions/[id]/comments/route';
import { PATCH as editReviewRoute, POST as reviewRoute } from '@/app/api/missions/[id]/review/route';
import { getDb } from '@/lib/db/client';
import { missionReviews } from '@/lib/db/schema';
import { call } from '../support/http';
import { daysAgo, setMissionTimes } from '../support/mission-clock';
import { isolatedDatabase } from '../support/isolated-database';
import { GET as leaderboardRoute } from '@/app/api/agents/leaderboard/route';
import { BOOKKEEPING, setEnv, useTestEnvironment } from '../support/environment';
import {
  act,
  ADMIN,
  createMission,
  eventsOf,
  missionIn,
  missionRow,
  newAgent,
  newClient,
  ok,
  past,
  setTimes,
  type Party,
} from '../support/missions';

// A database of its own: the rating leaderboard below ranks every agent in it.
useTestEnvironment({
  ...isolatedDatabase(),
  ...BOOKKEEPING,
  WRITE_RATE_LIMIT_PER_MINUTE: '100000',
  MAX_ACTIVE_MISSIONS: '3',
  ACCEPT_WINDOW_SECONDS: '60',
});

const apply = (agent: Party, id: string, pitch = 'I have labelled 10,000 such photos.') =>
  call(applyRoute, { method: 'POST', token: agent.token, params: { id }, body: { pitch } });
const assign = (owner: Party, id: string, agent: Party) =>
  call(assignRoute, { method: 'POST', token: owner.token, params: { id }, body: { agent: agent.address } });
const applicationsOf = (party: Party | undefined, id: string, query = '') =>
  call(applicationsRoute, { token: party?.token, params: { id }, path: `/api/missions/${id}/applications${query}` });
const review = (party: Party, id: string, body: unknown) =>
  call(reviewRoute, { method: 'POST', token: party.token, params: { id }, body });
const comment = (party: Party | undefined, id: string, body = 'Is COCO JSON fine?') =>
  call(commentRoute, { method: 'POST', token: party?.token, params: { id }, body: { body } });
const commentsOf = (party: Party | undefined, id: string) =>
  call(listCommentsRoute, { token: party?.token, params: { id }, path: `/api/missions/${id}/comments` });

async function applicationMission() {
  const client = await newClient();
  const { id } = await createMission(client, { assignment: 'APPLICATION' });
  return { client, id };
}

describe('applications (docs/api.md#applications)', () => {
  test(
    'default: agents apply, the owner reads them oldest first and assigns one — ACCEPTED ' + 'for that agent',
    async () => {
      const { client, id } = await applicationMission();
      const [a, b] = [await newAgent(), await newAgent()];
      const first = await apply(a, id);
      expect(first).toMatchObject({
        status: 201,
        body: {
          id: expect.any(String),
          agent: { walletAddress: a.address, rating: null, ratingCount: 0 },
          pitch: expect.any(String),
        },
      });
      await apply(b, id, 'Fast and careful.');
      const listed = await applicationsOf(client, id);
      expect(listed.body.items.map((x: { agent: { walletAddress: string } }) => x.agent.walletAddress)).toEqual([
        a.address,
        b.address,
      ]);
      const assigned = await assign(client, id, b);
      expect(assigned).toMatchObject({
        status: 200,
        body: { status: 'ACCEPTED', assignment: 'APPLICATION', agent: { walletAddress: b.address } },
      });
      expect((await eventsOf(id)).at(-1)).toMatchObject({ action: 'assign', toStatus: 'ACCEPTED' });
    },
  );

  test(
    'behavior: a mission assigned from the applications counts as accepted by its agent ' + '(success rate)',
    async () => {
      const { client, id } = await applicationMission();
      const agent = await newAgent();
      await apply(agent, id);
      await ok(assign(client, id, agent));
      await ok(act('submit', agent, id, { note: 'Done.' }));
      await ok(act('approve', client, id));
      const profile = await call(agentProfile, { params: { address: agent.address } });
      expect(profile.body.stats).toMatchObject({ accepted: 1, completed: 1, successRate: 1 });
    },
  );

  test('error: accept on an APPLICATION mission is 409; apply on a FIRST_COME one is 409', async () => {
    const { id } = await applicationMission();
    const agent = await newAgent();
    expect(await act('accept', agent, id)).toMatchObject({
      status: 409,
      body: { error: expect.stringMatching(/apply instead/) },
    });
    const plain = await createMission(await newClient());
    expect((await apply(agent, plain.id)).status).toBe(409);
  });

  test(
    'error: a second application is 409, a client cannot apply (403), the owner cannot ' +
      'apply, and only the owner reads them',
    async () => {
      const { client, id } = await applicationMission();
      const agent = await newAgent();
      await apply(agent, id);
      expect(await apply(agent, id)).toMatchObject({
        status: 409,
        body: { error: 'You have already applied to this mission' },
      });
      expect(
        (
          await call(applyRoute, {
            method: 'POST',
            token: (await newClient()).token,
            params: { id },
            body: { pitch: 'x' },
          })
        ).status,
      ).toBe(403);
      expect((await applicationsOf(agent, id)).status).toBe(403);
      expect((await applicationsOf(undefined, id)).status).toBe(401);
      expect((await applicationsOf(client, id)).status).toBe(200);
    },
  );

  test('error: assigning someone who did not apply is 409; a stranger assigning is 403; bad input is 400', async () => {
    const { client, id } = await applicationMission();
    const [applicant, other] = [await newAgent(), await newAgent()];
    await apply(applicant, id);
    expect(await assign(client, id, other)).toMatchObject({
      status: 409,
      body: { error: 'That agent has not applied to this mission' },
    });
    expect((await assign(await newClient(), id, applicant)).status).toBe(403);
    expect(
      (await call(assignRoute, { method: 'POST', token: client.token, params: { id }, body: { agent: 'nope' } }))
        .status,
    ).toBe(400);
    expect((await apply(applicant, id, '')).status).toBe(400);
    expect((await apply(applicant, id, 'a\u0000b')).status).toBe(400);
    expect(await missionRow(id)).toMatchObject({ status: 'OPEN', agentId: null });
  });

  test('behavior: two assigns at once — one winner, the other 409', async () => {
    const { client, id } = await applicationMission();
    const [a, b] = [await newAgent(), await newAgent()];
    await apply(a, id);
    await apply(b, id);
    const results = await Promise.all([assign(client, id, a), assign(client, id, b)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  test('behavior: the capacity rule applies to assign too', async () => {
    const agent = await newAgent();
    for (let i = 0; i < 3; i += 1) await ok(act('accept', agent, (await createMission(await newClient())).id));
    const { client, id } = await applicationMission();
    await apply(agent, id);
    expect(await assign(client, id, agent)).toMatchObject({ status: 409, body: { error: 'Too many active missions' } });
  });

  test('behavior: withdrawn or reopened, the mission takes a fresh round of applications', async () => {
    const { client, id } = await applicationMission();
    const agent = await newAgent();
    await apply(agent, id);
    await ok(assign(client, id, agent));
    await ok(act('cancel', agent, id)); // the agent withdraws: OPEN again
    expect((await applicationsOf(client, id)).body.items).toEqual([]);
    expect((await apply(agent, id)).status).toBe(201);
    await ok(assign(client, id, agent));
    await setTimes(id, { acceptedAt: past(120) });
    await ok(call(reopenRoute, { method: 'POST', token: client.token, params: { id } }));
    expect((await applicationsOf(client, id)).body.items).toEqual([]);
    const newcomer = await newAgent();
    expect((await apply(newcomer, id)).status).toBe(201);
    await ok(assign(client, id, newcomer));
  });

  test('error: at most 50 applications a mission', async () => {
    const { client, id } = await applicationMission();
    const agents = await Promise.all(Array.from({ length: 51 }, () => newAgent()));
    const results = await Promise.all(agents.map((agent) => apply(agent, id)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(50);
    expect(results.filter((r) => r.status === 409)).toHaveLength(1);
    const page = await applicationsOf(client, id, '?limit=30');
    const next = await applicationsOf(client, id, `?limit=30&cursor=${page.body.nextCursor}`);
    expect(page.body.items.length + next.body.items.length).toBe(50);
    expect(next.body.nextCursor).toBeNull();
  });
});

describe('reviews (docs/api.md#reviews)', () => {
  test('default: the owner of a COMPLETED mission reviews once; the rating reaches the agent profile', async () => {
    const agent = await newAgent();
    const first = await missionIn('COMPLETED', { agent });
    const second = await missionIn('COMPLETED', { agent });
    expect(await review(first.client, first.id, { rating: 5, comment: 'Spot on.' })).toMatchObject({
      status: 201,
      body: { missionId: first.id, agent: { walletAddress: agent.address }, rating: 5, comment: 'Spot on.' },
    });
    await review(second.client, second.id, { rating: 4 });
    expect(await review(first.client, first.id, { rating: 1 })).toMatchObject({
      status: 409,
      body: { error: 'This mission has already been reviewed' },
    });
    // Double-blind (docs/api.md#reviews): sealed while the agent has not reviewed and the week is not over.
    const sealed = await call(agentProfile, { params: { address: agent.address } });
    expect(sealed.body).toMatchObject({ rating: null, ratingCount: 0 });
    for (const { id } of [first, second]) await setMissionTimes(id, { completedAt: daysAgo(8) });
    const profile = await call(agentProfile, { params: { address: agent.address } });
    expect(profile.body).toMatchObject({ rating: 4.5, ratingCount: 2 });
  });

  test('error: only the parties (404 for others), only a COMPLETED mission (409), a rating of 1–5 (400)', async () => {
    const done = await missionIn('COMPLETED');
    expect((await review(await newAgent(), done.id, { rating: 5 })).status).toBe(404);
    const open = await missionIn('SUBMITTED');
    expect((await review(open.client, open.id, { rating: 5 })).status).toBe(409);
    for (const rating of [0, 6, 4.5, '5']) expect((await review(done.client, done.id, { rating })).status).toBe(400);
  });

  test('behavior: a review can be edited within 24 h, not after', async () => {
    const done = await missionIn('COMPLETED');
    await review(done.client, done.id, { rating: 2 });
    const edited = await call(editReviewRoute, {
      method: 'PATCH',
      token: done.client.token,
      params: { id: done.id },
      body: { rating: 3 },
    });
    expect(edited).toMatchObject({ status: 200, body: { rating: 3 } });
    const { eq } = await import('drizzle-orm');
    await (await getDb())
      .update(missionReviews)
      .set({ createdAt: past(25 * 3600) })
      .where(eq(missionReviews.missionId, done.id));
    const late = await call(editReviewRoute, {
      method: 'PATCH',
      token: done.client.token,
      params: { id: done.id },
      body: { rating: 5 },
    });
    expect(late).toMatchObject({
      status: 409,
      body: { error: 'A review can only be edited within 24 hours of writing it' },
    });
  });
});

describe('ratings on the leaderboard (docs/api.md#reviews)', () => {
  test('behavior: sort=rating ranks by the shrunk rating, then more ratings, unrated last, across pages', async () => {
    const [twice, once, unrated] = [await newAgent(), await newAgent(), await newAgent()];
    for (const [agent, ratings] of [
      [twice, [5, 5]],
      [once, [5]],
      [unrated, [null]],
    ] as const) {
      for (const rating of ratings) {
        const done = await missionIn('COMPLETED', { agent });
        // Past the double-blind week (docs/api.md#reviews), so the rating counts.
        await setMissionTimes(done.id, { completedAt: daysAgo(8) });
        if (rating !== null)
          await ok(
            review(done.client, done.id, { rating }).then((r) => ({
              ...r,
              status: r.status === 201 ? 200 : r.status,
            })),
          );
      }
    }
    const board = await call(leaderboardRoute, { path: '/api/agents/leaderboard?sort=rating' });
    const mine = board.body.items.filter((e: { walletAddress: string }) =>
      [twice, once, unrated].some((a) => a.address === e.walletAddress),
    );
    expect(
      mine.map((e: { walletAddress: string; rating: number | null; ratingCount: number }) => [
        e.walletAddress,
        e.rating,
        e.ratingCount,
      ]),
    ).toEqual([
      [twice.address, 5, 2],
      [once.address, 5, 1],
      [unrated.address, null, 0],
    ]);
    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { items: { walletAddress: string }[]; nextCursor: string | null } } = await call(
        leaderboardRoute,
        { path: `/api/agents/leaderboard?sort=rating&limit=1${cursor ? `&cursor=${cursor}` : ''}` },
      );
      walked.push(...page.body.items.map((e: { walletAddress: string }) => e.walletAddress));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(walked).toEqual(board.body.items.map((e: { walletAddress: string }) => e.walletAddress));
  });
});

describe('comments (docs/api.md#comments)', () => {
  test('default: on an OPEN mission anyone signed in asks, the owner answers, anyone reads', async () => {
    const client = await newClient();
    const { id } = await createMission(client);
    const asker = await newAgent();
    expect(await comment(asker, id)).toMatchObject({
      status: 201,
      body: { role: 'USER', author: { walletAddress: asker.address }, body: 'Is COCO JSON fine?' },
    });
    expect(await comment(client, id, 'Yes.')).toMatchObject({ status: 201, body: { role: 'OWNER' } });
    const read = await commentsOf(undefined, id);
    expect(read.body.items.map((c: { body: string }) => c.body)).toEqual(['Is COCO JSON fine?', 'Yes.']);
    expect((await comment(undefined, id)).status).toBe(401);
  });

  test('behavior: once accepted only the parties and the operator read and write; others get 404', async () => {
    const { client, agent, id } = await missionIn('ACCEPTED');
    const stranger = await newAgent();
    expect((await comment(agent, id, 'Starting now.')).body.role).toBe('AGENT');
    expect((await comment(client, id, 'Thanks.')).status).toBe(201);
    expect((await comment(stranger, id)).status).toBe(404);
    expect((await commentsOf(stranger, id)).status).toBe(404);
    expect((await commentsOf(undefined, id)).status).toBe(404);
    const byOperator = await call(adminComment, {
      method: 'POST',
      params: { id },
      body: { body: 'Operator here.' },
      headers: ADMIN,
    });
    expect(byOperator).toMatchObject({ status: 201, body: { role: 'OPERATOR', author: null } });
    expect((await commentsOf(agent, id)).body.items).toHaveLength(3);
    for (const status of ['SUBMITTED', 'CONTESTED', 'DISPUTED', 'COMPLETED', 'CANCELLED'] as const) {
      const m = await missionIn(status);
      expect((await commentsOf(stranger, m.id)).status, status).toBe(404);
      expect((await comment(stranger, m.id)).status, status).toBe(404);
      expect((await comment(m.client, m.id)).status, status).toBe(201);
      const operatorRead = await call(adminCommentsList, {
        params: { id: m.id },
        headers: ADMIN,
        path: `/api/admin/missions/${m.id}/comments`,
      });
      expect(operatorRead.body.items.length, status).toBe(1);
      if (status !== 'CANCELLED') expect((await comment(m.agent, m.id)).status, status).toBe(201);
    }
    // A CANCELLED mission never accepted (straight from OPEN) is its owner's alone.
    expect((await commentsOf((await missionIn('CANCELLED')).agent, (await missionIn('CANCELLED')).id)).status).toBe(
      404,
    );
  });

  test(
    'error: free text rules (no control characters, 1–2,000 characters), and 10 comments a ' + 'minute a user',
    async () => {
      const client = await newClient();
      const { id } = await createMission(client);
      for (const body of ['', 'x'.repeat(2001), 'nul\u0000', '\ud800'])
        expect((await comment(client, id, body)).status).toBe(400);
      setEnv({ COMMENT_RATE_LIMIT_PER_MINUTE: '10' });
      const talker = await newAgent();
      const statuses: number[] = [];
      for (let i = 0; i < 11; i += 1) statuses.push((await comment(talker, id, `question ${i}`)).status);
      expect(statuses).toEqual([...Array(10).fill(201), 429]);
    },
  );
});
