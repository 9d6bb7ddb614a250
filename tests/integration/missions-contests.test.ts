import { beforeAll, describe, expect, test } from 'vitest';
import { POST as contestRoute } from '@/app/api/missions/[id]/contest/route';
import { GET as listRoute } from '@/app/api/missions/route';
import { POST as sweep } from '@/app/api/cron/sweep/route';
import { call } from '../support/http';
import { setEnv, useTestEnvironment, BOOKKEEPING } from '../support/environment';
import {
  act,
  createMission,
  earningsOf,
  eventsOf,
  getMission,
  missionIn,
  missionRow,
  newAgent,
  ok,
  type Party,
  past,
  resolve,
  setTimes,
} from '../support/missions';
import { pdf, png, upload } from '../support/multipart';

useTestEnvironment({ ...BOOKKEEPING, WRITE_RATE_LIMIT_PER_MINUTE: '100000' });

const cron = { authorization: `Bearer ${process.env.CRON_SECRET}` };
let agent: Party;
beforeAll(async () => {
  agent = await newAgent();
});

describe('contest rounds', () => {
  test('default: MAX_CONTESTS rounds go back to the agent, the next contest goes to DISPUTED', async () => {
    const { client, id } = await missionIn('SUBMITTED', { agent });
    for (const round of [1, 2]) {
      const contested = await ok(act('contest', client, id, { reason: `Round ${round}` }));
      expect(contested).toMatchObject({ status: 'CONTESTED', reviewDeadline: null });
      expect(contested.contests.map((c: { round: number }) => c.round)).toEqual(round === 1 ? [1] : [1, 2]);
      await ok(act('submit', agent, id, { note: `Fix ${round}` }));
    }
    const disputed = await ok(act('contest', client, id, { reason: 'Third time' }));
    expect(disputed.status).toBe('DISPUTED');
    expect(disputed.contests.map((c: { reason: string }) => c.reason)).toEqual(['Round 1', 'Round 2', 'Third time']);
    expect((await eventsOf(id)).map((e) => e.toStatus)).toEqual([
      'OPEN',
      'ACCEPTED',
      'SUBMITTED',
      'CONTESTED',
      'SUBMITTED',
      'CONTESTED',
      'SUBMITTED',
      'DISPUTED',
    ]);
    // Nothing moves a DISPUTED mission but the operator; time does not either.
    expect((await act('approve', client, id)).status).toBe(409);
    expect((await act('cancel', agent, id)).status).toBe(409);
  });

  test('behavior: MAX_CONTESTS=0 sends the first contest straight to DISPUTED', async () => {
    setEnv({ MAX_CONTESTS: '0' });
    const { client, id } = await missionIn('SUBMITTED', { agent });
    expect(await ok(act('contest', client, id, { reason: 'No.' }))).toMatchObject({ status: 'DISPUTED' });
    setEnv({ MAX_CONTESTS: undefined });
  });

  test('error: a contest needs a reason of 1–2,000 characters', async () => {
    const { client, id } = await missionIn('SUBMITTED', { agent });
    expect((await act('contest', client, id, {})).status).toBe(400);
    expect((await act('contest', client, id, { reason: '   ' })).status).toBe(400);
    expect((await act('contest', client, id, { reason: 'x'.repeat(2001) })).status).toBe(400);
    expect((await missionRow(id)).status).toBe('SUBMITTED');
  });

  test('behavior: evidence files come with the contest and only its two parties see them', async () => {
    const { client, id } = await missionIn('SUBMITTED', { agent });
    const response = await upload(contestRoute, {
      token: client.token,
      params: { id },
      fields: { reason: 'See the screenshot.' },
      files: [{ filename: 'screenshot.png', contentType: 'image/png', content: png() }],
    });
    expect(response.status).toBe(200);
    expect(response.body.contests[0]).toMatchObject({
      round: 1,
      reason: 'See the screenshot.',
      files: [{ filename: 'screenshot.png' }],
    });
    expect((await getMission(agent, id)).body.contests[0].files).toHaveLength(1);
  });

  test('behavior: the owner may cancel a contest left unanswered for the review window', async () => {
    const { client, id } = await missionIn('CONTESTED', { agent });
    expect((await act('cancel', client, id)).status).toBe(409);
    await setTimes(id, { contestedAt: past(259_200) });
    expect(await ok(act('cancel', client, id))).toMatchObject({ status: 'CANCELLED' });
    expect(await earningsOf(id)).toEqual([]);
  });
});

