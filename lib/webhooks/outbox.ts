// Webhook events into the outbox (docs/api.md#webhooks), always inside the transaction of the change they
// report: one event row naming its audience — the mission's parties for its transitions, every
// matching filter for mission.created — whoever and however many subscribe. expand-events.ts
// turns it into one delivery per subscribed, live endpoint later; deliver.ts sends them. A filter's
// audience is the board's (docs/api.md#webhook-lanes): its event goes in the board lane, behind none
// and ahead of none of the events to users and parties.
import 'server-only';
import type { Db } from '../db/client';
import { type MissionRow, type WebhookAudience, webhookEvents } from '../db/schema';
import type { WebhookEvent } from './schemas';
import { markWebhooks } from '../outbox/marks';

type MissionFacts = Pick<
  MissionRow,
  'id' | 'title' | 'status' | 'reward' | 'deadline' | 'category' | 'tags' | 'clientId' | 'agentId'
>;

const summary = (m: MissionFacts) => ({
  id: m.id,
  title: m.title,
  status: m.status,
  reward: String(m.reward),
  deadline: m.deadline.toISOString(),
  category: m.category,
  tags: m.tags,
});

/** Standard Webhooks' recommended envelope: { type, timestamp, data }. */
const envelope = (event: WebhookEvent, data: Record<string, unknown>, now: Date) => ({
  type: event,
  timestamp: now.toISOString(),
  data,
});

async function enqueue(
  tx: Db,
  event: WebhookEvent,
  missionId: string | null,
  payload: Record<string, unknown>,
  audience: WebhookAudience,
  now: Date,
) {
  markWebhooks();
  const board = 'filter' in audience;
  await tx.insert(webhookEvents).values({ event, missionId, payload, audience, board, createdAt: now });
}

/** A transition's event to the mission's client and agent (and `agentOnly` events to the agent alone). */
export async function emitToParties(
  tx: Db,
  event: WebhookEvent,
  mission: MissionFacts,
  now: Date,
  extra: Record<string, unknown> = {},
  agentOnly = false,
) {
  const parties = [agentOnly ? null : mission.clientId, mission.agentId].filter((id): id is string => Boolean(id));
  if (parties.length === 0) return;
  await enqueue(
    tx,
    event,
    mission.id,
    envelope(event, { mission: summary(mission), ...extra }, now),
    { users: parties },
    now,
  );
}

/**
 * A bounty's event (docs/api.md#bounties) to its client and every entrant — never an entry's content: the
 * payload is the mission's summary and what the event adds (the award's places, say).
 */
export async function emitToEntrants(
  tx: Db,
  event: WebhookEvent,
  mission: MissionFacts,
  now: Date,
  extra: Record<string, unknown> = {},
) {
  const audience = { entrantsOf: mission.id, client: mission.clientId };
  await enqueue(tx, event, mission.id, envelope(event, { mission: summary(mission), ...extra }, now), audience, now);
}

/** An event to one user's endpoints (a winner's earnings.released). */
export async function emitToUser(
  tx: Db,
  event: WebhookEvent,
  userId: string,
  mission: MissionFacts,
  now: Date,
  extra: Record<string, unknown> = {},
) {
  await enqueue(
    tx,
    event,
    mission.id,
    envelope(event, { mission: summary(mission), ...extra }, now),
    { users: [userId] },
    now,
  );
}

/** mission.created to every endpoint whose filter (category, tag, minimum reward) the mission matches. */
export async function emitCreated(tx: Db, mission: MissionFacts, now: Date) {
  const audience = { filter: { category: mission.category, tags: mission.tags, reward: String(mission.reward) } };
  await enqueue(
    tx,
    'mission.created',
    mission.id,
    envelope('mission.created', { mission: summary(mission) }, now),
    audience,
    now,
  );
}

/** claim.paid to the agent's endpoints, when the payout is mined. */
export async function emitClaimPaid(
  tx: Db,
  userId: string,
  claim: { amount: string; txHash: string | null },
  now: Date,
) {
  await enqueue(tx, 'claim.paid', null, envelope('claim.paid', { claim }, now), { users: [userId] }, now);
}
