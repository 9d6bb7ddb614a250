// Leaderboard pages kept per instance. Ranking aggregates every ledger credit (tens of ms at
// 100,000 missions) and the board is read far more often than it changes. A page stays valid while
// no mission event has been written since it was computed — every accept and every completion
// writes one, and the newest id is one index probe — and for at most 30 s, which also bounds what
// that mark cannot see: a new display name, or a slow transaction committing an older id.
import 'server-only';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { missionEvents } from '../db/schema';

const MAX_AGE_MS = 30_000;
const MAX_PAGES = 256;

interface Memo<T> {
  mark: string | null;
  pages: Map<string, { at: number; page: Promise<T> }>;
}

// Per database handle, so a test file or a dev reload with another database never sees these.
const memos = new WeakMap<Db, Memo<unknown>>();

export async function rememberPage<T>(db: Db, key: string, now: Date, compute: () => Promise<T>): Promise<T> {
  const [latest] = await db.select({ id: sql<string | null>`max(${missionEvents.id})::text` }).from(missionEvents);
  const mark = latest?.id ?? null;
  let memo = memos.get(db) as Memo<T> | undefined;
  if (!memo || memo.mark !== mark) {
    memo = { mark, pages: new Map() };
    memos.set(db, memo);
  }
  const hit = memo.pages.get(key);
  if (hit && now.getTime() - hit.at < MAX_AGE_MS) return hit.page;
  if (memo.pages.size >= MAX_PAGES) memo.pages.clear();
  // The promise is kept, so concurrent misses share one computation; a failure is not kept.
  const page = compute();
  const pages = memo.pages;
  pages.set(key, { at: now.getTime(), page });
  page.catch(() => {
    if (pages.get(key)?.page === page) pages.delete(key);
  });
  return page;
}
