// GET /api/enterprise/analytics (docs/api.md#account): missions made through the API, then placed around the
// January/February 2026 month boundary (mission-clock.ts); every figure below is counted by hand.
import { beforeAll, describe, expect, test } from 'vitest';
import { GET as analyticsRoute } from '@/app/api/enterprise/analytics/route';
import { analyticsSchema } from '@/lib/enterprise/schemas';
import { useTestEnvironment, BOOKKEEPING } from '../support/environment';
import { call } from '../support/http';
import { act, createMission, newAgent, newClient, ok, type Party } from '../support/missions';
import { setMissionTimes } from '../support/mission-clock';

useTestEnvironment(BOOKKEEPING);

const USDC = (n: number) => String(n * 1_000_000);
const at = (iso: string) => new Date(iso);
let client: Party, p: Party, q: Party;

async function completed(agent: Party, reward: number, contest = false) {
  const { id } = await createMission(client, { reward: USDC(reward) });
  await ok(act('accept', agent, id));
  await ok(act('submit', agent, id, { note: 'done' }));
  if (contest) {
    await ok(act('contest', client, id, { reason: 'Fix the labels.' }));
    await ok(act('submit', agent, id, { note: 'fixed' }));
  }
  await ok(act('approve', client, id));
  return id;
}

beforeAll(async () => {
  client = await newClient();
  [p, q] = [await newAgent(), await newAgent()];
  // In range [2026-01-28, 2026-02-03]:
  const m1 = await completed(p, 10);
  await setMissionTimes(m1, {
    createdAt: at('2026-01-30T10:00:00Z'),
    acceptedAt: at('2026-01-30T11:00:00Z'),
    completedAt: at('2026-02-02T10:00:00Z'),
  });
  const m2 = await completed(q, 20, true);
  await setMissionTimes(m2, {
    createdAt: at('2026-01-31T23:30:00Z'),
    acceptedAt: at('2026-02-01T01:30:00Z'),
    completedAt: at('2026-02-01T23:30:00Z'),
  });
  const m3 = (await createMission(client, { reward: USDC(5) })).id;
  await setMissionTimes(m3, { createdAt: at('2026-02-01T00:00:00Z') });
  const m4 = (await createMission(client, { reward: USDC(7) })).id;
  await ok(act('accept', p, m4));
  await setMissionTimes(m4, { createdAt: at('2026-02-03T12:00:00Z'), acceptedAt: at('2026-02-03T15:00:00Z') });
  const m7 = (await createMission(client, { reward: USDC(3) })).id;
  await ok(act('cancel', client, m7));
  await setMissionTimes(m7, { createdAt: at('2026-01-28T00:00:00Z') });
  // Outside it: posted before (but completed inside), posted the day after.
  const m5 = await completed(p, 100);
  await setMissionTimes(m5, {
    createdAt: at('2026-01-27T12:00:00Z'),
    acceptedAt: at('2026-01-27T13:00:00Z'),
    completedAt: at('2026-01-29T00:00:00Z'),
  });
  const m6 = (await createMission(client, { reward: USDC(9) })).id;
  await setMissionTimes(m6, { createdAt: at('2026-02-04T00:00:00Z') });
  // Another client's mission in the range is none of this client's business.
  const other = await newClient();
  const theirs = (await createMission(other, { reward: USDC(1000) })).id;
  await setMissionTimes(theirs, { createdAt: at('2026-01-30T00:00:00Z') });
});

const analytics = (query: string, party: Party | null = client) =>
  call(analyticsRoute, { path: `/api/enterprise/analytics${query}`, token: party?.token });

