import { randomBytes, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from 'vitest';
import { type SQL, sql } from 'drizzle-orm';
import { POST as contestRoute } from '@/app/api/missions/[id]/contest/route';
import { POST as submitRoute } from '@/app/api/missions/[id]/submit/route';
import { GET as listRoute, POST as createRoute } from '@/app/api/missions/route';
import type { MissionView } from '@/lib/missions/schemas';
import { call } from '../support/http';
import { useTestEnvironment, BOOKKEEPING } from '../support/environment';
import {
  act,
  createMission,
  db,
  getMission,
  inDays,
  missionInput,
  missionRow,
  newAgent,
  newClient,
  ok,
  type Party,
  withoutClientStats,
} from '../support/missions';
import { pdf, png, upload } from '../support/multipart';

useTestEnvironment({ ...BOOKKEEPING, WRITE_RATE_LIMIT_PER_MINUTE: '100000' });

/**
 * A set-based seed of thousands of missions (each row through the listing trigger) is test setup,
 * not a request: it runs without the app's 5 s statement timeout, which a loaded machine can reach.
 */
async function seedInBulk(database: Awaited<ReturnType<typeof db>>, statement: SQL): Promise<void> {
  await database.transaction(async (tx) => {
    await tx.execute(sql`set local statement_timeout = 0`);
    await tx.execute(statement);
  });
}

// Every test lists its own category, so missions of other tests (and files, on a shared
// PostgreSQL) never show up in its pages.
const freshCategory = () => `cat-${randomBytes(6).toString('hex')}`;
const list = (query: string, party?: Party) => call(listRoute, { token: party?.token, path: `/api/missions?${query}` });
// PGlite answers { rows }, postgres.js the rows themselves.
const rowsOf = <T>(result: unknown) => (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as T[];
const ids = (response: { body: { items: { id: string }[] } }) => response.body.items.map((m) => m.id);

async function walk(query: string, limit: number, between?: (page: number) => Promise<void>) {
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 50; page += 1) {
    const response = await list(`${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(response.status).toBe(200);
    seen.push(...ids(response));
    cursor = response.body.nextCursor;
    if (!cursor) break;
    await between?.(page);
  }
  return seen;
}

let agent: Party;
beforeAll(async () => {
  agent = await newAgent();
});

describe('GET /api/missions', () => {
  test(
    'default: the public board lists OPEN missions, most recently listed first; a bump ' + 'moves one to the top',
    async () => {
      const category = freshCategory();
      const client = await newClient();
      const a = await createMission(client, { category });
      const b = await createMission(client, { category });
      const c = await createMission(client, { category });
      await ok(act('accept', agent, b.id));
      expect(ids(await list(`category=${category}`))).toEqual([c.id, a.id]);
      await ok(act('bump', client, a.id));
      const page = await list(`category=${category}`);
      expect(ids(page)).toEqual([a.id, c.id]);
      expect(page.body.nextCursor).toBeNull();
      expect(withoutClientStats(page.body.items[0])).toEqual((await getMission(undefined, a.id)).body);
    },
  );

  test('behavior: filters by category, tag, minimum reward and text, together', async () => {
    const category = freshCategory();
    const client = await newClient();
    const photos = await createMission(client, {
      category,
      title: 'Label product photos',
      tags: ['vision'],
      reward: '500',
    });
    const audio = await createMission(client, {
      category,
      title: 'Transcribe interviews',
      description: 'Forty minutes of audio.',
      tags: ['audio'],
      reward: '900',
    });
    const cheap = await createMission(client, { category, title: 'Label a photo', tags: ['vision'], reward: '10' });
    expect(ids(await list(`category=${category}&tag=vision`))).toEqual([cheap.id, photos.id]);
    expect(ids(await list(`category=${category}&minReward=500`))).toEqual([audio.id, photos.id]);
    expect(ids(await list(`category=${category}&q=photo`))).toEqual([cheap.id, photos.id]);
    expect(ids(await list(`category=${category}&q=${encodeURIComponent('"forty minutes" audio')}`))).toEqual([
      audio.id,
    ]);
    expect(ids(await list(`category=${category}&tag=vision&minReward=100&q=photos`))).toEqual([photos.id]);
    expect(ids(await list(`category=${category}&tag=nothing`))).toEqual([]);
  });

  test(
    'behavior: sorts by reward (highest first), deadline (soonest first) and creation ' + '(newest first), ties by id',
    async () => {
      const category = freshCategory();
      const client = await newClient();
      const m1 = await createMission(client, { category, reward: '300', deadline: inDays(9) });
      const m2 = await createMission(client, { category, reward: '100', deadline: inDays(3) });
      const m3 = await createMission(client, { category, reward: '200', deadline: inDays(5) });
      const m4 = await createMission(client, { category, reward: '200', deadline: inDays(30) });
      expect(ids(await list(`category=${category}&sort=reward`))).toEqual([
        m1.id,
        ...[m3.id, m4.id].sort().reverse(),
        m2.id,
      ]);
      expect(ids(await list(`category=${category}&sort=deadline`))).toEqual([m2.id, m3.id, m1.id, m4.id]);
      expect(ids(await list(`category=${category}&sort=created`))).toEqual([m4.id, m3.id, m2.id, m1.id]);
    },
  );

  test('behavior: pages are stable under inserts: every mission once, none skipped, on every sort', async () => {
    const category = freshCategory();
    const client = await newClient();
    const rewards = ['50', '700', '50', '300', '50', '900', '120'];
    const original: string[] = [];
    for (const reward of rewards) original.push((await createMission(client, { category, reward })).id);
    for (const sort of ['bumped', 'reward', 'deadline', 'created']) {
      const other = await newClient();
      const inserted: string[] = [];
      const seen = await walk(`category=${category}&sort=${sort}`, 2, async () => {
        inserted.push((await createMission(other, { category, reward: '300' })).id);
      });
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.filter((id) => original.includes(id)).sort()).toEqual([...original].sort());
      // The board's default sort puts newer missions before the cursor: a walk never meets them.
      if (sort === 'bumped' || sort === 'created') expect(seen.filter((id) => inserted.includes(id))).toEqual([]);
      for (const id of inserted) await ok(act('cancel', other, id));
    }
  });

  // lib/board/matched-page.ts reads a searched board in three steps (a window of ten pages, then
  // the index of matches when they are few, then the walk on); each step must give the same page.
  test(
    'behavior: search and tag pages are the matches in order, whether they are common, few, ' +
      'or all past the first ten pages',
    async () => {
      const category = freshCategory();
      const client = await newClient();
      const database = await db();
      // 1,100 OPEN missions, newest first by g: "common" on every other one, "sparse" on one in 12,
      // "middling" on one in 40, "scarce" on one in 100, "older" (and the tag "old") on all but the newest 30, so none
      // of them is in the first window.
      await seedInBulk(
        database,
        sql`insert into missions (client_id, title, description, category, tags, reward, fee_bps, deadline,
        status, listed_at, created_at, updated_at)
      select ${client.id}, 'Job ' || g || case when g % 2 = 0 then ' common' else '' end
               || case when g % 40 = 0 then ' middling' else '' end
               || case when g % 12 = 1 then ' sparse' else '' end || case when g % 100 = 7 then ' scarce' else '' end
               || case when g > 30 then ' older' else '' end,
             'A mission.', ${category}, case when g > 30 then array['old'] else array['new'] end,
             (100 + g % 7)::numeric, 250,
             now() + interval '30 days', 'OPEN', now() - g * interval '1 minute', now(), now()
      from generate_series(1, 1100) g`,
      );
      const expected = async (where: ReturnType<typeof sql>, order = sql`listed_at desc, id desc`) =>
        rowsOf<{ id: string }>(
          await database.execute(
            sql`select id from missions where category = ${category} and ${where} order by ${order}`,
          ),
        ).map((r) => r.id);
      const first = (all: string[], n: number) => all.slice(0, n);
      expect(await walk(`category=${category}&q=common`, 2).then((seen) => first(seen, 6))).toEqual(
        first(await expected(sql`title like '% common%'`), 6),
      );
      expect(await walk(`category=${category}&q=middling`, 2)).toEqual(await expected(sql`title like '% middling%'`));
      expect((await walk(`category=${category}&q=sparse`, 8)).slice(0, 48)).toEqual(
        first(await expected(sql`title like '% sparse%'`), 48),
      );
      expect(await walk(`category=${category}&q=scarce`, 4)).toEqual(await expected(sql`title like '% scarce%'`));
      const older = await expected(sql`title like '% older'`);
      expect((await walk(`category=${category}&q=older`, 1)).slice(0, 50)).toEqual(first(older, 50));
      expect((await walk(`category=${category}&q=older`, 3)).slice(0, 150)).toEqual(first(older, 150));
      const byReward = await expected(sql`'old' = any(tags)`, sql`reward desc, id desc`);
      expect((await walk(`category=${category}&tag=old&sort=reward`, 2)).slice(0, 100)).toEqual(first(byReward, 100));
      expect(await walk(`category=${category}&tag=old&q=middling&sort=created`, 5)).toEqual(
        await expected(sql`'old' = any(tags) and title like '% middling%'`, sql`created_at desc, id desc`),
      );
      expect(ids(await list(`category=${category}&q=zebra`))).toEqual([]);
    },
  );

  // matched-page.ts: with more than 1,000 matches ahead, the walk on reads at most 100 pages' worth
  // of rows (2,100 at limit=20) past the stages; a page it cannot fill ends at the last row it read
  // that is no match, with a cursor. Unbounded, a word on 1,000+ missions with the farthest
  // deadlines made every such request read the whole board before them.
  test(
    'behavior: a term on over 1,000 missions far down the board pages in bounded steps: ' +
      'short and empty pages with a cursor, every match once and in order',
    async () => {
      const category = freshCategory();
      const client = await newClient();
      const database = await db();
      const word = `zq${randomBytes(5).toString('hex')}`;
      // 8,810 OPEN missions in the order g of both sorts below (deadline soonest first, listed newest
      // first), the word on g = 1,000, on 2,309–2,311 and on the 1,010 from 7,801 on: as if one
      // client funded those with the farthest deadlines.
      await seedInBulk(
        database,
        sql`insert into missions (client_id, title, description, category, tags, reward, fee_bps, deadline,
        status, listed_at, created_at, updated_at)
      select ${client.id},
             'Job ' || g || case when g = 1000 or g between 2309 and 2311 or g > 7800 then ' ' || ${word} else '' end,
             'A mission.', ${category}, array['any'], 100, 250, now() + interval '200 days' + g * interval '1 minute',
             'OPEN',
             now() - g * interval '1 minute', now(), now()
      from generate_series(1, 8810) g`,
      );
      for (const [sort, order] of [
        ['deadline', sql`deadline asc, id asc`],
        ['bumped', sql`listed_at desc, id desc`],
      ] as const) {
        const expected = rowsOf<{ id: string }>(
          await database.execute(
            sql`select id from missions where category = ${category} and title like ${`% ${word}`} order by ${order}`,
          ),
        ).map((r) => r.id);
        const pages: string[][] = [];
        let cursor: string | null = null;
        do {
          const after = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
          const response = await list(`category=${category}&q=${word}&sort=${sort}&limit=20${after}`);
          expect(response.status).toBe(200);
          pages.push(ids(response));
          cursor = response.body.nextCursor;
        } while (cursor && pages.length < 100);
        expect(cursor, sort).toBeNull();
        expect(pages.flat(), sort).toEqual(expected);
        // 1. Rows 1–210 (ten pages) hold no match, so the walk on reads 211–2,310: g = 1,000 and a
        //    cursor at 2,308, the last row read that is no match (2,309 and 2,310 wait for the next page).
        // 2. 2,309–3,358 (fifty pages, as the first ten hold matches), then 3,359–5,458: 2,309–2,311.
        // 3. 5,459–7,768: no match, an empty page and a cursor. 4. The 1,010, twenty at a time.
        expect(
          pages.map((page) => page.length),
          sort,
        ).toEqual([1, 3, 0, ...Array<number>(50).fill(20), 10]);
      }
    },
  );

  // Regression, found by the fuzz suite (seed 2108814026): an empty cursor built the "after"
  // statement without its value — a 500 ("No value for placeholder afterKey") for anyone.
  test('behavior: an empty cursor is the first page, for every sort and for a signed-in list', async () => {
    const category = freshCategory();
    const client = await newClient();
    const first = await createMission(client, { category });
    for (const sort of ['bumped', 'reward', 'deadline', 'created']) {
      const response = await list(`category=${category}&sort=${sort}&cursor=`);
      expect(response.status, sort).toBe(200);
      expect(ids(response)).toEqual([first.id]);
    }
    const mine = await call(listRoute, { token: client.token, path: `/api/missions?mine=client&cursor=` });
    expect(mine.status).toBe(200);
    expect(ids(mine)).toContain(first.id);
  });

  test('error: malformed queries are 400 with the field named', async () => {
    for (const query of [
      'limit=0',
      'limit=101',
      'limit=x',
      'sort=random',
      'minReward=-5',
      'cursor=%%%',
      'cursor=eyJzIjoiYnVtcGVkIn0',
      'status=BOGUS',
    ]) {
      const response = await list(query);
      expect({ query, status: response.status }).toEqual({ query, status: 400 });
    }
    const category = freshCategory();
    const client = await newClient();
    for (let i = 0; i < 3; i += 1) await createMission(client, { category });
    const page = await list(`category=${category}&limit=1&sort=reward`);
    expect(
      (await list(`category=${category}&limit=1&sort=deadline&cursor=${page.body.nextCursor}`)).body.details,
    ).toEqual(['cursor: belongs to another sort']);
  });

  test('error: a tampered cursor key is 400, also where JavaScript would read a date PostgreSQL refuses', async () => {
    const id = randomUUID();
    const cursor = (s: string, k: string) => Buffer.from(JSON.stringify({ s, k, i: id })).toString('base64url');
    const keys = [
      '2024',
      'March 7, 2024',
      '2024-02-30T00:00:00.000Z',
      '0000-01-01T00:00:00.000Z',
      '2024-01-01T00:00:00.0000000Z',
      '2024-01-01 00:00:00Z',
    ];
    for (const key of keys) {
      const response = await list(`sort=deadline&cursor=${cursor('deadline', key)}`);
      expect({ key, status: response.status, body: response.body }).toEqual({
        key,
        status: 400,
        body: { error: 'Validation failed', details: ['cursor: malformed'] },
      });
    }
    for (const key of ['-1', '1.5', '1'.repeat(79)])
      expect((await list(`sort=reward&cursor=${cursor('reward', key)}`)).status).toBe(400);
    // Both forms a cursor has carried are read: milliseconds (before) and microseconds.
    for (const key of ['2024-01-01T00:00:00.123Z', '2024-01-01T00:00:00.123456Z']) {
      expect((await list(`sort=deadline&cursor=${cursor('deadline', key)}`)).status).toBe(200);
    }
  });
});

describe('list items are the mission as its own read answers it', () => {
  const byId = (response: { body: { items: MissionView[] } }, id: string) =>
    response.body.items.find((m) => m.id === id)!;

  test(
    'behavior: to the public, the owner and the agent, with attachments, deliverables, ' +
      'contests and every time in toISOString form',
    async () => {
      const category = freshCategory();
      const client = await newClient();
      const { tags, ...fields } = missionInput({ category });
      const created = await upload(createRoute, {
        token: client.token,
        fields: { ...fields, tags: tags.join(',') },
        files: [
          { filename: 'brief.pdf', content: pdf() },
          { filename: 'example.png', content: png() },
        ],
      });
      expect(created.status).toBe(201);
      const { id } = created.body;

      const board = await list(`category=${category}`);
      expect(withoutClientStats(byId(board, id))).toEqual((await getMission(undefined, id)).body);
      expect(withoutClientStats(byId(await list(`category=${category}`, client), id))).toEqual(
        (await getMission(client, id)).body,
      );
      expect(byId(board, id).attachments.map((f) => f.filename)).toEqual(['brief.pdf', 'example.png']);

      await ok(act('accept', agent, id));
      const round1 = await upload(submitRoute, {
        token: agent.token,
        params: { id },
        fields: { note: 'First cut.' },
        files: [{ filename: 'v1.png', content: png() }],
      });
      expect(round1.status).toBe(200);
      const contested = await upload(contestRoute, {
        token: client.token,
        params: { id },
        fields: { reason: 'Boxes are off.' },
        files: [{ filename: 'proof.png', content: png() }],
      });
      expect(contested.status).toBe(200);
      const round2 = await upload(submitRoute, {
        token: agent.token,
        params: { id },
        fields: { note: 'Fixed.' },
        files: [{ filename: 'v2.png', content: png() }],
      });
      expect(round2.status).toBe(200);

      const asClient = withoutClientStats(byId(await list('mine=client', client), id));
      const asAgent = withoutClientStats(byId(await list('mine=agent&status=SUBMITTED', agent), id));
      expect(asClient).toEqual((await getMission(client, id)).body);
      expect(asAgent).toEqual((await getMission(agent, id)).body);
      // The agent's own answer to its submit is the mission as the agent sees it, its next actions included.
      expect(asAgent).toEqual(round2.body);
      expect(asClient.submission).toMatchObject({ note: 'Fixed.', files: [{ filename: 'v2.png' }] });
      expect(asClient.contests).toMatchObject([
        { round: 1, reason: 'Boxes are off.', files: [{ filename: 'proof.png' }] },
      ]);

      // The database writes the times; they read exactly as JavaScript writes the stored instants.
      const row = await missionRow(id);
      const times = ['deadline', 'createdAt', 'updatedAt', 'acceptedAt', 'submittedAt', 'reviewDeadline'] as const;
      for (const name of times)
        expect({ name, value: asClient[name] }).toEqual({ name, value: row[name]!.toISOString() });
      expect(asClient).toMatchObject({
        reward: row.reward,
        bumpCount: 0,
        bumpedAt: null,
        completedAt: null,
        cancelledAt: null,
        onChainTaskId: null,
      });
    },
  );

  test(
    'behavior: a cursor keeps the sort key to the microsecond, so missions inside one ' +
      'millisecond are neither skipped nor repeated',
    async () => {
      const category = freshCategory();
      const client = await newClient();
      const made: string[] = [];
      for (let i = 0; i < 4; i += 1) made.push((await createMission(client, { category })).id);
      // Rows written by other tools (imports, SQL) carry microseconds that JavaScript Dates cannot.
      const base = '2026-01-01 12:00:00.123';
      for (const [i, id] of made.entries()) {
        await (await db()).execute(
          sql`update missions set listed_at = ${`${base}${900 - i * 100}+00`}::timestamptz where id = ${id}`,
        );
      }
      expect(await walk(`category=${category}`, 1)).toEqual(made);
    },
  );
});

describe('visibility in lists', () => {
  test('error: the public board does not list other states', async () => {
    expect((await list('status=ACCEPTED')).body.details[0]).toMatch(/^status: only OPEN missions are listed publicly/);
    expect((await list('status=OPEN')).status).toBe(200);
  });

  test('behavior: mine=client lists all my missions in any state, mine=agent the ones I was assigned', async () => {
    const client = await newClient();
    const open = await createMission(client);
    const taken = await createMission(client);
    const cancelled = await createMission(client);
    await ok(act('accept', agent, taken.id));
    await ok(act('submit', agent, taken.id, { note: 'Done.' }));
    await ok(act('cancel', client, cancelled.id));
    expect(ids(await list('mine=client', client)).sort()).toEqual([open.id, taken.id, cancelled.id].sort());
    expect(ids(await list('mine=client&status=SUBMITTED,CANCELLED&sort=created', client))).toEqual([
      cancelled.id,
      taken.id,
    ]);
    const asAgent = await list('mine=agent&status=SUBMITTED', agent);
    expect(ids(asAgent)).toContain(taken.id);
    expect(asAgent.body.items.find((m: { id: string }) => m.id === taken.id).submission).toMatchObject({
      note: 'Done.',
    });
    expect(ids(await list('mine=agent', await newAgent()))).toEqual([]);
    expect((await list('mine=client')).status).toBe(401);
    expect((await list('mine=owner', client)).status).toBe(400);
  });
});
