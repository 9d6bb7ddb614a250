// The sweep finds a due mission by SQL (lib/missions/due-transitions.ts) and a read by `dueAction`
// (lib/missions/transitions.ts): over generated missions, the two name exactly the same ones.
import { and, eq, inArray } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { getDb } from '@/lib/db/client';
import { missions } from '@/lib/db/schema';
import { MISSION_STATUSES } from '@/lib/fields';
import { DUE } from '@/lib/missions/due-transitions';
import { dueAction } from '@/lib/missions/transitions';
import { useTestEnvironment } from '../support/environment';
import { newClient } from '../support/missions';
import { runs } from '../support/fuzz/budget';

useTestEnvironment();

const NOW = new Date('2030-06-01T12:00:00Z');
// Around now, to the second either side: the boundaries are where the two could disagree.
const near = fc.integer({ min: -3, max: 3 }).map((s) => new Date(NOW.getTime() + s * 1000));

// Only bounties are ever JUDGING or AWARDED (docs/api.md#bounties).
const BOUNTY_ONLY: readonly string[] = ['JUDGING', 'AWARDED'];
const stateArb = fc
  .record({
    status: fc.constantFrom(...MISSION_STATUSES),
    assignmentMode: fc.constantFrom('FIRST_COME', 'APPLICATION', 'BOUNTY' as const),
  })
  .filter((m) => m.assignmentMode === 'BOUNTY' || !BOUNTY_ONLY.includes(m.status));

const missionArb = fc.record({
  state: stateArb,
  deadline: near,
  reviewDeadline: fc.option(near, { nil: null }),
  entryCount: fc.integer({ min: 0, max: 2 }),
});

describe('due missions', () => {
  test('property: the sweep SQL finds a mission due exactly when dueAction names an action', async () => {
    const db = await getDb();
    const client = await newClient();
    await fc.assert(
      fc.asyncProperty(fc.array(missionArb, { minLength: 1, maxLength: 12 }), async (generated) => {
        const rows = await db
          .insert(missions)
          .values(
            generated.map(({ state, ...m }) => ({
              ...state,
              ...m,
              clientId: client.id,
              title: 'Due or not',
              description: 'A generated mission',
              category: 'data',
              reward: '1',
              feeBps: 0,
              listedAt: NOW,
              createdAt: NOW,
              updatedAt: NOW,
            })),
          )
          .returning({ id: missions.id });
        const ids = rows.map((r) => r.id);
        const found = new Set<string>();
        for (const dueAt of DUE) {
          const due = await db
            .select({ id: missions.id })
            .from(missions)
            .where(and(dueAt(NOW).where, inArray(missions.id, ids)));
          for (const { id } of due) found.add(id);
        }
        const expected = ids.filter(
          (_, i) => dueAction({ ...generated[i]!, ...generated[i]!.state }, NOW) !== undefined,
        );
        await db.delete(missions).where(eq(missions.clientId, client.id));
        expect([...found].sort()).toEqual(expected.sort());
      }),
      runs(60),
    );
  });
});
