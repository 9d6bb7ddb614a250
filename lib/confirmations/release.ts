// A release — approving a delivery or awarding a bounty — as the routes and MCP tools ask for it
// (docs/api.md#confirmations). A wallet sign-in releases at once. A delegated token (OAuth or personal)
// releases at once while its grant's limit covers it; otherwise nothing changes and the answer is a
// confirmation for the person to decide. Whoever asks, a release whose escrow task holds another amount
// than the reward is refused (escrow-amount.ts).
import 'server-only';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { Caller } from '../oauth/caller';
import { simpleAction } from '../marketplace';
import { viewerOf } from '../missions';
import type { TransitionGate } from '../missions/changes';
import { awardBounty, type AwardInput } from '../bounties';
import { acceptSettlementOffer } from '../marketplace/settlement-offers';
import type { MissionJson } from '../board/present';
import type { Viewer } from '../missions/visibility';
import { allGates, escrowAmountOf, escrowGate } from './escrow-amount';
import { ConfirmationNeeded, grantGate } from './release-gate';
import { type ConfirmationTicket, requestConfirmation } from './requests';
import type { ReleaseAction } from './terms';

export type ReleaseAnswer = { mission: MissionJson } | { confirmation: ConfirmationTicket };

export interface ReleaseRequest {
  action: ReleaseAction;
  missionId: string;
  /** The award's `{ winners, reason? }`; a settle's `{ offerId }`; approve's `{ milestone? }`. */
  body: Record<string, unknown>;
}

/** Runs the real action — the same checks, states, events and webhooks whoever runs it. */
export function runRelease(
  db: Db,
  cfg: Config,
  release: ReleaseRequest,
  viewer: Viewer,
  now: Date,
  gate: TransitionGate | undefined,
) {
  if (release.action === 'approve') {
    const { milestone } = release.body as { milestone?: number };
    return simpleAction(db, cfg, 'approve', release.missionId, viewer, now, gate, milestone);
  }
  if (release.action === 'settle')
    return acceptSettlementOffer(db, cfg, release.missionId, String(release.body.offerId), viewer, now, gate);
  return awardBounty(db, cfg, release.missionId, viewer, release.body as AwardInput, now, gate);
}

export async function release(
  db: Db,
  cfg: Config,
  caller: Caller,
  request: ReleaseRequest,
  now: Date,
): Promise<ReleaseAnswer> {
  const viewer = viewerOf(caller);
  // docs/api.md#confirmations: what the escrow would release is read from the chain before the
  // transaction and checked against the locked mission inside it; a task holding more is refused.
  const taskAmount = await escrowAmountOf(db, cfg, request.missionId, caller.user.id);
  const matches = escrowGate(taskAmount);
  if (!caller.grant) return { mission: await runRelease(db, cfg, request, viewer, now, matches) };
  const limit = grantGate(caller.grant.id, now, request.action, request.body, taskAmount);
  try {
    return { mission: await runRelease(db, cfg, request, viewer, now, allGates(matches, limit)) };
  } catch (error) {
    if (!(error instanceof ConfirmationNeeded)) throw error;
    const ask = {
      userId: caller.user.id,
      grantId: caller.grant.id,
      ...request,
      amount: error.amount,
      terms: error.terms,
    };
    return { confirmation: await requestConfirmation(db, cfg, ask, now) };
  }
}
