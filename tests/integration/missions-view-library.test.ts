// The mission views PostgreSQL writes (lib/board/present.ts) against the library path they
// replaced — Drizzle selects the rows and files, JavaScript presents them
// (tests/support/mission-list-js.ts, what `npm run bench:libraries` measures
// them against): for any missions, files and contests, every viewer's page is the same document.
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, test } from 'vitest';
import { config } from '@/lib/config';
import { fileBlobs, missionContests, missionFiles, missions } from '@/lib/db/schema';
import { listMissions } from '@/lib/board/list';
import { listQuerySchema } from '@/lib/missions/schemas';
import type { Viewer } from '@/lib/missions/visibility';
import { listMissions as listWithLibrary } from '@/tests/support/mission-list-js';
import { BOOKKEEPING, useTestEnvironment } from '../support/environment';
import { db, newAgent, newClient, type Party, withoutClientStats } from '../support/missions';
import { runs } from '../support/fuzz/budget';

useTestEnvironment(BOOKKEEPING);

// Text PostgreSQL stores as given: any Unicode but NUL.
const text = (maxLength: number) => fc.string({ unit: 'grapheme', maxLength }).map((s) => s.replace(/\0/g, ''));
const time = fc.date({
  min: new Date('2020-01-01T00:00:00Z'),
  max: new Date('2030-12-31T23:59:59Z'),
  noInvalidDate: true,
});
const small = fc.integer({ min: 0, max: 3 });

const fileArb = fc.record({
  kind: fc.constantFrom('ATTACHMENT', 'DELIVERABLE', 'EVIDENCE' as const),
  assignment: small,
  round: small,
  filename: text(30),
  contentType: fc.constantFrom('application/pdf', 'image/png', 'text/plain'),
  size: fc.integer({ min: 0, max: 10_000_000 }),
  position: small,
  createdAt: time,
});

const missionArb = fc.record({
  title: text(40),
  description: text(80),
  tags: fc.array(text(12), { maxLength: 4 }),
  reward: fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String),
  status: fc.constantFrom('OPEN', 'ACCEPTED', 'SUBMITTED', 'CONTESTED', 'DISPUTED', 'COMPLETED', 'CANCELLED' as const),
  assignmentMode: fc.constantFrom('FIRST_COME', 'APPLICATION' as const),
  withAgent: fc.boolean(),
  // The id is unique across the table: drawn from a counter, not by fast-check (whose shrinking repeats values).
  onChainTask: fc.boolean(),
  assignment: small,
  submissionCount: small,
  submissionNote: fc.option(text(40), { nil: null }),
  bumpCount: small,
  times: fc.record({
    deadline: time,
    listedAt: time,
    createdAt: time,
    updatedAt: time,
    bumpedAt: fc.option(time, { nil: null }),
    acceptedAt: fc.option(time, { nil: null }),
    submittedAt: fc.option(time, { nil: null }),
    completedAt: fc.option(time, { nil: null }),
    cancelledAt: fc.option(time, { nil: null }),
  }),
  // Never past: listing `mine` settles an expired review window, which is not what is compared.
  reviewDeadline: fc.option(
    fc.date({ min: new Date('2031-01-01T00:00:00Z'), max: new Date('2035-01-01T00:00:00Z'), noInvalidDate: true }),
    { nil: null },
  ),
  files: fc.array(fileArb, { maxLength: 5 }),
  contests: fc.uniqueArray(fc.record({ assignment: small, round: small, reason: text(40), createdAt: time }), {
    maxLength: 3,
    selector: (c) => `${c.assignment}/${c.round}`,
  }),
});

let client: Party;
let agent: Party;
const sha256 = randomBytes(32).toString('hex');
let nextTaskId = 2 ** 40 + randomBytes(4).readUInt32BE();

beforeAll(async () => {
  [client, agent] = await Promise.all([newClient(), newAgent()]);
  await (await db())
    .insert(fileBlobs)
    .values({ sha256, size: 1, bytes: Buffer.from('x') })
    .onConflictDoNothing();
});

describe('mission views written by PostgreSQL', () => {
  test('behavior: any missions, files and contests give every viewer the page the Drizzle rows ' +
    'and JavaScript presenter give', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(missionArb, { minLength: 1, maxLength: 6 }), async (generated) => {
        const handle = await db();
        // Each run lists its own category, so earlier runs' missions never show up.
        const category = `view-${randomBytes(6).toString('hex')}`;
        for (const m of generated) {
          const [row] = await handle
            .insert(missions)
            .values({
              clientId: client.id,
              agentId: m.withAgent ? agent.id : null,
              title: m.title,
              description: m.description,
              category,
              tags: m.tags,
              reward: m.reward,
              feeBps: 250,
              status: m.status,
              assignmentMode: m.assignmentMode,
              onChainTaskId: m.onChainTask ? nextTaskId++ : null,
              assignment: m.assignment,
              submissionCount: m.submissionCount,
              submissionNote: m.submissionNote,
              reviewDeadline: m.reviewDeadline,
              bumpCount: m.bumpCount,
              ...m.times,
            })
            .returning({ id: missions.id });
          if (m.files.length)
            await handle
              .insert(missionFiles)
              .values(m.files.map((f) => ({ ...f, missionId: row!.id, sha256, uploaderId: client.id })));
          if (m.contests.length)
            await handle.insert(missionContests).values(m.contests.map((c) => ({ ...c, missionId: row!.id })));
        }
        const cfg = config();
        const now = new Date();
        const pages: [Record<string, string>, Viewer][] = [
          [{ category }, { kind: 'anonymous' }],
          [{ category }, { kind: 'user', id: agent.id, role: 'AGENT' }],
          [
            { category, mine: 'client' },
            { kind: 'user', id: client.id, role: 'CLIENT' },
          ],
          [
            { category, mine: 'agent' },
            { kind: 'user', id: agent.id, role: 'AGENT' },
          ],
          [
            { category, mine: 'client', sort: 'reward' },
            { kind: 'user', id: client.id, role: 'CLIENT' },
          ],
        ];
        for (const [params, viewer] of pages) {
          const query = listQuerySchema.parse({ ...params, limit: '100' });
          const page = JSON.parse(await listMissions(handle, cfg, query, viewer, now));
          const ours = { ...page, items: page.items.map(withoutClientStats) };
          const library = JSON.parse(await listWithLibrary(handle, cfg, query, viewer, now));
          expect(ours).toStrictEqual(library);
        }
      }),
      runs(30),
    );
  }, 120_000);
});
