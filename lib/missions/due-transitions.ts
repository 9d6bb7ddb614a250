// The sweep's part of the missions (docs/api.md#sweep, docs/api.md#bounties): complete SUBMITTED missions whose review
// window is over; close bounties past their deadline (judge or lapse), escalate unawarded ones and
// complete awarded ones whose windows are over. Each one is its own conditional transition, so
// concurrent sweeps never move (or pay) a mission twice; one losing the race counts it as not its own.
import 'server-only';
import { and, asc, eq, inArray, lte, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { missions } from '../db/schema';
import { ApiError } from '../errors';
import { applyTransition } from './apply-transition';
import { dueAction } from './transitions';
import { SYSTEM } from './visibility';

const BATCH = 200;
// A bound on one run's work; whatever is left, the next run completes.
const MAX_BATCHES = 50;

// Each kind of due mission with the time that makes it due — the SQL side of `dueAction`
// (transitions.ts), which tests/integration/due-transitions.test.ts holds it to: separate statements, so each keeps
// its index (the SUBMITTED one the partial missions_review_due_idx, the open bounties the status/deadline one).
export const DUE: ((now: Date) => { where: SQL; time: AnyPgColumn })[] = [
  (now) => ({
    where: and(eq(missions.status, 'SUBMITTED'), lte(missions.reviewDeadline, now))!,
    time: missions.reviewDeadline,
  }),
  (now) => ({
    where: and(eq(missions.status, 'OPEN'), lte(missions.deadline, now), eq(missions.assignmentMode, 'BOUNTY'))!,
    time: missions.deadline,
  }),
  (now) => ({
    where: and(inArray(missions.status, ['JUDGING', 'AWARDED']), lte(missions.reviewDeadline, now))!,
    time: missions.reviewDeadline,
  }),
];

export async function applyDueTransitions(db: Db, cfg: Config, now: Date): Promise<{ completed: number }> {
  let completed = 0;
  for (const dueAt of DUE) {
    const { where, time } = dueAt(now);
    for (let batch = 0; batch < MAX_BATCHES; batch += 1) {
      const rows = await db.select({ id: missions.id }).from(missions).where(where).orderBy(asc(time)).limit(BATCH);
      for (const { id } of rows) if (await applyDue(db, cfg, id, now)) completed += 1;
      if (rows.length < BATCH) break;
    }
  }
  return { completed };
}

/**
 * Does what time alone does to one mission now (transitions.ts dueAction: a review window over, a
 * bounty's deadline or windows); nothing due or a concurrent sweep winning is fine.
 */
export async function applyDue(db: Db, cfg: Config, id: string, now: Date): Promise<boolean> {
  try {
    await applyTransition(db, cfg, (m) => dueAction(m, now) ?? 'expire', id, SYSTEM, {}, now);
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) return false;
    throw error;
  }
}
