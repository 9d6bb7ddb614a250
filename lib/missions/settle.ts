// The sweep's part of the missions (docs/api.md#sweep): complete SUBMITTED missions whose review window
// is over. Each one is its own conditional transition, so concurrent sweeps never complete (or
// pay) a mission twice; one losing the race simply counts it as not its own.
import 'server-only';
import { and, asc, eq, lte } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { missions } from '../db/schema';
import { settle } from './views';

const BATCH = 200;
// A bound on one run's work; whatever is left, the next run completes.
const MAX_BATCHES = 50;

export async function settleExpiredMissions(db: Db, cfg: Config, now: Date): Promise<{ completed: number }> {
  let completed = 0;
  for (let batch = 0; batch < MAX_BATCHES; batch += 1) {
    const due = await db
      .select({ id: missions.id })
      .from(missions)
      .where(and(eq(missions.status, 'SUBMITTED'), lte(missions.reviewDeadline, now)))
      .orderBy(asc(missions.reviewDeadline))
      .limit(BATCH);
    for (const { id } of due) if (await settle(db, cfg, id, now)) completed += 1;
    if (due.length < BATCH) break;
  }
  return { completed };
}
