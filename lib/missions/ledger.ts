// Every movement of a mission's reward, in one place. Completing a mission credits the agent's
// earnings with the reward less the fee agreed at posting; with the escrow (a mission funded
// on-chain) it also writes the outbox row that releases the task to the agent, and cancelling one
// writes the row that refunds it. Each runs inside the transaction of the state change that
// causes it, so both happen or neither. (Funding and top-ups are checked on-chain before that
// transaction: lib/missions/funding.ts.)
import 'server-only';
import type { Db } from '../db/client';
import { agentEarnings, bountyEntries, type MissionRow, users } from '../db/schema';
import { payoutOf, placeShares } from './bounties/shares';
import { and, asc, eq, isNotNull } from 'drizzle-orm';
import { enqueueRefund, enqueueRelease, enqueueSplit, supersedeSettlements } from '../settlements/enqueue';

type Funded = Pick<MissionRow, 'id' | 'clientId' | 'agentId' | 'reward' | 'feeBps' | 'onChainTaskId' | 'escrow'>;
type Bounty = Funded & Pick<MissionRow, 'winners' | 'split'>;

const BPS = 10_000n;

/** The fee and the agent's share of a reward; the fee rounds down, in the agent's favour. */
export function splitReward(reward: bigint, feeBps: number): { fee: bigint; net: bigint } {
  const fee = (reward * BigInt(feeBps)) / BPS;
  return { fee, net: reward - fee };
}

/** A new mission's reward is set aside. Bookkeeping: nothing to move. */
export async function fund(_tx: Db, _mission: Funded): Promise<void> {}

/** A bump raised the reward. Bookkeeping: nothing to move. */
export async function topUp(_tx: Db, _mission: Funded, _from: bigint, _to: bigint): Promise<void> {}

/** COMPLETED: the agent is credited the reward less the fee; the unique mission id makes it once only. */
export async function release(tx: Db, mission: Funded, now: Date): Promise<Record<string, string>> {
  if (!mission.agentId) throw new Error(`mission ${mission.id} completed without an agent`);
  const reward = BigInt(mission.reward);
  const { fee, net } = splitReward(reward, mission.feeBps);
  await tx.insert(agentEarnings).values({
    agentId: mission.agentId,
    missionId: mission.id,
    gross: reward.toString(),
    fee: fee.toString(),
    amount: net.toString(),
    feeBps: mission.feeBps,
    createdAt: now,
  });
  await enqueueRelease(tx, mission, net);
  return { gross: reward.toString(), fee: fee.toString(), net: net.toString() };
}

/**
 * A bounty COMPLETED (docs/api.md#bounties): each winner is credited its place (gross, its part of the fee,
 * net), and one releaseSplit pays the winners and refunds the client the unawarded places — the
 * fee on the whole, the sum exact (bounties/shares.ts).
 */
export async function releaseSplit(tx: Db, mission: Bounty, now: Date): Promise<Record<string, unknown>> {
  const reward = BigInt(mission.reward);
  const places = mission.winners ?? 1;
  const awarded = await tx
    .select({ agentId: bountyEntries.agentId, address: users.walletAddress, place: bountyEntries.place })
    .from(bountyEntries)
    .innerJoin(users, eq(users.id, bountyEntries.agentId))
    .where(and(eq(bountyEntries.missionId, mission.id), isNotNull(bountyEntries.place)))
    .orderBy(asc(bountyEntries.place));
  const payout = payoutOf(
    reward,
    mission.feeBps,
    places,
    mission.split,
    awarded.map((w) => ({ ...w, place: w.place! })),
  );
  const shares = placeShares(reward, mission.feeBps, places, mission.split).places;
  for (const winner of payout.winners) {
    const share = shares[winner.place - 1]!;
    await tx.insert(agentEarnings).values({
      agentId: winner.agentId,
      missionId: mission.id,
      gross: share.gross.toString(),
      fee: share.fee.toString(),
      amount: winner.amount.toString(),
      feeBps: mission.feeBps,
      createdAt: now,
    });
  }
  await enqueueSplit(tx, mission, payout.winners, payout.refund);
  return {
    winners: payout.winners.map((w) => ({ walletAddress: w.address, place: w.place, amount: w.amount.toString() })),
    // Who they are, for the winners' own earnings.released (webhooks); the event log keeps it too.
    winnerIds: payout.winners.map((w) => w.agentId),
    refund: payout.refund.toString(),
    fee: payout.fee.toString(),
  };
}

/**
 * Reclaimed on-chain by the client: whatever this mission still owed is void — the agent's unpaid
 * credit and every settlement not yet mined (docs/api.md#escrow). A mined release never gets here: the
 * task would not have been open for the client to reclaim.
 */
export async function reclaim(tx: Db, mission: Funded): Promise<void> {
  await tx.delete(agentEarnings).where(eq(agentEarnings.missionId, mission.id));
  await supersedeSettlements(tx, mission.id);
}

/** CANCELLED: the reward goes back to the client (on-chain: the escrow refunds the task). */
export async function refund(tx: Db, mission: Funded): Promise<void> {
  await enqueueRefund(tx, mission);
}
