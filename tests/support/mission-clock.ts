// Puts a mission's history at chosen instants: its row's times, its events and its ledger credit.
// The API stamps everything with the real clock, and figures by period (leaderboard windows,
// analytics buckets across a month boundary) need missions that happened weeks ago — so the
// missions are made through the API first, then moved here with direct Drizzle updates.
import { and, eq, inArray } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { agentEarnings, missionEvents, missions } from '@/lib/db/schema';

export interface MissionTimes {
  createdAt?: Date;
  acceptedAt?: Date;
  completedAt?: Date;
  /** Every event of the mission (when one instant is enough, e.g. "all of it 31 days ago"). */
  eventsAt?: Date;
}

const COMPLETIONS = ['approve', 'expire', 'resolveComplete'];

export async function setMissionTimes(id: string, times: MissionTimes): Promise<void> {
  const db = await getDb();
  const row: Partial<typeof missions.$inferInsert> = {};
  if (times.createdAt) Object.assign(row, { createdAt: times.createdAt, listedAt: times.createdAt });
  if (times.acceptedAt) row.acceptedAt = times.acceptedAt;
  if (times.completedAt) row.completedAt = times.completedAt;
  if (Object.keys(row).length > 0) await db.update(missions).set(row).where(eq(missions.id, id));
  if (times.eventsAt)
    await db.update(missionEvents).set({ createdAt: times.eventsAt }).where(eq(missionEvents.missionId, id));
  if (times.createdAt) await moveEvents(id, ['create'], times.createdAt);
  if (times.acceptedAt) await moveEvents(id, ['accept'], times.acceptedAt);
  if (times.completedAt) {
    await moveEvents(id, COMPLETIONS, times.completedAt);
    await db.update(agentEarnings).set({ createdAt: times.completedAt }).where(eq(agentEarnings.missionId, id));
  }
}

async function moveEvents(id: string, actions: string[], at: Date) {
  const db = await getDb();
  await db
    .update(missionEvents)
    .set({ createdAt: at })
    .where(and(eq(missionEvents.missionId, id), inArray(missionEvents.action, actions)));
}

export const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);

/**
 * Puts each of the mission's events of `action` at one instant (the nth of them at `at[n]`): a decision's
 * time since its submission, for figures that read the log (docs/api.md#client-record).
 */
export async function setEventTimes(id: string, action: string, at: Date[]): Promise<void> {
  const db = await getDb();
  const events = await db
    .select({ id: missionEvents.id })
    .from(missionEvents)
    .where(and(eq(missionEvents.missionId, id), eq(missionEvents.action, action)))
    .orderBy(missionEvents.id);
  for (const [n, event] of events.entries()) {
    if (at[n]) await db.update(missionEvents).set({ createdAt: at[n] }).where(eq(missionEvents.id, event.id));
  }
}
