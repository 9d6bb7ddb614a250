// A release — approving a delivery or awarding a bounty — as the routes and MCP tools ask for it
// (docs/api.md#confirmations). A wallet sign-in releases at once. A delegated token (OAuth or personal)
// releases at once while its grant's limit covers it; otherwise nothing changes and the answer is a
// confirmation for the person to decide.
import 'server-only';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { Caller } from '../oauth/caller';
import { simpleAction, viewerOf } from '../missions';
import type { TransitionGate } from '../missions/apply-transition';
import { awardBounty, type AwardInput } from '../missions/bounties';
import type { MissionJson } from '../missions/present';
import type { Viewer } from '../missions/visibility';
import { ConfirmationNeeded, grantGate } from './release-gate';
import { type ConfirmationTicket, type ReleaseAction, requestConfirmation } from './requests';

export type ReleaseAnswer = { mission: MissionJson } | { confirmation: ConfirmationTicket };

export interface ReleaseRequest {
  action: ReleaseAction;
  missionId: string;
  /** The award's `{ winners, reason? }`; `{}` for approve. */
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
  if (release.action === 'approve') return simpleAction(db, cfg, 'approve', release.missionId, viewer, now, gate);
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
  if (!caller.grant) return { mission: await runRelease(db, cfg, request, viewer, now, undefined) };
  try {
    return { mission: await runRelease(db, cfg, request, viewer, now, grantGate(caller.grant.id, now)) };
  } catch (error) {
    if (!(error instanceof ConfirmationNeeded)) throw error;
    const ask = { userId: caller.user.id, grantId: caller.grant.id, ...request, amount: error.amount };
    return { confirmation: await requestConfirmation(db, cfg, ask, now) };
  }
}
