// Sends the outbox (docs/api.md#webhooks): expands waiting events into deliveries, then sends each due
// one (send-attempt.ts: signed, checked, one overall deadline). Events of one mission reach an
// endpoint in order: a delivery waits while an earlier one of its mission to that endpoint is
// pending. Endpoints are served by CONCURRENCY lanes at once, each lane one endpoint at a time, so
// a receiver that is slow costs its own lane for one deadline and nobody else's deliveries.
// Failures back off exponentially with jitter; an endpoint failing for 24 hours is disabled and
// its queue dropped. The board's endpoints are taken a batch at a time with their first due
// delivery already claimed, and what is sent is marked delivered a batch at a time (a crash between
// the send and the mark sends again after the lease: a receiver dedupes on webhook-id).
// Targeted deliveries (to a user, to a mission's parties) go first (docs/api.md#webhook-lanes): each
// time the lanes run out of endpoints, the run expands waiting targeted events and serves every
// endpoint with a targeted delivery due before it expands board events or takes the next batch of
// the board's endpoints, and an endpoint sends its targeted deliveries before its board ones. So
// a write made while a run fans out is sent within one batch of endpoints, not after the fan-out.
// A fan-out is shared (docs/api.md#webhook-fan-out): on the embedded database the run shares this
// process with the requests, so it runs in fewer lanes and steps aside for them; with a shared
// database and KV a run that finds more than a batch due says so in the KV, and every instance's
// watcher (watchFanOut) joins it.
import 'server-only';
import { randomUUID } from 'node:crypto';
import { and, asc, eq, isNull, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Config } from '../config';
import { arrayLiteral } from '../db/array-literal';
import { type Db, getDb } from '../db/client';
import { rowsOf } from '../db/rows';
import { webhookDeliveries, webhookEndpoints } from '../db/schema';
import { asBackgroundWork } from '../observability/in-flight';
import { getKv } from '../kv';
import { log } from '../log';
import { expandEvents } from './expand-events';
import { boardSlot, type Pacing, pacingOf, step, yieldToRequests } from './pacing';
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

// A run that finds a full batch of endpoints due marks the KV for FAN_OUT_MS (refreshed at most once
// a second); every instance's watcher looks each WATCH_MS and, while it is marked, runs too.
const FAN_OUT_KEY = 'webhooks:fan-out';
const FAN_OUT_MS = 5_000;
const WATCH_MS = 1_000;
let announcedAt = 0;
function announceFanOut(cfg: Config): void {
  if (!cfg.databaseUrl || Date.now() - announcedAt < WATCH_MS) return;
  announcedAt = Date.now();
  getKv()
    .put(FAN_OUT_KEY, String(announcedAt), FAN_OUT_MS)
    .catch((error) => log.warn('webhooks.fan_out_announce_failed', { message: (error as Error).message }));
}

/**
 * Started once per server process with a shared database, off Vercel (instrumentation.ts; there the
 * sweep and each write's own run send): joins a fan-out another
 * instance announced — one KV read a second, and a delivery run only while one is announced.
 */
export function watchFanOut(cfg: Config): void {
  const holder = globalThis as unknown as { [key: symbol]: boolean | undefined };
  const started = Symbol.for('taskmarket.webhooks.watch');
  if (!cfg.databaseUrl || cfg.onVercel || holder[started]) return;
  holder[started] = true;
  setInterval(() => {
    if (after.run) return;
    getKv()
      .get(FAN_OUT_KEY)
      .then((announced) => {
        if (announced && !after.run) void sendQueuedWebhooks(cfg);
      })
      .catch(() => undefined);
  }, WATCH_MS).unref();
}

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

export function deliverPending(db: Db, cfg: Config, now = new Date(), until = Date.now() + RUN_BUDGET_MS) {
  return asBackgroundWork(() => deliverRun(db, cfg, now, until));
}

