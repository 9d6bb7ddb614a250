// `client.stats` on the board's items (docs/api.md#client-record): the page's missions come from the
// database as JSON text (lib/board/present.ts), so the figures of all the page's clients are read in one
// statement (figures.ts) and written into each item's `client` object — one query a page, whatever its
// size, and the stored listings stay as they are.
import 'server-only';
import type { Db } from '../db/client';
import { clientRecordsOf, statsOf } from './figures';

// The item's client object as missionJson writes it: no string value can hold these quotes unescaped.
const CLIENT = /"client":\{"walletAddress":"(0x[0-9a-f]{40})"\}/;

/** The items' JSON texts with `client.stats` added to each. */
export async function withClientStats(db: Db, items: readonly string[]): Promise<string[]> {
  const wallets = items.map((item) => CLIENT.exec(item)?.[1]).filter((wallet) => wallet !== undefined);
  if (wallets.length === 0) return [...items];
  const records = await clientRecordsOf(db, wallets);
  return items.map((item) =>
    item.replace(CLIENT, (whole, wallet: string) => {
      const record = records.get(wallet);
      return record ? `"client":{"walletAddress":"${wallet}","stats":${JSON.stringify(statsOf(record))}}` : whole;
    }),
  );
}
