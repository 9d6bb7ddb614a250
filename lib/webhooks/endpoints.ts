// A user's webhook endpoints (docs/api.md#webhooks): add (the secret is shown once), list, remove, and the
// recent deliveries of one. At most MAX_ENDPOINTS live endpoints a user, and past
// WEBHOOK_BOARD_SUBSCRIPTIONS_MAX live mission.created subscriptions in all, only a passport holder adds
// another (docs/api.md#board-subscriptions).
import 'server-only';
import { and, count, eq, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { passports, users, webhookDeliveries, webhookEndpoints } from '../db/schema';
import { afterCursor, pageOf, pageOrder } from '../paging/created-pages';
import { ApiError } from '../errors';
import { type createWebhookSchema, MAX_ENDPOINTS, type WebhookEndpointView, type WebhookEvent } from './schemas';
import { newWebhookSecret, sealSecret } from './secrets';
import { checkWebhookTarget } from '../outbound/url-guard';

type Endpoint = typeof webhookEndpoints.$inferSelect;

const present = (e: Endpoint): WebhookEndpointView => ({
  id: e.id,
  url: e.url,
  events: e.events as WebhookEvent[],
  filter: e.filter,
  status: e.disabledAt ? 'DISABLED' : e.failingSince ? 'FAILING' : 'ACTIVE',
  createdAt: e.createdAt.toISOString(),
});

const live = (userId: string) => and(eq(webhookEndpoints.userId, userId), isNull(webhookEndpoints.deletedAt));

export async function addWebhook(
  db: Db,
  cfg: Config,
  userId: string,
  input: z.infer<typeof createWebhookSchema>,
  now: Date,
) {
  const url = await checkWebhookTarget(input.url, cfg.webhooks.allowPrivate);
  const secret = newWebhookSecret();
  const created = await db.transaction(async (tx) => {
    // Counted under a lock on the user's row (there may be no endpoint rows yet to lock), so
    // concurrent adds queue and cannot pass the cap together.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(webhookEndpoints).where(live(userId));
    if (n >= MAX_ENDPOINTS)
      throw new ApiError(409, `At most ${MAX_ENDPOINTS} webhook endpoints a user; remove one first`);
    if (input.events.includes(BOARD_EVENT)) await assertBoardPlace(tx, cfg, userId);
    const [row] = await tx
      .insert(webhookEndpoints)
      .values({
        userId,
        url: url.toString(),
        events: input.events,
        filter: input.filter ?? {},
        sealedSecret: sealSecret(cfg, secret),
        createdAt: now,
      })
      .returning();
    return row!;
  });
  return { ...present(created), secret };
}

const BOARD_EVENT = 'mission.created';
// pg_advisory_xact_lock key serializing the count of the board's subscriptions (any constant of our own).
const BOARD_LOCK = 7_406_252;

/**
 * The board's cap (docs/api.md#board-subscriptions): every mission.created fans out to each live
 * subscription, so past `boardSubscriptionsMax` of them only a user whose agent passport is minted
 * adds one — a passport costs a mint (sponsored at most MINT_BUDGET_PER_HOUR, or paid by the agent),
 * and holds at most MAX_ENDPOINTS. Adds without a passport count under one lock, so concurrent ones
 * cannot pass the cap together; the count stops at the cap.
 */
async function assertBoardPlace(tx: Db, cfg: Config, userId: string) {
  const [passport] = await tx
    .select({ userId: passports.userId })
    .from(passports)
    .where(and(eq(passports.userId, userId), eq(passports.status, 'MINTED')))
    .limit(1);
  if (passport) return;
  const max = cfg.webhooks.boardSubscriptionsMax;
  await tx.execute(sql`select pg_advisory_xact_lock(${BOARD_LOCK})`);
  const e = webhookEndpoints;
  const taken = tx
    .select({ id: e.id })
    .from(e)
    .where(sql`${e.deletedAt} is null and ${e.disabledAt} is null and ${e.events} @> array[${BOARD_EVENT}]::text[]`)
    .limit(max)
    .as('taken');
  const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(taken);
  if (n >= max)
    throw new ApiError(
      409,
      `The board's ${max} mission.created subscriptions are all taken; ` +
        'an agent with a minted passport may still subscribe',
    );
}

export async function listWebhooks(db: Db, userId: string) {
  const rows = await db.select().from(webhookEndpoints).where(live(userId)).orderBy(webhookEndpoints.createdAt);
  return { items: rows.map(present) };
}

async function ownEndpointOrThrow(db: Db, userId: string, id: string): Promise<Endpoint> {
  const notFound = new ApiError(404, 'Webhook endpoint not found');
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), live(userId)))
    .limit(1);
  if (!row) throw notFound;
  return row;
}

/** Removes the endpoint: nothing more is sent to it; its delivery history stays readable to no one. */
export async function removeWebhook(db: Db, userId: string, id: string, now: Date) {
  await ownEndpointOrThrow(db, userId, id);
  await db.transaction(async (tx) => {
    await tx.update(webhookEndpoints).set({ deletedAt: now }).where(eq(webhookEndpoints.id, id));
    await tx
      .update(webhookDeliveries)
      .set({ status: 'FAILED', lastError: 'endpoint removed', lockedUntil: null })
      .where(and(eq(webhookDeliveries.endpointId, id), eq(webhookDeliveries.status, 'PENDING')));
  });
  return { ok: true as const };
}

/** The endpoint's deliveries, newest first. */
export async function listDeliveries(db: Db, userId: string, id: string, query: { limit: number; cursor?: string }) {
  await ownEndpointOrThrow(db, userId, id);
  const d = webhookDeliveries;
  const rows = await db
    .select()
    .from(d)
    .where(and(eq(d.endpointId, id), afterCursor(query.cursor, d.createdAt, d.id, 'newest')))
    .orderBy(...pageOrder(d.createdAt, d.id, 'newest'))
    .limit(query.limit + 1);
  return pageOf(rows, query.limit, (row) => ({
    id: row.id,
    event: row.event as WebhookEvent,
    status: row.status,
    attempts: row.attempts,
    lastStatus: row.lastStatus,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
  }));
}