async function deliverRun(db: Db, cfg: Config, now: Date, until: number) {
  // The run's clock: `now` (a later one in tests, as the next sweeps would have) plus the time
  // spent, so a claim made late in the run leases as long as one made at its start.
  const started = Date.now();
  const at = () => new Date(now.getTime() + Date.now() - started);
  const run = { delivered: 0, failed: 0 };
  const pacing = pacingOf(cfg);
  const expanding = { until, batch: pacing.expandBatch, pause: () => yieldToRequests(pacing) };
  let expanded = 0;
  // Endpoints a lane is serving; endpoints that failed this run; endpoints the targeted lane offers no
  // more this run (failed, or had nothing it could send: an earlier delivery of the mission waits).
  const busy = new Set<string>();
  const failed = new Set<string>();
  const spent = new Set<string>();
  // The board's endpoints with something pending, visited once each in id order from a random point
  // round to it (so a run cut short by its budget favours no one); lanes share one query at a time.
  // Each board batch comes claimed: every endpoint's first due delivery, leased in one statement, and
  // the deliveries sent are marked in one statement (marks) — a fan-out costs four statements per
  // BATCH endpoints (walk, read, claim, mark), not three per endpoint.
  const start = randomUUID();
  let cursor: { after: string; before?: string } = { after: start };
  let boardExpanded = false;
  let queue: Work[] = [];
  let refill: Promise<void> | undefined;
  let exhausted = false;
  const marks: Mark[] = [];
  const flushMarks = () => markDelivered(db, marks.splice(0), at());
  const fill = async () => {
    await flushMarks();
    // The targeted lane first, at every refill: events written since the run began included.
    await yieldToRequests(pacing);
    expanded += await expandEvents(db, at(), { ...expanding, board: false });
    const targeted = await endpointsWithTargetedDue(db, at(), [...busy, ...spent]);
    if (targeted.length > 0) {
      queue = targeted.map((endpointId) => ({ endpointId }));
      return;
    }
    if (!boardExpanded) {
      boardExpanded = true;
      const written = await expandEvents(db, at(), expanding);
      expanded += written;
      if (written >= pacing.expandBatch) announceFanOut(cfg);
      return;
    }
    const batch = await claimFirstDue(db, at(), cursor, [...busy, ...failed]);
    if (batch.endpoints >= BATCH) announceFanOut(cfg);
    for (const row of batch.claimed) busy.add(row.endpointId);
    queue = batch.claimed.map((row) => ({ endpointId: row.endpointId, claimed: row }));
    if (batch.last) cursor = { ...cursor, after: batch.last };
    else if (cursor.before === undefined) cursor = { after: '00000000-0000-0000-0000-000000000000', before: start };
    else exhausted = true;
  };
  const nextWork = async (): Promise<Work | undefined> => {
    while (queue.length === 0 && !exhausted && Date.now() < until) {
      refill ??= fill().finally(() => {
        refill = undefined;
      });
      await refill;
    }
    return queue.shift();
  };
  const serving: Serving = { db, cfg, at, until, run, pacing };
  const lane = async () => {
    // A claimed delivery is sent even past the budget (at most a batch of them): its lease would
    // otherwise hold it for LEASE_MS.
    for (let work = await nextWork(); work && (work.claimed || Date.now() < until); work = await nextWork()) {
      const { endpointId, claimed } = work;
      if (!claimed && (busy.has(endpointId) || failed.has(endpointId))) continue;
      busy.add(endpointId);
      try {
        const sent = claimed ? await serveClaimed(serving, claimed, marks) : await serveEndpoint(serving, endpointId);
        if (sent === 'failed') failed.add(endpointId);
        if (sent === 'failed' || sent === 0) spent.add(endpointId);
      } finally {
        busy.delete(endpointId);
      }
      if (marks.length >= BATCH) await flushMarks();
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  await flushMarks();
  return { expanded, ...run };
}

/** Live endpoints with a targeted delivery due and unclaimed, oldest first, but those in `exclude`. */
async function endpointsWithTargetedDue(db: Db, now: Date, exclude: string[]) {
  const d = webhookDeliveries;
  const e = webhookEndpoints;
  const rows = await db
    .select({ endpointId: d.endpointId })
    .from(d)
    .innerJoin(e, eq(e.id, d.endpointId))
    .where(
      and(
        eq(d.board, false),
        due(now),
        isNull(e.disabledAt),
        isNull(e.deletedAt),
        exclude.length > 0 ? sql`not (${d.endpointId} = any(${arrayLiteral(exclude)}::uuid[]))` : undefined,
      ),
    )
    .groupBy(d.endpointId)
    .orderBy(sql`min(${d.seq})`)
    .limit(BATCH);
  return rows.map((row) => row.endpointId);
}

/**
 * The next BATCH endpoints with a delivery pending, in id order after `after` (up to `before`). A walk of
 * the pending index, one step an endpoint: its cost is the batch's, however many deliveries are
 * pending and whatever the statistics say. A fan-out's rows are minutes old when it is read, so the
 * planner still believes almost none are pending: a query that filters and sorts them read every
 * one of the 10,000 for each batch (25–45 ms, ten seconds of the database's CPU a fan-out), where
 * the walk takes under a millisecond.
 */
async function pendingEndpoints(db: Db, range: { after: string; before?: string }): Promise<string[]> {
  const d = webhookDeliveries;
  const upTo = range.before ? sql`and ${d.endpointId} <= ${range.before}::uuid` : sql``;
  const next = (after: SQL) => sql`(select ${d.endpointId} from ${d}
    where ${d.status} = 'PENDING' and ${d.endpointId} > ${after} ${upTo} order by ${d.endpointId} limit 1)`;
  const result = await db.execute(sql`with recursive walk(endpoint_id, n) as (
      select ${next(sql`${range.after}::uuid`)}, 1
      union all
      select ${next(sql`walk.endpoint_id`)}, n + 1 from walk where walk.endpoint_id is not null and n < ${BATCH}
    )
    select endpoint_id from walk where endpoint_id is not null`);
  return rowsOf<{ endpoint_id: string }>(result).map((row) => row.endpoint_id);
}

/**
 * The board's next batch, claimed: for each of the next BATCH endpoints with a delivery pending
 * (pendingEndpoints) but those in `exclude`, its first delivery due (targeted before board, each
 * mission's in order), to a live endpoint, leased in one statement. `endpoints` is how many the walk
 * found, `last` the last of them (the cursor moves past those with nothing due, and those another
 * instance claimed first), `more` whether an endpoint has another pending delivery (its lane then goes
 * on with it).
 */
async function claimFirstDue(
  db: Db,
  now: Date,
  range: { after: string; before?: string },
  exclude: string[],
): Promise<{ claimed: Claimed[]; endpoints: number; last?: string }> {
  const walked = await pendingEndpoints(db, range);
  const wanted = walked.filter((id) => !exclude.includes(id));
  if (wanted.length === 0) return { claimed: [], endpoints: walked.length, last: walked.at(-1) };
  const d = webhookDeliveries;
  const firsts = await db
    .selectDistinctOn([d.endpointId], {
      ...dueColumns(),
      more: sql<boolean>`exists (select 1 from ${d} as other where other.endpoint_id = ${d.endpointId}
        and other.status = 'PENDING' and other.id <> ${d.id})`,
    })
    .from(d)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, d.endpointId))
    .where(and(sendable(now), sql`${d.endpointId} = any(${arrayLiteral(wanted)}::uuid[])`))
    .orderBy(d.endpointId, asc(d.board), asc(d.seq));
  const won = await claim(
    db,
    firsts.map((row) => row.id),
    now,
  );
  return { claimed: firsts.filter((row) => won.has(row.id)), endpoints: walked.length, last: walked.at(-1) };
}

