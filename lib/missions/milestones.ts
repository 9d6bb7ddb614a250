// A milestone mission's parts (docs/api.md#milestones): written at posting, then each transition of the
// milestone at hand (missions.milestone) writes that one's row — its status follows the mission's, its
// review window and contest rounds are its own — and its approval releases its amount alone.
import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { type MilestoneRow, type MilestoneStatus, missionMilestones, missions } from '../db/schema';
import type { Mission } from './queries';

export async function insertMilestones(
  tx: Db,
  missionId: string,
  milestones: readonly { title: string; amount: bigint; criteria?: string }[],
): Promise<void> {
  await tx.insert(missionMilestones).values(
    milestones.map((m, i) => ({
      missionId,
      number: i + 1,
      title: m.title,
      amount: m.amount.toString(),
      criteria: m.criteria ?? null,
    })),
  );
}

/** The milestone at hand of a milestone mission (the row the transition acts on). */
export async function milestoneAtHand(tx: Db, mission: Pick<Mission, 'id' | 'milestone'>): Promise<MilestoneRow> {
  const [row] = await tx
    .select()
    .from(missionMilestones)
    .where(and(eq(missionMilestones.missionId, mission.id), eq(missionMilestones.number, mission.milestone ?? 0)))
    .limit(1);
  if (!row) throw new Error(`mission ${mission.id} has no milestone ${mission.milestone}`);
  return row;
}

/** The milestone at hand takes the state the mission reached: its submission, contest or dispute. */
export async function recordMilestoneState(tx: Db, before: Mission, after: Mission, now: Date): Promise<number> {
  const number = before.milestone!;
  const status: MilestoneStatus =
    after.status === 'SUBMITTED' || after.status === 'CONTESTED' || after.status === 'DISPUTED'
      ? after.status
      : 'PENDING';
  await tx
    .update(missionMilestones)
    .set({
      status,
      reviewDeadline: after.reviewDeadline,
      contestCount: after.milestoneContestCount,
      ...(status === 'SUBMITTED' ? { submittedAt: now } : {}),
    })
    .where(and(eq(missionMilestones.missionId, before.id), eq(missionMilestones.number, number)));
  return number;
}

/** The milestone at hand is approved: its whole amount released; the mission's `released` grows by it. */
export async function approveMilestone(tx: Db, before: Mission, now: Date): Promise<MilestoneRow> {
  const row = await milestoneAtHand(tx, before);
  await tx
    .update(missionMilestones)
    .set({ status: 'APPROVED', releasedAmount: row.amount, reviewDeadline: null, approvedAt: now })
    .where(eq(missionMilestones.id, row.id));
  await tx
    .update(missions)
    .set({ released: sql`${missions.released} + ${row.amount}::numeric` })
    .where(eq(missions.id, before.id));
  return row;
}

/** An agent left (withdraw, reopen): the milestone at hand starts over for the next one. */
export async function resetMilestone(tx: Db, before: Mission): Promise<void> {
  await tx
    .update(missionMilestones)
    .set({ status: 'PENDING', reviewDeadline: null, contestCount: 0, submittedAt: null })
    .where(and(eq(missionMilestones.missionId, before.id), eq(missionMilestones.number, before.milestone ?? 0)));
}
