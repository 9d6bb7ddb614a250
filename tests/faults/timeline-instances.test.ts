// docs/api.md#timeline across instances: a request held on one instance is woken by a change made on
// the other (PostgreSQL NOTIFY on commit, LISTEN on each instance) — it comes back with the event, not
// empty at the end of its wait.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { request, signIn } from '../support/faults/client';
import { loggedFailures, productionEnv, startPair, type Pair } from '../support/faults/instances';
import { freshMachineDatabase } from '../support/faults/services';

const MACHINE_REDIS = 'redis://127.0.0.1:6379';

let database: Awaited<ReturnType<typeof freshMachineDatabase>>;
let pair: Pair;

beforeAll(async () => {
  database = await freshMachineDatabase();
  pair = await startPair(productionEnv({ databaseUrl: database.url, redisUrl: MACHINE_REDIS }));
});

afterAll(async () => {
  if (pair) expect([...loggedFailures(pair.a), ...loggedFailures(pair.b)]).toEqual([]);
  await pair?.stop();
  await database?.drop();
});

describe('the timeline across two instances', () => {
  test('behavior: a submit on one instance wakes a timeline waiting on the other, with the event', async () => {
    const client = await signIn(pair.a);
    const created = await request(pair.a, '/api/missions', {
      token: client.token,
      body: {
        title: 'Wake me',
        description: 'A mission whose agent waits on the other instance.',
        category: 'code',
        reward: '5000000',
        deadline: new Date(Date.now() + 86_400_000).toISOString(),
      },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const agent = await signIn(pair.b);
    const registered = await request(pair.b, '/api/auth/register-agent', { method: 'POST', token: agent.token });
    const token = registered.body.token as string;
    expect((await request(pair.b, `/api/missions/${id}/accept`, { method: 'POST', token })).status).toBe(200);
    const before = await request(pair.b, `/api/missions/${id}/timeline`, { token: client.token });
    const last = before.body.events.at(-1).seq as number;

    // The client waits on A; the agent delivers on B.
    const waiting = request(pair.a, `/api/missions/${id}/timeline?after=${last}&wait=25`, { token: client.token });
    const submitted = await request(pair.b, `/api/missions/${id}/submit`, {
      method: 'POST',
      token,
      body: { note: 'Delivered on the other instance.' },
    });
    expect(submitted.status).toBe(200);
    const woken = await waiting;
    expect(woken.status).toBe(200);
    expect(woken.body.events).toEqual([
      expect.objectContaining({ event: 'submit', from: 'ACCEPTED', to: 'SUBMITTED', actor: 'AGENT' }),
    ]);
  });
});
