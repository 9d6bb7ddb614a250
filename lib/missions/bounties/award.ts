// The award of a bounty (docs/api.md#bounties): the client's (or, once DISPUTED, the operator's) winners are
// checked against the entries, written as places with their amounts inside the transition's
// transaction, and an entrant's one contest of it recorded on its entry.
import 'server-only';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { bountyEntries, users } from '../../db/schema';
import { ApiError } from '../../errors';
import type { Mission } from '../queries';
import { payoutOf } from './shares';
import type { AwardInput } from './schemas';

export async function findEntry(db: Db, missionId: string, agentId: string) {
  const [row] = await db
    .select({ id: bountyEntries.id, version: bountyEntries.version })
    .from(bountyEntries)
    .where(and(eq(bountyEntries.missionId, missionId), eq(bountyEntries.agentId, agentId)))
    .limit(1);
  return row;
}

/**
 * The winners as entrants, in place order: at most the bounty's places, each once, each one who
 * entered; fewer than the places need a reason (the client must say why it keeps a share).
 */
export async function resolveWinners(db: Db, mission: Pick<Mission, 'id' | 'winners'>, input: AwardInput) {
  const places = mission.winners ?? 1;
  const problems: string[] = [];
  if (input.winners.length > places) problems.push(`winners: at most ${places}, the bounty's places`);
  if (new Set(input.winners).size !== input.winners.length) problems.push('winners: each entrant at most once');
  if (input.winners.length < places && !input.reason)
    problems.push(`reason: required when fewer than ${places} places are awarded`);
  const rows =
    input.winners.length === 0
      ? []
      : await db
          .select({ agentId: bountyEntries.agentId, address: users.walletAddress })
          .from(bountyEntries)
          .innerJoin(users, eq(users.id, bountyEntries.agentId))
          .where(and(eq(bountyEntries.missionId, mission.id), inArray(users.walletAddress, input.winners)));
  const byAddress = new Map(rows.map((row) => [row.address, row]));
  input.winners.forEach((address, i) => {
    if (!byAddress.has(address)) problems.push(`winners.${i}: ${address} did not enter this bounty`);
  });
  if (problems.length > 0) throw new ApiError(400, 'Validation failed', problems);
  return input.winners.map((address) => byAddress.get(address)!);
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
