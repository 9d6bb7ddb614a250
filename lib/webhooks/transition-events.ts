// Which webhook events a mission transition raises (docs/api.md#webhooks), written with it in its transaction.
import 'server-only';
import type { Db } from '../db/client';
import type { MissionStatus } from '../db/schema';
import { emitToParties } from './outbox';
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

/**
 * `before`: the mission as the transition found it — a withdrawal or a reopen clears the agent,
 * who is still told.
 */
type Mission = Parameters<typeof emitToParties>[2];

export async function emitTransition(tx: Db, action: string, to: MissionStatus, before: Mission, after: Mission, now: Date, payout?: Record<string, string>) {
  const event = action === 'contest' ? (to === 'DISPUTED' ? 'mission.disputed' : 'mission.contested') : BY_ACTION[action];
  if (!event) return;
  await emitToParties(tx, event, { ...after, agentId: after.agentId ?? before.agentId }, now);
  if (event === 'mission.completed' && payout) await emitToParties(tx, 'earnings.released', after, now, { earnings: payout }, true);
}
