// missions.listing, the OPEN mission's JSON the public board reads (lib/board/present.ts,
// listedJson): written by the database's trigger, whose SQL scripts/db-listing.ts renders from
// missionJson. Missions driven through the real routes into every way of leaving or re-entering
// OPEN list for every viewer exactly as GET /api/missions/{id} shows them, and the stored text is
// byte for byte what missionJson computes now.
import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, test } from 'vitest';
import { POST as applyRoute } from '@/app/api/missions/[id]/apply/route';
import { POST as assignRoute } from '@/app/api/missions/[id]/assign/route';
import { POST as reopenRoute } from '@/app/api/missions/[id]/reopen/route';
import { POST as submitRoute } from '@/app/api/missions/[id]/submit/route';
import { POST as contestRoute } from '@/app/api/missions/[id]/contest/route';
import { GET as listRoute, POST as createRoute } from '@/app/api/missions/route';
import { missionFiles, missions } from '@/lib/db/schema';
import { missionJson } from '@/lib/board/present';
import { ANONYMOUS_SEES_WORK, PARTY_SEES_WORK } from '@/lib/missions/visibility';
import { LISTING_COMMAND, LISTING_FUNCTION, listingFunctionBody } from '@/scripts/db-listing';
import { BOOKKEEPING, useTestEnvironment } from '../support/environment';
import { call } from '../support/http';
import {
  act,
  createMission,
  db,
  getMission,
  missionInput,
  newAgent,
  newClient,
  ok,
  past,
  setTimes,
  type Party,
  withoutClientStats,
} from '../support/missions';
import { pdf, png, upload } from '../support/multipart';

useTestEnvironment({ ...BOOKKEEPING, WRITE_RATE_LIMIT_PER_MINUTE: '100000' });

const freshCategory = () => `listing-${randomBytes(6).toString('hex')}`;
const board = (category: string, viewer?: Party) =>
  call(listRoute, { token: viewer?.token, path: `/api/missions?category=${category}&limit=100` });
const reopen = (owner: Party, id: string) => call(reopenRoute, { method: 'POST', token: owner.token, params: { id } });

/**
 * Each mission of the category: its status, and whether its stored views are missionJson's text now
 * (the listing null unless OPEN; the parties' view always).
 */
async function storedListings(category: string) {
  const fresh = sql`case when ${missions.status} = 'OPEN' then ${missionJson(ANONYMOUS_SEES_WORK)} end`;
  return (await db())
    .select({
      id: missions.id,
      status: missions.status,
      listing: missions.listing,
      current: sql<boolean>`${missions.listing} is not distinct from ${fresh}`,
      partiesCurrent: sql<boolean>`${missions.partiesView} = ${missionJson(PARTY_SEES_WORK)}`,
    })
    .from(missions)
    .where(eq(missions.category, category));
}

/** A party's own list (mine=client or mine=agent) is its missions, each exactly as its own GET shows it to them. */
async function expectMineIsTheViews(category: string, party: Party, mine: 'client' | 'agent', ids: string[]) {
  const page = await call(listRoute, {
    token: party.token,
    path: `/api/missions?mine=${mine}&category=${category}&limit=100`,
  });
  expect(page.status).toBe(200);
  expect(page.body.items.map((m: { id: string }) => m.id).sort()).toEqual([...ids].sort());
  for (const item of page.body.items)
    expect(withoutClientStats(item)).toStrictEqual((await getMission(party, item.id)).body);
}

/** The board as each viewer gets it is the OPEN missions, each exactly as its own GET shows it to that viewer. */
async function expectBoardIsTheViews(category: string, open: string[], viewers: (Party | undefined)[]) {
  for (const viewer of viewers) {
    const page = await board(category, viewer);
    expect(page.status).toBe(200);
    expect(page.body.items.map((m: { id: string }) => m.id).sort()).toEqual([...open].sort());
    for (const item of page.body.items) {
      const single = await getMission(viewer, item.id);
      expect(single.status).toBe(200);
      expect(withoutClientStats(item)).toStrictEqual(single.body);
    }
  }
}

let agent: Party;
let stranger: Party;
beforeAll(async () => {
  [agent, stranger] = await Promise.all([newAgent(), newAgent()]);
});

