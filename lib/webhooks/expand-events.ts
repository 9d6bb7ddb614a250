// Events into deliveries (docs/api.md#webhooks), outside the transaction that wrote the event, so
// posting a mission costs one row however many endpoints subscribe. Each step takes one event
// (locked, SKIP LOCKED: another instance takes another), writes the deliveries of the next
// EXPAND_BATCH subscribed endpoints in id order and records the last one, in one transaction:
// a crash loses no step and repeats none, and (event_id, endpoint_id) is unique besides.
//
// Two lanes (docs/api.md#webhook-lanes): every step takes the oldest targeted event (to users, to a
// mission's parties) before any board event (mission.created to every matching filter), so a fan-out
// of thousands never holds a person's confirmation.requested behind it. In each lane an event waits
// while an earlier one of its mission is unexpanded, so deliveries keep the missions' order; a
// targeted event does not wait for its mission's board event, but first writes that event's
// delivery to its own endpoints that take both, so those endpoints still hear of the mission first,
// and moves the mission's board deliveries pending there into its own lane.
import 'server-only';
import { sql } from 'drizzle-orm';
import { arrayLiteral } from '../db/array-literal';
import type { Db } from '../db/client';
import { bountyEntries, type WebhookAudience, webhookDeliveries, webhookEndpoints, webhookEvents } from '../db/schema';

/** Endpoints expanded per step (one statement, one transaction). */
export const EXPAND_BATCH = 500;
/** Steps per run: at most EXPAND_BATCH × EXPAND_STEPS deliveries written by one run. */
const EXPAND_STEPS = 20;

type EventRow = typeof webhookEvents.$inferSelect;

/**
 * Expands pending events, at most `steps` batches of `batch` endpoints (by default as many as write
 * EXPAND_BATCH × EXPAND_STEPS deliveries), targeted events first at every step; `board: false` leaves
 * board events waiting; `pause` runs before each step after the first (the worker yields there).
 * Returns the deliveries written.
 */
export async function expandEvents(
  db: Db,
  now: Date,
  {
    batch = EXPAND_BATCH,
    steps = Math.ceil((EXPAND_BATCH * EXPAND_STEPS) / batch),
    until = Infinity,
    board = true,
    pause,
  }: { batch?: number; steps?: number; until?: number; board?: boolean; pause?: () => Promise<void> } = {},
): Promise<number> {
  let written = 0;
  for (let step = 0; step < steps && Date.now() < until; step += 1) {
    if (step > 0) await pause?.();
    const done = await db.transaction((tx) => expandStep(tx, now, batch, board));
    if (done === null) break;
    written += done;
  }
  return written;
}

/** The oldest waiting event of a lane whose mission has nothing earlier waiting in that lane. */
async function nextEvent(tx: Db, board: boolean): Promise<EventRow | undefined> {
  const v = webhookEvents;
  // A board event waits for every earlier event of its mission; a targeted one for earlier targeted ones.
  const sameLane = board ? sql`` : sql`and not earlier.board`;
  const [event] = await tx
    .select()
    .from(v)
    .where(
      sql`${v.board} = ${board} and not exists (select 1 from ${v} as earlier
        where earlier.mission_id = ${v.missionId} and earlier.seq < ${v.seq} ${sameLane})`,
    )
    .orderBy(v.seq)
    .limit(1)
    .for('update', { skipLocked: true });
  return event;
}

/** One batch of one event; null when no event is waiting. */
async function expandStep(tx: Db, now: Date, batch: number, board: boolean): Promise<number | null> {
  const event = (await nextEvent(tx, false)) ?? (board ? await nextEvent(tx, true) : undefined);
  if (!event) return null;
  const ahead = event.board ? 0 : await expandBoardAheadOf(tx, event, now);
  const e = webhookEndpoints;
  const endpoints = await tx
    .select({ id: e.id })
    .from(e)
    .where(
      sql`${live()} and ${e.events} @> array[${event.event}]::text[]
        and ${audienceOf(event.audience)}
        ${event.expandedThrough ? sql`and ${e.id} > ${event.expandedThrough}::uuid` : sql``}`,
    )
    .orderBy(e.id)
    .limit(batch);
  if (endpoints.length > 0) {
    await tx
      .insert(webhookDeliveries)
      .values(endpoints.map((endpoint) => deliveryOf(event, endpoint.id, now, event.board)))
      .onConflictDoNothing({ target: [webhookDeliveries.eventId, webhookDeliveries.endpointId] });
    if (!event.board && event.missionId) await promoteBoardAhead(tx, event.missionId, endpoints);
  }
  const v = webhookEvents;
  if (endpoints.length < batch) await tx.delete(v).where(sql`${v.id} = ${event.id}`);
  else
    await tx
      .update(v)
      .set({ expandedThrough: endpoints.at(-1)!.id })
      .where(sql`${v.id} = ${event.id}`);
  return ahead + endpoints.length;
}

/**
 * The mission's board events still expanding, delivered now to the targeted event's endpoints that
 * take them too — in the targeted lane, so they go out just ahead of it. The board event's own
 * expansion later finds them written (the unique index) and writes nothing twice.
 */
async function expandBoardAheadOf(tx: Db, event: EventRow, now: Date): Promise<number> {
  if (!event.missionId) return 0;
  const v = webhookEvents;
  const ahead = await tx
    .select()
    .from(v)
    .where(sql`${v.missionId} = ${event.missionId}::uuid and ${v.board} and ${v.seq} < ${event.seq}`)
    .orderBy(v.seq);
  let written = 0;
  for (const boardEvent of ahead) {
    const e = webhookEndpoints;
    const endpoints = await tx
      .select({ id: e.id })
      .from(e)
      .where(
        sql`${live()} and ${e.events} @> array[${boardEvent.event}, ${event.event}]::text[]
          and ${audienceOf(event.audience)} and ${audienceOf(boardEvent.audience)}`,
      )
      .orderBy(e.id);
    if (endpoints.length === 0) continue;
    const inserted = await tx
      .insert(webhookDeliveries)
      .values(endpoints.map((endpoint) => deliveryOf(boardEvent, endpoint.id, now, false)))
      .onConflictDoNothing({ target: [webhookDeliveries.eventId, webhookDeliveries.endpointId] })
      .returning({ id: webhookDeliveries.id });
    written += inserted.length;
  }
  return written;
}

/**
 * The mission's board deliveries still pending at the targeted event's endpoints join the targeted lane
 * (those its board expansion wrote before the event came): the event waits for them at each endpoint
 * (one mission's order), so they must not wait behind that endpoint's other board deliveries.
 */
async function promoteBoardAhead(tx: Db, missionId: string, endpoints: { id: string }[]) {
  const d = webhookDeliveries;
  const ids = arrayLiteral(endpoints.map((endpoint) => endpoint.id));
  await tx
    .update(d)
    .set({ board: false })
    .where(
      sql`${d.endpointId} = any(${ids}::uuid[]) and ${d.missionId} = ${missionId}::uuid
        and ${d.board} and ${d.status} = 'PENDING'`,
    );
}

const deliveryOf = (event: EventRow, endpointId: string, now: Date, board: boolean) => ({
  eventId: event.id,
  endpointId,
  event: event.event,
  missionId: event.missionId,
  payload: event.payload,
  board,
  nextAttemptAt: now,
  createdAt: event.createdAt,
});

const live = () => sql`${webhookEndpoints.disabledAt} is null and ${webhookEndpoints.deletedAt} is null`;

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
