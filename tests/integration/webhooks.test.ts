// Signed webhooks (docs/api.md#webhooks) against a real receiver on localhost (WEBHOOK_ALLOW_PRIVATE=1):
// Standard Webhooks signatures, filters on mission.created, a lifecycle in order, a receiver that
// was down, 24 h of failure disabling an endpoint, and the address rules of production.
import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { POST as sweepRoute } from '@/app/api/cron/sweep/route';
import { GET as deliveriesRoute } from '@/app/api/webhooks/[id]/deliveries/route';
import { DELETE as removeRoute } from '@/app/api/webhooks/[id]/route';
import { GET as listRoute, POST as addRoute } from '@/app/api/webhooks/route';
import { config } from '@/lib/config';
import { getDb } from '@/lib/db/client';
import { webhookEndpoints } from '@/lib/db/schema';
import { deliverPending, sendQueuedWebhooks } from '@/lib/webhooks';
import { call } from '../support/http';
import { BOOKKEEPING, setEnv, useTestEnvironment } from '../support/environment';
import { isolatedDatabase } from '../support/isolated-database';
import { act, createMission, missionIn, newAgent, newClient, ok, type Party } from '../support/missions';
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
const add = (party: Party, body: Record<string, unknown>) =>
  call(addRoute, { method: 'POST', token: party.token, body: { url: receiver.url, ...body } });
const category = () => `cat-${Math.random().toString(36).slice(2, 8)}`;
const eventsFor = (missionId: string) =>
  receiver
    .events()
    .filter((e) => e.data.mission?.id === missionId)
    .map((e) => e.type);

