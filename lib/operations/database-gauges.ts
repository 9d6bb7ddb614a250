// The metrics that come from the database, read at each scrape: settlements and webhook
// deliveries by status, webhook events still to expand, and how long the oldest PENDING
// settlement has waited. The same on every
// instance, whichever one is scraped.
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import {
  settlementStatusEnum,
  settlements,
  webhookDeliveries,
  webhookDeliveryStatusEnum,
  webhookEvents,
} from '../db/schema';
import { metrics } from '../observability/metrics';

export async function readDatabaseGauges(db: Db, now = new Date()): Promise<void> {
  const [settled, delivered, waiting, oldest] = await Promise.all([
    db
      .select({ status: settlements.status, count: sql<number>`count(*)::int` })
      .from(settlements)
      .groupBy(settlements.status),
    db
      .select({ status: webhookDeliveries.status, count: sql<number>`count(*)::int` })
      .from(webhookDeliveries)
      .groupBy(webhookDeliveries.status),
    db.select({ count: sql<number>`count(*)::int` }).from(webhookEvents),
    db
      .select({ createdAt: sql<Date | string | null>`min(${settlements.createdAt})` })
      .from(settlements)
      .where(sql`${settlements.status} = 'PENDING'`),
  ]);
  const m = metrics();
  // Every status is reported, 0 included, so an alert on FAILED > 0 has a series to watch.
  setAll(m.settlements, settlementStatusEnum.enumValues, settled);
  setAll(m.webhookDeliveries, webhookDeliveryStatusEnum.enumValues, delivered);
  m.webhookEventsWaiting.set(waiting[0]?.count ?? 0);
  const since = oldest[0]?.createdAt;
  m.oldestPendingSettlement.set(since ? Math.max(0, (now.getTime() - new Date(since).getTime()) / 1000) : 0);
}

function setAll(
  gauge: ReturnType<typeof metrics>['settlements'],
  statuses: readonly string[],
  rows: { status: string; count: number }[],
) {
  for (const status of statuses) gauge.set({ status }, rows.find((row) => row.status === status)?.count ?? 0);
}
