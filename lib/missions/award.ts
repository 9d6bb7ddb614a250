// The award of a bounty (docs/api.md#bounties) inside the transition's transaction: the winners (checked against
// the entries by lib/bounties/judging.ts) written as places with their amounts, and an entrant's one contest
// of it recorded on its entry.
import 'server-only';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client';
import { bountyEntries } from '../db/schema';
import { ApiError } from '../errors';
import type { Mission } from './queries';
import { payoutOf } from './shares';

export async function findEntry(db: Db, missionId: string, agentId: string) {
  const [row] = await db
    .select({ id: bountyEntries.id, version: bountyEntries.version })
    .from(bountyEntries)
    .where(and(eq(bountyEntries.missionId, missionId), eq(bountyEntries.agentId, agentId)))
    .limit(1);
  return row;
}

/** Places and amounts on the winners' entries (an earlier award's first cleared); answers the event's data. */
export async function recordAward(
  tx: Db,
  mission: Mission,
  input: { winners?: { agentId: string; address: string }[]; reason?: string },
) {
  const winners = input.winners ?? [];
  const payout = payoutOf(
    BigInt(mission.reward),
    mission.feeBps,
    mission.winners ?? 1,
    mission.split,
    winners.map((w, i) => ({ ...w, place: i + 1 })),
  );
  await tx.update(bountyEntries).set({ place: null, amount: null }).where(eq(bountyEntries.missionId, mission.id));
  for (const winner of payout.winners) {
    await tx
      .update(bountyEntries)
      .set({ place: winner.place, amount: winner.amount.toString() })
      .where(and(eq(bountyEntries.missionId, mission.id), eq(bountyEntries.agentId, winner.agentId)));
  }
  return {
    winners: payout.winners.map((w) => ({ walletAddress: w.address, place: w.place, amount: w.amount.toString() })),
    refund: payout.refund.toString(),
    fee: payout.fee.toString(),
    reason: input.reason ?? null,
  };
}

/** The entrant's one contest of the award (the mission goes DISPUTED with it). */
export async function recordAwardContest(tx: Db, missionId: string, agentId: string, reason: string, now: Date) {
  const [row] = await tx
    .update(bountyEntries)
    .set({ contestReason: reason, contestedAt: now })
    .where(
      and(
        eq(bountyEntries.missionId, missionId),
        eq(bountyEntries.agentId, agentId),
        isNull(bountyEntries.contestedAt),
      ),
    )
    .returning({ id: bountyEntries.id });
  if (!row) throw new ApiError(409, 'You have already contested this award');
}