describe('GET /api/enterprise/analytics', () => {
  test('behavior: the summary describes the missions posted in the range', async () => {
    const response = await analytics('?from=2026-01-28&to=2026-02-03');
    expect(response.status).toBe(200);
    const body = analyticsSchema.parse(response.body);
    expect(body.range).toEqual({ from: '2026-01-28', to: '2026-02-03', interval: 'day' });
    // Posted in range: m7 (Jan 28 00:00, the first instant), m1, m2, m3 (Feb 1 00:00), m4.
    expect(body.missions).toEqual({
      total: 5,
      byStatus: {
        OPEN: 1,
        ACCEPTED: 1,
        SUBMITTED: 0,
        CONTESTED: 0,
        DISPUTED: 0,
        COMPLETED: 2,
        CANCELLED: 1,
        JUDGING: 0,
        AWARDED: 0,
        AWAITING_FUNDING: 0,
      },
    });
    expect(body.escrowed).toBe(USDC(5 + 7)); // m3 OPEN, m4 ACCEPTED
    expect(body.paid).toBe(USDC(10 + 20)); // m1, m2: gross, whatever the fee
    expect(body.avgSecondsToAccept).toBe((3600 + 7200 + 10800) / 3); // m1 1 h, m2 2 h, m4 3 h
    expect(body.avgSecondsToComplete).toBe((3 * 86400 + 86400) / 2); // m1 3 days, m2 1 day
    expect(body.contestRate).toBe(0.5); // delivered: m1, m2; contested: m2
    expect(body.topAgents).toEqual([
      { walletAddress: q.address, displayName: null, completed: 1, paid: USDC(20) },
      { walletAddress: p.address, displayName: null, completed: 1, paid: USDC(10) },
    ]);
  });

  test('behavior: a daily series with a row for every day, across the month boundary', async () => {
    const { series } = analyticsSchema.parse((await analytics('?from=2026-01-28&to=2026-02-03&interval=day')).body);
    expect(series).toEqual([
      { start: '2026-01-28', created: 1, completed: 0, paid: '0' }, // m7
      { start: '2026-01-29', created: 0, completed: 1, paid: USDC(100) }, // m5 completes (posted before the range)
      { start: '2026-01-30', created: 1, completed: 0, paid: '0' }, // m1
      { start: '2026-01-31', created: 1, completed: 0, paid: '0' }, // m2, 23:30
      { start: '2026-02-01', created: 1, completed: 1, paid: USDC(20) }, // m3 at 00:00; m2 completes
      { start: '2026-02-02', created: 0, completed: 1, paid: USDC(10) }, // m1 completes
      { start: '2026-02-03', created: 1, completed: 0, paid: '0' }, // m4
    ]);
  });

  test('behavior: weekly buckets start on Monday (ISO weeks), counting only days inside the range', async () => {
    const { series } = analyticsSchema.parse((await analytics('?from=2026-01-28&to=2026-02-03&interval=week')).body);
    expect(series).toEqual([
      { start: '2026-01-26', created: 4, completed: 2, paid: USDC(120) }, // m7 m1 m2 m3; m5, m2
      { start: '2026-02-02', created: 1, completed: 1, paid: USDC(10) }, // m4; m1
    ]);
  });

  test('behavior: without from/to, the 30 days ending today, one row each', async () => {
    const body = analyticsSchema.parse((await analytics('')).body);
    const today = new Date().toISOString().slice(0, 10);
    expect(body.range.to).toBe(today);
    expect(body.series).toHaveLength(30);
    expect(body.series.at(-1)!.start).toBe(today);
  });

  test('behavior: an empty range answers zeros and nulls, not errors', async () => {
    const body = analyticsSchema.parse((await analytics('?from=2025-03-01&to=2025-03-02')).body);
    expect(body).toMatchObject({
      missions: { total: 0 },
      escrowed: '0',
      paid: '0',
      avgSecondsToAccept: null,
      contestRate: null,
      topAgents: [],
    });
    expect(body.series).toHaveLength(2);
  });

  test('error: malformed dates, to before from, more than 366 days and unknown intervals are 400', async () => {
    for (const query of [
      '?from=2026-02-30',
      '?from=01/02/2026',
      '?from=2026-02-03&to=2026-02-02',
      '?from=2025-01-01&to=2026-01-02',
      '?interval=month',
    ]) {
      const response = await analytics(query);
      expect(response.status, query).toBe(400);
      expect(response.body.details, query).toEqual([expect.any(String)]);
    }
    // 366 days (a leap year) is the most a range may cover.
    expect((await analytics('?from=2024-01-01&to=2024-12-31')).status).toBe(200);
  });

  test('error: agents are 403 and anonymous callers 401', async () => {
    expect((await analytics('', p)).status).toBe(403);
    expect((await analytics('', null)).status).toBe(401);
  });
});
