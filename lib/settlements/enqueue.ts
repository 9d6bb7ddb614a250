// The outbox rows a mission's terminal transition writes, inside that transition's transaction:
// COMPLETED → release(task, agent, fee) or, for a bounty, releaseSplit(task, winners and client,
// amounts, fee); CANCELLED → refund(task). Only missions funded on-chain have anything to settle;
// the unique (mission, kind) index makes a second row impossible. Each row names its mission's escrow.
import 'server-only';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { type MissionRow, settlements, users } from '../db/schema';

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

export async function enqueueRefund(tx: Db, mission: Funded & { reward: string }): Promise<void> {
  if (mission.onChainTaskId === null) return;
  await tx.insert(settlements).values({
    kind: 'REFUND',
    missionId: mission.id,
    userId: mission.clientId,
    beneficiary: await walletOf(tx, mission.clientId),
    taskId: BigInt(mission.onChainTaskId),
    escrow: mission.escrow,
    amount: mission.reward,
  });
}

/** The mission's release or refund not yet mined will never be sent: its task was reclaimed. */
export async function supersedeSettlements(tx: Db, missionId: string): Promise<void> {
  await tx
    .update(settlements)
    .set({ status: 'SUPERSEDED', lockedUntil: null, lastError: 'the task was reclaimed by its client' })
    .where(and(eq(settlements.missionId, missionId), inArray(settlements.status, ['PENDING', 'FAILED'])));
}
