// docs/api.md#webhooks, docs/security.md#a-slow-webhook-receiver: receivers that trickle their answer a
// byte a second and one that refuses connections, beside a healthy one, all on localhost
// (WEBHOOK_ALLOW_PRIVATE=1). The healthy one gets every delivery while the others still hold
// their connections; each trickler is cut at the attempt's deadline; the sweep finishes its
// other work.
import { and, inArray, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { POST as sweepRoute } from '@/app/api/cron/sweep/route';
import { POST as addRoute } from '@/app/api/webhooks/route';
import { getDb } from '@/lib/db/client';
import { webhookDeliveries } from '@/lib/db/schema';
import { ATTEMPT_DEADLINE_MS } from '@/lib/webhooks/send-attempt';
import { call } from '../support/http';
import { BOOKKEEPING, useTestEnvironment } from '../support/environment';
import { isolatedDatabase } from '../support/isolated-database';
import {
  act,
  createMission,
  missionIn,
  missionRow,
  newAgent,
  newClient,
  ok,
  past,
  setTimes,
  type Party,
} from '../support/missions';
import { refusingUrl, startTricklingReceiver } from '../support/misbehaving-receivers';
import { startWebhookReceiver } from '../support/webhook-receiver';

useTestEnvironment({
  ...isolatedDatabase(),
  ...BOOKKEEPING,
  WRITE_RATE_LIMIT_PER_MINUTE: '100000',
  WEBHOOK_ALLOW_PRIVATE: '1',
});

let healthy: Awaited<ReturnType<typeof startWebhookReceiver>>;
let trickling: Awaited<ReturnType<typeof startTricklingReceiver>>;
beforeAll(async () => {
  healthy = await startWebhookReceiver();
  trickling = await startTricklingReceiver(60);
});
afterAll(async () => {
  await healthy.close();
  await trickling.close();
});

const sweep = () =>
  call(sweepRoute, { method: 'POST', headers: { authorization: `Bearer ${process.env.CRON_SECRET}` } });
const add = async (party: Party, url: string, events: string[], filter?: Record<string, unknown>) => {
  const added = await call(addRoute, { method: 'POST', token: party.token, body: { url, events, filter } });
  expect(added.status).toBe(201);
  return added.body.id as string;
};

describe('webhooks: slow and refusing receivers', () => {
  test(
    'behavior: the healthy receiver gets every delivery while tricklers hold their ' +
      'connections; each is cut at the deadline; the sweep finishes',
    async () => {
      const category = `slow-${Math.random().toString(36).slice(2, 8)}`;
      // Added first, so that an in-order, one-at-a-time sender meets them before the healthy one.
      const tricklers = [
        await add(await newAgent(), `${trickling.url}?n=1`, ['mission.created'], { category }),
        await add(await newAgent(), `${trickling.url}?n=2`, ['mission.created'], { category }),
      ];
      const refusing = await add(await newAgent(), await refusingUrl(), ['mission.created'], { category });
      await add(await newAgent(), `${healthy.url}?party=watcher`, ['mission.created'], { category });
      const client = await newClient();
      const agent = await newAgent();
      await add(client, `${healthy.url}?party=client`, ['mission.accepted', 'mission.submitted']);

      const missions = [];
      for (let i = 0; i < 3; i += 1) missions.push((await createMission(client, { category })).id as string);
      await ok(act('accept', agent, missions[0]!));
      await ok(act('submit', agent, missions[0]!, { note: 'Done.' }));
      // The sweep's other work: a submission past its review window to complete.
      const expired = await missionIn('SUBMITTED');
      await setTimes(expired.id, { reviewDeadline: past() });

      const started = Date.now();
      const running = sweep();
      const expected = [
        ...missions.map((id) => `watcher:mission.created:${id}`),
        `client:mission.accepted:${missions[0]}`,
        `client:mission.submitted:${missions[0]}`,
      ];
      const got = () =>
        healthy.received.map((r) => {
          const body = JSON.parse(r.body) as { type: string; data: { mission: { id: string } } };
          return `${new URL(r.path, 'http://x').searchParams.get('party')}:${body.type}:${body.data.mission.id}`;
        });
      // The lanes run side by side, in no set order: on a loaded host the healthy lane can be done before
      // a trickler's lane has connected. So: both tricklers connected, then every healthy delivery in
      // while they still hold their connections (each is cut at the deadline, after).
      await expect.poll(() => trickling.connections.length, { timeout: 15_000 }).toBe(2);
      await expect
        .poll(() => got().filter((entry) => expected.includes(entry)).length, { timeout: 15_000 })
        .toBe(expected.length);
      const healthyDone = Date.now();
      for (const connection of trickling.connections)
        expect(connection.closedAt ?? Infinity).toBeGreaterThan(healthyDone);

      const report = await running;
      expect(report.status).toBe(200);
      expect(report.body.webhooks).toMatchObject({ failed: 3 });
      expect(report.body).toMatchObject({
        webhooks: { retention: expect.any(Object) },
        oauthClients: expect.any(Object),
      });
      expect((await missionRow(expired.id)).status).toBe('COMPLETED');
      // A trickler is cut at the attempt's deadline, not when it finishes its 60-second answer.
      // (The receiver's side sees the close a moment after ours.)
      await expect
        .poll(() => trickling.connections.every((connection) => connection.closedAt !== undefined))
        .toBe(true);
      for (const connection of trickling.connections)
        expect(connection.closedAt! - connection.openedAt).toBeLessThan(ATTEMPT_DEADLINE_MS + 3_000);
      expect(Date.now() - started).toBeLessThan(ATTEMPT_DEADLINE_MS + 10_000);
      // In order on the client's endpoint, once each.
      expect(got().filter((entry) => entry.startsWith('client:'))).toEqual([
        `client:mission.accepted:${missions[0]}`,
        `client:mission.submitted:${missions[0]}`,
      ]);

      // Each misbehaving endpoint was tried once, and waits for its retry with the reason recorded.
      const tried = await (await getDb())
        .select({ endpointId: webhookDeliveries.endpointId, lastError: webhookDeliveries.lastError })
        .from(webhookDeliveries)
        .where(
          and(inArray(webhookDeliveries.endpointId, [...tricklers, refusing]), isNotNull(webhookDeliveries.lastError)),
        );
      expect(Object.fromEntries(tried.map((row) => [row.endpointId, row.lastError]))).toEqual({
        [tricklers[0]!]: 'timed out',
        [tricklers[1]!]: 'timed out',
        [refusing]: expect.stringMatching(/ECONNREFUSED/),
      });
      expect(tried).toHaveLength(3);
    },
  );
});
