// Wallet addresses by user id. A user is created for one address and keeps it for good (users are
// keyed by it; nothing updates it), so an instance may remember every pair it has seen without
// ever being stale, and mission reads need no join with users.
import 'server-only';
import { inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { users } from '../db/schema';

// ~100 bytes a pair: 100,000 pairs stay around 10 MB.
const MAX_REMEMBERED = 100_000;
const remembered = new Map<string, string>();

function remember(id: string, wallet: string): void {
  if (remembered.size >= MAX_REMEMBERED) remembered.delete(remembered.keys().next().value!);
  remembered.set(id, wallet);
}

/** The wallet of each id (ids without a user are absent); one query for those not yet remembered. */
export async function walletsOf(db: Db, ids: Iterable<string>): Promise<Map<string, string>> {
  const wallets = new Map<string, string>();
  const unknown: string[] = [];
  for (const id of new Set(ids)) {
    const wallet = remembered.get(id);
    if (wallet === undefined) unknown.push(id);
    else wallets.set(id, wallet);
  }
  if (unknown.length > 0) {
    const rows = await db.select({ id: users.id, walletAddress: users.walletAddress }).from(users).where(inArray(users.id, unknown));
    for (const row of rows) {
      remember(row.id, row.walletAddress);
      wallets.set(row.id, row.walletAddress);
    }
  }
  return wallets;
}
