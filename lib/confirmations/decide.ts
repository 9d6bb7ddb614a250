// The person's decision (docs/api.md#confirmations). Approved, the stored action runs again as the
// person — the same checks, states, events and webhooks as if made now — and the confirmation is marked
// used in the same transaction as the transition (compare-and-set on PENDING): two approvals apply it
// once, and an action the mission no longer allows fails with its own error, the confirmation still
// waiting. Denied, nothing happens. A revoked grant's waiting confirmations are denied with it
// (lib/oauth/grants.ts).
import 'server-only';
import { and, eq, gt } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { confirmations } from '../db/schema';
import { ApiError } from '../errors';
import type { Caller } from '../oauth/caller';
import type { TransitionGate } from '../missions/apply-transition';
import { awardSchema } from '../missions/bounties';
import { validate } from '../fields';
import { viewerOf } from '../missions';
import { runRelease } from './release';
import { getConfirmation } from './views';
import type { ConfirmationView } from './schemas';

const CHANGED = 'This confirmation was already decided or has expired';

/** Marks the confirmation approved, inside the transition's transaction; another decision first is 409. */
const usedOnce =
  (id: string, now: Date): TransitionGate =>
  async (tx) => {
    const [row] = await tx
      .update(confirmations)
      .set({ status: 'APPROVED', decidedAt: now })
      .where(and(eq(confirmations.id, id), eq(confirmations.status, 'PENDING'), gt(confirmations.expiresAt, now)))
      .returning({ id: confirmations.id });
    if (!row) throw new ApiError(409, CHANGED);
  };

export async function decideConfirmation(
  db: Db,
  cfg: Config,
  caller: Caller,
  id: string,
  decision: 'approve' | 'deny',
  now: Date,
): Promise<ConfirmationView> {
  const view = await getConfirmation(db, cfg, caller, id, now);
  if (view.status !== 'PENDING') throw new ApiError(409, CHANGED);
  if (decision === 'deny') {
    const [row] = await db
      .update(confirmations)
      .set({ status: 'DENIED', decidedAt: now })
      .where(and(eq(confirmations.id, id), eq(confirmations.status, 'PENDING')))
      .returning({ id: confirmations.id });
    if (!row) throw new ApiError(409, CHANGED);
  } else {
    const body = view.action === 'award' ? validate(awardSchema, view.body) : {};
    await runRelease(
      db,
      cfg,
      { action: view.action, missionId: view.mission.id, body },
      viewerOf(caller),
      now,
      usedOnce(id, now),
    );
  }
  return getConfirmation(db, cfg, caller, id, now);
}
