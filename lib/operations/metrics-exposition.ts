// The Prometheus text exposition of this instance's metrics, with the database's gauges read fresh.
import type { Db } from '../db/client';
import { readDatabaseGauges } from './database-gauges';
import { metrics } from '../observability/metrics';

export async function renderMetrics(db: Db): Promise<{ contentType: string; text: string }> {
  await readDatabaseGauges(db);
  const { registry } = metrics();
  return { contentType: registry.contentType, text: await registry.metrics() };
}
