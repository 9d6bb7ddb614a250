// Which webhook events a mission transition raises (docs/api.md#webhooks, docs/api.md#bounties), written with it in its
// transaction.
import 'server-only';
import type { Db } from '../db/client';
import type { MissionStatus } from '../db/schema';
import { emitToEntrants, emitToParties, emitToUser } from './outbox';
import type { WebhookEvent } from './schemas';

const BY_ACTION: Record<string, WebhookEvent | undefined> = {
  accept: 'mission.accepted',
  assign: 'mission.accepted',
  submit: 'mission.submitted',
  approve: 'mission.completed',
  expire: 'mission.completed',
  resolveComplete: 'mission.completed',
  cancel: 'mission.cancelled',
  resolveCancel: 'mission.cancelled',
  reclaim: 'mission.cancelled',
  withdraw: 'mission.reopened',
  reopen: 'mission.reopened',
};

// A bounty's transitions, told to its client and every entrant (§18).
const BOUNTY_BY_ACTION: Record<string, WebhookEvent | undefined> = {
  judge: 'mission.judging',
  award: 'mission.awarded',
  escalate: 'mission.disputed',
  contestAward: 'mission.disputed',
  finalize: 'mission.completed',
  resolveAward: 'mission.completed',
  resolveCancel: 'mission.cancelled',
  reclaim: 'mission.cancelled',
  lapse: 'mission.cancelled',
  cancel: 'mission.cancelled',
};

/**
 * `before`: the mission as the transition found it — a withdrawal or a reopen clears the agent,
 * who is still told. `data`: what the transition recorded (a payout, a bounty's award).
 */
type Mission = Parameters<typeof emitToParties>[2] & { assignmentMode: string };

interface BountyPayout {
  winners: { walletAddress: string; place: number; amount: string }[];
  refund: string;
  fee: string;
}

export async function emitTransition(
  tx: Db,
  action: string,
  to: MissionStatus,
  before: Mission,
  after: Mission,
  now: Date,
  data: Record<string, unknown>,
) {
  if (after.assignmentMode === 'BOUNTY') return emitBountyTransition(tx, action, after, now, data);
  const event =
    action === 'contest' ? (to === 'DISPUTED' ? 'mission.disputed' : 'mission.contested') : BY_ACTION[action];
  if (!event) return;
  await emitToParties(tx, event, { ...after, agentId: after.agentId ?? before.agentId }, now);
  const payout = data.payout as Record<string, string> | undefined;
  if (event === 'mission.completed' && payout)
    await emitToParties(tx, 'earnings.released', after, now, { earnings: payout }, true);
}

async function emitBountyTransition(
  tx: Db,
  action: string,
  mission: Mission,
  now: Date,
  data: Record<string, unknown>,
) {
  const event = BOUNTY_BY_ACTION[action];
  if (!event) return;
  const award = (data.award ?? data.payout) as BountyPayout | undefined;
  await emitToEntrants(
    tx,
    event,
    mission,
    now,
    award
      ? { award: { winners: award.winners, reason: (data.award as { reason?: string } | undefined)?.reason ?? null } }
      : {},
  );
  const payout = data.payout as (BountyPayout & { winnerIds: string[] }) | undefined;
  if (event !== 'mission.completed' || !payout) return;
  for (const [i, winner] of payout.winners.entries()) {
    await emitToUser(tx, 'earnings.released', payout.winnerIds[i]!, mission, now, {
      earnings: { place: winner.place, net: winner.amount },
    });
  }
}
