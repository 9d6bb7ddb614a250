// Offerings (docs/api.md#offerings): an agent publishes what it sells, anyone finds it, a client orders it in
// one call and funds it with one signature (real viem signatures, real anvil); funded, the order is the
// agent's, ACCEPTED with its SLA. Every refusal is answered with its 4xx and changes nothing.
import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { GET as agentRoute } from '@/app/api/agents/[address]/route';
import { DELETE as deleteRoute, GET as getRoute, PATCH as patchRoute } from '@/app/api/offerings/[id]/route';
import { GET as searchRoute, POST as publishRoute } from '@/app/api/offerings/route';
import { getDb } from '@/lib/db/client';
import { missions, offerings, webhookEvents } from '@/lib/db/schema';
import { setEnv, useTestEnvironment } from '../support/environment';
import { call } from '../support/http';
import { eventsOf, getMission, missionCountOf, newAgent, newClient } from '../support/missions';
import { fundWithOwnTask, signAndFund } from '../support/funding';
import { offeringInput, order, PRICE, payingClient, publish } from '../support/offerings';

useTestEnvironment({ WRITE_RATE_LIMIT_PER_MINUTE: '100000', MINT_WAIT_MS: '2000' });

const search = (query: string) => call(searchRoute, { path: `/api/offerings?${query}` });
const offeringCount = async (agentId: string) =>
  (await (await getDb()).select({ id: offerings.id }).from(offerings).where(eq(offerings.agentId, agentId))).length;

