// Settlement offers (docs/api.md#settlement-offers): either party of a single-agent mission that is SUBMITTED,
// CONTESTED or DISPUTED offers to end it in part — `agentAmount` of the reward to the agent (before the
// fee), the rest back to the client. One offer is pending at a time, on the mission's own row: a new one
// replaces it, and it lapses after OFFER_TTL_MS or at any transition (every transition clears the column,
// lib/missions/changes.ts). The other party accepts — the settleByAgreement / refundByAgreement rows of the
// transition table, sent on-chain by escrow v5's `settle` through the settlement outbox — or rejects it,
// which changes nothing else. A client's acceptance is a release (lib/confirmations): a delegated token
// within its grant's release limit, else a confirmation bound to the offer's terms; and a client's offer
// made with a delegated token counts against that limit when it is made, since the agent's yes releases it.
// Making and answering an offer, which can be releases, are lib/confirmations/settlement-offers.ts.
import 'server-only';
import { and, eq } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { missions, type SettlementOffer } from '../db/schema';
import { ApiError } from '../errors';
import type { Mission } from '../missions/queries';
import type { TransitionGate } from '../missions/changes';
import { canSeeMission, type Viewer } from '../missions/visibility';
import type { MissionJson } from '../board/present';
import { act } from './mission-actions';
import { settlesInPart } from './settles-in-part';

/** docs/api.md#settlement-offers: an offer lapses 72 h after it is made. */
export const OFFER_TTL_MS = 72 * 60 * 60 * 1000;

export interface OfferInput {
  agentAmount: bigint;
  note?: string;
}

export const sideOf = (m: Pick<Mission, 'clientId' | 'agentId'>, viewer: Viewer): 'client' | 'agent' | undefined => {
  if (viewer.kind !== 'user') return undefined;
  if (viewer.id === m.clientId) return 'client';
  if (m.agentId !== null && viewer.id === m.agentId) return 'agent';
  return undefined;
};

/**
 * Whether the mission's escrow can settle in part: escrow v5's `settle`. A mission with no task settles in
 * the books alone; one funded on a v2, v3 or v4 escrow kept after an upgrade settles all or nothing.
 */
export function assertSettlesInPart(cfg: Config, mission: Mission) {
  if (!settlesInPart(cfg, mission))
    throw new ApiError(
      409,
      "This mission's escrow task is on an escrow from before v5, which cannot settle in part: approve, " +
        'contest or cancel it instead',
    );
}

const pendingOffer = (mission: Mission, now: Date): SettlementOffer | undefined => {
  const offer = mission.settlementOffer;
  return offer && new Date(offer.expiresAt) > now ? offer : undefined;
};

/** The offer column, compare-and-set on the state the caller saw (the lock holds it anyway). */
export async function writeOffer(tx: Db, mission: Mission, offer: SettlementOffer | null, now: Date) {
  const [row] = await tx
    .update(missions)
    .set({ settlementOffer: offer, updatedAt: now })
    .where(and(eq(missions.id, mission.id), eq(missions.status, mission.status)))
    .returning({ id: missions.id });
  if (!row) throw new ApiError(409, 'The mission changed meanwhile; try again');
}

/** The offer the caller answers, checked on the locked mission: pending, not lapsed, and not the caller's own. */
export function answerable(mission: Mission, offerId: string, viewer: Viewer, now: Date): SettlementOffer {
  const side = sideOf(mission, viewer);
  if (!side) {
    throw canSeeMission(mission, viewer)
      ? new ApiError(403, "Only the mission's owner or its assigned agent may do this")
      : new ApiError(404, 'Mission not found');
  }
  const offer = pendingOffer(mission, now);
  if (!offer || offer.id !== offerId)
    throw new ApiError(409, 'This settlement offer is no longer pending: it was answered, replaced or has lapsed');
  if (offer.by === side) throw new ApiError(409, 'An offer is answered by the other party');
  return offer;
}

/** The gate of an acceptance: the same offer, still pending, answered by the other party (the lock holds). */
const offerGate =
  (offerId: string, viewer: Viewer, now: Date): TransitionGate =>
  async (_tx, mission, input) => {
    const offer = answerable(mission, offerId, viewer, now);
    if (input.settlement?.agentAmount !== BigInt(offer.agentAmount))
      throw new ApiError(409, 'This settlement offer is no longer pending: it was answered, replaced or has lapsed');
  };

/**
 * Runs the acceptance: settleByAgreement (COMPLETED), or refundByAgreement (CANCELLED) for an offer of
 * nothing to the agent. `gate`: the release's own (a grant's limit, a confirmation's use).
 */
export async function acceptSettlementOffer(
  db: Db,
  cfg: Config,
  missionId: string,
  offerId: string,
  viewer: Viewer,
  now: Date,
  gate?: TransitionGate,
): Promise<MissionJson> {
  const [row] = await db
    .select({ offer: missions.settlementOffer })
    .from(missions)
    .where(eq(missions.id, missionId))
    .limit(1);
  if (!row) throw new ApiError(404, 'Mission not found');
  const offer = row.offer?.id === offerId ? row.offer : undefined;
  if (!offer)
    throw new ApiError(409, 'This settlement offer is no longer pending: it was answered, replaced or has lapsed');
  const agentAmount = BigInt(offer.agentAmount);
  const choice = agentAmount > 0n ? 'settleByAgreement' : 'refundByAgreement';
  const checks: TransitionGate = async (tx, mission, input) => {
    await offerGate(offerId, viewer, now)(tx, mission, input);
    assertSettlesInPart(cfg, mission);
    if (gate) await gate(tx, mission, input);
  };
  return act(db, cfg, choice, missionId, viewer, { settlement: { agentAmount, by: 'agreement' }, gate: checks }, now);
}
