// docs/api.md#auto-approval: a mission posted with `autoApprove: "onChecks"` is COMPLETED at submit when
// every check passed — the client's approval, given when it was posted. It moves money on terms the person
// approved only: a wallet sign-in's post, or a post funded on the page that says "pays automatically when
// every check passes", was their yes; a delegated token's post funded otherwise (its standing mandate,
// a task of the person's it named) must fit that token's grant's release limit now, like its approve.
// Whoever set it, the escrow task must hold exactly the reward. Anything short of that leaves the
// mission SUBMITTED with its review window, as any other submission.
import 'server-only';
import { eq } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { missionFundings } from '../db/schema';
import { ApiError, DependencyDown } from '../errors';
import { log } from '../log';
import { grantStanding } from '../oauth/grant-standing';
import { applyTransition } from '../missions/apply-transition';
import { findMission, type Mission } from '../missions/queries';
import { SYSTEM } from '../missions/visibility';
import { allGates, escrowAmountOf, escrowGate } from './escrow-amount';
import { ConfirmationNeeded, grantGate } from './release-gate';

/** Answers whether the mission was approved; a refusal is logged and leaves it as it was. */
export async function approveOnChecks(db: Db, cfg: Config, missionId: string, now: Date): Promise<boolean> {
  const mission = await findMission(db, missionId);
  if (mission?.status !== 'SUBMITTED' || mission.autoApprove !== 'onChecks') return false;
  const checks = mission.submissionChecks ?? [];
  if (checks.length === 0 || !checks.every((check) => check.passed)) return false;
  try {
    const taskAmount = await escrowAmountOf(db, cfg, missionId, mission.clientId);
    const grantId = await grantToFit(db, mission);
    // The delegation that set it must still stand: a revoked or expired grant moves no money.
    if (grantId && (await grantStanding(db, grantId, now.getTime())) !== 'stands') {
      log.info('missions.auto_approval_waits', { missionId, reason: 'the grant that set it no longer stands' });
      return false;
    }
    const limit = grantId ? grantGate(grantId, now, 'approve', {}, taskAmount) : undefined;
    await applyTransition(
      db,
      cfg,
      'approveOnChecks',
      missionId,
      SYSTEM,
      { gate: allGates(escrowGate(taskAmount), limit) },
      now,
    );
    return true;
  } catch (error) {
    // Not now: the review window runs as for any submission, and the client decides (or silence does).
    if (error instanceof ConfirmationNeeded || error instanceof ApiError || error instanceof DependencyDown) {
      log.info('missions.auto_approval_waits', { missionId, reason: reasonOf(error) });
      return false;
    }
    throw error;
  }
}

/** The grant whose limit the release must fit, or null when the person's own yes covers it. */
async function grantToFit(db: Db, mission: Mission): Promise<string | null> {
  if (mission.autoApproveGrantId === null) return null;
  // Posted unfunded and funded on the page (a signed authorization, or the wallet's own createTask):
  // the page stated the automatic payment, and the person signed it. A mandate funds without a page.
  if (mission.fundingRef === null) return mission.autoApproveGrantId;
  const [funding] = await db
    .select({ via: missionFundings.via })
    .from(missionFundings)
    .where(eq(missionFundings.missionId, mission.id));
  return funding?.via === 'MANDATE' ? mission.autoApproveGrantId : null;
}

function reasonOf(error: Error): string {
  if (error instanceof ConfirmationNeeded) return `beyond the grant's release limit (${error.amount})`;
  return error.message;
}
