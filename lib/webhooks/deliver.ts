// Sends the outbox (docs/api.md#webhooks): each due delivery signed with Standard Webhooks (webhook-id,
// webhook-timestamp, webhook-signature), to an address checked at send time, with a short
// timeout and no redirects. Events of one mission reach an endpoint in order: a delivery waits
// while an earlier one of its mission to that endpoint is pending. Failures back off
// exponentially with jitter; an endpoint failing for 24 hours is disabled and its queue dropped.
import 'server-only';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { and, eq, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import type { Config } from '../config';
import { type Db, getDb } from '../db/client';
import { webhookDeliveries, webhookEndpoints } from '../db/schema';
import { log } from '../log';
import { metrics } from '../observability/metrics';
import { SpanKind, inSpan } from '../observability/tracing';
import { unsealSecret } from './secrets';
import { checkWebhookUrl, resolveTarget } from './url-guard';

const TIMEOUT_MS = 5_000;
const LEASE_MS = 30_000;
const DISABLE_AFTER_MS = 24 * 3_600_000;
const BATCH = 50;
// Each round sends at most the next event of each mission (order), so a run takes a few.
const MAX_ROUNDS = 20;

/** Seconds before attempt n + 1: 10 s doubling to an hour, ± 20 % so retries do not stampede. */
export const backoffSeconds = (attempts: number, random = Math.random) => Math.min(3_600, 10 * 2 ** Math.max(0, attempts - 1)) * (0.8 + 0.4 * random());

/**
 * One run sends for at most RUN_BUDGET_MS of wall time, and stops trying an endpoint for the rest
 * of the run at its first failure: an endpoint that never answers costs one timeout a run, not
 * one per queued event, and cannot hold up everyone else's deliveries.
 */
const RUN_BUDGET_MS = 20_000;

// One after-response run at a time per process. When every write started its own run, N writes
// under way meant N runs scanning the same outbox and racing for the same rows: in a soak at
// 260 req/s the outbox grew by ~1,400 deliveries a minute and answers slowed to seconds. A write
// that finds a run under way asks it to go round once more (its deliveries were queued after the
// run read the clock), and waits for it; past a few rounds the sweep takes what is left.
// The state is the process's, not this module copy's: Next.js bundles the module into each route.
const AFTER_PASSES = 4;
const after = ((globalThis as unknown as { [key: symbol]: { run?: Promise<void>; again: boolean } })[Symbol.for('taskmarket.webhooks.after')] ??= { again: false });

/** The route's after-response hook: send what the change just queued; what fails waits for the sweep. */
export function sendQueuedWebhooks(cfg: Config): Promise<void> {
  after.again = true;
  after.run ??= (async () => {
    try {
      for (let pass = 0; pass < AFTER_PASSES && after.again; pass += 1) {
        after.again = false;
        await deliverPending(await getDb(), cfg);
      }
    } catch (error) {
      log.warn('webhooks.after_failed', { message: (error as Error).message });
    } finally {
      after.run = undefined;
    }
  })();
  return after.run;
}

export async function deliverPending(db: Db, cfg: Config, now = new Date()): Promise<{ delivered: number; failed: number }> {
  let delivered = 0;
  let failed = 0;
  const started = Date.now();
  const failing = new Set<string>();
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const due = (await dueDeliveries(db, now)).filter((row) => !failing.has(row.endpointId));
    if (due.length === 0) break;
    for (const row of due) {
      if (Date.now() - started > RUN_BUDGET_MS) return { delivered, failed };
      if (failing.has(row.endpointId)) continue;
      const claimed = await claim(db, row.id, now);
      if (!claimed) continue;
      const outcome = await observedSend(cfg, row);
      if (outcome.ok) {
        delivered += 1;
        await markDelivered(db, row, outcome.status, now);
      } else {
        failed += 1;
        failing.add(row.endpointId);
        await markFailed(db, row, outcome, now);
      }
    }
  }
  return { delivered, failed };
}

