// `client.stats` on the board's items (docs/api.md#client-record): the page's missions come from the
// database as JSON text (lib/board/present.ts), so the figures of all the page's clients are read in one
// statement (figures.ts) and written into each item's `client` object — one query a page, whatever its
// size, and the stored listings stay as they are.
//
// That statement walks every mission and event of the page's clients: three times the page's own read
// (docs/performance.md, the client.stats row). The board's pages show the same clients over and over (the
// first page above all), so each instance shares what it read of a client among the pages of one second
// (STATS_TTL_MS), as the grant check shares a grant's row (lib/oauth/grant-standing.ts): a page reads only
// the clients it has not seen in the last second, and a busy board one statement a second.
import 'server-only';
import type { Db } from '../db/client';
import { clientRecordsOf, statsOf } from './figures';
import type { ClientRecord } from './schemas';

// The item's client object as missionJson writes it: no string value can hold these quotes unescaped.
const CLIENT = /"client":\{"walletAddress":"(0x[0-9a-f]{40})"\}/;

/** How long an instance shows what it read of a client's figures on board items (docs/api.md#client-record). */
export const STATS_TTL_MS = 1_000;
// One entry per client shown on this instance in the last second; the oldest goes first beyond this.
const STATS_MAX = 10_000;

interface Known {
  readAt: number;
  /** The read, shared by the pages that wait on it. */
  read: Promise<unknown>;
  /** Once read: the item's client object with its stats, as written in (undefined for an address of nobody). */
  client?: { json: string | undefined };
}
const known = new Map<string, Known>();

/** The figures of these clients: this instance's reads under a second old, one statement for the rest. */
function sharedStats(db: Db, wallets: readonly string[], now: number): Map<string, Known> {
  const fresh = new Map<string, Known>();
  const missing: string[] = [];
  for (const wallet of new Set(wallets)) {
    const entry = known.get(wallet);
    if (entry && now - entry.readAt < STATS_TTL_MS) fresh.set(wallet, entry);
    else missing.push(wallet);
  }
  if (missing.length === 0) return fresh;
  const read = clientRecordsOf(db, missing);
  for (const wallet of missing) {
    const entry: Known = { readAt: now, read };
    entry.read = read.then((records) => {
      entry.client = { json: clientJson(wallet, records.get(wallet)) };
    });
    // A failed read is not kept: the next page asks again.
    entry.read.catch(() => known.get(wallet) === entry && known.delete(wallet));
    known.delete(wallet); // re-inserted last: the map's order is the order of reads
    known.set(wallet, entry);
    fresh.set(wallet, entry);
  }
  for (const oldest of known.keys()) {
    if (known.size <= STATS_MAX) break;
    known.delete(oldest);
  }
  return fresh;
}

const clientJson = (wallet: string, record: ClientRecord | undefined) =>
  record ? `"client":{"walletAddress":"${wallet}","stats":${JSON.stringify(statsOf(record))}}` : undefined;

/** The items' JSON texts with `client.stats` added to each. */
export async function withClientStats(db: Db, items: readonly string[], now = Date.now()): Promise<string[]> {
  const wallets = items.map((item) => CLIENT.exec(item)?.[1]).filter((wallet) => wallet !== undefined);
  if (wallets.length === 0) return [...items];
  const entries = sharedStats(db, wallets, now);
  // Most pages find every client read already: no wait at all then.
  const waiting = [...entries.values()].filter((entry) => !entry.client);
  if (waiting.length > 0) await Promise.all(waiting.map((entry) => entry.read));
  return items.map((item) =>
    item.replace(CLIENT, (whole, wallet: string) => entries.get(wallet)?.client?.json ?? whole),
  );
}