const due = (now: Date) => {
  const d = webhookDeliveries;
  return and(eq(d.status, 'PENDING'), lte(d.nextAttemptAt, now), or(isNull(d.lockedUntil), lt(d.lockedUntil, now)));
};

/** What a lane serves with: the run's database, clock, budget, tally and pacing. */
interface Serving {
  db: Db;
  cfg: Config;
  at: () => Date;
  until: number;
  run: { delivered: number; failed: number };
  pacing: Pacing;
}

/** A lane's next piece of work: an endpoint to serve, or (the board's batches) its first delivery, claimed. */
interface Work {
  endpointId: string;
  claimed?: Claimed;
}

/**
 * One delivery sent, after yielding to the requests. A success is marked with `marks` (the run's
 * batch), or at once when `marks` is omitted; a failure at once, with its backoff.
 */
async function sendOne(serving: Serving, row: Due, marks?: Mark[]): Promise<boolean> {
  const { db, cfg, at, run, pacing } = serving;
  if (row.board) await boardSlot(pacing);
  const outcome = await step(pacing, () => sendAttempt(cfg, row));
  if (!outcome.ok) {
    run.failed += 1;
    await step(pacing, () => markFailed(db, row, outcome, at()));
    return false;
  }
  run.delivered += 1;
  if (marks) marks.push({ id: row.id, status: outcome.status });
  else await step(pacing, () => markDelivered(db, [{ id: row.id, status: outcome.status }], at()));
  return true;
}

/**
 * A board batch's delivery, claimed with its endpoint's: sent, and marked with the batch. An endpoint
 * with more pending is marked at once and served on (its next may be this one's mission's).
 */
