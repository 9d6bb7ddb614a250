// The books record what the chain credited (docs/api.md#settlements): once a release or releaseSplit is
// mined, each agent's earnings row of the mission takes the amounts of the receipt's TaskReleased /
// TaskSplitReleased event — not what the database computed when the mission completed — in the same
// transaction that marks the settlement MINED. They agree whenever the task held exactly the reward;
// when it did not (a top-up without a bump, settled by time or by the operator) the chain's figure wins.
import 'server-only';
import { eq } from 'drizzle-orm';
import type { TransactionReceipt } from 'viem';
import type { Db } from '../db/client';
import { agentEarnings, type Settlement, settlements, users } from '../db/schema';
import { releasedCredit } from '../chain/escrow';
import { log } from '../log';

export const recordChainCredit =
  (receipt: Pick<TransactionReceipt, 'logs'>) =>
  async (tx: Db, row: Settlement): Promise<void> => {
    if (!['RELEASE', 'SPLIT', 'SETTLE'].includes(row.kind) || row.taskId === null || row.missionId === null) return;
    const credit = releasedCredit(receipt, row.taskId);
    if (!credit) return;
    const credited = await tx
      .select({
        id: agentEarnings.id,
        gross: agentEarnings.gross,
        amount: agentEarnings.amount,
        wallet: users.walletAddress,
      })
      .from(agentEarnings)
      .innerJoin(users, eq(users.id, agentEarnings.agentId))
      .where(eq(agentEarnings.missionId, row.missionId!));
    for (const earning of credited) {
      const paid = credit.recipients.find((r) => r.address === earning.wallet.toLowerCase());
      if (!paid || BigInt(earning.amount) === paid.amount) continue;
      log.warn('settlement.credit_differs', {
        id: row.id,
        missionId: row.missionId,
        booked: String(earning.amount),
        credited: paid.amount.toString(),
      });
      // A single release or settle: the whole fee is this agent's; a split's fee stays as its place's share said.
      const fee = row.kind === 'SPLIT' ? BigInt(earning.gross) - BigInt(earning.amount) : credit.fee;
      await tx
        .update(agentEarnings)
        .set({ amount: paid.amount.toString(), fee: fee.toString(), gross: (paid.amount + fee).toString() })
        .where(eq(agentEarnings.id, earning.id));
    }
    if ((row.kind === 'RELEASE' || row.kind === 'SETTLE') && credit.recipients[0]) {
      await tx
        .update(settlements)
        .set({ amount: credit.recipients[0].amount.toString() })
        .where(eq(settlements.id, row.id));
    }
  };
