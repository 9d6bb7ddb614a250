// How a delivery run shares its process with the requests (docs/api.md#webhook-fan-out).
import 'server-only';
import type { Config } from '../config';
import { otherRequestsInFlight } from '../observability/in-flight';
import { EXPAND_BATCH } from './expand-events';

/**
 * Before each statement and each send of a lane, a run yields a turn of the event loop and waits, up to
 * `yieldMs`, while a request other than its own is under way. On the embedded database (PGlite: in this
 * process, one statement at a time, each holding the event loop while it runs) the wait is longer and
 * events expand in batches of 50 (a 500-row insert holds the loop for tens of ms). Board sends are
 * also spaced `boardGapMs` apart in the process (WEBHOOK_FANOUT_PER_SECOND): the yield sees only this
 * process's requests, while a fan-out's CPU — ours, the database's, the receivers' — is taken from
 * every instance on the host. Targeted sends are never spaced.
 */
export interface Pacing {
  expandBatch: number;
  yieldMs: number;
  boardGapMs: number;
}

export const pacingOf = (cfg: Config): Pacing => ({
  ...(cfg.databaseUrl ? { expandBatch: EXPAND_BATCH, yieldMs: 20 } : { expandBatch: 50, yieldMs: 50 }),
  boardGapMs: 1_000 / cfg.webhooks.fanOutPerSecond,
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Lets the requests waiting on this process go first: a turn of the loop, then until none is under way (bounded). */
export async function yieldToRequests(pacing: Pacing): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  for (const started = Date.now(); otherRequestsInFlight() > 0 && Date.now() - started < pacing.yieldMs; )
    await sleep(1);
}

/** One statement or send of a lane, after yielding to the requests. */
export async function step<T>(pacing: Pacing, statement: () => Promise<T>): Promise<T> {
  await yieldToRequests(pacing);
  return statement();
}

// The process's next board slot, shared by every run and lane (Next.js bundles this module into each
// route: the state is the process's, not the module copy's). A slot never lies in the past, so an idle
// spell earns no burst.
const board = ((globalThis as unknown as { [key: symbol]: { next: number } })[
  Symbol.for('taskmarket.webhooks.board-slot')
] ??= { next: 0 });

/** Waits for this process's next board send slot. */
export async function boardSlot(pacing: Pacing): Promise<void> {
  const now = Date.now();
  const slot = Math.max(now, board.next);
  board.next = slot + pacing.boardGapMs;
  if (slot > now) await sleep(slot - now);
}
