import { beforeAll, describe, expect, test } from 'vitest';
import { POST as registerAgent } from '@/app/api/auth/register-agent/route';
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
  newClient,
  ok,
  type Party,
  past,
  type RouteAction,
  setTimes,
  type Status,
} from '../support/missions';

// Rate limits have their own tests; here one agent acts on many missions.
useTestEnvironment({ ...BOOKKEEPING, WRITE_RATE_LIMIT_PER_MINUTE: '100000', PLATFORM_FEE_BPS: '250' });

let agent: Party; // the assigned agent of every fixture
let other: Party; // another agent, for accept
beforeAll(async () => {
  [agent, other] = await Promise.all([newAgent(), newAgent()]);
});

interface Cell {
  label: string;
  action: RouteAction;
  who: 'owner' | 'agent' | 'other';
  body?: unknown;
}
const CELLS: Cell[] = [
  { label: 'accept by another agent', action: 'accept', who: 'other' },
  { label: 'submit by the assigned agent', action: 'submit', who: 'agent', body: { note: 'Another try.' } },
  { label: 'approve by the owner', action: 'approve', who: 'owner' },
  { label: 'contest by the owner', action: 'contest', who: 'owner', body: { reason: 'Not what I asked for.' } },
  { label: 'cancel by the owner', action: 'cancel', who: 'owner' },
  { label: 'cancel (withdraw) by the assigned agent', action: 'cancel', who: 'agent' },
  { label: 'bump by the owner', action: 'bump', who: 'owner' },
];
// docs/api.md#mission-states with fixtures whose time rules are not met (deadline ahead, contest just made).
// OPEN and CANCELLED-from-OPEN missions have no assigned agent, so the agent's rows there are 403
// (OPEN is public) and 404 (CANCELLED is not).
const EXPECTED: Record<Status, number[]> = {
  OPEN: [200, 403, 409, 409, 200, 403, 200],
  ACCEPTED: [409, 200, 409, 409, 409, 200, 409],
  SUBMITTED: [409, 409, 200, 200, 409, 409, 409],
  CONTESTED: [409, 200, 409, 409, 409, 200, 409],
  DISPUTED: [409, 409, 409, 409, 409, 409, 409],
  COMPLETED: [409, 409, 409, 409, 409, 409, 409],
  CANCELLED: [409, 404, 409, 409, 409, 404, 409],
};
const LANDS: Record<string, Status> = {
  'OPEN/accept by another agent': 'ACCEPTED',
  'OPEN/cancel by the owner': 'CANCELLED',
  'OPEN/bump by the owner': 'OPEN',
  'ACCEPTED/submit by the assigned agent': 'SUBMITTED',
  'ACCEPTED/cancel (withdraw) by the assigned agent': 'OPEN',
  'SUBMITTED/approve by the owner': 'COMPLETED',
  'SUBMITTED/contest by the owner': 'CONTESTED',
  'CONTESTED/submit by the assigned agent': 'SUBMITTED',
  'CONTESTED/cancel (withdraw) by the assigned agent': 'OPEN',
};

const partyOf = (cell: Cell, owner: Party) => (cell.who === 'owner' ? owner : cell.who === 'agent' ? agent : other);