async function serveClaimed(serving: Serving, row: Claimed, marks: Mark[]): Promise<number | 'failed'> {
  if (!(await sendOne(serving, row, row.more ? undefined : marks))) return 'failed';
  if (!row.more || Date.now() >= serving.until) return 1;
  const rest = await serveEndpoint(serving, row.endpointId);
  return rest === 'failed' ? rest : 1 + rest;
}

/**
 * One endpoint's due deliveries, targeted ones first, each mission's in order, until none is left, one
 * fails, or the run's time is up. Answers how many it delivered, or 'failed'.
 */
async function serveEndpoint(serving: Serving, endpointId: string): Promise<number | 'failed'> {
  const { db, at, until, pacing } = serving;
  let sent = 0;
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const rows = await step(pacing, () => dueDeliveries(db, endpointId, at()));
    if (rows.length === 0) return sent;
    // A targeted delivery sent may let the next of its mission go (one mission's order): look again
    // before the first board delivery of the batch, so that one goes ahead of the board's too.
    let targetedSent = false;
    for (const row of rows) {
      if (Date.now() >= until) return sent;
      if (row.board && targetedSent) break;
      if (!(await step(pacing, () => claim(db, [row.id], at()))).has(row.id)) continue;
      if (!(await sendOne(serving, row))) return 'failed';
      sent += 1;
      targetedSent ||= !row.board;
    }
  }
  return sent;
}

/** What a send needs of a delivery and its endpoint. */
const dueColumns = () => {
  const d = webhookDeliveries;
  const e = webhookEndpoints;
  return {
    id: d.id,
    endpointId: d.endpointId,
    event: d.event,
    payload: d.payload,
    attempts: d.attempts,
    board: d.board,
    url: e.url,
    sealedSecret: e.sealedSecret,
    failingSince: e.failingSince,
  };
};

/**
 * Due and unclaimed, to a live endpoint (joined), and in order per mission and endpoint: nothing earlier
 * of the same mission still pending there.
 */
const sendable = (now: Date) => {
  const d = webhookDeliveries;
  const e = webhookEndpoints;
  return and(
    due(now),
    isNull(e.disabledAt),
    isNull(e.deletedAt),
    sql`not exists (select 1 from ${d} as earlier
      where earlier.endpoint_id = ${d.endpointId} and earlier.mission_id = ${d.missionId}
      and earlier.status = 'PENDING' and earlier.seq < ${d.seq})`,
  );
};

function dueDeliveries(db: Db, endpointId: string, now: Date) {
  const d = webhookDeliveries;
  // Targeted before board (false sorts first), each in the order written.
  return db
    .select(dueColumns())
    .from(d)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, d.endpointId))
    .where(and(eq(d.endpointId, endpointId), sendable(now)))
    .orderBy(asc(d.board), asc(d.seq))
    .limit(BATCH);
}

type Due = Awaited<ReturnType<typeof dueDeliveries>>[number];
type Claimed = Due & { more: boolean };

/** Leases those of `ids` still pending and unclaimed, counting the attempt; answers the ones leased. */
async function claim(db: Db, ids: string[], now: Date): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const d = webhookDeliveries;
  const rows = await db
    .update(d)
    .set({ lockedUntil: new Date(now.getTime() + LEASE_MS), attempts: sql`${d.attempts} + 1` })
    .where(
      and(
        sql`${d.id} = any(${arrayLiteral(ids)}::uuid[])`,
        eq(d.status, 'PENDING'),
        or(isNull(d.lockedUntil), lt(d.lockedUntil, now)),
      ),
    )
    .returning({ id: d.id });
  return new Set(rows.map((row) => row.id));
}

interface Mark {
  id: string;
  status: number;
}

/** Delivered, and their endpoints no longer failing: one statement for many (a fan-out sends thousands). */
async function markDelivered(db: Db, marks: Mark[], now: Date) {
  if (marks.length === 0) return;
  const d = webhookDeliveries;
  const e = webhookEndpoints;
  const ids = arrayLiteral(marks.map((mark) => mark.id));
  const statuses = arrayLiteral(marks.map((mark) => String(mark.status)));
  await db.execute(sql`with sent as (
      update ${d} set status = 'DELIVERED', delivered_at = ${now.toISOString()}::timestamptz,
        last_status = v.status, last_error = null, locked_until = null
      from unnest(${ids}::uuid[], ${statuses}::int[]) as v(id, status)
      where ${d.id} = v.id returning ${d.endpointId})
    update ${e} set failing_since = null
    where ${e.id} in (select endpoint_id from sent) and ${e.failingSince} is not null`);
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