describe('webhooks', () => {
  test(
    'default: an endpoint is added (the secret shown once), listed without it, and every ' +
      'delivery verifies with the standardwebhooks package',
    async () => {
      const client = await newClient();
      const added = await add(client, { events: ['mission.created'], filter: { category: 'signed' } });
      expect(added).toMatchObject({
        status: 201,
        body: { id: expect.any(String), secret: expect.stringMatching(/^whsec_/), status: 'ACTIVE' },
      });
      const listed = await call(listRoute, { token: client.token });
      expect(listed.body.items).toEqual([expect.not.objectContaining({ secret: expect.anything() })]);

      const mission = await createMission(client, { category: 'signed' });
      await ok(sweep());
      const delivery = receiver.received.find((r) => r.body.includes(mission.id))!;
      expect(delivery).toBeDefined();
      const verified = new Webhook(added.body.secret).verify(
        delivery.body,
        delivery.headers as Record<string, string>,
      ) as { type: string };
      expect(verified.type).toBe('mission.created');
      expect(() =>
        new Webhook(`whsec_${Buffer.from('another secret of 24 bytes').toString('base64')}`).verify(
          delivery.body,
          delivery.headers as Record<string, string>,
        ),
      ).toThrow();
    },
  );

  test(
    'behavior: mission.created reaches an endpoint whose filter matches, not one whose ' + 'filter does not',
    async () => {
      const [matching, other] = [await newAgent(), await newAgent()];
      const c = category();
      await add(matching, { events: ['mission.created'], filter: { category: c, tag: 'vision', minReward: '1000' } });
      await add(other, { events: ['mission.created'], filter: { category: c, minReward: '999999999999' } });
      const mission = await createMission(await newClient(), { category: c, tags: ['vision'], reward: '25000000' });
      await ok(sweep());
      const deliveries = receiver.received.filter((r) => r.body.includes(mission.id));
      expect(deliveries).toHaveLength(1);
    },
  );

  test('behavior: a whole lifecycle reaches the parties in order, and the agent hears of its earnings', async () => {
    const client = await newClient();
    const agent = await newAgent();
    await add(client, {
      url: `${receiver.url}?party=client`,
      events: ['mission.accepted', 'mission.submitted', 'mission.contested', 'mission.completed'],
    });
    await add(agent, {
      url: `${receiver.url}?party=agent`,
      events: ['mission.accepted', 'mission.submitted', 'mission.contested', 'mission.completed', 'earnings.released'],
    });
    const { id } = await createMission(client);
    await ok(act('accept', agent, id));
    await ok(act('submit', agent, id, { note: 'v1' }));
    await ok(act('contest', client, id, { reason: 'Not yet.' }));
    await ok(act('submit', agent, id, { note: 'v2' }));
    await ok(act('approve', client, id));
    await ok(sweep());
    const to = (party: string) =>
      receiver.received
        .filter((r) => r.path.endsWith(`party=${party}`) && r.body.includes(id))
        .map((r) => (JSON.parse(r.body) as { type: string }).type);
    const lifecycle = [
      'mission.accepted',
      'mission.submitted',
      'mission.contested',
      'mission.submitted',
      'mission.completed',
    ];
    expect(to('client')).toEqual(lifecycle);
    expect(to('agent')).toEqual([...lifecycle, 'earnings.released']);
  });

  test(
    'behavior: writes finishing together share one after-response run, and an event queued ' +
      'during it is sent by it',
    async () => {
      const c = category();
      await add(await newAgent(), { events: ['mission.created'], filter: { category: c } });
      const client = await newClient();
      // Outside Next.js the routes' after-response hooks do not run: the test plays them.
      const first = await createMission(client, { category: c });
      const release = receiver.hold();
      const run = sendQueuedWebhooks(config());
      await expect.poll(() => receiver.heldCount()).toBeGreaterThan(0);
      const second = await createMission(client, { category: c });
      const joined = sendQueuedWebhooks(config());
      expect(joined).toBe(run);
      release();
      await joined;
      expect(eventsFor(first.id)).toEqual(['mission.created']);
      expect(eventsFor(second.id)).toEqual(['mission.created']);
    },
  );

  test('behavior: with the receiver down, then up, every event arrives once per delivery id', async () => {
    const client = await newClient();
    const agent = await newAgent();
    const endpoint = await add(client, { events: ['mission.accepted', 'mission.reopened'] });
    const { id } = await createMission(client);
    receiver.fail(503);
    await ok(act('accept', agent, id));
    await ok(act('cancel', agent, id)); // the agent withdraws: mission.reopened
    await ok(sweep());
    expect(eventsFor(id)).toEqual([]);
    const during = await call(deliveriesRoute, {
      token: client.token,
      params: { id: endpoint.body.id },
      path: `/api/webhooks/${endpoint.body.id}/deliveries`,
    });
    expect(
      during.body.items.map((d: { status: string; lastStatus: number | null }) => [d.status, d.lastStatus]),
    ).toContainEqual(['PENDING', 503]);
    receiver.fail(null);
    // The retry waits out its backoff: a later clock, as the next sweeps would have.
    await deliverPending(await getDb(), config(), new Date(Date.now() + 3_600_000));
    await deliverPending(await getDb(), config(), new Date(Date.now() + 7_200_000));
    expect(eventsFor(id)).toEqual(['mission.accepted', 'mission.reopened']);
    const ids = receiver.received.filter((r) => r.body.includes(id)).map((r) => r.headers['webhook-id']);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test('behavior: 24 h of failure disables the endpoint and drops its queue', async () => {
    const client = await newClient();
    const endpoint = await add(client, { events: ['mission.cancelled'] });
    receiver.fail(500);
    try {
      const { id } = await missionIn('OPEN', { input: {} }).then(async (m) => ({ id: m.id, client: m.client }));
      void id;
      const own = await createMission(client);
      await ok(act('cancel', client, own.id));
      const now = Date.now();
      await deliverPending(await getDb(), config(), new Date(now));
      await deliverPending(await getDb(), config(), new Date(now + 25 * 3_600_000));
      const [row] = await (await getDb())
        .select()
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.id, endpoint.body.id));
      expect(row!.disabledAt).not.toBeNull();
      const listed = await call(listRoute, { token: client.token });
      expect(listed.body.items.find((e: { id: string }) => e.id === endpoint.body.id)).toMatchObject({
        status: 'DISABLED',
      });
      const deliveries = await call(deliveriesRoute, {
        token: client.token,
        params: { id: endpoint.body.id },
        path: `/api/webhooks/${endpoint.body.id}/deliveries`,
      });
      expect(deliveries.body.items.every((d: { status: string }) => d.status === 'FAILED')).toBe(true);
    } finally {
      receiver.fail(null);
    }
  });

  test(
    'error: production address rules — http, loopback, private and link-local refused at ' +
      'registration, and at delivery time',
    async () => {
      const client = await newClient();
      const allowed = await add(client, { events: ['mission.cancelled'] });
      setEnv({ WEBHOOK_ALLOW_PRIVATE: undefined });
      try {
        for (const url of [
          'http://example.com/h',
          'https://127.0.0.1/h',
          'https://localhost/h',
          'https://10.1.2.3/h',
          'https://169.254.169.254/latest',
          'https://[::1]/h',
          'https://[fd00::1]/h',
          'https://[64:ff9b:1::a00:1]/h',
          'https://[fec0::1]/h',
          'https://user:pw@example.com/h',
        ]) {
          const refused = await call(addRoute, {
            method: 'POST',
            token: client.token,
            body: { url, events: ['mission.created'] },
          });
          expect(refused.status, url).toBe(400);
        }
        // The endpoint added while private addresses were allowed is checked again when sending.
        const own = await createMission(client);
        await ok(act('cancel', client, own.id));
        await deliverPending(await getDb(), config());
        expect(eventsFor(own.id)).toEqual([]);
        const deliveries = await call(deliveriesRoute, {
          token: client.token,
          params: { id: allowed.body.id },
          path: `/api/webhooks/${allowed.body.id}/deliveries`,
        });
        expect(deliveries.body.items[0]).toMatchObject({
          status: 'PENDING',
          lastError: expect.stringMatching(/https|internal/),
        });
      } finally {
        setEnv({ WEBHOOK_ALLOW_PRIVATE: '1' });
      }
    },
  );

  test('error: at most 10 endpoints a user; removing one frees a place; another user cannot remove it', async () => {
    const client = await newClient();
    const ids: string[] = [];
    for (let i = 0; i < 10; i += 1) ids.push((await add(client, { events: ['mission.created'] })).body.id);
    expect((await add(client, { events: ['mission.created'] })).status).toBe(409);
    expect(
      (await call(removeRoute, { method: 'DELETE', token: (await newClient()).token, params: { id: ids[0]! } })).status,
    ).toBe(404);
    expect((await call(removeRoute, { method: 'DELETE', token: client.token, params: { id: ids[0]! } })).status).toBe(
      200,
    );
    expect((await add(client, { events: ['mission.created'] })).status).toBe(201);
    expect((await add(client, { events: ['mission.nope'] })).status).toBe(400);
  });

  test('behavior: deliveries page newest first; an empty cursor is the first page, a tampered one 400', async () => {
    const client = await newClient();
    const endpoint = await add(client, { events: ['mission.cancelled'] });
    const id = endpoint.body.id as string;
    for (let i = 0; i < 3; i += 1) await ok(act('cancel', client, (await createMission(client)).id));
    await ok(sweep()); // the worker expands the events into deliveries
    const page = (query: string) =>
      call(deliveriesRoute, { token: client.token, params: { id }, path: `/api/webhooks/${id}/deliveries${query}` });
    const first = await page('?limit=2&cursor=');
    expect(first.body.items).toHaveLength(2);
    const second = await page(`?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body).toMatchObject({ items: [expect.anything()], nextCursor: null });
    const times = [...first.body.items, ...second.body.items].map((d: { createdAt: string }) => d.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect((await page('?cursor=bm9wZQ')).status).toBe(400);
    expect((await page('?limit=0')).status).toBe(400);
  });

  test(
    'behavior: an endpoint that never answers costs one timeout a run, and the others are ' + 'still served',
    async () => {
      const { createServer } = await import('node:http');
      let asked = 0;
      const silent = createServer(() => {
        asked += 1; // takes the request, never answers
      });
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      try {
        const client = await newClient();
        const port = (silent.address() as { port: number }).port;
        await add(client, { url: `http://127.0.0.1:${port}/never`, events: ['mission.cancelled'] });
        await add(client, { url: `${receiver.url}?party=healthy`, events: ['mission.cancelled'] });
        const ids: string[] = [];
        for (let i = 0; i < 3; i += 1) {
          const { id } = await createMission(client);
          await ok(act('cancel', client, id));
          ids.push(id);
        }
        await deliverPending(await getDb(), config());
        // Three events queued for the silent endpoint: it was tried once (one timeout), not three times.
        expect(asked).toBe(1);
        for (const id of ids)
          expect(receiver.received.some((r) => r.path.endsWith('party=healthy') && r.body.includes(id))).toBe(true);
      } finally {
        silent.closeAllConnections();
        await new Promise<void>((resolve) => silent.close(() => resolve()));
      }
    },
  );

  test('behavior: twelve adds at once by one user — exactly ten endpoints', async () => {
    const client = await newClient();
    const results = await Promise.all(Array.from({ length: 12 }, () => add(client, { events: ['mission.created'] })));
    expect(results.map((r) => r.status).sort()).toEqual([...Array(10).fill(201), 409, 409]);
    expect((await call(listRoute, { token: client.token })).body.items).toHaveLength(10);
  });
});
