// Events into deliveries (docs/api.md#webhooks), outside the transaction that wrote the event, so
// posting a mission costs one row however many endpoints subscribe. Each step takes one event
// (locked, SKIP LOCKED: another instance takes another), writes the deliveries of the next
// EXPAND_BATCH subscribed endpoints in id order and records the last one, in one transaction:
// a crash loses no step and repeats none, and (event_id, endpoint_id) is unique besides. An event
// waits while an earlier one of its mission is unexpanded, so deliveries keep the missions' order.
import 'server-only';
import { sql } from 'drizzle-orm';
import { arrayLiteral } from '../db/array-literal';
import type { Db } from '../db/client';
import { bountyEntries, type WebhookAudience, webhookDeliveries, webhookEndpoints, webhookEvents } from '../db/schema';

/** Endpoints expanded per step (one statement, one transaction). */
export const EXPAND_BATCH = 500;
/** Steps per run: at most EXPAND_BATCH × EXPAND_STEPS deliveries written by one run. */
const EXPAND_STEPS = 20;

/** Expands pending events, at most `steps` batches of `batch` endpoints; returns the deliveries written. */
export async function expandEvents(
  db: Db,
  now: Date,
  { batch = EXPAND_BATCH, steps = EXPAND_STEPS, until = Infinity } = {},
): Promise<number> {
  let written = 0;
  for (let step = 0; step < steps && Date.now() < until; step += 1) {
    const done = await db.transaction((tx) => expandStep(tx, now, batch));
    if (done === null) break;
    written += done;
  }
  return written;
}

/** One batch of one event; null when no event is waiting. */
async function expandStep(tx: Db, now: Date, batch: number): Promise<number | null> {
  const v = webhookEvents;
  const [event] = await tx
    .select()
    .from(v)
    .where(
      sql`not exists (select 1 from ${v} as earlier
        where earlier.mission_id = ${v.missionId} and earlier.seq < ${v.seq})`,
    )
    .orderBy(v.seq)
    .limit(1)
    .for('update', { skipLocked: true });
  if (!event) return null;
  const e = webhookEndpoints;
  const endpoints = await tx
    .select({ id: e.id })
    .from(e)
    .where(
      sql`${e.disabledAt} is null and ${e.deletedAt} is null and ${e.events} @> array[${event.event}]::text[]
        and ${audienceOf(event.audience)}
        ${event.expandedThrough ? sql`and ${e.id} > ${event.expandedThrough}::uuid` : sql``}`,
    )
    .orderBy(e.id)
    .limit(batch);
  if (endpoints.length > 0) {
    await tx
      .insert(webhookDeliveries)
      .values(
        endpoints.map((endpoint) => ({
          eventId: event.id,
          endpointId: endpoint.id,
          event: event.event,
          missionId: event.missionId,
          payload: event.payload,
          nextAttemptAt: now,
          createdAt: event.createdAt,
        })),
      )
      .onConflictDoNothing({ target: [webhookDeliveries.eventId, webhookDeliveries.endpointId] });
  }
  if (endpoints.length < batch) await tx.delete(v).where(sql`${v.id} = ${event.id}`);
  else
    await tx
      .update(v)
      .set({ expandedThrough: endpoints.at(-1)!.id })
      .where(sql`${v.id} = ${event.id}`);
  return endpoints.length;
}

/** The endpoints an event's audience names, as a condition on webhook_endpoints. */
function audienceOf(audience: WebhookAudience) {
  const e = webhookEndpoints;
  if ('users' in audience) return sql`${e.userId} = any(${arrayLiteral(audience.users)}::uuid[])`;
  if ('entrantsOf' in audience) {
    const b = bountyEntries;
    return sql`(${e.userId} = ${audience.client}::uuid
      or ${e.userId} in (select ${b.agentId} from ${b} where ${b.missionId} = ${audience.entrantsOf}::uuid))`;
  }
  const f = e.filter;
  const { category, tags, reward } = audience.filter;
  return sql`(${f} ->> 'category' is null or ${f} ->> 'category' = ${category})
    and (${f} ->> 'tag' is null or ${f} ->> 'tag' = any(${arrayLiteral(tags)}::text[]))
    and (${f} ->> 'minReward' is null or (${f} ->> 'minReward')::numeric <= ${reward}::numeric)`;
}
