// Retention (docs/api.md#webhooks): the outbox must not grow for ever. The sweep deletes delivered and
// failed deliveries older than WEBHOOK_RETENTION_DAYS, and endpoints removed that long ago with
// every delivery they still had. Each sweep deletes at most RETENTION_BATCH × RETENTION_STEPS
// deliveries and RETENTION_BATCH endpoints, in statements of RETENTION_BATCH, so a backlog drains over a few sweeps
// without one long statement.
import 'server-only';
import { and, inArray, isNotNull, lt, ne, notExists, sql } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { webhookDeliveries, webhookEndpoints } from '../db/schema';

const RETENTION_BATCH = 5_000;
const RETENTION_STEPS = 10;

export async function deleteOldWebhookData(db: Db, cfg: Config, now: Date) {
  const cutoff = new Date(now.getTime() - cfg.webhooks.retentionDays * 86_400_000);
  const d = webhookDeliveries;
  const e = webhookEndpoints;
  const removedLongAgo = and(isNotNull(e.deletedAt), lt(e.deletedAt, cutoff));
  const removed = db.select({ id: e.id }).from(e).where(removedLongAgo);
  const old = sql`(${and(ne(d.status, 'PENDING'), lt(d.createdAt, cutoff))} or ${inArray(d.endpointId, removed)})`;
  let deliveries = 0;
  for (let step = 0; step < RETENTION_STEPS; step += 1) {
    const batch = db.select({ id: d.id }).from(d).where(old).limit(RETENTION_BATCH);
    const deleted = await db.delete(d).where(inArray(d.id, batch)).returning({ id: d.id });
    deliveries += deleted.length;
    if (deleted.length < RETENTION_BATCH) break;
  }
  const unused = db
    .select({ id: e.id })
    .from(e)
    .where(and(removedLongAgo, notExists(db.select({ one: sql`1` }).from(d).where(sql`${d.endpointId} = ${e.id}`))))
    .limit(RETENTION_BATCH);
  const endpoints = await db.delete(e).where(inArray(e.id, unused)).returning({ id: e.id });
  return { deliveries, endpoints: endpoints.length };
}
