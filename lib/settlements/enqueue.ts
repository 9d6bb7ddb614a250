// The outbox rows a mission's terminal transition writes, inside that transition's transaction:
// COMPLETED → release(task, agent, fee), CANCELLED → refund(task). Only missions funded on-chain
// have anything to settle; the unique (mission, kind) index makes a second row impossible.
import 'server-only';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { type MissionRow, settlements, users } from '../db/schema';

type Funded = Pick<MissionRow, 'id' | 'clientId' | 'agentId' | 'onChainTaskId' | 'feeBps'>;

async function walletOf(tx: Db, userId: string): Promise<string> {
  const [user] = await tx.select({ walletAddress: users.walletAddress }).from(users).where(eq(users.id, userId)).limit(1);
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
    feeBps: mission.feeBps,
    amount: net.toString(),
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