describe('publishing an offering', () => {
  test('201 with its terms; found by the search with its agent, on its page and its profile', async () => {
    const agent = await newAgent();
    const created = await call(publishRoute, { token: agent.token, body: offeringInput() });
    expect(created.status).toBe(201);
    const offering = created.body.offering;
    expect(offering).toMatchObject({
      active: true,
      price: PRICE.toString(),
      slaHours: 24,
      maxOpenOrders: 3,
      openOrders: 0,
      criteria: ['Every sentence translated', 'No machine-translation artefacts'],
      agent: { walletAddress: agent.address, rating: null, settledCount: 0 },
    });
    expect(offering.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(offering.createdAt)).not.toBeNaN();
    const found = await search(`agent=${agent.address}`);
    expect(found.status).toBe(200);
    expect(found.body.items.map((o: { id: string }) => o.id)).toEqual([offering.id]);
    expect((await call(getRoute, { params: { id: offering.id } })).body.offering).toEqual(offering);
    const profile = await call(agentRoute, { params: { address: agent.address } });
    expect(profile.body.offerings.map((o: { id: string }) => o.id)).toEqual([offering.id]);
  });

  test('error: bad terms and bad schemas are 400 and publish nothing', async () => {
    const agent = await newAgent();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ price: '0' }, /^price: /],
      [{ price: '-5' }, /^price: /],
      [{ price: 5 }, /^price: /],
      [{ slaHours: 0 }, /^slaHours: /],
      [{ slaHours: 721 }, /^slaHours: /],
      [{ maxOpenOrders: 21 }, /^maxOpenOrders: /],
      [{ title: '' }, /^title: /],
      [{ requirementsSchema: { type: 'nonsense' } }, /^requirementsSchema: does not compile/],
      [{ requirementsSchema: { $ref: 'https://evil.test/schema.json' } }, /^requirementsSchema: \$ref .* not a local/],
      [
        { requirementsSchema: { properties: { a: { items: { $ref: 'other.json#/x' } } } } },
        /^requirementsSchema: \$ref .* not a local/,
      ],
      [{ requirementsSchema: { description: 'x'.repeat(17 * 1024) } }, /^requirementsSchema: must be at most 16 KB/],
    ];
    for (const [change, detail] of cases) {
      const response = await call(publishRoute, { token: agent.token, body: offeringInput(change) });
      expect(response.status, JSON.stringify(change).slice(0, 80)).toBe(400);
      expect(
        response.body.details.some((d: string) => detail.test(d)),
        response.body.details.join('; '),
      ).toBe(true);
    }
    expect(await offeringCount(agent.id)).toBe(0);
    // A local reference compiles.
    await publish(agent, {
      requirementsSchema: {
        $defs: { u: { type: 'string' } },
        type: 'object',
        properties: { url: { $ref: '#/$defs/u' } },
      },
    });
  });

  test('error: a client may not publish (403); an agent holds at most 20 active (409)', async () => {
    const client = await newClient();
    expect((await call(publishRoute, { token: client.token, body: offeringInput() })).status).toBe(403);
    const agent = await newAgent();
    const all = [];
    for (let i = 0; i < 20; i++)
      all.push(await publish(agent, { title: `Offering ${i}`, requirementsSchema: undefined }));
    const over = await call(publishRoute, { token: agent.token, body: offeringInput() });
    expect(over.status).toBe(409);
    expect(over.body.details[0]).toMatch(/at most 20 active offerings/);
    expect(await offeringCount(agent.id)).toBe(20);
    // Deactivated, one makes room; reactivating it past the cap is refused.
    const gone = await call(deleteRoute, { token: agent.token, params: { id: all[0]!.id } });
    expect(gone.body.offering.active).toBe(false);
    await publish(agent);
    const back = await call(patchRoute, { token: agent.token, params: { id: all[0]!.id }, body: { active: true } });
    expect(back.status).toBe(409);
  });

  test('edits: only its agent (others 404); a deactivated one leaves search, its agent still reads it', async () => {
    const agent = await newAgent();
    const other = await newAgent();
    const offering = await publish(agent);
    const foreign = await call(patchRoute, { token: other.token, params: { id: offering.id }, body: { price: '1' } });
    expect(foreign.status).toBe(404);
    expect((await call(deleteRoute, { token: other.token, params: { id: offering.id } })).status).toBe(404);
    const bad = await call(patchRoute, {
      token: agent.token,
      params: { id: offering.id },
      body: { requirementsSchema: { type: 7 } },
    });
    expect(bad.status).toBe(400);
    const edited = await call(patchRoute, {
      token: agent.token,
      params: { id: offering.id },
      body: { price: '9000000', slaHours: 48 },
    });
    expect(edited.body.offering).toMatchObject({
      price: '9000000',
      slaHours: 48,
      requirementsSchema: offering.requirementsSchema,
    });
    await call(deleteRoute, { token: agent.token, params: { id: offering.id } });
    expect((await search(`agent=${agent.address}`)).body.items).toEqual([]);
    expect((await call(getRoute, { params: { id: offering.id } })).status).toBe(404);
    expect((await call(getRoute, { token: agent.token, params: { id: offering.id } })).body.offering.active).toBe(
      false,
    );
  });
});

describe('searching offerings', () => {
  test('filters by text, category, tag, price and agent; sorts by price; pages without gaps or repeats', async () => {
    const agent = await newAgent();
    const prices = ['3000000', '1000000', '2000000', '1000000', '5000000'];
    const made = [];
    for (const [i, price] of prices.entries())
      made.push(
        await publish(agent, {
          price,
          title: i === 2 ? 'Review a Solidity contract' : `Translate page ${i}`,
          category: i === 2 ? 'code' : 'translation',
          tags: i === 3 ? ['german'] : ['french'],
        }),
      );
    const ids = (r: { body: { items: { id: string }[] } }) => r.body.items.map((o) => o.id);
    const mine = `agent=${agent.address}`;
    expect(ids(await search(`${mine}&q=solidity`))).toEqual([made[2]!.id]);
    expect(ids(await search(`${mine}&category=code`))).toEqual([made[2]!.id]);
    expect(ids(await search(`${mine}&tag=german`))).toEqual([made[3]!.id]);
    expect(new Set(ids(await search(`${mine}&maxPrice=1000000`)))).toEqual(new Set([made[1]!.id, made[3]!.id]));
    const byPrice = await search(`${mine}&sort=price`);
    expect(byPrice.body.items.map((o: { price: string }) => o.price)).toEqual(
      [...prices].sort((a, b) => Number(a) - Number(b)),
    );
    for (const sort of ['price', 'new', 'rating']) {
      const seen: string[] = [];
      let cursor = '';
      do {
        const page = await search(`${mine}&sort=${sort}&limit=2&cursor=${cursor}`);
        expect(page.status).toBe(200);
        seen.push(...ids(page));
        cursor = page.body.nextCursor ?? '';
      } while (cursor);
      expect(seen.sort()).toEqual(made.map((o) => o.id).sort());
    }
    const first = await search(`${mine}&sort=price&limit=2`);
    expect((await search(`${mine}&sort=new&cursor=${first.body.nextCursor}`)).status).toBe(400);
    expect((await search('maxPrice=-1')).status).toBe(400);
  });
});