describe('the transition table through the routes', () => {
  for (const [status, codes] of Object.entries(EXPECTED) as [Status, number[]][]) {
    test(`behavior: from ${status}, every refused action leaves the mission and its log untouched`, async () => {
      const { client, id } = await missionIn(status, { agent });
      const before = await missionRow(id);
      const events = (await eventsOf(id)).length;
      for (const [i, cell] of CELLS.entries()) {
        if (codes[i] === 200) continue;
        const response = await act(cell.action, partyOf(cell, client), id, cell.body);
        expect({ cell: cell.label, status: response.status }).toEqual({ cell: cell.label, status: codes[i] });
        expect(response.body).toEqual({ error: expect.any(String) });
      }
      expect(await missionRow(id)).toEqual(before);
      expect(await eventsOf(id)).toHaveLength(events);
    });

    for (const [i, cell] of CELLS.entries()) {
      if (codes[i] !== 200) continue;
      const to = LANDS[`${status}/${cell.label}`]!;
      test(`behavior: ${status} → ${to} by ${cell.label}, with its event`, async () => {
        const { client, id } = await missionIn(status, { agent });
        const actor = partyOf(cell, client);
        const response = await act(cell.action, actor, id, cell.body);
        expect(response.status).toBe(200);
        expect(response.body).toMatchObject({ id, status: to });
        const last = (await eventsOf(id)).at(-1)!;
        expect(last).toMatchObject({ actorId: actor.id, fromStatus: status, toStatus: to });
      });
    }
  }
});

describe('what each transition does besides the state', () => {
  test(
    'default: accept names the agent; submit opens the review window; approve credits the ' + 'reward less the fee',
    async () => {
      const { client, id } = await missionIn('OPEN', { agent });
      const accepted = await ok(act('accept', agent, id));
      expect(accepted).toMatchObject({ agent: { walletAddress: agent.address }, acceptedAt: expect.any(String) });
      const submitted = await ok(act('submit', agent, id, { note: 'All 500 labelled.' }));
      expect(submitted.submission).toEqual({
        note: 'All 500 labelled.',
        files: [],
        selfCheck: [],
        checks: [],
        submittedAt: submitted.submittedAt,
      });
      const window = Date.parse(submitted.reviewDeadline) - Date.parse(submitted.submittedAt);
      expect(window).toBe(259_200_000);
      const completed = await ok(act('approve', client, id));
      expect(completed).toMatchObject({ status: 'COMPLETED', completedAt: expect.any(String) });
      expect(await earningsOf(id)).toMatchObject([
        { agentId: agent.id, gross: '25000000', fee: '625000', amount: '24375000', feeBps: 250 },
      ]);
    },
  );

  test('behavior: the fee is the one agreed at posting, not the one at payout', async () => {
    const { client, id } = await missionIn('SUBMITTED', { agent });
    setEnv({ PLATFORM_FEE_BPS: '1000' });
    await ok(act('approve', client, id));
    setEnv({ PLATFORM_FEE_BPS: '250' });
    expect(await earningsOf(id)).toMatchObject([{ fee: '625000', feeBps: 250 }]);
  });

  test(
    'behavior: a withdrawn mission is OPEN again without agent, submission or contests, and ' +
      'another agent may take it',
    async () => {
      const { client, id } = await missionIn('CONTESTED', { agent });
      const reopened = await ok(act('cancel', agent, id));
      expect(reopened).toMatchObject({
        status: 'OPEN',
        agent: null,
        submission: null,
        contests: [],
        acceptedAt: null,
        reviewDeadline: null,
      });
      expect(await ok(act('accept', other, id))).toMatchObject({
        status: 'ACCEPTED',
        agent: { walletAddress: other.address },
      });
      expect((await getMission(client, id)).body.contests).toEqual([]);
      expect(await earningsOf(id)).toEqual([]);
    },
  );

  test('behavior: the owner may cancel ACCEPTED once the deadline has passed; nobody may accept then', async () => {
    const { client, id } = await missionIn('ACCEPTED', { agent });
    await setTimes(id, { deadline: past() });
    expect(await ok(act('cancel', client, id))).toMatchObject({ status: 'CANCELLED', cancelledAt: expect.any(String) });
    const open = await missionIn('OPEN', { agent });
    await setTimes(open.id, { deadline: past() });
    expect((await act('accept', other, open.id)).status).toBe(409);
  });

  test('behavior: bump tops the reward up, refuses to lower it, and is once an hour per mission', async () => {
    const client = await newClient();
    const { id } = await createMission(client);
    expect((await act('bump', client, id, { reward: '1' })).status).toBe(400);
    expect((await act('bump', client, id, { reward: 'lots' })).status).toBe(400);
    // Refused bumps do not count: the hour starts with the bump that happened.
    const bumped = await act('bump', client, id, { reward: '30000000' });
    expect(bumped.status).toBe(200);
    expect(bumped.body).toMatchObject({ reward: '30000000', bumpCount: 1, bumpedAt: expect.any(String) });
    const again = await act('bump', client, id);
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(3590);
    expect(again.headers.get('ratelimit-remaining')).toBe('0');
    const { id: second } = await createMission(client);
    expect((await act('bump', client, second)).status).toBe(200);
    const [a, b] = await Promise.all([act('bump', client, second), act('bump', client, second)]);
    expect([a.status, b.status]).toEqual([429, 429]);
    expect((await missionRow(second)).bumpCount).toBe(1);
  });
});

