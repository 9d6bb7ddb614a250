// Bounties under real concurrency (docs/api.md#bounties): fifty agents entering in the last second before the
// deadline — every entry answered 201 is stored, stamped before the deadline and counted, every
// other is a 409 and left no trace; the deadline closes the bounty for good.
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, test } from 'vitest';
import { bountyEntries, missionFiles } from '@/lib/db/schema';
import { BOOKKEEPING, useTestEnvironment } from '../support/environment';
import { db, getMission, missionRow, newAgent, newClient, type Party } from '../support/missions';
import { createBounty, enter, entriesOf } from '../support/bounties';

useTestEnvironment({ ...BOOKKEEPING, WRITE_RATE_LIMIT_PER_MINUTE: '100000' });

const AGENTS = 50;
let agents: Party[];
beforeAll(async () => {
  agents = [];
  // In small batches: each sign-in mints a passport on the worker's anvil.
  for (let i = 0; i < AGENTS; i += 10)
    agents.push(...(await Promise.all(Array.from({ length: 10 }, () => newAgent()))));
}, 180_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

describe('the last second before the deadline', () => {
  test('behavior: 50 agents enter between 1 s before and 0.3 s after the deadline — every 201 ' +
    'is stored before the deadline, none after', async () => {
    const client = await newClient();
    const deadline = new Date(Date.now() + 2_500);
    const { id } = await createBounty(client, { deadline: deadline.toISOString(), winners: 3 });
    // Spread over [deadline − 1000 ms, deadline + 300 ms], all in flight at once around the deadline.
    const results = await Promise.all(
      agents.map(async (agent, i) => {
        await sleep(deadline.getTime() - 1_000 + (i * 1_300) / AGENTS - Date.now());
        const sentAt = Date.now();
        const response = await enter(agent, id, `entry ${i}`);
        return { agent, sentAt, status: response.status };
      }),
    );
    const accepted = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status !== 201);
    expect(
      refused.every((r) => r.status === 409),
      JSON.stringify(refused.map((r) => r.status)),
    ).toBe(true);
    // Entries sent after the deadline are always refused; some sent before it are accepted.
    expect(results.filter((r) => r.sentAt > deadline.getTime()).every((r) => r.status === 409)).toBe(true);
    expect(accepted.length).toBeGreaterThan(0);

    const rows = await (await db()).select().from(bountyEntries).where(eq(bountyEntries.missionId, id));
    expect(rows.map((r) => r.agentId).sort()).toEqual(accepted.map((r) => r.agent.id).sort());
    for (const row of rows) expect(row.createdAt.getTime()).toBeLessThan(deadline.getTime());
    expect((await missionRow(id)).entryCount).toBe(accepted.length);
    // The refused left nothing behind: no entry, no file.
    const files = await (await db()).select().from(missionFiles).where(eq(missionFiles.missionId, id));
    expect(files).toEqual([]);

    // After the deadline: JUDGING with exactly those entries, and no way in.
    expect((await getMission(client, id)).body).toMatchObject({
      status: 'JUDGING',
      bounty: { entries: accepted.length },
    });
    expect((await entriesOf(client, id, '?limit=100')).body.items).toHaveLength(accepted.length);
    expect((await enter(accepted[0]!.agent, id, 'late')).status).toBe(409);
    // One who never got in no longer even sees the bounty.
    if (refused[0]) expect((await enter(refused[0].agent, id, 'late')).status).toBe(404);
  }, 60_000);
});
