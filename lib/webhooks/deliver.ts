// Sends the outbox (docs/api.md#webhooks): expands waiting events into deliveries, then sends each due
// one (send-attempt.ts: signed, checked, one overall deadline). Events of one mission reach an
// endpoint in order: a delivery waits while an earlier one of its mission to that endpoint is
// pending. Endpoints are served by CONCURRENCY lanes at once, each lane one endpoint at a time, so
// a receiver that is slow costs its own lane for one deadline and nobody else's deliveries.
// Failures back off exponentially with jitter; an endpoint failing for 24 hours is disabled and
// its queue dropped.
import 'server-only';
import { randomUUID } from 'node:crypto';
import { and, asc, eq, gt, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Config } from '../config';
import { type Db, getDb } from '../db/client';
import { webhookDeliveries, webhookEndpoints } from '../db/schema';
import { log } from '../log';
import { expandEvents } from './expand-events';
import { type Outcome, sendAttempt } from './send-attempt';

// Longer than an attempt can take (its deadline), so a lease never lapses under a live attempt.
const LEASE_MS = 30_000;
const DISABLE_AFTER_MS = 24 * 3_600_000;
const BATCH = 50;
/** Endpoints sent to at once by one run (a constant: docs/api.md#webhooks). */
export const CONCURRENCY = 8;
// One endpoint's lane reads at most this many batches a run, each at most the next event of
// each mission (order).
const MAX_ROUNDS = 20;

/** Seconds before attempt n + 1: 10 s doubling to an hour, ± 20 % so retries do not stampede. */
export const backoffSeconds = (attempts: number, random = Math.random) =>
  Math.min(3_600, 10 * 2 ** Math.max(0, attempts - 1)) * (0.8 + 0.4 * random());

/**
 * A run starts attempts for at most RUN_BUDGET_MS of wall time (the last ones end within their
 * deadline after it), and stops trying an endpoint for the rest of the run at its first failure:
 * an endpoint that never answers costs one deadline a run, in its own lane.
 */
const RUN_BUDGET_MS = 20_000;

// One after-response run at a time per process. When every write started its own run, N writes
// under way meant N runs scanning the same outbox and racing for the same rows: in a soak at
// 260 req/s the outbox grew by ~1,400 deliveries a minute and answers slowed to seconds. A write
// that finds a run under way asks it to go round once more (its events were queued after the
// run read the clock), and waits for it; past a few rounds, or the run's budget (shared by its
// rounds), the sweep takes what is left.
// The state is the process's, not this module copy's: Next.js bundles the module into each route.
const AFTER_PASSES = 4;
const after = ((globalThis as unknown as { [key: symbol]: { run?: Promise<void>; again: boolean } })[
  Symbol.for('taskmarket.webhooks.after')
] ??= { again: false });

/** The route's after-response hook: send what the change just queued; what fails waits for the sweep. */
export function sendQueuedWebhooks(cfg: Config): Promise<void> {
  after.again = true;
  after.run ??= (async () => {
    try {
      const until = Date.now() + RUN_BUDGET_MS;
      for (let pass = 0; pass < AFTER_PASSES && after.again && Date.now() < until; pass += 1) {
        after.again = false;
        await deliverPending(await getDb(), cfg, new Date(), until);
      }
    } catch (error) {
      log.warn('webhooks.after_failed', { message: (error as Error).message });
    } finally {
      after.run = undefined;
    }
  })();
  return after.run;
}

