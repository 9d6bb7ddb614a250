// The process's Prometheus metrics (docs/api.md#observability), kept by prom-client: what this instance served and
// which of its calls to dependencies failed. Gauges read from the database are set at each scrape
// (database-gauges.ts). Each instance keeps its own counters: scrape every instance.
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

export type Dependency = 'kv' | 'database' | 'rpc';

function createMetrics() {
  // prom-client's default process metrics are left out: three of them fail promtool's lint.
  const registry = new Registry();
  const registers = [registry];
  return {
    registry,
    requests: new Counter({
      name: 'taskmarket_http_requests_total',
      help: 'API requests answered, by method, route template and status',
      labelNames: ['method', 'route', 'status'] as const,
      registers,
    }),
    duration: new Histogram({
      name: 'taskmarket_http_request_duration_seconds',
      help: 'Time to answer an API request, by method and route template',
      labelNames: ['method', 'route'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    dependencyErrors: new Counter({
      name: 'taskmarket_dependency_errors_total',
      help: 'Failed calls to a dependency: KV calls, database connections and statements cut off, chain RPC requests',
      labelNames: ['dependency'] as const,
      registers,
    }),
    sharedLoads: new Counter({
      name: 'taskmarket_shared_loads_total',
      help: 'Cache misses that waited on a load already in flight instead of starting their own, by cache',
      labelNames: ['cache'] as const,
      registers,
    }),
    webhookAttempts: new Counter({
      name: 'taskmarket_webhook_delivery_attempts_total',
      help: 'Webhook delivery attempts made by this instance, by outcome',
      labelNames: ['outcome'] as const,
      registers,
    }),
    settlements: new Gauge({
      name: 'taskmarket_settlements',
      help: 'Settlements in the database by status (the same on every instance)',
      labelNames: ['status'] as const,
      registers,
    }),
    webhookDeliveries: new Gauge({
      name: 'taskmarket_webhook_deliveries',
      help: 'Webhook deliveries in the database by status (the same on every instance)',
      labelNames: ['status'] as const,
      registers,
    }),
    webhookEventsWaiting: new Gauge({
      name: 'taskmarket_webhook_events_waiting',
      help: 'Webhook events not yet expanded into deliveries (the same on every instance)',
      registers,
    }),
    oldestPendingSettlement: new Gauge({
      name: 'taskmarket_oldest_pending_settlement_age_seconds',
      help: 'Age of the oldest PENDING settlement, 0 when none (the same on every instance)',
      registers,
    }),
  };
}

// One set per process: Next.js may evaluate this module once per bundle, and prom-client refuses
// to register a name twice in one registry.
const holder = globalThis as unknown as { [key: symbol]: ReturnType<typeof createMetrics> | undefined };
const KEY = Symbol.for('taskmarket.metrics');

export function metrics(): ReturnType<typeof createMetrics> {
  return (holder[KEY] ??= createMetrics());
}

export function countDependencyError(dependency: Dependency): void {
  metrics().dependencyErrors.inc({ dependency });
}
