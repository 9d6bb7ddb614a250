// docs/api.md#webhooks, docs/security.md#webhook-fan-out-and-retention: posting writes one event row
// whoever subscribes; the worker expands it in batches — idempotently, by one instance at a time
// per event — and the sweep deletes old deliveries and long-removed endpoints.
import { count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { POST as sweepRoute } from '@/app/api/cron/sweep/route';
import { DELETE as removeRoute } from '@/app/api/webhooks/[id]/route';
import { POST as addRoute } from '@/app/api/webhooks/route';
import { getDb } from '@/lib/db/client';
import { webhookDeliveries, webhookEndpoints, webhookEvents } from '@/lib/db/schema';
import { expandEvents } from '@/lib/webhooks/expand-events';
import { call } from '../support/http';
import { BOOKKEEPING, useTestEnvironment } from '../support/environment';
import { isolatedDatabase } from '../support/isolated-database';
import { createMission, newAgent, newClient, ok, type Party } from '../support/missions';
import { startWebhookReceiver } from '../support/webhook-receiver';

useTestEnvironment({
  ...isolatedDatabase(),
  ...BOOKKEEPING,
  WRITE_RATE_LIMIT_PER_MINUTE: '100000',
  WEBHOOK_ALLOW_PRIVATE: '1',
});

let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver.close());

const sweep = () =>
  call(sweepRoute, { method: 'POST', headers: { authorization: `Bearer ${process.env.CRON_SECRET}` } });
const add = async (party: Party, body: Record<string, unknown>) => {
  const added = await call(addRoute, { method: 'POST', token: party.token, body });
  expect(added.status).toBe(201);
  return added.body.id as string;
};
const category = () => `cat-${Math.random().toString(36).slice(2, 8)}`;
const days = (n: number) => new Date(Date.now() - n * 86_400_000);

/** 30 endpoints (three users' ten each) subscribed to mission.created in a fresh category. */
async function thirtySubscribers(c: string) {
  const ids: string[] = [];
  for (let user = 0; user < 3; user += 1) {
    const agent = await newAgent();
    for (let i = 0; i < 10; i += 1)
      ids.push(
        await add(agent, {
          url: `${receiver.url}?n=${user}-${i}`,
          events: ['mission.created'],
          filter: { category: c },
        }),
      );
  }
  return ids;
}

const deliveredTo = (missionId: string) =>
  receiver.received
    .filter((r) => r.body.includes(missionId))
    .map((r) => new URL(r.path, 'http://x').searchParams.get('n'));

describe('webhooks: fan-out and retention', () => {
  test(
    'behavior: posting a mission writes one event row whoever subscribes; two sweeps at ' +
      'once deliver it to each endpoint once',
    async () => {
      const c = category();
      await thirtySubscribers(c);
      const mission = await createMission(await newClient(), { category: c });
      const db = await getDb();
      const [events] = await db
        .select({ n: count() })
        .from(webhookEvents)
        .where(eq(webhookEvents.missionId, mission.id));
      const [deliveries] = await db
        .select({ n: count() })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.missionId, mission.id));
      expect({ events: events!.n, deliveries: deliveries!.n }).toEqual({ events: 1, deliveries: 0 });

      const [first, second] = await Promise.all([sweep(), sweep()]);
      expect([first.status, second.status]).toEqual([200, 200]);
      const to = deliveredTo(mission.id);
      expect(to).toHaveLength(30);
      expect(new Set(to).size).toBe(30);
      expect(await db.select().from(webhookEvents).where(eq(webhookEvents.missionId, mission.id))).toEqual([]);
    },
  );

  test('behavior: expansion goes in batches, and a run stopped between batches loses and repeats nothing', async () => {
    const c = category();
    await thirtySubscribers(c);
    const mission = await createMission(await newClient(), { category: c });
    const db = await getDb();
    // Two batches of seven, then the run stops (a crash, a budget spent).
    expect(await expandEvents(db, new Date(), { batch: 7, steps: 2 })).toBe(14);
    const [event] = await db.select().from(webhookEvents).where(eq(webhookEvents.missionId, mission.id));
    expect(event!.expandedThrough).not.toBeNull();
    await ok(sweep());
    const to = deliveredTo(mission.id);
    expect(to).toHaveLength(30);
    expect(new Set(to).size).toBe(30);
  });

  test(
    'behavior: the sweep deletes delivered and failed deliveries older than ' +
      'WEBHOOK_RETENTION_DAYS, and endpoints removed that long ago; it keeps the rest',
    async () => {
      const c = category();
      const agent = await newAgent();
      const kept = await add(agent, {
        url: `${receiver.url}?n=kept`,
        events: ['mission.created'],
        filter: { category: c },
      });
      const removedLongAgo = await add(agent, {
        url: `${receiver.url}?n=gone`,
        events: ['mission.created'],
        filter: { category: c },
      });
      const removedLately = await add(agent, {
        url: `${receiver.url}?n=lately`,
        events: ['mission.created'],
        filter: { category: c },
      });
      const client = await newClient();
      const missions = [];
      for (let i = 0; i < 4; i += 1) missions.push((await createMission(client, { category: c })).id as string);
      await ok(sweep());
      const db = await getDb();
      const d = webhookDeliveries;
      const of = async (endpointId: string) => db.select().from(d).where(eq(d.endpointId, endpointId)).orderBy(d.seq);
      const [old, oldFailed, recent, oldPending] = await of(kept);
      await db
        .update(d)
        .set({ createdAt: days(31) })
        .where(eq(d.id, old!.id));
      await db
        .update(d)
        .set({ status: 'FAILED', createdAt: days(31) })
        .where(eq(d.id, oldFailed!.id));
      await db
        .update(d)
        .set({ createdAt: days(29) })
        .where(eq(d.id, recent!.id));
      await db
        .update(d)
        .set({
          status: 'PENDING',
          deliveredAt: null,
          nextAttemptAt: new Date(Date.now() + 3_600_000),
          createdAt: days(31),
        })
        .where(eq(d.id, oldPending!.id));
      for (const id of [removedLongAgo, removedLately])
        expect((await call(removeRoute, { method: 'DELETE', token: agent.token, params: { id } })).status).toBe(200);
      await db
        .update(webhookEndpoints)
        .set({ deletedAt: days(31) })
        .where(eq(webhookEndpoints.id, removedLongAgo));

      const report = await ok(sweep());
      expect(report.webhooks.retention).toEqual({ deliveries: 2 + 4, endpoints: 1 });
      expect((await of(kept)).map((row) => row.id)).toEqual([recent!.id, oldPending!.id]);
      expect(await of(removedLongAgo)).toEqual([]);
      expect(await of(removedLately)).toHaveLength(4);
      const endpoints = await db
        .select({ id: webhookEndpoints.id })
        .from(webhookEndpoints)
        .where(inArray(webhookEndpoints.id, [kept, removedLongAgo, removedLately]));
      expect(endpoints.map((e) => e.id).sort()).toEqual([kept, removedLately].sort());
      // Nothing of it is left for a second sweep.
      expect((await ok(sweep())).webhooks.retention).toEqual({ deliveries: 0, endpoints: 0 });
    },
  );
});
