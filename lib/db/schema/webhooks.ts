// Signed webhooks (docs/api.md#webhooks): a user's endpoints, the events (one row each, written in the
// transaction of the change it reports) and the outbox of deliveries — one row per event and
// endpoint, expanded from the event by the worker outside that transaction, sent after the
// response and by the sweep, retried with backoff until delivered or the endpoint is disabled.
import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { missions } from './missions';
import { users } from './users';

const at = (name: string) => timestamp(name, { withTimezone: true });

export const webhookDeliveryStatusEnum = pgEnum('webhook_delivery_status', ['PENDING', 'DELIVERED', 'FAILED']);

export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    url: text('url').notNull(),
    events: text('events').array().notNull(),
    // mission.created only: { category?, tag?, minReward? }
    filter: jsonb('filter').$type<{ category?: string; tag?: string; minReward?: string }>().notNull().default({}),
    // The signing secret, sealed with a key derived from SESSION_SECRET (lib/webhooks/secrets.ts).
    sealedSecret: text('sealed_secret').notNull(),
    createdAt: at('created_at').notNull(),
    // Set at the first failure of a streak, cleared by a success; 24 h of it disables the endpoint.
    failingSince: at('failing_since'),
    disabledAt: at('disabled_at'),
    deletedAt: at('deleted_at'),
  },
  (t) => [
    index('webhook_endpoints_user_idx').on(t.userId),
    // mission.created goes to every subscribed endpoint: found by event, not by scanning them all.
    index('webhook_endpoints_events_idx').using('gin', t.events),
  ],
);

/** Who an event goes to, resolved to endpoints when it is expanded (lib/webhooks/expand-events.ts). */
export type WebhookAudience =
  | { users: string[] }
  | { entrantsOf: string; client: string }
  | { filter: { category: string; tags: string[]; reward: string } };

// docs/api.md#webhooks: posting costs one row whoever subscribes; the worker turns it into deliveries
// in batches of endpoints (ordered by id, `expandedThrough` the last one done) and deletes it when done.
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    // Events of one mission are expanded in this order, so their deliveries keep it.
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    event: text('event').notNull(),
    missionId: uuid('mission_id').references(() => missions.id),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    audience: jsonb('audience').$type<WebhookAudience>().notNull(),
    // docs/api.md#webhook-lanes: a board announcement (mission.created to every matching filter), expanded
    // after the events to users and to a mission's parties (false), which never wait behind one.
    board: boolean('board').notNull().default(false),
    expandedThrough: uuid('expanded_through'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    index('webhook_events_seq_idx').on(t.seq),
    index('webhook_events_mission_idx').on(t.missionId, t.seq),
    index('webhook_events_lane_idx').on(t.board, t.seq),
  ],
);

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    // Also the webhook-id header: a receiver dedupes on it.
    id: uuid('id').primaryKey().defaultRandom(),
    // Insertion order: events of one change share an instant, and must still arrive in order.
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id),
    // The event it was expanded from (null for deliveries written before events had rows).
    eventId: uuid('event_id'),
    event: text('event').notNull(),
    missionId: uuid('mission_id').references(() => missions.id),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    // docs/api.md#webhook-lanes: a board delivery, sent after the endpoint's targeted ones (false) — and after
    // every endpoint with a targeted delivery due. A board event's delivery to a party of the mission, written
    // ahead of the party's targeted event, travels with it (false).
    board: boolean('board').notNull().default(false),
    status: webhookDeliveryStatusEnum('status').notNull().default('PENDING'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: at('next_attempt_at').notNull(),
    lockedUntil: at('locked_until'),
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    createdAt: at('created_at').notNull(),
    deliveredAt: at('delivered_at'),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.status, t.nextAttemptAt),
    index('webhook_deliveries_lane_due_idx').on(t.board, t.status, t.nextAttemptAt),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt),
    index('webhook_deliveries_order_idx').on(t.endpointId, t.missionId, t.seq),
    // The delivery run's walk of the endpoints with something pending (lib/webhooks/deliver.ts), and each
    // one's first: only the pending rows, a fan-out's worth at most.
    index('webhook_deliveries_pending_idx').on(t.endpointId, t.board, t.seq).where(sql`${t.status} = 'PENDING'`),
    // Expansion is idempotent: an event reaches an endpoint once, however often it is retried.
    uniqueIndex('webhook_deliveries_event_endpoint_idx').on(t.eventId, t.endpointId),
    // Retention (WEBHOOK_RETENTION_DAYS) deletes by age.
    index('webhook_deliveries_created_idx').on(t.createdAt),
  ],
);