describe('ordering an offering', () => {
  test('a DIRECT mission at its price, funded by one signature, then ACCEPTED by the agent with its SLA', async () => {
    const agent = await newAgent();
    const offering = await publish(agent);
    const client = await payingClient();
    const placed = await order(client.token, offering.id, {
      requirements: { url: 'https://example.com/page', words: 800 },
    });
    expect(placed.status).toBe(201);
    const mission = placed.body;
    expect(mission).toMatchObject({
      status: 'AWAITING_FUNDING',
      assignment: 'DIRECT',
      reward: PRICE.toString(),
      title: offering.title,
      agent: { walletAddress: agent.address },
      offering: { id: offering.id, title: offering.title },
      requirements: { url: 'https://example.com/page', words: 800 },
      criteria: [
        { number: 1, text: 'Every sentence translated' },
        { number: 2, text: 'No machine-translation artefacts' },
      ],
    });
    expect(mission.funding.url).toMatch(new RegExp(`/missions/${mission.id}/fund$`));
    // Unfunded, the agent does not see it; it holds one of the offering's places.
    expect((await getMission(agent, mission.id)).status).toBe(404);
    expect((await call(getRoute, { params: { id: offering.id } })).body.offering.openOrders).toBe(1);
    const funded = await signAndFund(client.wallet, client.token, mission.id);
    expect(funded.status).toBe(202);
    const seen = await getMission(agent, mission.id);
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ status: 'ACCEPTED', agent: { walletAddress: agent.address } });
    const acceptedAt = Date.parse(seen.body.acceptedAt);
    expect(Date.parse(seen.body.deadline)).toBe(acceptedAt + 24 * 3_600_000);
    expect((await eventsOf(mission.id)).map((e) => e.action)).toEqual(['create', 'funded', 'accepted']);
    const told = await (await getDb())
      .select({ event: webhookEvents.event, audience: webhookEvents.audience })
      .from(webhookEvents)
      .where(eq(webhookEvents.missionId, mission.id));
    expect(told.map((t) => t.event).sort()).toEqual(['mission.accepted', 'mission.funded', 'offering.ordered']);
    expect(told.find((t) => t.event === 'offering.ordered')!.audience).toEqual({ users: [agent.id] });
    // Off the board, and nobody else's to take.
    const stranger = await newAgent();
    expect((await getMission(stranger, mission.id)).status).toBe(404);
  });

  test("the wallet fallback: an order funded by the client's own createTask is ACCEPTED by its agent", async () => {
    const agent = await newAgent();
    const offering = await publish(agent);
    const client = await payingClient();
    const placed = await order(client.token, offering.id);
    expect(placed.body.status).toBe('AWAITING_FUNDING');
    const { taskId, answer } = await fundWithOwnTask(client.wallet, client.token, placed.body.id);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({ status: 'funded', onChainTaskId: taskId });
    // Funded by whichever door, an order becomes its agent's at once, with its SLA from the funding.
    const seen = await getMission(agent, placed.body.id);
    expect(seen.body).toMatchObject({
      status: 'ACCEPTED',
      onChainTaskId: taskId,
      agent: { walletAddress: agent.address },
    });
    expect(Date.parse(seen.body.deadline)).toBe(Date.parse(seen.body.acceptedAt) + 24 * 3_600_000);
    expect((await eventsOf(placed.body.id)).map((e) => e.action)).toEqual(['create', 'funded', 'accepted']);
  });

  test('error: requirements against the schema name each failing pointer (400); nothing is created', async () => {
    const agent = await newAgent();
    const offering = await publish(agent);
    const client = await newClient();
    const missing = await order(client.token, offering.id, { requirements: { words: 10 } });
    expect(missing).toMatchObject({ status: 400, body: { details: ['requirements/url: required'] } });
    const wrong = await order(client.token, offering.id, { requirements: { url: 7, words: 5000, extra: true } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.details).toEqual(
      expect.arrayContaining([
        'requirements/url: must be string',
        'requirements/words: must be <= 2000',
        'requirements: must NOT have additional properties',
      ]),
    );
    expect((await order(client.token, offering.id, {})).body.details).toEqual(['requirements: must be object']);
    const huge = await order(client.token, offering.id, {
      requirements: { url: 'https://x.test', pad: 'x'.repeat(70_000) },
    });
    expect(huge).toMatchObject({ status: 400, body: { details: ['requirements: must be at most 64 KB'] } });
    expect(
      (await order(client.token, offering.id, { requirements: { url: 'https://x.test' }, reward: '1' })).status,
    ).toBe(400);
    expect((await order(agent.token, offering.id)).status).toBe(403);
    expect((await order(client.token, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    await call(deleteRoute, { token: agent.token, params: { id: offering.id } });
    const inactive = await order(client.token, offering.id);
    expect(inactive).toMatchObject({ status: 409, body: { details: ['offering: no longer taking orders'] } });
    expect(await missionCountOf(client.id)).toBe(0);
  });

  test('two orders racing for the last open place: exactly one is placed', async () => {
    const agent = await newAgent();
    const offering = await publish(agent, { maxOpenOrders: 2 });
    const first = await newClient();
    expect((await order(first.token, offering.id)).status).toBe(201);
    const racers = await Promise.all(Array.from({ length: 6 }, () => newClient()));
    const results = await Promise.all(racers.map((c) => order(c.token, offering.id)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    const refused = results.filter((r) => r.status === 409);
    expect(refused).toHaveLength(5);
    for (const r of refused) expect(r.body.details[0]).toMatch(/^maxOpenOrders: /);
    const placed = await (await getDb())
      .select({ id: missions.id })
      .from(missions)
      .where(eq(missions.offeringId, offering.id));
    expect(placed).toHaveLength(2);
  });

  test('error: the agent at MAX_ACTIVE_MISSIONS (unfunded orders counted) is a 409 naming it', async () => {
    setEnv({ MAX_ACTIVE_MISSIONS: '2' });
    try {
      const agent = await newAgent();
      const a = await publish(agent, { maxOpenOrders: 10 });
      const b = await publish(agent, { maxOpenOrders: 10, title: 'Another' });
      expect((await order((await newClient()).token, a.id)).status).toBe(201);
      expect((await order((await newClient()).token, b.id)).status).toBe(201);
      const full = await order((await newClient()).token, a.id);
      expect(full.status).toBe(409);
      expect(full.body.details[0]).toMatch(/^MAX_ACTIVE_MISSIONS: /);
      const orders = await (await getDb())
        .select({ id: missions.id })
        .from(missions)
        .where(and(eq(missions.directAgentId, agent.id), inArray(missions.offeringId, [a.id, b.id])));
      expect(orders).toHaveLength(2);
    } finally {
      setEnv({ MAX_ACTIVE_MISSIONS: undefined });
    }
  });

  test('a later price applies to later orders only', async () => {
    const agent = await newAgent();
    const offering = await publish(agent);
    const client = await newClient();
    const before = await order(client.token, offering.id);
    await call(patchRoute, { token: agent.token, params: { id: offering.id }, body: { price: '7000000' } });
    const after = await order(client.token, offering.id);
    expect([before.body.reward, after.body.reward]).toEqual([PRICE.toString(), '7000000']);
  });
});
