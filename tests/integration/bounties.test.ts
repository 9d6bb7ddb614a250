// Bounties through the route handlers (docs/api.md#bounties), in bookkeeping mode: posting one with places
// and a split, entries (once each, replaceable, before the deadline, capped), the deadline closing
// it (judged, or lapsed without entries), the award and its rules, the entrants' one contest, the
// operator's award, and each winner credited its place.
import { beforeAll, describe, expect, test } from 'vitest';
import { POST as createRoute, GET as listRoute } from '@/app/api/missions/route';
import { GET as agentRoute } from '@/app/api/agents/[address]/route';
import { call } from '../support/http';
import { setEnv, useTestEnvironment, BOOKKEEPING } from '../support/environment';
import {
  act,
  earningsOf,
  eventsOf,
  getMission,
  missionInput,
  missionRow,
  newAgent,
  newClient,
  ok,
  type Party,
  resolve,
  withoutClientStats,
} from '../support/missions';
import { png } from '../support/multipart';
import {
  award,
  closeEntries,
  contestAward,
  createBounty,
  endWindow,
  enter,
  entriesOf,
  statusOf,
  sweep,
} from '../support/bounties';

const LIMITS = { WRITE_RATE_LIMIT_PER_MINUTE: '100000', ENTRY_RATE_LIMIT_PER_MINUTE: '100000' };
useTestEnvironment({ ...BOOKKEEPING, ...LIMITS, PLATFORM_FEE_BPS: '1000' });

let agents: Party[];
beforeAll(async () => {
  agents = await Promise.all([newAgent(), newAgent(), newAgent(), newAgent()]);
});
const a = () => agents[0]!;
const b = () => agents[1]!;
const c = () => agents[2]!;

/** A bounty with entries from the first `n` agents, its deadline passed: JUDGING. */
async function judging(n = 3, overrides: Record<string, unknown> = {}) {
  const client = await newClient();
  const { id } = await createBounty(client, overrides);
  for (const agent of agents.slice(0, n))
    expect((await enter(agent, id, `Entry by ${agent.address}`)).status).toBe(201);
  await closeEntries(id);
  expect((await getMission(client, id)).body.status).toBe('JUDGING');
  return { client, id };
}

describe('posting a bounty', () => {
  test('default: winners and split are kept and shown; the split defaults to equal places', async () => {
    const client = await newClient();
    const equal = await createBounty(client, { winners: 3 });
    expect(equal).toMatchObject({
      assignment: 'BOUNTY',
      bounty: { winners: 3, split: null, entries: 0, awards: [], awardedAt: null },
    });
    const split = await createBounty(client, { winners: 3, split: [50, 30, 20] });
    expect(split.bounty).toMatchObject({ winners: 3, split: [50, 30, 20] });
    const plain = await createBounty(client, { assignment: 'FIRST_COME', winners: undefined });
    expect(plain.bounty).toBeNull();
  });

  test(
    'error: a split that does not sum to 100 or name each place, places outside 1–10, or ' +
      'bounty fields on another mission are 400',
    async () => {
      const client = await newClient();
      const post = (body: Record<string, unknown>) =>
        call(createRoute, { token: client.token, body: missionInput(body) });
      const cases: [Record<string, unknown>, string][] = [
        [{ assignment: 'BOUNTY', winners: 2, split: [50, 40] }, 'split: must sum to 100'],
        [
          { assignment: 'BOUNTY', winners: 3, split: [50, 50] },
          'split: must name one percentage for each of the 3 places',
        ],
        [{ assignment: 'BOUNTY', winners: 11 }, 'winners'],
        [{ assignment: 'BOUNTY', winners: 0 }, 'winners'],
        [{ winners: 2 }, 'winners: only a BOUNTY has winners'],
        [{ split: [100] }, 'split: only a BOUNTY has a split'],
      ];
      for (const [body, detail] of cases) {
        const response = await post(body);
        expect(response.status, JSON.stringify(body)).toBe(400);
        expect(response.body.details.join('\n')).toContain(detail);
      }
    },
  );
});

