// The person's decision (docs/api.md#confirmations). Approved, the stored action runs again as the
// person — the same checks, states, events and webhooks as if made now — and the confirmation is marked
// used in the same transaction as the transition (compare-and-set on PENDING): two approvals apply it
// once. The approval is bound to the stored terms (docs/api.md#confirmation-terms): when the assignment,
// the agent, the round, the reward, the escrow task's amount or an award's winners changed, it is 409 and
// the confirmation SUPERSEDED; an action the mission no longer allows otherwise fails with its own error.
// Denied, nothing happens. A revoked grant's waiting confirmations are denied with it (lib/oauth/grants.ts).
import 'server-only';
import { and, eq, gt } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { confirmations } from '../db/schema';
import { ApiError } from '../errors';
import type { Caller } from '../oauth/caller';
import type { TransitionGate } from '../missions/changes';
import { awardSchema } from '../bounties';
import { validate } from '../fields';
import { viewerOf } from '../missions';
import { allGates, escrowAmountOf, escrowGate } from './escrow-amount';
import { runRelease } from './release';
import { supersede } from './requests';
import { type ConfirmationTerms, changedTerms, termsOf } from './terms';
import { getConfirmation } from './views';
import type { ConfirmationView, DecisionInput } from './schemas';

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

/** Thrown inside the transition when the live terms are not the stored ones: nothing is written. */
class TermsChanged extends Error {
  constructor(readonly changed: string[]) {
    super('The terms changed');
  }
}

/** The live terms on the locked mission, against the stored ones. */
const sameTerms =
  (stored: ConfirmationTerms, body: Record<string, unknown>, taskAmount: bigint | null): TransitionGate =>
  async (tx, mission) => {
    const changed = changedTerms(stored, await termsOf(tx, mission, stored.action, body, taskAmount));
    if (changed.length > 0) throw new TermsChanged(changed);
  };

const superseded = (changed: string[]) =>
  new ApiError(
    409,
    'This confirmation is superseded: what it asked about changed since (' +
      `${changed.join(', ')}); nothing was released. Ask for the release again, or decide on the mission itself`,
    changed.map((term) => `${term}: changed`),
  );

export async function decideConfirmation(
  db: Db,
  cfg: Config,
  caller: Caller,
  id: string,
  { decision, termsHash }: DecisionInput,
  now: Date,
): Promise<ConfirmationView> {
  const view = await getConfirmation(db, cfg, caller, id, now, { live: false });
  if (view.status === 'SUPERSEDED') {
    throw new ApiError(
      409,
      `This confirmation is superseded (${view.reason ?? 'its terms changed'}); nothing was released`,
    );
  }
  if (view.status !== 'PENDING') throw new ApiError(409, CHANGED);
  // docs/api.md#confirmation-terms: the person's yes is to the terms they saw.
  if (termsHash !== undefined && termsHash.toLowerCase() !== view.termsHash) {
    throw new ApiError(409, "The termsHash sent is not this confirmation's: reload it and decide on what it says", [
      `termsHash: expected ${view.termsHash}`,
    ]);
  }
  if (decision === 'deny') {
    const [row] = await db
      .update(confirmations)
      .set({ status: 'DENIED', decidedAt: now })
      .where(and(eq(confirmations.id, id), eq(confirmations.status, 'PENDING')))
      .returning({ id: confirmations.id });
    if (!row) throw new ApiError(409, CHANGED);
  } else {
    if (!view.terms) {
      await supersede(db, id, 'asked before confirmations stored their terms', now);
      throw superseded(['terms']);
    }
    const body =
      view.action === 'award'
        ? validate(awardSchema, view.body)
        : view.action === 'settle'
          ? { offerId: String(view.body.offerId) }
          : {};
    const taskAmount = await escrowAmountOf(db, cfg, view.mission.id, caller.user.id);
    try {
      await runRelease(
        db,
        cfg,
        { action: view.action, missionId: view.mission.id, body },
        viewerOf(caller),
        now,
        allGates(sameTerms(view.terms, view.body, taskAmount), escrowGate(taskAmount), usedOnce(id, now)),
      );
    } catch (error) {
      if (!(error instanceof TermsChanged)) throw error;
      await supersede(db, id, `the terms changed: ${error.changed.join(', ')}`, now);
      throw superseded(error.changed);
    }
  }
  return getConfirmation(db, cfg, caller, id, now);
}
