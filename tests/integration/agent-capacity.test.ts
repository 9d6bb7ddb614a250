// docs/api.md#agent-capacity, #mission-states: one agent cannot freeze the board — at most MAX_ACTIVE_MISSIONS missions
// in ACCEPTED, SUBMITTED or CONTESTED at once (also under a race), and an assignment left without a
// submission for ACCEPT_WINDOW_SECONDS can be reopened by its owner.
import { describe, expect, test } from 'vitest';
import { GET as profileRoute } from '@/app/api/agents/[address]/route';
import { POST as reopenRoute } from '@/app/api/missions/[id]/reopen/route';
import { GET as listRoute } from '@/app/api/missions/route';
import { call } from '../support/http';
import { BOOKKEEPING, useTestEnvironment } from '../support/environment';
import {
  act,
  createMission,
  eventsOf,
  getMission,
  missionIn,
  missionRow,
  newAgent,
  newClient,
  ok,
  past,
  setTimes,
  type Party,
} from '../support/missions';

useTestEnvironment({
  ...BOOKKEEPING,
  MAX_ACTIVE_MISSIONS: '3',
  ACCEPT_WINDOW_SECONDS: '3600',
  WRITE_RATE_LIMIT_PER_MINUTE: '100000',
});

const reopen = (party: Party | undefined, id: string) =>
  call(reopenRoute, { method: 'POST', token: party?.token, params: { id } });

async function openMissions(n: number) {
  const ids: string[] = [];
  for (let i = 0; i < n; i += 1) ids.push((await createMission(await newClient())).id);
  return ids;
}

describe('agent capacity (docs/api.md#agent-capacity)', () => {
  test('error: the 4th active mission is 409 naming the limit, and nothing changes', async () => {
    const agent = await newAgent();
    const [a, b, c, d] = await openMissions(4);
    await ok(act('accept', agent, a!));
    await ok(act('accept', agent, b!));
    await ok(act('submit', agent, b!, { note: 'Delivered.' }));
    await ok(act('accept', agent, c!));
    const refused = await act('accept', agent, d!);
    expect(refused).toMatchObject({
      status: 409,
      body: {
        error: 'Too many active missions',
        details: [expect.stringMatching(/^MAX_ACTIVE_MISSIONS: .*at most 3/)],
      },
    });
    expect(await missionRow(d!)).toMatchObject({ status: 'OPEN', agentId: null });
  });

  test('behavior: a completed or withdrawn mission frees its slot', async () => {
    const agent = await newAgent();
    const client = await newClient();
    const first = await createMission(client);
    const [b, c, d, e] = await openMissions(4);
    await ok(act('accept', agent, first.id));
    await ok(act('accept', agent, b!));
    await ok(act('accept', agent, c!));
    expect((await act('accept', agent, d!)).status).toBe(409);
    await ok(act('submit', agent, first.id, { note: 'Done.' }));
    await ok(act('approve', client, first.id));
    await ok(act('accept', agent, d!));
    await ok(act('cancel', agent, b!)); // the agent withdraws
    await ok(act('accept', agent, e!));
  });

  test('behavior: six accepts of different missions by one agent at once — exactly three win', async () => {
    const agent = await newAgent();
    const ids = await openMissions(6);
    const results = await Promise.all(ids.map((id) => act('accept', agent, id)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 409, 409, 409]);
    const held = await Promise.all(ids.map(missionRow));
    expect(held.filter((m) => m.agentId === agent.id)).toHaveLength(3);
  });

  test("behavior: the profile's active count is what capacity counts — a DISPUTED mission is neither", async () => {
    const agent = await newAgent();
    await missionIn('DISPUTED', { agent });
    const [a, b, c, d] = await openMissions(4);
    for (const id of [a!, b!, c!]) await ok(act('accept', agent, id));
    expect((await act('accept', agent, d!)).status).toBe(409);
    const profile = await call(profileRoute, { params: { address: agent.address } });
    expect(profile).toMatchObject({ status: 200, body: { stats: { active: 3 } } });
  });
});

describe('reopen an idle assignment (docs/api.md#mission-states)', () => {
  async function accepted() {
    const client = await newClient();
    const agent = await newAgent();
    const { id } = await createMission(client);
    await ok(act('accept', agent, id));
    return { client, agent, id };
  }

  test("error: before ACCEPT_WINDOW_SECONDS the owner's reopen is 409 and the agent keeps the mission", async () => {
    const { client, agent, id } = await accepted();
    const refused = await reopen(client, id);
    expect(refused).toMatchObject({
      status: 409,
      body: { error: expect.stringMatching(/^The agent has until .+ to deliver before it can be reopened$/) },
    });
    expect(await missionRow(id)).toMatchObject({ status: 'ACCEPTED', agentId: agent.id });
  });

  test(
    'default: after the window the owner reopens it — OPEN, agent cleared, event reopened, ' +
      'back on the board, and another agent can take it',
    async () => {
      const { client, agent, id } = await accepted();
      await setTimes(id, { acceptedAt: past(3600) });
      const reopened = await reopen(client, id);
      expect(reopened).toMatchObject({ status: 200, body: { id, status: 'OPEN', agent: null, acceptedAt: null } });
      const events = await eventsOf(id);
      expect(events.at(-1)).toMatchObject({
        action: 'reopened',
        fromStatus: 'ACCEPTED',
        toStatus: 'OPEN',
        actor: 'OWNER',
        data: { agentId: agent.id },
      });
      const board = await call(listRoute, { path: '/api/missions?limit=100' });
      expect(board.body.items.map((m: { id: string }) => m.id)).toContain(id);
      // The old agent lost it; its slot is free again, and someone else may accept.
      expect((await getMission(agent, id)).body.agent).toBeNull();
      await ok(act('accept', await newAgent(), id));
    },
  );

  test(
    'error: the agent is 403, a stranger 404 (the mission is invisible to them), and only ' +
      'ACCEPTED missions reopen',
    async () => {
      const { agent, id } = await accepted();
      await setTimes(id, { acceptedAt: past(3600) });
      expect((await reopen(agent, id)).status).toBe(403);
      expect((await reopen(await newClient(), id)).status).toBe(404);
      expect((await reopen(undefined, id)).status).toBe(401);

      const client = await newClient();
      const open = await createMission(client);
      expect((await reopen(client, open.id)).status).toBe(409);
      const submitted = await accepted();
      await ok(act('submit', submitted.agent, submitted.id, { note: 'Here.' }));
      await setTimes(submitted.id, { acceptedAt: past(7200) });
      expect((await reopen(submitted.client, submitted.id)).status).toBe(409);
    },
  );
});