describe('entries', () => {
  test(
    'default: an agent enters with a note and files; a second entry replaces the first; the ' +
      'client sees one entry per agent',
    async () => {
      const client = await newClient();
      const { id } = await createBounty(client);
      const first = await enter(a(), id, 'First try', [
        { filename: 'one.png', contentType: 'image/png', content: png() },
      ]);
      expect(first.status).toBe(201);
      expect(first.body).toMatchObject({
        agent: { walletAddress: a().address },
        note: 'First try',
        version: 1,
        place: null,
        amount: null,
        contested: false,
      });
      expect(first.body.files).toHaveLength(1);
      const second = await enter(a(), id, 'Better try');
      expect(second.body).toMatchObject({ id: first.body.id, note: 'Better try', version: 2, files: [] });
      const listed = await entriesOf(client, id);
      expect(listed.status).toBe(200);
      expect(listed.body.items).toHaveLength(1);
      expect(listed.body.items[0]).toMatchObject({ note: 'Better try', version: 2 });
      expect((await getMission(client, id)).body.bounty.entries).toBe(1);
    },
  );

  test(
    'error: the owner cannot enter (403); a client is not an agent (403); a mission that is ' + 'no bounty is 409',
    async () => {
      const client = await newClient();
      const { id } = await createBounty(client);
      expect((await enter(client, id, 'Mine')).status).toBe(403);
      const plain = await createBounty(client, { assignment: 'FIRST_COME', winners: undefined });
      expect(await enter(a(), plain.id, 'x')).toMatchObject({
        status: 409,
        body: { error: 'This mission is not a bounty' },
      });
      expect((await enter(a(), id, '')).status).toBe(400);
    },
  );

  test(
    'error: after the deadline an entry is 409 and the bounty is JUDGING; without entries ' + 'it lapses CANCELLED',
    async () => {
      const client = await newClient();
      const { id } = await createBounty(client);
      await enter(a(), id, 'In time');
      await closeEntries(id);
      const late = await enter(b(), id, 'Too late');
      expect(late.status).toBe(409);
      expect(late.body.error).toMatch(/^The bounty closed for entries at /);
      expect((await getMission(client, id)).body.status).toBe('JUDGING');
      const empty = await createBounty(client);
      await closeEntries(empty.id);
      expect((await ok(sweep())).missions.completed).toBeGreaterThan(0);
      expect(await statusOf(empty.id)).toBe('CANCELLED');
      expect((await eventsOf(empty.id)).at(-1)).toMatchObject({ action: 'lapsed', toStatus: 'CANCELLED' });
    },
  );

  test(
    'error: entries take files as submit does — at most 10 (400), sniffed types only (415) ' +
      '— and store nothing when refused',
    async () => {
      const client = await newClient();
      const { id } = await createBounty(client);
      const eleven = Array.from({ length: 11 }, (_, i) => ({
        filename: `p${i}.png`,
        contentType: 'image/png',
        content: png(),
      }));
      expect((await enter(a(), id, 'Too many', eleven)).status).toBe(400);
      const html = await enter(a(), id, 'Markup', [
        { filename: 'x.html', contentType: 'text/html', content: '<script>alert(1)</script>' },
      ]);
      expect(html.status).toBe(415);
      expect((await entriesOf(client, id)).body.items).toEqual([]);
      expect((await getMission(client, id)).body.bounty.entries).toBe(0);
    },
  );

  test('error: at most MAX_BOUNTY_ENTRIES a bounty; replacing an entry does not count again', async () => {
    setEnv({ MAX_BOUNTY_ENTRIES: '2' });
    try {
      const client = await newClient();
      const { id } = await createBounty(client);
      expect((await enter(a(), id, '1')).status).toBe(201);
      expect((await enter(b(), id, '2')).status).toBe(201);
      expect(await enter(c(), id, '3')).toMatchObject({
        status: 409,
        body: { error: 'This bounty has taken the most entries it may (2)' },
      });
      expect((await enter(a(), id, '1 again')).status).toBe(201);
    } finally {
      setEnv({ MAX_BOUNTY_ENTRIES: undefined });
    }
  });

  test('error: entries are limited per agent (ENTRY_RATE_LIMIT_PER_MINUTE) with 429 and Retry-After', async () => {
    setEnv({ ENTRY_RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const client = await newClient();
      const { id } = await createBounty(client);
      const [agent, other] = await Promise.all([newAgent(), newAgent()]);
      for (let i = 0; i < 3; i += 1) expect((await enter(agent, id, `v${i}`)).status).toBe(201);
      const limited = await enter(agent, id, 'one more');
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
      expect((await enter(other, id, 'another agent')).status).toBe(201);
    } finally {
      setEnv(LIMITS);
    }
  });

  test(
    'behavior: accept is refused on a bounty; the owner cannot cancel once an agent ' + 'entered, but may before',
    async () => {
      const client = await newClient();
      const { id } = await createBounty(client);
      expect(await act('accept', a(), id)).toMatchObject({
        status: 409,
        body: { error: 'This mission is a bounty: submit an entry instead' },
      });
      const untouched = await createBounty(client);
      expect((await ok(act('cancel', client, untouched.id))).status).toBe('CANCELLED');
      await enter(a(), id, 'Entered');
      expect(await act('cancel', client, id)).toMatchObject({
        status: 409,
        body: { error: 'Agents have entered this bounty: award it after the deadline' },
      });
    },
  );
});

describe('judging and the award', () => {
  test(
    'default: the client awards places in order; entrants see the award; unchallenged, the ' +
      'sweep completes it and credits each winner its place',
    async () => {
      const { client, id } = await judging(3, { winners: 2, split: [70, 30], reward: '10000000' });
      const awarded = await ok(award(client, id, { winners: [b().address, a().address] }));
      expect(awarded).toMatchObject({ status: 'AWARDED', bounty: { awardReason: null } });
      // 10 USDC, 10 % fee on the whole: 9 to share, 70/30.
      expect(awarded.bounty.awards).toEqual([
        { place: 1, walletAddress: b().address, amount: '6300000' },
        { place: 2, walletAddress: a().address, amount: '2700000' },
      ]);
      expect((await getMission(c(), id)).body.bounty.awards).toHaveLength(2); // an entrant who lost sees the result
      // The client's own list (the view the database stores) shows the award as the mission's GET does.
      const mine = await call(listRoute, { token: client.token, path: '/api/missions?mine=client' });
      expect(mine.body.items.map(withoutClientStats)).toStrictEqual([(await getMission(client, id)).body]);
      expect(mine.body.items[0].bounty.awards).toHaveLength(2);
      await endWindow(id);
      await ok(sweep());
      expect(await statusOf(id)).toBe('COMPLETED');
      const credits = await earningsOf(id);
      expect(credits.map((e) => [e.agentId, e.gross, e.fee, e.amount]).sort()).toEqual(
        [
          [b().id, '7000000', '700000', '6300000'],
          [a().id, '3000000', '300000', '2700000'],
        ].sort(),
      );
      // An entry counts as a mission taken on: a winner's success rate stays a rate.
      const profile = await call(agentRoute, { params: { address: b().address } });
      expect(profile.body.stats.completed).toBeGreaterThan(0);
      expect(profile.body.stats.successRate).toBeLessThanOrEqual(1);
    },
  );

  test(
    'error: only the owner awards (403 for an entrant, 404 for a stranger agent); winners ' +
      'must be entrants, at most the places, each once; fewer need a reason',
    async () => {
      const { client, id } = await judging(2, { winners: 2 });
      expect((await award(a(), id, { winners: [a().address] })).status).toBe(403);
      expect((await award(agents[3], id, { winners: [a().address] })).status).toBe(404);
      const refusals: [unknown, string][] = [
        [{ winners: [a().address, b().address, c().address] }, 'winners: at most 2'],
        [{ winners: [a().address, a().address] }, 'winners: each entrant at most once'],
        [{ winners: [a().address, agents[3]!.address] }, `winners.1: ${agents[3]!.address} did not enter this bounty`],
        [{ winners: [a().address] }, 'reason: required when fewer than 2 places are awarded'],
      ];
      for (const [body, detail] of refusals) {
        const response = await award(client, id, body);
        expect(response.status, detail).toBe(400);
        expect(response.body.details.join('\n')).toContain(detail);
      }
      const partial = await ok(award(client, id, { winners: [a().address], reason: 'Only one entry met the brief.' }));
      expect(partial.bounty).toMatchObject({
        awardReason: 'Only one entry met the brief.',
        awards: [{ place: 1, walletAddress: a().address }],
      });
      expect((await award(client, id, { winners: [b().address], reason: 'Changed my mind' })).status).toBe(409);
    },
  );

  test('behavior: two award requests at once — one wins, the other is 409', async () => {
    const { client, id } = await judging(2);
    const results = await Promise.all([
      award(client, id, { winners: [a().address, b().address] }),
      award(client, id, { winners: [b().address, a().address] }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = results.find((r) => r.status === 200)!;
    expect((await getMission(client, id)).body.bounty.awards).toEqual(winner.body.bounty.awards);
    expect((await eventsOf(id)).filter((e) => e.action === 'award')).toHaveLength(1);
  });

  test(
    'behavior: no award in the judging window → DISPUTED automatically; the operator awards ' +
      'and the winners are credited',
    async () => {
      const { client, id } = await judging(2, { winners: 1, reward: '5000000' });
      await endWindow(id);
      expect((await award(client, id, { winners: [a().address] })).status).toBe(409);
      expect(await statusOf(id)).toBe('DISPUTED');
      expect((await eventsOf(id)).map((e) => e.action)).toContain('escalated');
      expect((await resolve(id, { outcome: 'COMPLETED' })).status).toBe(400); // a bounty needs winners or a reason
      const resolved = await resolve(id, { outcome: 'COMPLETED', winners: [b().address] });
      expect(resolved.status).toBe(200);
      expect(resolved.body).toMatchObject({
        status: 'COMPLETED',
        bounty: { awards: [{ place: 1, walletAddress: b().address, amount: '4500000' }] },
      });
      expect((await earningsOf(id)).map((e) => [e.agentId, e.amount])).toEqual([[b().id, '4500000']]);
    },
  );

  test('behavior: an entrant contests the award once → DISPUTED; a stranger cannot; the operator decides', async () => {
    const { client, id } = await judging(3, { winners: 1 });
    await ok(award(client, id, { winners: [a().address] }));
    expect((await contestAward(agents[3]!, id)).status).toBe(404);
    expect((await contestAward(client, id)).status).toBe(403);
    const contested = await ok(contestAward(b(), id, 'Mine answers the brief; the winner ignored the format.'));
    expect(contested.status).toBe('DISPUTED');
    expect((await contestAward(c(), id)).status).toBe(409);
    const listed = await entriesOf(client, id);
    expect(
      listed.body.items.find((e: { agent: { walletAddress: string } }) => e.agent.walletAddress === b().address),
    ).toMatchObject({ contested: true });
    await ok(resolve(id, { outcome: 'COMPLETED', winners: [b().address] }));
    expect((await earningsOf(id)).map((e) => e.agentId)).toEqual([b().id]);
    expect((await missionRow(id)).completedAt).not.toBeNull();
  });

  test('error: past the contest window an entrant cannot contest; the award completes', async () => {
    const { client, id } = await judging(2, { winners: 1 });
    await ok(award(client, id, { winners: [a().address] }));
    await endWindow(id);
    expect((await contestAward(b(), id)).status).toBe(409);
    expect(await statusOf(id)).toBe('COMPLETED');
  });
});
