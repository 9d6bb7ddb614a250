import { beforeAll, describe, expect, test } from 'vitest';
import { POST as sweep } from '@/app/api/cron/sweep/route';
import { call } from '../support/http';
import { useTestEnvironment, BOOKKEEPING } from '../support/environment';
import {
  act,
  createMission,
  earningsOf,
  eventsOf,
  missionIn,
  missionRow,
  newAgent,
  newClient,
  type Party,
  past,
  setTimes,
} from '../support/missions';

useTestEnvironment({ ...BOOKKEEPING, WRITE_RATE_LIMIT_PER_MINUTE: '100000' });

const statuses = (responses: { status: number }[]) => responses.map((r) => r.status).sort();
let agents: Party[];
beforeAll(async () => {
  agents = await Promise.all(Array.from({ length: 20 }, () => newAgent()));
});

describe('races', () => {
  test('default: 20 agents accept one mission at once: exactly one 200, nineteen 409, one event', async () => {
    const client = await newClient();
    const { id } = await createMission(client);
    const responses = await Promise.all(agents.map((agent) => act('accept', agent, id)));
    expect(statuses(responses)).toEqual([200, ...Array(19).fill(409)]);
    const winner = agents[responses.findIndex((r) => r.status === 200)]!;
    expect(await missionRow(id)).toMatchObject({ status: 'ACCEPTED', agentId: winner.id, assignment: 1 });
    expect((await eventsOf(id)).filter((e) => e.action === 'accept')).toMatchObject([{ actorId: winner.id }]);
    for (const loser of responses.filter((r) => r.status === 409)) expect(loser.body.error).toMatch(/ACCEPTED/);
  });

  test('behavior: cancel racing accept: one wins and the state matches the winner', async () => {
    for (let i = 0; i < 8; i += 1) {
      const client = await newClient();
      const { id } = await createMission(client);
      const [cancel, accept] = await Promise.all([act('cancel', client, id), act('accept', agents[i]!, id)]);
      expect(statuses([cancel, accept])).toEqual([200, 409]);
      const row = await missionRow(id);
      if (cancel.status === 200) expect(row).toMatchObject({ status: 'CANCELLED', agentId: null });
      else expect(row).toMatchObject({ status: 'ACCEPTED', agentId: agents[i]!.id });
      expect(await eventsOf(id)).toHaveLength(2);
    }
  });

  test('behavior: approve racing the sweep pays the agent once', async () => {
    const cron = { authorization: `Bearer ${process.env.CRON_SECRET}` };
    const { client, id } = await missionIn('SUBMITTED', { agent: agents[0] });
    await setTimes(id, { reviewDeadline: past() });
    const [approve, swept] = await Promise.all([
      act('approve', client, id),
      call(sweep, { method: 'POST', headers: cron }),
    ]);
    expect(swept.status).toBe(200);
    // The expiry settles it whoever comes first; approve then finds it COMPLETED.
    expect(approve.status).toBe(409);
    expect(await earningsOf(id)).toHaveLength(1);
    expect((await eventsOf(id)).filter((e) => e.toStatus === 'COMPLETED')).toHaveLength(1);
  });

  test('behavior: ten concurrent submissions make one round', async () => {
    const agent = agents[1]!;
    const { id } = await missionIn('ACCEPTED', { agent });
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) => act('submit', agent, id, { note: `try ${i}` })),
    );
    expect(statuses(responses)).toEqual([200, ...Array(9).fill(409)]);
    expect(await missionRow(id)).toMatchObject({ status: 'SUBMITTED', submissionCount: 1 });
  });

  test('behavior: the agent withdrawing races the agent resubmitting: one of them, consistently', async () => {
    const agent = agents[2]!;
    const { id } = await missionIn('CONTESTED', { agent });
    const [withdraw, submit] = await Promise.all([act('cancel', agent, id), act('submit', agent, id, { note: 'v2' })]);
    // Withdrawn first: no longer the assignee of an OPEN mission (403). Submitted first: a
    // SUBMITTED mission cannot be withdrawn (409).
    if (withdraw.status === 200) {
      expect(submit.status).toBe(403);
      expect(await missionRow(id)).toMatchObject({ status: 'OPEN', agentId: null });
    } else {
      expect([withdraw.status, submit.status]).toEqual([409, 200]);
      expect(await missionRow(id)).toMatchObject({ status: 'SUBMITTED', agentId: agent.id });
    }
  });

  test('behavior: contests racing each other count one round', async () => {
    const { client, id } = await missionIn('SUBMITTED', { agent: agents[3] });
    const responses = await Promise.all(Array.from({ length: 5 }, () => act('contest', client, id, { reason: 'no' })));
    expect(statuses(responses)).toEqual([200, 409, 409, 409, 409]);
    expect(await missionRow(id)).toMatchObject({ status: 'CONTESTED', contestCount: 1 });
  });
});