describe('the listing function', () => {
  test(
    'default: the function the migrations installed is the SQL ' + 'missionJson(ANONYMOUS_SEES_WORK) renders now',
    async () => {
      const result = await (await db()).execute(
        sql`select prosrc from pg_proc where oid = ${`${LISTING_FUNCTION}()`}::regprocedure`,
      );
      // PGlite answers { rows }, postgres.js the rows themselves.
      const [installed] = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as {
        prosrc: string;
      }[];
      expect(
        installed?.prosrc === listingFunctionBody(),
        `${LISTING_FUNCTION}() in drizzle/ is stale: lib/board/present.ts changed since the ` +
          `last migration that wrote it. ` +
          `Run \`${LISTING_COMMAND}\` (it adds a migration with the new function and rewrites ` +
          `every OPEN listing) and commit the result.`,
      ).toBe(true);
    },
  );
});

describe('missions.listing', () => {
  test(
    'behavior: through every way into and out of OPEN, the board shows each viewer what the ' +
      'mission GET shows them, and only OPEN missions keep a listing',
    async () => {
      const category = freshCategory();
      const owner = await newClient();
      const input = (extra: Record<string, unknown> = {}) => ({ ...missionInput({ category }), ...extra });
      const { tags, ...fields } = input();

      // Created with attachments, through multipart.
      const attached = await upload(createRoute, {
        token: owner.token,
        fields: { ...fields, tags: tags.join(',') } as Record<string, string>,
        files: [
          { filename: 'brief.pdf', contentType: 'application/pdf', content: pdf() },
          { filename: 'example.png', contentType: 'image/png', content: png() },
        ],
      });
      expect(attached.status).toBe(201);
      expect(attached.body.attachments).toHaveLength(2);

      // Accepted, then the agent withdrew.
      const withdrawn = await createMission(owner, input());
      await ok(act('accept', agent, withdrawn.id));
      await ok(act('cancel', agent, withdrawn.id));

      // Accepted, submitted with files, contested with evidence, then the agent withdrew: the owner
      // still sees that assignment's contest on the OPEN mission, nobody else does.
      const contested = await createMission(owner, input());
      await ok(act('accept', agent, contested.id));
      expect(
        (
          await upload(submitRoute, {
            token: agent.token,
            params: { id: contested.id },
            fields: { note: 'First cut.' },
            files: [{ filename: 'v1.png', content: png() }],
          })
        ).status,
      ).toBe(200);
      expect(
        (
          await upload(contestRoute, {
            token: owner.token,
            params: { id: contested.id },
            fields: { reason: 'Boxes are off.' },
            files: [{ filename: 'proof.png', content: png() }],
          })
        ).status,
      ).toBe(200);
      await ok(act('cancel', agent, contested.id));

      // Bumped with a higher reward.
      const bumped = await createMission(owner, input());
      await ok(act('bump', owner, bumped.id, { reward: '40000000' }));

      // Accepted, idle past the accept window, reopened by the owner.
      const reopened = await createMission(owner, input());
      await ok(act('accept', agent, reopened.id));
      await setTimes(reopened.id, { acceptedAt: past(7 * 86_400) });
      await ok(reopen(owner, reopened.id));

      // Leaving OPEN: cancelled; accepted; assigned from the applications; submitted; contested; completed.
      const cancelled = await createMission(owner, input());
      await ok(act('cancel', owner, cancelled.id));
      const accepted = await createMission(owner, input());
      await ok(act('accept', agent, accepted.id));
      const assigned = await createMission(owner, input({ assignment: 'APPLICATION' }));
      expect(
        (
          await call(applyRoute, {
            method: 'POST',
            token: agent.token,
            params: { id: assigned.id },
            body: { pitch: 'Done this before.' },
          })
        ).status,
      ).toBe(201);
      await ok(
        call(assignRoute, {
          method: 'POST',
          token: owner.token,
          params: { id: assigned.id },
          body: { agent: agent.address },
        }),
      );
      const submitted = await createMission(owner, input());
      await ok(act('accept', agent, submitted.id));
      await ok(act('submit', agent, submitted.id, { note: 'Done.' }));
      const stillContested = await createMission(owner, input());
      await ok(act('accept', agent, stillContested.id));
      await ok(act('submit', agent, stillContested.id, { note: 'Done.' }));
      await ok(act('contest', owner, stillContested.id, { reason: 'Not yet.' }));
      const completed = await createMission(owner, input());
      await ok(act('accept', agent, completed.id));
      await ok(act('submit', agent, completed.id, { note: 'Done.' }));
      await ok(act('approve', owner, completed.id));

      const open = [attached.body.id as string, withdrawn.id, contested.id, bumped.id, reopened.id];
      const stored = await storedListings(category);
      expect(
        stored
          .filter((m) => m.status === 'OPEN')
          .map((m) => m.id)
          .sort(),
      ).toEqual([...open].sort());
      for (const m of stored) {
        expect(m.current, `${m.status} mission ${m.id}: stored listing differs from missionJson`).toBe(true);
        expect(m.partiesCurrent, `${m.status} mission ${m.id}: stored parties' view differs from missionJson`).toBe(
          true,
        );
        expect(m.listing === null).toBe(m.status !== 'OPEN');
      }
      expect(new Set(stored.map((m) => m.status))).toEqual(
        new Set(['OPEN', 'CANCELLED', 'ACCEPTED', 'SUBMITTED', 'CONTESTED', 'COMPLETED']),
      );
      await expectMineIsTheViews(
        category,
        owner,
        'client',
        stored.map((m) => m.id),
      );
      await expectMineIsTheViews(category, agent, 'agent', [
        accepted.id,
        assigned.id,
        submitted.id,
        stillContested.id,
        completed.id,
      ]);

      // Anonymous, a signed-in stranger, the agent who withdrew, and the owner.
      await expectBoardIsTheViews(category, open, [undefined, stranger, agent, owner]);

      // The board exercised both sides: the owner's own view of the withdrawn contest, the stored one for others.
      const ownersPage = (await board(category, owner)).body.items as {
        id: string;
        contests: unknown[];
        attachments: unknown[];
        reward: string;
      }[];
      expect(ownersPage.find((m) => m.id === contested.id)?.contests).toHaveLength(1);
      const publicPage = (await board(category)).body.items as typeof ownersPage;
      expect(publicPage.find((m) => m.id === contested.id)?.contests).toEqual([]);
      expect(publicPage.find((m) => m.id === attached.body.id)?.attachments).toHaveLength(2);
      expect(publicPage.find((m) => m.id === bumped.id)?.reward).toBe('40000000');
    },
  );

  test(
    'behavior: attachments changed outside the routes, in the database itself, still leave ' + 'the listing current',
    async () => {
      const category = freshCategory();
      const owner = await newClient();
      const { tags, ...fields } = missionInput({ category });
      const created = await upload(createRoute, {
        token: owner.token,
        fields: { ...fields, tags: tags.join(',') } as Record<string, string>,
        files: [
          { filename: 'a.pdf', contentType: 'application/pdf', content: pdf() },
          { filename: 'b.png', contentType: 'image/png', content: png() },
        ],
      });
      expect(created.status).toBe(201);
      const id = created.body.id as string;
      const handle = await db();

      await handle
        .update(missionFiles)
        .set({ filename: 'renamed.pdf' })
        .where(and(eq(missionFiles.missionId, id), eq(missionFiles.filename, 'a.pdf')));
      let [row] = await storedListings(category);
      expect(row?.current).toBe(true);
      expect(row?.partiesCurrent).toBe(true);
      expect(
        JSON.parse(row!.listing!)
          .attachments.map((f: { filename: string }) => f.filename)
          .sort(),
      ).toEqual(['b.png', 'renamed.pdf']);

      await handle.delete(missionFiles).where(eq(missionFiles.missionId, id));
      [row] = await storedListings(category);
      expect(row?.current).toBe(true);
      expect(row?.partiesCurrent).toBe(true);
      expect(JSON.parse(row!.listing!).attachments).toEqual([]);
      await expectBoardIsTheViews(category, [id], [undefined, owner]);
    },
  );
});