describe('POST /api/admin/missions/{id}/resolve', () => {
  test('default: the operator completes a dispute and the agent is paid once', async () => {
    const { client, id } = await missionIn('DISPUTED', { agent });
    const resolved = await resolve(id, { outcome: 'COMPLETED', note: 'Deliverable meets the brief.' });
    expect(resolved).toMatchObject({ status: 200, body: { id, status: 'COMPLETED', completedAt: expect.any(String) } });
    // The operator is neither party but sees the work it ruled on: the last submission, every round.
    expect(resolved.body.submission).toMatchObject({ note: 'Fixed, round 2.' });
    expect(resolved.body.contests.map((c: { round: number }) => c.round)).toEqual([1, 2, 3]);
    expect(await earningsOf(id)).toHaveLength(1);
    expect((await eventsOf(id)).at(-1)).toMatchObject({
      actor: 'OPERATOR',
      actorId: null,
      toStatus: 'COMPLETED',
      data: { note: 'Deliverable meets the brief.' },
    });
    expect((await resolve(id, { outcome: 'CANCELLED' })).status).toBe(409);
    expect((await getMission(client, id)).body.status).toBe('COMPLETED');
  });

  test('behavior: the operator cancels a dispute and nobody is paid', async () => {
    const { id } = await missionIn('DISPUTED', { agent });
    expect(await resolve(id, { outcome: 'CANCELLED' })).toMatchObject({ status: 200, body: { status: 'CANCELLED' } });
    expect(await earningsOf(id)).toEqual([]);
  });

  test('error: only DISPUTED missions, a valid outcome, the operator token', async () => {
    const { id } = await missionIn('SUBMITTED', { agent });
    expect((await resolve(id, { outcome: 'COMPLETED' })).status).toBe(409);
    const disputed = await missionIn('DISPUTED', { agent });
    expect((await resolve(disputed.id, { outcome: 'OPEN' })).status).toBe(400);
    // An unpaired surrogate in the note was a 500: the note goes into the event's jsonb (found by fuzzing).
    expect((await resolve(disputed.id, { outcome: 'COMPLETED', note: 'x\udfffy' })).status).toBe(400);
    expect((await resolve(disputed.id, { outcome: 'COMPLETED', status: 'x' })).status).toBe(400);
    expect((await resolve(disputed.id, { outcome: 'COMPLETED' }, { authorization: 'Bearer nope' })).status).toBe(401);
    expect((await resolve(disputed.id, { outcome: 'COMPLETED' }, {})).status).toBe(401);
    expect(
      (await resolve(disputed.id, { outcome: 'COMPLETED' }, { authorization: `Bearer ${agent.token}` })).status,
    ).toBe(401);
    expect((await resolve('nope', { outcome: 'COMPLETED' })).status).toBe(404);
    expect((await resolve(crypto.randomUUID(), { outcome: 'COMPLETED' })).status).toBe(404);
    const token = process.env.ADMIN_TOKEN;
    setEnv({ ADMIN_TOKEN: undefined });
    expect((await resolve(disputed.id, { outcome: 'COMPLETED' })).status).toBe(404);
    setEnv({ ADMIN_TOKEN: token });
    expect((await missionRow(disputed.id)).status).toBe('DISPUTED');
  });
});

