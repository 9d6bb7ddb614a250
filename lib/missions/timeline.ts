// A mission's timeline (docs/api.md#timeline): its events after a `seq`, as the viewer may see them —
// answered at once, or held up to `wait` seconds for the next one. Every event written NOTIFYs the
// mission's id (events.ts) once its transaction commits; each instance LISTENs once and wakes the
// requests it holds for that mission, so a change made on any instance reaches a waiter on any
// other. Held requests are bounded: per user (the KV's live set, across instances) and per instance.
import 'server-only';
import { and, asc, eq, gt } from 'drizzle-orm';
import type { Config } from '../config';
import { type Db, getDb, listenDb } from '../db/client';
import { missionEvents } from '../db/schema';
import { ApiError } from '../errors';
import type { Kv } from '../kv';
import { findEntry } from './award';
import { applyDue } from './due-transitions';
import { EVENTS_CHANNEL } from './events';
import { findMission } from './queries';
import { dueAction } from './transitions';
import { canSeeMission, isAssignee, isOwner, type Viewer } from './visibility';

export const MAX_WAIT_SECONDS = 25;
export const MAX_HELD_PER_USER = 5;
export const MAX_HELD_PER_INSTANCE = 200;
const PAGE = 100;

export interface TimelineEvent {
  seq: number;
  event: string;
  from: string | null;
  to: string;
  at: string;
  actor: string;
  /** What came with it (a submission's note and files, a contest's reason, an award): the parties' only. */
  data?: Record<string, unknown>;
}

/** The events after `after`, oldest first, at most a page; 404 for a mission the viewer may not see. */
async function readTimeline(
  db: Db,
  cfg: Config,
  missionId: string,
  viewer: Viewer,
  after: number,
  now: Date,
): Promise<TimelineEvent[]> {
  let mission = await findMission(db, missionId);
  if (mission && dueAction(mission, now)) {
    // Time goes first, as on every read: a review window that ran out is an event too.
    await applyDue(db, cfg, missionId, now);
    mission = await findMission(db, missionId);
  }
  const entered =
    mission?.assignmentMode === 'BOUNTY' && viewer.kind === 'user'
      ? (await findEntry(db, missionId, viewer.id)) !== undefined
      : false;
  if (!mission || !canSeeMission({ ...mission, entered }, viewer)) throw new ApiError(404, 'Mission not found');
  const party = viewer.kind === 'operator' || isOwner(mission, viewer) || isAssignee(mission, viewer);
  const rows = await db
    .select()
    .from(missionEvents)
    .where(and(eq(missionEvents.missionId, missionId), gt(missionEvents.id, after)))
    .orderBy(asc(missionEvents.id))
    .limit(PAGE);
  return rows.map((row) => ({
    seq: row.id,
    event: row.action,
    from: row.fromStatus,
    to: row.toStatus,
    at: row.createdAt.toISOString(),
    actor: row.actor,
    ...(party && { data: row.data }),
  }));
}

// The requests this instance holds, by mission: each woken by the mission's NOTIFY.
const waiters = new Map<string, Set<() => void>>();
let held = 0;
let listening: { db: Db; ready: Promise<unknown> } | undefined;

function wake(missionId: string): void {
  for (const resolve of waiters.get(missionId) ?? []) resolve();
}

/** LISTENs once per database handle (a test's new database is a new handle). */
async function listen(): Promise<void> {
  const db = await getDb();
  if (listening?.db !== db) {
    const ready = listenDb(EVENTS_CHANNEL, wake).catch((error: unknown) => {
      if (listening?.db === db) listening = undefined;
      throw error;
    });
    listening = { db, ready };
  }
  await listening.ready;
}

/** Resolves when the mission's next event is written, `ms` pass, or the request goes away. */
function nextEvent(
  missionId: string,
  ms: number,
  signal: AbortSignal | undefined,
): { done: Promise<void>; stop: () => void } {
  let stop = () => {};
  const done = new Promise<void>((resolve) => {
    const set = waiters.get(missionId) ?? new Set();
    waiters.set(missionId, set);
    const timer = setTimeout(finish, ms);
    function finish() {
      clearTimeout(timer);
      set.delete(finish);
      if (set.size === 0 && waiters.get(missionId) === set) waiters.delete(missionId);
      signal?.removeEventListener('abort', finish);
      resolve();
    }
    set.add(finish);
    signal?.addEventListener('abort', finish);
    stop = finish;
  });
  return { done, stop };
}

export interface TimelineQuery {
  after: number;
  wait: number;
}

/**
 * GET /api/missions/{id}/timeline: the events after `after` at once, or — when there are none and
 * `wait` > 0 — the ones the next change writes, held up to `wait` seconds (then `[]`).
 */
export async function missionTimeline(
  db: Db,
  cfg: Config,
  kv: Kv,
  missionId: string,
  viewer: Viewer,
  holder: string,
  query: TimelineQuery,
  signal?: AbortSignal,
): Promise<{ events: TimelineEvent[] }> {
  const first = await readTimeline(db, cfg, missionId, viewer, query.after, new Date());
  if (first.length > 0 || query.wait === 0) return { events: first };
  if (held >= MAX_HELD_PER_INSTANCE) throw new ApiError(503, 'Too many waiting requests here: try again shortly');
  // The user's live holds across instances; each expires on its own should an instance die holding it.
  const hold = `timeline:hold:${crypto.randomUUID()}`;
  const holds = `timeline:holds:${holder}`;
  const ttl = (query.wait + 5) * 1000;
  if (!(await kv.putCapped(hold, '1', ttl, holds, MAX_HELD_PER_USER))) {
    throw new ApiError(429, `At most ${MAX_HELD_PER_USER} waiting timeline requests at once`);
  }
  held += 1;
  try {
    await listen();
    // Waiting before reading again: an event written between the two reads wakes this one.
    const next = nextEvent(missionId, query.wait * 1000, signal);
    const again = await readTimeline(db, cfg, missionId, viewer, query.after, new Date());
    if (again.length > 0) {
      next.stop();
      return { events: again };
    }
    await next.done;
    return { events: await readTimeline(db, cfg, missionId, viewer, query.after, new Date()) };
  } finally {
    held -= 1;
    await kv.take(hold, holds).catch(() => {});
  }
}
