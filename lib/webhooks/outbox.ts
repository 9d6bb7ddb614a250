// Webhook events into the outbox (docs/api.md#webhooks), always inside the transaction of the change they
// report: one delivery row per subscribed, live endpoint — the mission's parties' for its
// transitions, every matching filter's for mission.created. Sent later by deliver.ts.
import 'server-only';
import { sql } from 'drizzle-orm';
import { arrayLiteral } from '../db/array-literal';
import type { Db } from '../db/client';
import { bountyEntries, type MissionRow, webhookDeliveries, webhookEndpoints } from '../db/schema';
import type { WebhookEvent } from './schemas';

type MissionFacts = Pick<MissionRow, 'id' | 'title' | 'status' | 'reward' | 'deadline' | 'category' | 'tags' | 'clientId' | 'agentId'>;

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
const envelope = (event: WebhookEvent, data: Record<string, unknown>, now: Date) => ({ type: event, timestamp: now.toISOString(), data });

async function enqueue(tx: Db, event: WebhookEvent, missionId: string | null, payload: Record<string, unknown>, audience: ReturnType<typeof sql>, now: Date) {
  const e = webhookEndpoints;
  await tx.execute(sql`
    insert into ${webhookDeliveries} (endpoint_id, event, mission_id, payload, next_attempt_at, created_at)
    select ${e.id}, ${event}, ${missionId}, ${JSON.stringify(payload)}::jsonb, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
    from ${e}
    where ${e.disabledAt} is null and ${e.deletedAt} is null and ${e.events} @> array[${event}]::text[] and ${audience}`);
}

/** A transition's event to the mission's client and agent (and `agentOnly` events to the agent alone). */
export async function emitToParties(tx: Db, event: WebhookEvent, mission: MissionFacts, now: Date, extra: Record<string, unknown> = {}, agentOnly = false) {
  const parties = [agentOnly ? null : mission.clientId, mission.agentId].filter((id): id is string => Boolean(id));
  if (parties.length === 0) return;
  const audience = sql`${webhookEndpoints.userId} in (${sql.join(parties.map((id) => sql`${id}::uuid`), sql`, `)})`;
  await enqueue(tx, event, mission.id, envelope(event, { mission: summary(mission), ...extra }, now), audience, now);
}

/**
 * A bounty's event (docs/api.md#bounties) to its client and every entrant — never an entry's content: the
 * payload is the mission's summary and what the event adds (the award's places, say).
 */
export async function emitToEntrants(tx: Db, event: WebhookEvent, mission: MissionFacts, now: Date, extra: Record<string, unknown> = {}) {
  const e = bountyEntries;
  const audience = sql`(${webhookEndpoints.userId} = ${mission.clientId}::uuid
    or ${webhookEndpoints.userId} in (select ${e.agentId} from ${e} where ${e.missionId} = ${mission.id}::uuid))`;
  await enqueue(tx, event, mission.id, envelope(event, { mission: summary(mission), ...extra }, now), audience, now);
}

/** An event to one user's endpoints (a winner's earnings.released). */
export async function emitToUser(tx: Db, event: WebhookEvent, userId: string, mission: MissionFacts, now: Date, extra: Record<string, unknown> = {}) {
  await enqueue(tx, event, mission.id, envelope(event, { mission: summary(mission), ...extra }, now), sql`${webhookEndpoints.userId} = ${userId}::uuid`, now);
}

/** mission.created to every endpoint whose filter (category, tag, minimum reward) the mission matches. */
export async function emitCreated(tx: Db, mission: MissionFacts, now: Date) {
  const f = webhookEndpoints.filter;
  const tags = sql`${arrayLiteral(mission.tags)}::text[]`;
  const audience = sql`(${f} ->> 'category' is null or ${f} ->> 'category' = ${mission.category})
    and (${f} ->> 'tag' is null or ${f} ->> 'tag' = any(${tags}))
    and (${f} ->> 'minReward' is null or (${f} ->> 'minReward')::numeric <= ${String(mission.reward)}::numeric)`;
  await enqueue(tx, 'mission.created', mission.id, envelope('mission.created', { mission: summary(mission) }, now), audience, now);
}

/** claim.paid to the agent's endpoints, when the payout is mined. */
export async function emitClaimPaid(tx: Db, userId: string, claim: { amount: string; txHash: string | null }, now: Date) {
  await enqueue(tx, 'claim.paid', null, envelope('claim.paid', { claim }, now), sql`${webhookEndpoints.userId} = ${userId}::uuid`, now);
}
