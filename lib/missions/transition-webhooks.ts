// Who hears of a mission transition (docs/api.md#webhooks, docs/api.md#bounties), written with it in its
// transaction. Which event it is, the transition table says (lib/missions/transitions.ts, `webhook`);
// this says to whom: a mission's client and agent, a bounty's client and every entrant, and the
// earnings.released of a completion to whoever was credited.
import 'server-only';
import type { Db } from '../db/client';
import type { EventData } from './effects';
import { emitToEntrants, emitToParties, emitToUser } from '../webhooks/outbox';
import type { WebhookEvent } from '../webhooks/schemas';

type Mission = Parameters<typeof emitToParties>[2] & { assignmentMode: string };

/**
 * `before`: the mission as the transition found it — a withdrawal or a reopen clears the agent,
 * who is still told. `data`: what the transition recorded (a payout, a bounty's award).
 */
export async function emitTransition(
  tx: Db,
  event: WebhookEvent | undefined,
  before: Mission,
  after: Mission,
  now: Date,
  data: EventData,
) {
  if (!event) return;
  if (after.assignmentMode === 'BOUNTY') return emitBountyTransition(tx, event, after, now, data);
  await emitToParties(tx, event, { ...after, agentId: after.agentId ?? before.agentId }, now);
  const payout = data.payout;
  // docs/api.md#milestones: each approved milestone credits the agent its part.
  if ((event === 'mission.completed' || event === 'mission.milestone_approved') && payout && 'net' in payout)
    await emitToParties(tx, 'earnings.released', after, now, { earnings: payout }, true);
}

async function emitBountyTransition(tx: Db, event: WebhookEvent, mission: Mission, now: Date, data: EventData) {
  const payout = data.payout && 'winners' in data.payout ? data.payout : undefined;
  const award = data.award ?? payout;
  await emitToEntrants(
    tx,
    event,
    mission,
    now,
    award ? { award: { winners: award.winners, reason: data.award?.reason ?? null } } : {},
  );
  if (event !== 'mission.completed' || !payout) return;
  for (const [i, winner] of payout.winners.entries()) {
    await emitToUser(tx, 'earnings.released', payout.winnerIds[i]!, mission, now, {
      earnings: { place: winner.place, net: winner.amount },
    });
  }
}
