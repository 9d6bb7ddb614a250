// The outbox rows a mission's terminal transition writes, inside that transition's transaction:
// COMPLETED → release(task, agent, fee) or, for a bounty, releaseSplit(task, winners and client,
// amounts, fee), or, settled in part, settle(task, agent, agentAmount, fee); CANCELLED → refund(task).
// Only missions funded on-chain have anything to settle; the unique (mission, kind) index makes a
// second row impossible. Each row names its mission's escrow.
import 'server-only';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { type MissionRow, settlements, users } from '../db/schema';
import { markMissionSends } from '../outbox/marks';

type Funded = Pick<MissionRow, 'id' | 'clientId' | 'agentId' | 'onChainTaskId' | 'feeBps' | 'escrow'>;

async function walletOf(tx: Db, userId: string): Promise<string> {
  const [user] = await tx
    .select({ walletAddress: users.walletAddress })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return user!.walletAddress;
}

export async function enqueueRelease(tx: Db, mission: Funded, net: bigint): Promise<void> {
  if (mission.onChainTaskId === null || !mission.agentId) return;
  markMissionSends(mission.id);
  await tx.insert(settlements).values({
    kind: 'RELEASE',
    missionId: mission.id,
    userId: mission.agentId,
    beneficiary: await walletOf(tx, mission.agentId),
    taskId: BigInt(mission.onChainTaskId),
    escrow: mission.escrow,
    feeBps: mission.feeBps,
    amount: net.toString(),
  });
}

/**
 * A bounty's releaseSplit (docs/api.md#bounties): the winners' amounts, and the client's refund of unawarded
 * places when there is one; the escrow adds the fee and checks the sum is the task, to the unit.
 */
export async function enqueueSplit(
  tx: Db,
  mission: Funded,
  winners: { address: string; amount: bigint }[],
  refund: bigint,
): Promise<void> {
  if (mission.onChainTaskId === null) return;
  markMissionSends(mission.id);
  const client = await walletOf(tx, mission.clientId);
  const recipients = [...winners, ...(refund > 0n ? [{ address: client, amount: refund }] : [])].map((r) => ({
    address: r.address,
    amount: r.amount.toString(),
  }));
  await tx.insert(settlements).values({
    kind: 'SPLIT',
    missionId: mission.id,
    userId: mission.clientId,
    beneficiary: client,
    taskId: BigInt(mission.onChainTaskId),
    escrow: mission.escrow,
    feeBps: mission.feeBps,
    recipients,
    amount: recipients.reduce((sum, r) => sum + BigInt(r.amount), 0n).toString(),
  });
}

/**
 * docs/api.md#milestones: a milestone's releasePart(task, agent, gross, fee): `amount` is what the agent is
 * credited (gross less the fee), the gross goes in `recipients` as the call takes it. One per milestone.
 */
export async function enqueuePart(tx: Db, mission: Funded, milestone: number, gross: bigint, net: bigint) {
  if (mission.onChainTaskId === null || !mission.agentId) return;
  markMissionSends(mission.id);
  const agent = await walletOf(tx, mission.agentId);
  await tx.insert(settlements).values({
    kind: 'PART',
    missionId: mission.id,
    milestone,
    userId: mission.agentId,
    beneficiary: agent,
    taskId: BigInt(mission.onChainTaskId),
    escrow: mission.escrow,
    feeBps: mission.feeBps,
    recipients: [{ address: agent, amount: gross.toString() }],
    amount: net.toString(),
  });
}

/**
 * Escrow v5's settle (docs/api.md#settlement-offers): `agentAmount` of the task to the agent (the escrow
 * takes the fee on it), the rest refunded to the client. The row is the agent's (`amount`: its net
 * credit); `recipients` carries the call's agent part and the client's refund.
 */
export async function enqueueSettle(
  tx: Db,
  mission: Funded,
  agentAmount: bigint,
  net: bigint,
  refund: bigint,
): Promise<void> {
  if (mission.onChainTaskId === null || !mission.agentId) return;
  markMissionSends(mission.id);
  const agent = await walletOf(tx, mission.agentId);
  await tx.insert(settlements).values({
    kind: 'SETTLE',
    missionId: mission.id,
    userId: mission.agentId,
    beneficiary: agent,
    taskId: BigInt(mission.onChainTaskId),
    escrow: mission.escrow,
    feeBps: mission.feeBps,
    recipients: [
      { address: agent, amount: agentAmount.toString() },
      { address: await walletOf(tx, mission.clientId), amount: refund.toString() },
    ],
    amount: net.toString(),
  });
}

/** The refund of what the task still holds: the reward less what milestones released (docs/api.md#milestones). */
export async function enqueueRefund(tx: Db, mission: Funded & { reward: string; released?: string }): Promise<void> {
  if (mission.onChainTaskId === null) return;
  markMissionSends(mission.id);
  await tx.insert(settlements).values({
    kind: 'REFUND',
    missionId: mission.id,
    userId: mission.clientId,
    beneficiary: await walletOf(tx, mission.clientId),
    taskId: BigInt(mission.onChainTaskId),
    escrow: mission.escrow,
    amount: (BigInt(mission.reward) - BigInt(mission.released ?? '0')).toString(),
  });
}

/** The mission's release or refund not yet mined will never be sent: its task was reclaimed. */
export async function supersedeSettlements(tx: Db, missionId: string): Promise<void> {
  await tx
    .update(settlements)
    .set({ status: 'SUPERSEDED', lockedUntil: null, lastError: 'the task was reclaimed by its client' })
    .where(and(eq(settlements.missionId, missionId), inArray(settlements.status, ['PENDING', 'FAILED'])));
}
