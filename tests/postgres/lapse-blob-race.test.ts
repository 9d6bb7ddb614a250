// docs/api.md#post-and-pay: the lapse deletes the stored bytes no other mission uses, never ones an
// upload of the same content is about to use. Real concurrency on a PostgreSQL server (read committed,
// foreign-key locks): another session holds the lapsing mission's row so the sweep is caught mid-way.
import { eq } from 'drizzle-orm';
import postgres from 'postgres';
import { describe, expect, test } from 'vitest';
import { POST as sweepRoute } from '@/app/api/cron/sweep/route';
import { POST as createRoute } from '@/app/api/missions/route';
import { getDb } from '@/lib/db/client';
import { missions } from '@/lib/db/schema';
import { useTestEnvironment } from '../support/environment';
import { call } from '../support/http';
import { blobExists, filesOf, missionInput } from '../support/missions';
import { type FilePart, png, sha256, upload } from '../support/multipart';
import { newWallet, signIn } from '../support/wallets';

useTestEnvironment({ WRITE_RATE_LIMIT_PER_MINUTE: '100000' });

const sweep = () =>
  call(sweepRoute, { method: 'POST', headers: { authorization: `Bearer ${process.env.CRON_SECRET}` } });

async function postUnfunded(files: FilePart[]) {
  const { token } = await signIn(newWallet());
  const { tags, ...fields } = missionInput();
  return upload(createRoute, { token, fields: { ...fields, tags: tags.join(',') }, files });
}

/** Waits until `n` sessions of this database wait for a lock. */
async function sessionsWaiting(other: postgres.Sql, n: number) {
  for (let i = 0; i < 200; i++) {
    const [row] = await other`select count(*)::int as waiting from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`;
    if (row!.waiting >= n) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`never saw ${n} sessions waiting for a lock`);
}

describe('the lapse and an upload of the same file at once', () => {
  test('an upload arriving while the lapse deletes the bytes waits, stores them again and succeeds', async () => {
    const file = { filename: 'same.png', contentType: 'image/png', content: png() };
    const lapsing = await postUnfunded([file]);
    expect(lapsing.body.status).toBe('AWAITING_FUNDING');
    const id = lapsing.body.id as string;
    await (await getDb())
      .update(missions)
      .set({ createdAt: new Date(Date.now() - 25 * 3_600_000) })
      .where(eq(missions.id, id));
    const other = postgres(process.env.DATABASE_URL!, { max: 2, onnotice: () => {} });
    try {
      // Another session holds the mission's row: the sweep locks the bytes, then waits to delete the mission.
      const session = await other.reserve();
      await session`begin`;
      await session`select id from missions where id = ${id} for update`;
      const swept = sweep();
      await sessionsWaiting(other, 1);
      // The same content uploaded now reaches the bytes the sweep is deleting.
      const uploaded = postUnfunded([file]);
      await sessionsWaiting(other, 2);
      await session`commit`;
      session.release();
      expect((await swept).status).toBe(200);
      const again = await uploaded;
      expect(again.status).toBe(201);
      const [stored] = await filesOf(again.body.id);
      expect(stored).toMatchObject({ sha256: sha256(file.content) });
      expect(await blobExists(sha256(file.content))).toBe(true);
      expect((await (await getDb()).select().from(missions).where(eq(missions.id, id))).length).toBe(0);
    } finally {
      await other.end();
    }
  });

  test('a lapse reaching bytes an upload has just found waits for it, then keeps them', async () => {
    const file = { filename: 'kept.png', contentType: 'image/png', content: png() };
    const lapsing = await postUnfunded([file]);
    const id = lapsing.body.id as string;
    await (await getDb())
      .update(missions)
      .set({ createdAt: new Date(Date.now() - 25 * 3_600_000) })
      .where(eq(missions.id, id));
    const other = postgres(process.env.DATABASE_URL!, { max: 2, onnotice: () => {} });
    try {
      // Another session holds the event log: an upload stops after linking its files, before its event.
      const session = await other.reserve();
      await session`begin`;
      await session`lock table mission_events in share mode`;
      const uploaded = postUnfunded([file]);
      await sessionsWaiting(other, 1);
      // The sweep reaches the bytes the upload has found and uses.
      const swept = sweep();
      await sessionsWaiting(other, 2);
      await session`commit`;
      session.release();
      const again = await uploaded;
      expect(again.status).toBe(201);
      expect((await swept).status).toBe(200);
      expect((await (await getDb()).select().from(missions).where(eq(missions.id, id))).length).toBe(0);
      expect(await blobExists(sha256(file.content))).toBe(true);
      expect((await filesOf(again.body.id)).map((f) => f.sha256)).toEqual([sha256(file.content)]);
    } finally {
      await other.end();
    }
  });
});
