// docs/api.md#confirmation-terms: a person asked to approve a delivery is asked about that delivery only.
// When the mission leaves SUBMITTED — contested, withdrawn, cancelled, approved, completed by time — the
// approvals still waiting for it are SUPERSEDED in the same transaction, so a later yes cannot pay a
// later delivery (or another agent) on an old question. The one being approved is already APPROVED.
import 'server-only';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { confirmations } from '../db/schema';
import type { Mission } from './queries';

export async function withdrawApprovalConfirmations(
  tx: Db,
  mission: Pick<Mission, 'id' | 'status'>,
  to: string,
  action: string,
  now: Date,
): Promise<void> {
  if (mission.status !== 'SUBMITTED' || to === 'SUBMITTED') return;
  await tx
    .update(confirmations)
    .set({ status: 'SUPERSEDED', reason: `the mission left SUBMITTED (${action} → ${to})`, decidedAt: now })
    .where(
      and(
        eq(confirmations.missionId, mission.id),
        eq(confirmations.action, 'approve'),
        eq(confirmations.status, 'PENDING'),
      ),
    );
}
