// Every movement of a mission's reward, in one place. Completing a mission credits the agent's
// earnings with the reward less the fee agreed at posting; with the escrow (a mission funded
// on-chain) it also writes the outbox row that releases the task to the agent, and cancelling one
// writes the row that refunds it. Each runs inside the transaction of the state change that
// causes it, so both happen or neither. (Funding and top-ups are checked on-chain before that
// transaction: lib/funding/verify.ts.)
import 'server-only';
import type { Db } from '../db/client';
import {
  agentEarnings,
  bountyEntries,
  type MilestoneRow,
  missionMilestones,
  missions,
  type MissionRow,
  settlements,
  users,
} from '../db/schema';
import { payoutOf, placeShares } from './shares';
import { and, asc, eq, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import {
  enqueuePart,
  enqueueRefund,
  enqueueRelease,
  enqueueSettle,
  enqueueSplit,
  supersedeSettlements,
} from '../settlements/enqueue';

type Funded = Pick<
  MissionRow,
  'id' | 'clientId' | 'agentId' | 'reward' | 'feeBps' | 'onChainTaskId' | 'escrow' | 'released'
>;
type Bounty = Funded & Pick<MissionRow, 'winners' | 'split'>;

const BPS = 10_000n;

/** The fee and the agent's share of a reward; the fee rounds down, in the agent's favour. */
export function splitReward(reward: bigint, feeBps: number): { fee: bigint; net: bigint } {
  const fee = (reward * BigInt(feeBps)) / BPS;
  return { fee, net: reward - fee };
}

/** A completion's credit to its agent, as the event log and `earnings.released` carry it (base units). */
export interface Payout {
  gross: string;
  fee: string;
  net: string;
}

/** A bounty's completion: each winner's place and net amount, the client's refund, the fee on the whole. */
export interface BountyPayout {
  winners: { walletAddress: string; place: number; amount: string }[];
  /** Who the winners are, for their own earnings.released (webhooks); the event log keeps it too. */
  winnerIds: string[];
  refund: string;
  fee: string;
}

/** COMPLETED: the agent is credited the reward less the fee; the unique mission id makes it once only. */
export async function release(tx: Db, mission: Funded, now: Date): Promise<Payout> {
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

/** A settlement in part (docs/api.md#settlement-offers): the agent's credit, and the client's refund. */
export interface SettlementPayout extends Payout {
  refund: string;
}

/**
 * Settled in part (docs/api.md#settlement-offers, docs/api.md#split-verdicts): the agent is credited
 * `agentAmount` less the fee on it — the fee on that part only, rounded down as the escrow's `settle`
 * rounds it — and the rest of the reward goes back to the client, in one settle. Nothing to the agent
 * is a refund.
 */
export async function settle(tx: Db, mission: Funded, agentAmount: bigint, now: Date): Promise<SettlementPayout> {
  const reward = BigInt(mission.reward);
  const refund = reward - agentAmount;
  if (agentAmount === 0n) {
    await enqueueRefund(tx, mission);
    return { gross: '0', fee: '0', net: '0', refund: refund.toString() };
  }
  if (!mission.agentId) throw new Error(`mission ${mission.id} settled without an agent`);
  const { fee, net } = splitReward(agentAmount, mission.feeBps);
  await tx.insert(agentEarnings).values({
    agentId: mission.agentId,
    missionId: mission.id,
    gross: agentAmount.toString(),
    fee: fee.toString(),
    amount: net.toString(),
    feeBps: mission.feeBps,
    createdAt: now,
  });
  await enqueueSettle(tx, mission, agentAmount, net, refund);
  return { gross: agentAmount.toString(), fee: fee.toString(), net: net.toString(), refund: refund.toString() };
}

/**
 * A bounty COMPLETED (docs/api.md#bounties): each winner is credited its place (gross, its part of the fee,
 * net), and one releaseSplit pays the winners and refunds the client the unawarded places — the
 * fee on the whole, the sum exact (shares.ts).
 */
export async function releaseSplit(tx: Db, mission: Bounty, now: Date): Promise<BountyPayout> {
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
    winnerIds: payout.winners.map((w) => w.agentId),
    refund: payout.refund.toString(),
    fee: payout.fee.toString(),
  };
}

/**
 * docs/api.md#milestones: an approved milestone credits the agent its amount less the fee (the fee on that
 * part only), and writes the releasePart that pays it; the unique (mission, milestone) makes it once only.
 */
export async function releasePart(tx: Db, mission: Funded, milestone: MilestoneRow, now: Date): Promise<Payout> {
  if (!mission.agentId) throw new Error(`mission ${mission.id} released a milestone without an agent`);
  const gross = BigInt(milestone.amount);
  const { fee, net } = splitReward(gross, mission.feeBps);
  await tx.insert(agentEarnings).values({
    agentId: mission.agentId,
    missionId: mission.id,
    milestone: milestone.number,
    gross: gross.toString(),
    fee: fee.toString(),
    amount: net.toString(),
    feeBps: mission.feeBps,
    createdAt: now,
  });
  await enqueuePart(tx, mission, milestone.number, gross, net);
  return { gross: gross.toString(), fee: fee.toString(), net: net.toString() };
}

/**
 * Reclaimed on-chain by the client: whatever this mission still owed is void — the agent's unpaid
 * credit and every settlement not yet mined (docs/api.md#escrow). A mined release never gets here: the
 * task would not have been open for the client to reclaim. A milestone already released on-chain
 * (docs/api.md#milestones) stays paid: only the parts not yet mined are void, and their milestones unreleased.
 */
export async function reclaim(tx: Db, mission: Funded): Promise<void> {
  const unpaid = tx
    .select({ milestone: settlements.milestone })
    .from(settlements)
    .where(
      and(
        eq(settlements.missionId, mission.id),
        isNotNull(settlements.milestone),
        inArray(settlements.status, ['PENDING', 'FAILED']),
      ),
    );
  await tx
    .delete(agentEarnings)
    .where(
      and(
        eq(agentEarnings.missionId, mission.id),
        or(isNull(agentEarnings.milestone), inArray(agentEarnings.milestone, unpaid)),
      ),
    );
  await tx
    .update(missionMilestones)
    .set({ releasedAmount: '0' })
    .where(and(eq(missionMilestones.missionId, mission.id), inArray(missionMilestones.number, unpaid)));
  await supersedeSettlements(tx, mission.id);
  await tx
    .update(missions)
    .set({
      released: sql`(select coalesce(sum(${missionMilestones.releasedAmount}), 0) from ${missionMilestones}
        where ${missionMilestones.missionId} = ${mission.id})`,
    })
    .where(eq(missions.id, mission.id));
}

/** CANCELLED: the reward goes back to the client (on-chain: the escrow refunds the task). */
export async function refund(tx: Db, mission: Funded): Promise<void> {
  await enqueueRefund(tx, mission);
}