function dueDeliveries(db: Db, now: Date) {
  const d = webhookDeliveries;
  const e = webhookEndpoints;
  return db
    .select({
      id: d.id,
      endpointId: d.endpointId,
      event: d.event,
      payload: d.payload,
      attempts: d.attempts,
      createdAt: d.createdAt,
      url: e.url,
      sealedSecret: e.sealedSecret,
      failingSince: e.failingSince,
    })
    .from(d)
    .innerJoin(e, eq(e.id, d.endpointId))
    .where(
      and(
        eq(d.status, 'PENDING'),
        lte(d.nextAttemptAt, now),
        or(isNull(d.lockedUntil), lt(d.lockedUntil, now)),
        isNull(e.disabledAt),
        isNull(e.deletedAt),
        // In order per mission and endpoint: nothing earlier of the same mission still pending.
        sql`not exists (select 1 from ${d} as earlier where earlier.endpoint_id = ${d.endpointId} and earlier.mission_id = ${d.missionId}
          and earlier.status = 'PENDING' and earlier.seq < ${d.seq})`,
      ),
    )
    .orderBy(d.seq)
    .limit(BATCH);
}

type Due = Awaited<ReturnType<typeof dueDeliveries>>[number];

async function claim(db: Db, id: string, now: Date) {
  const [row] = await db
    .update(webhookDeliveries)
    .set({ lockedUntil: new Date(now.getTime() + LEASE_MS), attempts: sql`${webhookDeliveries.attempts} + 1` })
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, 'PENDING'), or(isNull(webhookDeliveries.lockedUntil), lt(webhookDeliveries.lockedUntil, now))))
    .returning({ id: webhookDeliveries.id });
  return row;
}

type Outcome = { ok: true; status: number } | { ok: false; status: number | null; error: string };

/** One attempt in its span (event and status, never the URL or payload), counted by outcome (docs/api.md#observability). */
function observedSend(cfg: Config, row: Due): Promise<Outcome> {
  return inSpan('webhook deliver', { kind: SpanKind.CLIENT, attributes: { 'taskmarket.webhook.event': row.event } }, async (span) => {
    const outcome = await send(cfg, row);
    if (outcome.status !== null) span?.setAttribute('http.response.status_code', outcome.status);
    span?.setAttribute('taskmarket.webhook.outcome', outcome.ok ? 'delivered' : 'failed');
    metrics().webhookAttempts.inc({ outcome: outcome.ok ? 'delivered' : 'failed' });
    return outcome;
  });
}

async function send(cfg: Config, row: Due): Promise<Outcome> {
  try {
    const allowPrivate = cfg.webhooks.allowPrivate;
    const url = checkWebhookUrl(row.url, allowPrivate);
    const target = await resolveTarget(url, allowPrivate);
    const body = JSON.stringify(row.payload);
    const sentAt = new Date();
    const signature = new Webhook(unsealSecret(cfg, row.sealedSecret)).sign(row.id, sentAt, body);
    const status = await post(url, target, body, {
      'content-type': 'application/json',
      'user-agent': 'taskmarket-webhooks/1',
      'webhook-id': row.id,
      'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
      'webhook-signature': signature,
    });
    return status >= 200 && status < 300 ? { ok: true, status } : { ok: false, status, error: `HTTP ${status}` };
  } catch (error) {
    const reason = (error as { details?: string[] }).details?.[0] ?? (error as Error).message;
    return { ok: false, status: null, error: reason.slice(0, 200) };
  }
}

/** One POST to the checked address (Host and SNI stay the URL's); the answer's body is not read. */
function post(url: URL, target: { address: string; family: number }, body: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        timeout: TIMEOUT_MS,
        // Happy-eyeballs asks for every address (`all`); either way only the checked one is given.
        lookup: ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) =>
          options.all ? callback(null, [target]) : callback(null, target.address, target.family)) as never,
      },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', reject);
    request.end(body);
  });
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
