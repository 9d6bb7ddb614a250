// A delegated release against its grant's limit (docs/api.md#confirmations): inside the transition's own
// transaction, with the grant's row locked, the grant's releases of the last 24 h are summed and this
// one added; two releases racing for the last of a limit are serialised by the lock, so one of them waits
// for the person. A release the limit does not cover stops the transition (ConfirmationNeeded).
import 'server-only';
import { milestoneAtHand } from '../missions/milestones';
import { and, eq, gt, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { grantReleases, grants } from '../db/schema';
import type { TransitionGate, TransitionRequest } from '../missions/changes';
import { payoutOf } from '../missions/shares';
import type { Mission } from '../missions/queries';
import { RELEASE_WINDOW_MS } from '../oauth/release-limit';
import type { ReleaseAction } from './terms';
import { type ConfirmationTerms, termsOf } from './terms';

/** Thrown inside the transition: nothing is written, and the caller asks the person instead. */
export class ConfirmationNeeded extends Error {
  constructor(
    readonly amount: bigint,
    readonly terms: ConfirmationTerms,
  ) {
    super('This release needs the person’s confirmation');
  }
}

/**
 * What the action releases from the client's escrow (docs/api.md#confirmations): the escrow task's
 * whole amount on approve — the contract's release pays the task, not the reward — and on an award
 * the winners' shares and the fee on them (the unawarded shares go back to the client, so they are not
 * counted). Without an escrow, the reward.
 */
export function releaseAmount(mission: Mission, input: TransitionRequest, taskAmount: bigint | null): bigint {
  // docs/api.md#settlement-offers: accepting an offer releases its agentAmount; the refund is the client's own.
  if (input.settlement) return input.settlement.agentAmount;
  const reward = taskAmount ?? BigInt(mission.reward);
  if (mission.assignmentMode !== 'BOUNTY') return reward;
  const winners = (input.winners ?? []).map((w, i) => ({ ...w, place: i + 1 }));
  return reward - payoutOf(reward, mission.feeBps, mission.winners ?? 1, mission.split, winners).refund;
}

/** What the grant released at once since `since` (base units). */
export async function releasedSince(db: Db, grantId: string, since: Date): Promise<bigint> {
  const [row] = await db
    .select({ sum: sql<string>`coalesce(sum(${grantReleases.amount}), 0)::text` })
    .from(grantReleases)
    .where(and(eq(grantReleases.grantId, grantId), gt(grantReleases.createdAt, since)));
  return BigInt(row?.sum ?? '0');
}

export function grantGate(
  grantId: string,
  now: Date,
  action: ReleaseAction,
  body: Record<string, unknown>,
  taskAmount: bigint | null,
): TransitionGate {
  return async (tx, mission, input) => {
    // docs/api.md#milestones: a milestone's approval releases that milestone's amount alone.
    const amount = mission.milestoneCount
      ? BigInt((await milestoneAtHand(tx, mission)).amount)
      : releaseAmount(mission, input, taskAmount);
    const [grant] = await tx
      .select({ limit: grants.releaseLimit })
      .from(grants)
      .where(eq(grants.id, grantId))
      .for('update');
    const since = new Date(now.getTime() - RELEASE_WINDOW_MS);
    // What fell out of the window is forgotten here, under the lock: the table holds at most a day per grant.
    await tx.delete(grantReleases).where(and(eq(grantReleases.grantId, grantId), lte(grantReleases.createdAt, since)));
    const used = await releasedSince(tx, grantId, since);
    if (!grant || used + amount > BigInt(grant.limit))
      throw new ConfirmationNeeded(amount, await termsOf(tx, mission, action, body, taskAmount));
    await tx
      .insert(grantReleases)
      .values({ grantId, missionId: mission.id, amount: amount.toString(), createdAt: now });
  };
}