describe('wrong callers', () => {
  test('error: without a token every action is 401', async () => {
    const { id } = await missionIn('OPEN', { agent });
    for (const action of ['accept', 'submit', 'approve', 'contest', 'cancel', 'bump'] as const) {
      expect((await act(action, undefined, id)).status).toBe(401);
    }
  });

  test('error: a client cannot accept (403), nor can the owner who became an agent', async () => {
    const { client, id } = await missionIn('OPEN', { agent });
    expect(await act('accept', await newClient(), id)).toMatchObject({
      status: 403,
      body: { error: 'Agent role required' },
    });
    const promoted = await call(registerAgent, { token: client.token, method: 'POST' });
    const owner = { ...client, token: promoted.body.token };
    expect((await act('accept', owner, id)).status).toBe(403);
  });

  test('error: the other party is 403; a stranger is 404 on a mission it cannot see', async () => {
    const submitted = await missionIn('SUBMITTED', { agent });
    const stranger = await newClient();
    expect((await act('approve', agent, submitted.id)).status).toBe(403);
    expect((await act('contest', agent, submitted.id, { reason: 'x' })).status).toBe(403);
    expect((await act('submit', submitted.client, submitted.id, { note: 'x' })).status).toBe(403);
    expect((await act('approve', stranger, submitted.id)).status).toBe(404);
    expect((await act('contest', stranger, submitted.id, { reason: 'x' })).status).toBe(404);
    expect((await act('cancel', stranger, submitted.id)).status).toBe(404);
    expect((await act('submit', other, submitted.id, { note: 'x' })).status).toBe(404);
    const open = await missionIn('OPEN', { agent });
    expect((await act('bump', agent, open.id)).status).toBe(403);
    expect((await act('cancel', stranger, open.id)).status).toBe(403);
  });

  test('error: malformed and unknown mission ids are 404 for every action', async () => {
    const client = await newClient();
    for (const id of ['not-a-uuid', '1', "' OR 1=1 --", crypto.randomUUID()]) {
      for (const action of ['accept', 'submit', 'approve', 'contest', 'cancel', 'bump'] as const) {
        const party = action === 'accept' ? agent : client;
        const body = action === 'submit' ? { note: 'x' } : action === 'contest' ? { reason: 'x' } : undefined;
        expect({ id, action, status: (await act(action, party, id, body)).status }).toEqual({
          id,
          action,
          status: 404,
        });
      }
      expect((await getMission(client, id)).status).toBe(404);
    }
  });
});

describe('GET /api/missions/{id}', () => {
  test('behavior: OPEN is public; any other state only for the owner and the assigned agent', async () => {
    const open = await missionIn('OPEN', { agent });
    expect((await getMission(undefined, open.id)).status).toBe(200);
    const accepted = await missionIn('ACCEPTED', { agent });
    expect((await getMission(accepted.client, accepted.id)).status).toBe(200);
    expect((await getMission(agent, accepted.id)).status).toBe(200);
    expect(await getMission(undefined, accepted.id)).toMatchObject({
      status: 404,
      body: { error: 'Mission not found' },
    });
    expect((await getMission(other, accepted.id)).status).toBe(404);
  });
});