describe('the review window', () => {
  test('default: the sweep completes SUBMITTED missions past their review window, and pays once', async () => {
    const { client, id } = await missionIn('SUBMITTED', { agent });
    const fresh = await missionIn('SUBMITTED', { agent });
    await setTimes(id, { reviewDeadline: past() });
    const [a, b] = await Promise.all([
      call(sweep, { method: 'POST', headers: cron }),
      call(sweep, { method: 'POST', headers: cron }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.missions.completed + b.body.missions.completed).toBeGreaterThanOrEqual(1);
    expect(await missionRow(id)).toMatchObject({ status: 'COMPLETED' });
    expect(await earningsOf(id)).toHaveLength(1);
    expect((await eventsOf(id)).at(-1)).toMatchObject({
      action: 'expire',
      actor: 'SYSTEM',
      fromStatus: 'SUBMITTED',
      toStatus: 'COMPLETED',
    });
    expect((await missionRow(fresh.id)).status).toBe('SUBMITTED');
    expect((await act('contest', client, id, { reason: 'Too late' })).status).toBe(409);
  });

  test('behavior: a read never shows SUBMITTED past the deadline; it settles the mission', async () => {
    const { client, id } = await missionIn('SUBMITTED', { agent });
    await setTimes(id, { reviewDeadline: past() });
    const read = await getMission(agent, id);
    expect(read.body).toMatchObject({ status: 'COMPLETED', completedAt: expect.any(String) });
    expect(await earningsOf(id)).toHaveLength(1);
    expect((await getMission(client, id)).body.status).toBe('COMPLETED');
    expect(await earningsOf(id)).toHaveLength(1);
  });

  test("behavior: the owner's and the agent's lists settle expired windows before listing", async () => {
    const { client, id } = await missionIn('SUBMITTED', { agent });
    await setTimes(id, { reviewDeadline: past() });
    const mine = await call(listRoute, { token: client.token, path: '/api/missions?mine=client&status=SUBMITTED' });
    expect(mine.body.items).toEqual([]);
    const completed = await call(listRoute, {
      token: client.token,
      path: '/api/missions?mine=client&status=COMPLETED',
    });
    expect(completed.body.items.map((m: { id: string }) => m.id)).toEqual([id]);
  });

  test('behavior: a list whose filter finds nothing yet settles first and lists the settled mission', async () => {
    const { agent: own, id } = await missionIn('SUBMITTED');
    await setTimes(id, { reviewDeadline: past() });
    const completed = await call(listRoute, { token: own.token, path: '/api/missions?mine=agent&status=COMPLETED' });
    expect(completed.body.items.map((m: { id: string; status: string }) => [m.id, m.status])).toEqual([
      [id, 'COMPLETED'],
    ]);
    expect(await earningsOf(id)).toHaveLength(1);
  });

  test("behavior: a page settles the caller's expired windows also when they are not on it", async () => {
    const { client, id } = await missionIn('SUBMITTED', { agent });
    await setTimes(id, { reviewDeadline: past() });
    const newer = await createMission(client);
    const page = await call(listRoute, { token: client.token, path: '/api/missions?mine=client&limit=1' });
    expect(page.body.items.map((m: { id: string }) => m.id)).toEqual([newer.id]);
    expect(await missionRow(id)).toMatchObject({ status: 'COMPLETED' });
    expect((await eventsOf(id)).filter((e) => e.toStatus === 'COMPLETED')).toHaveLength(1);
  });

  test('behavior: an action on an expired mission settles it first and is then refused', async () => {
    const { client, id } = await missionIn('SUBMITTED', { agent });
    await setTimes(id, { reviewDeadline: past() });
    expect((await act('contest', client, id, { reason: 'Late' })).status).toBe(409);
    expect((await act('approve', client, id)).status).toBe(409);
    expect(await missionRow(id)).toMatchObject({ status: 'COMPLETED' });
    expect((await eventsOf(id)).filter((e) => e.toStatus === 'COMPLETED')).toHaveLength(1);
    expect(await earningsOf(id)).toHaveLength(1);
  });

  test('behavior: a resubmission opens a new window from its own time', async () => {
    setEnv({ REVIEW_WINDOW_SECONDS: '60' });
    const { client, id } = await missionIn('CONTESTED', { agent });
    const resubmitted = await ok(act('submit', agent, id, { note: 'v2' }));
    expect(Date.parse(resubmitted.reviewDeadline) - Date.parse(resubmitted.submittedAt)).toBe(60_000);
    setEnv({ REVIEW_WINDOW_SECONDS: undefined });
    expect((await getMission(client, id)).body.status).toBe('SUBMITTED');
  });
});

describe('deliverables', () => {
  test(
    'behavior: a multipart submission carries a note and files; the new round replaces the ' + 'shown submission',
    async () => {
      const { client, id } = await missionIn('ACCEPTED', { agent });
      const { POST: submitRoute } = await import('@/app/api/missions/[id]/submit/route');
      const first = await upload(submitRoute, {
        token: agent.token,
        params: { id },
        fields: { note: 'Export attached.' },
        files: [{ filename: 'export.pdf', contentType: 'application/pdf', content: pdf() }],
      });
      expect(first.status).toBe(200);
      expect(first.body.submission).toMatchObject({
        note: 'Export attached.',
        files: [{ filename: 'export.pdf', contentType: 'application/pdf' }],
      });
      await ok(act('contest', client, id, { reason: 'Wrong format' }));
      const second = await ok(act('submit', agent, id, { note: 'Now as JSON in the note.' }));
      expect(second.submission).toMatchObject({ note: 'Now as JSON in the note.', files: [] });
    },
  );

  test('error: a submission needs a note or files', async () => {
    const { id } = await missionIn('ACCEPTED', { agent });
    expect((await act('submit', agent, id, {})).status).toBe(400);
    expect((await act('submit', agent, id, { note: 'x'.repeat(10_001) })).status).toBe(400);
    expect((await missionRow(id)).status).toBe('ACCEPTED');
  });
});