export async function deliverPending(db: Db, cfg: Config, now = new Date(), until = Date.now() + RUN_BUDGET_MS) {
  const expanded = await expandEvents(db, now, { until });
  // The run's clock: `now` (a later one in tests, as the next sweeps would have) plus the time
  // spent, so a claim made late in the run leases as long as one made at its start.
  const started = Date.now();
  const at = () => new Date(now.getTime() + Date.now() - started);
  const run = { delivered: 0, failed: 0 };
  // Endpoints with something due, visited once each in id order from a random point round to it
  // (so a run cut short by its budget favours no one); lanes share one query at a time.
  const start = randomUUID();
  let cursor: { after: string; before?: string } = { after: start };
  let queue: string[] = [];
  let refill: Promise<void> | undefined;
  let exhausted = false;
  const nextEndpoint = async (): Promise<string | undefined> => {
    while (queue.length === 0 && !exhausted) {
      refill ??= endpointsWithDue(db, at(), cursor)
        .then((ids) => {
          queue = ids;
          if (ids.length > 0) cursor = { ...cursor, after: ids.at(-1)! };
          else if (cursor.before === undefined)
            cursor = { after: '00000000-0000-0000-0000-000000000000', before: start };
          else exhausted = true;
        })
        .finally(() => {
          refill = undefined;
        });
      await refill;
    }
    return queue.shift();
  };
  const lane = async () => {
    for (let endpointId = await nextEndpoint(); endpointId && Date.now() < until; endpointId = await nextEndpoint()) {
      await serveEndpoint(db, cfg, endpointId, at, until, run);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  return { expanded, ...run };
}

/** Live endpoints with a delivery due and unclaimed, in id order, after `after` (and up to `before`). */
async function endpointsWithDue(db: Db, now: Date, range: { after: string; before?: string }) {
  const d = webhookDeliveries;
  const e = webhookEndpoints;
  const rows = await db
    .selectDistinct({ endpointId: d.endpointId })
    .from(d)
    .innerJoin(e, eq(e.id, d.endpointId))
    .where(
      and(
        due(now),
        isNull(e.disabledAt),
        isNull(e.deletedAt),
        gt(d.endpointId, range.after),
        range.before ? lte(d.endpointId, range.before) : undefined,
      ),
    )
    .orderBy(d.endpointId)
    .limit(BATCH);
  return rows.map((row) => row.endpointId);
}

const due = (now: Date) => {
  const d = webhookDeliveries;
  return and(eq(d.status, 'PENDING'), lte(d.nextAttemptAt, now), or(isNull(d.lockedUntil), lt(d.lockedUntil, now)));
};

/** One endpoint's due deliveries, in order, until none is left, one fails, or the run's time is up. */
async function serveEndpoint(
  db: Db,
  cfg: Config,
  endpointId: string,
  at: () => Date,
  until: number,
  run: { delivered: number; failed: number },
) {
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const rows = await dueDeliveries(db, endpointId, at());
    if (rows.length === 0) return;
    for (const row of rows) {
      if (Date.now() >= until) return;
      if (!(await claim(db, row.id, at()))) continue;
      const outcome = await sendAttempt(cfg, row);
      if (outcome.ok) {
        run.delivered += 1;
        await markDelivered(db, row, outcome.status, at());
      } else {
        run.failed += 1;
        await markFailed(db, row, outcome, at());
        return;
      }
    }
  }
}

function dueDeliveries(db: Db, endpointId: string, now: Date) {
  const d = webhookDeliveries;
  const e = webhookEndpoints;
  return db
    .select({
      id: d.id,
      endpointId: d.endpointId,
      event: d.event,
      payload: d.payload,
      attempts: d.attempts,
      url: e.url,
      sealedSecret: e.sealedSecret,
      failingSince: e.failingSince,
    })
    .from(d)
    .innerJoin(e, eq(e.id, d.endpointId))
    .where(
      and(
        eq(d.endpointId, endpointId),
        due(now),
        isNull(e.disabledAt),
        isNull(e.deletedAt),
        // In order per mission and endpoint: nothing earlier of the same mission still pending.
        sql`not exists (select 1 from ${d} as earlier
          where earlier.endpoint_id = ${d.endpointId} and earlier.mission_id = ${d.missionId}
          and earlier.status = 'PENDING' and earlier.seq < ${d.seq})`,
      ),
    )
    .orderBy(asc(d.seq))
    .limit(BATCH);
}

type Due = Awaited<ReturnType<typeof dueDeliveries>>[number];

async function claim(db: Db, id: string, now: Date) {
  const [row] = await db
    .update(webhookDeliveries)
    .set({ lockedUntil: new Date(now.getTime() + LEASE_MS), attempts: sql`${webhookDeliveries.attempts} + 1` })
    .where(
      and(
        eq(webhookDeliveries.id, id),
        eq(webhookDeliveries.status, 'PENDING'),
        or(isNull(webhookDeliveries.lockedUntil), lt(webhookDeliveries.lockedUntil, now)),
      ),
    )
    .returning({ id: webhookDeliveries.id });
  return row;
}

async function markDelivered(db: Db, row: Due, status: number, now: Date) {
  await db.transaction(async (tx) => {
    await tx
      .update(webhookDeliveries)
      .set({ status: 'DELIVERED', deliveredAt: now, lastStatus: status, lastError: null, lockedUntil: null })
      .where(eq(webhookDeliveries.id, row.id));
    await tx.update(webhookEndpoints).set({ failingSince: null }).where(eq(webhookEndpoints.id, row.endpointId));
  });
}

async function markFailed(db: Db, row: Due, outcome: Extract<Outcome, { ok: false }>, now: Date) {
  const failingSince = row.failingSince ?? now;
  const disable = now.getTime() - failingSince.getTime() >= DISABLE_AFTER_MS;
  await db.transaction(async (tx) => {
    await tx
      .update(webhookDeliveries)
      .set({
        lastStatus: outcome.status,
        lastError: outcome.error,
        lockedUntil: null,
        nextAttemptAt: new Date(now.getTime() + backoffSeconds(row.attempts + 1) * 1000),
      })
      .where(eq(webhookDeliveries.id, row.id));
    await tx
      .update(webhookEndpoints)
      .set({ failingSince, ...(disable && { disabledAt: now }) })
      .where(eq(webhookEndpoints.id, row.endpointId));
    if (disable) {
      await tx
        .update(webhookDeliveries)
        .set({ status: 'FAILED', lastError: 'endpoint disabled after 24 h of failures', lockedUntil: null })
        .where(and(eq(webhookDeliveries.endpointId, row.endpointId), eq(webhookDeliveries.status, 'PENDING')));
    }
  });
  if (disable) log.warn('webhooks.endpoint_disabled', { endpointId: row.endpointId });
}
