// Offering and answering a settlement (docs/api.md#settlement-offers), over the offer's own rules in
// lib/marketplace/settlement-offers.ts. Here because both can be a release: a client's offer made with a
// delegated token counts against its grant's limit when it is made, and a client's acceptance is a release
// with its limit and confirmation (release.ts).
import 'server-only';
import { randomUUID } from 'node:crypto';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { missions, type SettlementOffer } from '../db/schema';
import { eq } from 'drizzle-orm';
import { ApiError } from '../errors';
import type { Caller } from '../oauth/caller';
import { requireScope } from '../oauth/scopes';
import { viewerOf } from '../missions/viewer';
import { lockMission } from '../missions/queries';
import { precheckTransition } from '../missions/apply-transition';
import { emitToParties } from '../webhooks/outbox';
import { getMissionOrThrow } from '../board/views';
import {
  acceptSettlementOffer,
  answerable,
  assertSettlesInPart,
  OFFER_TTL_MS,
  type OfferInput,
  sideOf,
  writeOffer,
} from '../marketplace/settlement-offers';
import { ConfirmationNeeded, grantGate } from './release-gate';
import { release, type ReleaseAnswer } from './release';

/** A delegated token acts for its side as the mission actions do: the client's posts, the agent's works. */
function requireSideScope(caller: Caller, side: 'client' | 'agent') {
  if (caller.grant) requireScope(caller.grant.scopes, side === 'client' ? 'missions:post' : 'missions:work');
}

/** POST /api/missions/{id}/settlement-offers: the caller's offer replaces any pending one. */
export async function offerSettlement(
  db: Db,
  cfg: Config,
  caller: Caller,
  missionId: string,
  input: OfferInput,
  now: Date,
): Promise<{ offer: SettlementOffer }> {
  const viewer = viewerOf(caller);
  // The same party, states and time rules as accepting one: a mission past its review window is
  // completed first, and an offer on it is refused.
  await precheckTransition(db, cfg, 'settleByAgreement', missionId, viewer, now);
  return db.transaction(async (tx) => {
    const mission = await lockMission(tx, missionId);
    if (!mission) throw new ApiError(404, 'Mission not found');
    const by = sideOf(mission, viewer);
    if (!by) throw new ApiError(403, "Only the mission's owner or its assigned agent may do this");
    requireSideScope(caller, by);
    if (!['SUBMITTED', 'CONTESTED', 'DISPUTED'].includes(mission.status))
      throw new ApiError(409, `Mission is ${mission.status}; a settlement offer is not allowed`);
    assertSettlesInPart(cfg, mission);
    const reward = BigInt(mission.reward);
    if (input.agentAmount > reward)
      throw new ApiError(400, 'Validation failed', [`agentAmount: at most the reward ${reward}`]);
    // The agent's yes releases what a client offers: a delegated client token's offer is a release now.
    if (by === 'client' && caller.grant && input.agentAmount > 0n) {
      const counted = grantGate(caller.grant.id, now, 'settle', {}, null);
      try {
        await counted(tx, mission, { settlement: { agentAmount: input.agentAmount, by: 'agreement' } });
      } catch (error) {
        if (!(error instanceof ConfirmationNeeded)) throw error;
        throw new ApiError(
          403,
          "This offer would release more than this token's grant may release without the person: the person " +
            'makes it from a wallet sign-in, or raises the release limit',
        );
      }
    }
    const offer: SettlementOffer = {
      id: randomUUID(),
      by,
      agentAmount: input.agentAmount.toString(),
      refund: (reward - input.agentAmount).toString(),
      note: input.note ?? null,
      expiresAt: new Date(now.getTime() + OFFER_TTL_MS).toISOString(),
    };
    await writeOffer(tx, mission, offer, now);
    await emitToParties(tx, 'settlement.offered', mission, now, { offer });
    return { offer };
  });
}

export type AnswerResult = ReleaseAnswer;

/** POST /api/missions/{id}/settlement-offers/{offerId} `{ decision }`. */
export async function answerSettlementOffer(
  db: Db,
  cfg: Config,
  caller: Caller,
  missionId: string,
  offerId: string,
  decision: 'accept' | 'reject',
  now: Date,
): Promise<AnswerResult> {
  const viewer = viewerOf(caller);
  const [facts] = await db
    .select({ clientId: missions.clientId, agentId: missions.agentId })
    .from(missions)
    .where(eq(missions.id, missionId))
    .limit(1);
  const side = facts ? sideOf(facts, viewer) : undefined;
  if (side) requireSideScope(caller, side);
  if (decision === 'reject') {
    await db.transaction(async (tx) => {
      const mission = await lockMission(tx, missionId);
      if (!mission) throw new ApiError(404, 'Mission not found');
      const offer = answerable(mission, offerId, viewer, now);
      await writeOffer(tx, mission, null, now);
      await emitToParties(tx, 'settlement.rejected', mission, now, { offer });
    });
    return { mission: await getMissionOrThrow(db, cfg, missionId, viewer, now) };
  }
  // The client's yes releases the agent's part: a release, with its limit and confirmation (docs/api.md#confirmations).
  if (side === 'client') return release(db, cfg, caller, { action: 'settle', missionId, body: { offerId } }, now);
  return { mission: await acceptSettlementOffer(db, cfg, missionId, offerId, viewer, now) };
}
