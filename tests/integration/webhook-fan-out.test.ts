// docs/api.md#webhooks, docs/security.md#webhook-fan-out-and-retention: posting writes one event row
// whoever subscribes; the worker expands it in batches — idempotently, by one instance at a time
// per event — and the sweep deletes old deliveries and long-removed endpoints.
// docs/api.md#webhook-lanes, docs/security.md#board-fan-out: a person's event is
// expanded and sent ahead of a board fan-out, and the board's subscriptions have a global cap.
import { and, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { POST as sweepRoute } from '@/app/api/cron/sweep/route';
import { DELETE as removeRoute } from '@/app/api/webhooks/[id]/route';
import { POST as addRoute } from '@/app/api/webhooks/route';
import { config, resetConfig } from '@/lib/config';
import { getDb } from '@/lib/db/client';
import { passports, webhookDeliveries, webhookEndpoints, webhookEvents } from '@/lib/db/schema';
import { CONCURRENCY } from '@/lib/webhooks/deliver';
import { expandEvents } from '@/lib/webhooks/expand-events';
import { newWebhookSecret, sealSecret } from '@/lib/webhooks/secrets';
import { call } from '../support/http';
import { BOOKKEEPING, useTestEnvironment } from '../support/environment';
import { isolatedDatabase } from '../support/isolated-database';
import { act, createMission, newAgent, newClient, ok, type Party } from '../support/missions';
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

/**
 * `n` endpoints of `owner` subscribed to mission.created in category `c`, written straight to the table
 * (the API holds a user to ten): a board as large as a test needs, in a few statements.
 */
async function boardEndpoints(owner: Party, n: number, c: string, url = `${receiver.url}?n=board`) {
  const sealedSecret = sealSecret(config(), newWebhookSecret());
  const rows = Array.from({ length: n }, (_, i) => ({
    userId: owner.id,
    url: `${url}-${i}`,
    events: ['mission.created'],
    filter: { category: c },
    sealedSecret,
    createdAt: new Date(),
  }));
  const db = await getDb();
  for (let i = 0; i < rows.length; i += 1_000) await db.insert(webhookEndpoints).values(rows.slice(i, i + 1_000));
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
    "behavior: the board's batches: an endpoint with three announcements pending gets them all in one run, " +
      'in the order posted, each marked with its status; a refusing receiver in the batch backs off alone',
    async () => {
      const c = category();
      const refusing = await startWebhookReceiver();
      refusing.fail(503);
      try {
        const owner = await newAgent();
        await boardEndpoints(owner, 60, c);
        const refuser = await add(await newAgent(), {
          url: refusing.url,
          events: ['mission.created'],
          filter: { category: c },
        });
        const client = await newClient();
        const posted: string[] = [];
        for (let i = 0; i < 3; i += 1) posted.push((await createMission(client, { category: c })).id);
        const mark = receiver.received.length;
        const { webhooks } = await ok(sweep());
        expect(webhooks).toMatchObject({ delivered: 180, failed: 1 });

        const byEndpoint = new Map<string, number[]>();
        for (const r of receiver.received.slice(mark)) {
          const id = (JSON.parse(r.body) as { data: { mission: { id: string } } }).data.mission.id;
          if (!posted.includes(id)) continue;
          byEndpoint.set(r.path, [...(byEndpoint.get(r.path) ?? []), posted.indexOf(id)]);
        }
        expect(byEndpoint.size).toBe(60);
        for (const order of byEndpoint.values()) expect(order).toEqual([0, 1, 2]);

        const d = webhookDeliveries;
        const rows = await (await getDb())
          .select({ endpointId: d.endpointId, status: d.status, lastStatus: d.lastStatus, attempts: d.attempts })
          .from(d)
          .where(inArray(d.missionId, posted));
        const sent = rows.filter((row) => row.endpointId !== refuser);
        expect(sent).toHaveLength(180);
        expect(sent.every((row) => row.status === 'DELIVERED' && row.lastStatus === 200 && row.attempts === 1)).toBe(
          true,
        );
        // The refuser's first announcement failed once; the two after it wait behind it, untried.
        const refused = rows.filter((row) => row.endpointId === refuser).map((row) => [row.status, row.attempts]);
        expect(refused.sort()).toEqual([
          ['PENDING', 0],
          ['PENDING', 0],
          ['PENDING', 1],
        ]);
      } finally {
        await refusing.close();
      }
    },
  );

  test('behavior: board deliveries leave at most WEBHOOK_FANOUT_PER_SECOND a second from an instance', async () => {
    process.env.WEBHOOK_FANOUT_PER_SECOND = '20';
    resetConfig();
    try {
      const c = category();
      await boardEndpoints(await newAgent(), 30, c);
      const mission = await createMission(await newClient(), { category: c });
      await ok(sweep());
      const arrivals = receiver.received.filter((r) => r.body.includes(mission.id)).map((r) => r.at);
      expect(arrivals).toHaveLength(30);
      // 30 sends in slots 50 ms apart: the last leaves 29 gaps after the first (less the first's own
      // latency, hence the margin); unpaced, all 30 arrive within a few tens of ms.
      expect(Math.max(...arrivals) - Math.min(...arrivals)).toBeGreaterThanOrEqual(29 * 50 * 0.8);
    } finally {
      delete process.env.WEBHOOK_FANOUT_PER_SECOND;
      resetConfig();
    }
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

  test(
    "behavior: a person's event written while the board fans out to 150 endpoints is sent " +
      'before that fan-out drains, by the run already under way',
    async () => {
      const c = category();
      const watcher = await newAgent();
      await add(watcher, { url: `${receiver.url}?n=api`, events: ['mission.created'], filter: { category: c } });
      await boardEndpoints(watcher, 148, c);
      const person = await newClient();
      await add(person, {
        url: `${receiver.url}?n=person`,
        events: ['mission.created', 'mission.submitted'],
        filter: { category: c },
      });
      const agent = await newAgent();
      const mission = await createMission(person, { category: category() });
      await ok(act('accept', agent, mission.id));
      await ok(sweep());
      const board = await createMission(await newClient(), { category: c });

      // The run expands the fan-out and its eight lanes are all sending it when the person's event is written.
      const mark = receiver.received.length;
      const release = receiver.hold();
      const sweeping = sweep();
      await expect.poll(() => receiver.heldCount(), { timeout: 30_000 }).toBe(CONCURRENCY);
      await ok(act('submit', agent, mission.id, { note: 'done' }));
      release();
      await ok(sweeping);

      const arrived = receiver.received.slice(mark).map((r) => JSON.parse(r.body) as { type: string; data: any });
      const submitted = arrived.findIndex((e) => e.type === 'mission.submitted' && e.data.mission.id === mission.id);
      const fanOut = arrived.map((e, i) => ({ i, board: e.data.mission?.id === board.id })).filter((e) => e.board);
      expect(submitted).toBeGreaterThanOrEqual(0);
      // Before it: the eight held and what was left of their batch of 50 endpoints; after it, the rest.
      const before = fanOut.filter((e) => e.i < submitted).length;
      expect(before).toBeLessThan(fanOut.length - before);
      await ok(sweep());
      expect(new Set(receiver.received.filter((r) => r.body.includes(board.id)).map((r) => r.path)).size).toBe(150);
    },
  );

  test(
    "behavior: one expansion step takes a mission's targeted event before its earlier board event, and " +
      "writes that board event first to the party's endpoint that takes both; each arrives once, in order",
    async () => {
      const c = category();
      const agent = await newAgent();
      const both = await add(agent, {
        url: `${receiver.url}?n=both`,
        events: ['mission.created', 'mission.accepted'],
        filter: { category: c },
      });
      await boardEndpoints(await newClient(), 20, c);
      await ok(sweep());
      const mission = await createMission(await newClient(), { category: c });
      await ok(act('accept', agent, mission.id));

      const db = await getDb();
      expect(await expandEvents(db, new Date(), { steps: 1 })).toBe(2);
      const d = webhookDeliveries;
      const written = await db
        .select({ event: d.event, endpointId: d.endpointId, board: d.board })
        .from(d)
        .where(eq(d.missionId, mission.id))
        .orderBy(d.seq);
      expect(written).toEqual([
        { event: 'mission.created', endpointId: both, board: false },
        { event: 'mission.accepted', endpointId: both, board: false },
      ]);

      await ok(sweep());
      const atBoth = receiver.received
        .filter((r) => r.path.endsWith('n=both') && r.body.includes(mission.id))
        .map((r) => (JSON.parse(r.body) as { type: string }).type);
      expect(atBoth).toEqual(['mission.created', 'mission.accepted']);
      expect(deliveredTo(mission.id)).toHaveLength(21 + 1);
    },
  );

  test(
    'behavior: an endpoint sends a targeted delivery before its own backlog of board deliveries, the ' +
      "announcement of the targeted event's mission just ahead of it",
    async () => {
      const c = category();
      const person = await newClient();
      await add(person, {
        url: `${receiver.url}?n=backlog`,
        events: ['mission.created', 'mission.submitted'],
        filter: { category: c },
      });
      await ok(sweep());
      const board: string[] = [];
      for (let i = 0; i < 3; i += 1) board.push((await createMission(person, { category: c })).id);
      // The three announcements are written, unsent, before the person's event about the third mission.
      expect(await expandEvents(await getDb(), new Date())).toBe(3);
      const agent = await newAgent();
      await ok(act('accept', agent, board[2]!));
      await ok(act('submit', agent, board[2]!, { note: 'done' }));
      await ok(sweep());
      const arrived = receiver.received
        .filter((r) => r.path.endsWith('n=backlog'))
        .map((r) => JSON.parse(r.body) as { type: string; data: { mission: { id: string } } })
        .map((e) => `${e.type} ${board.indexOf(e.data.mission.id)}`);
      expect(arrived).toEqual(['mission.created 2', 'mission.submitted 2', 'mission.created 0', 'mission.created 1']);
    },
  );

  test(
    'error: past WEBHOOK_BOARD_SUBSCRIPTIONS_MAX (10,000) live mission.created subscriptions, one more ' +
      "without a passport is 409; other events, and a minted passport's holder, still subscribe",
    async () => {
      const db = await getDb();
      const e = webhookEndpoints;
      const boardLive = sql`${e.deletedAt} is null and ${e.disabledAt} is null
        and ${e.events} @> array['mission.created']::text[]`;
      const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(e).where(boardLive);
      const filler = category();
      await boardEndpoints(await newClient(), 10_000 - n - 1, filler);

      const [last, next] = [await newClient(), await newClient()];
      const lastPlace = await add(last, { url: receiver.url, events: ['mission.created'] });
      const refused = await call(addRoute, {
        method: 'POST',
        token: next.token,
        body: { url: receiver.url, events: ['mission.created', 'mission.submitted'] },
      });
      expect(refused).toMatchObject({ status: 409, body: { error: expect.stringMatching(/10000 mission\.created/) } });
      await add(next, { url: receiver.url, events: ['confirmation.requested', 'mission.submitted'] });
      const holder = await newAgent();
      const [passport] = await db.select().from(passports).where(eq(passports.userId, holder.id));
      expect(passport?.status).toBe('MINTED');
      const held = await add(holder, { url: receiver.url, events: ['mission.created'] });

      // Removing subscriptions frees their places.
      for (const [party, id] of [
        [last, lastPlace],
        [holder, held],
      ] as const)
        expect((await call(removeRoute, { method: 'DELETE', token: party.token, params: { id } })).status).toBe(200);
      await add(next, { url: receiver.url, events: ['mission.created'] });
      await db
        .update(e)
        .set({ deletedAt: new Date() })
        .where(and(isNull(e.deletedAt), sql`${e.filter} ->> 'category' = ${filler}`));
    },
  );
});
