// Whether a grant still stands (docs/api.md#grant-bound-tokens): every token tied to a grant — an OAuth
// access token, or one register-agent derived from a delegated credential — is refused once the grant
// is revoked or expired, as the database says. The KV's revocation mark (tokens.ts) is only the fast
// path: a flushed or restarted KV forgets it, the grants table does not.
//
// Read on every delegated request, so each instance keeps each grant's answer for at most one second
// (STANDING_TTL_MS), shared by the requests that arrive meanwhile. That is how a revocation reaches
// every instance: the revoking one forgets its entry at once (forgetGrantStanding), every other one
// re-reads the row within the second — and before that, while the KV holds the mark, refuses the
// grant's tokens at their next use anyway. An expiry needs no re-read: the cached row's own
// expires_at is compared with the clock on every use.
import 'server-only';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { builtOnce } from '../db/prepared';
import { grants } from '../db/schema';

export type GrantStanding = 'stands' | 'revoked' | 'expired';

/** How long an instance trusts what it read of a grant (docs/api.md#grant-bound-tokens: at most one second). */
export const STANDING_TTL_MS = 1_000;
// One entry per grant in use on this instance in the last second; the oldest goes first beyond this.
const STANDING_MAX = 10_000;

interface Row {
  revoked: boolean;
  /** expires_at in ms since the epoch; null: the grant has no end of its own (OAuth). */
  expiresAt: number | null;
}
const known = new Map<string, { readAt: number; row: Promise<Row> }>();

// One prepared statement per database handle: this read is on every delegated request's path
// (docs/performance.md, the grant check).
const findGrantRowStatement = builtOnce((db: Db) =>
  db
    .select({ revokedAt: grants.revokedAt, expiresAt: grants.expiresAt })
    .from(grants)
    .where(eq(grants.id, sql.placeholder('id')))
    .limit(1)
    .prepare('find_grant_standing'),
);

async function readRow(db: Db, grantId: string): Promise<Row> {
  const [row] = await findGrantRowStatement(db, undefined).execute({ id: grantId });
  // A grant that is gone refuses its tokens as a revoked one does.
  return { revoked: !row || row.revokedAt !== null, expiresAt: row?.expiresAt ? row.expiresAt.getTime() : null };
}

/** The grant's standing at `now`, from the database or this instance's read of it under a second old. */
export async function grantStanding(db: Db, grantId: string, now = Date.now()): Promise<GrantStanding> {
  let entry = known.get(grantId);
  if (!entry || now - entry.readAt >= STANDING_TTL_MS || now < entry.readAt) {
    known.delete(grantId);
    if (known.size >= STANDING_MAX) known.delete(known.keys().next().value!);
    entry = { readAt: now, row: readRow(db, grantId) };
    known.set(grantId, entry);
    // A failed read is not kept: the next request reads again (and this one answers 503).
    const failed = entry;
    failed.row.catch(() => known.get(grantId) === failed && known.delete(grantId));
  }
  const row = await entry.row;
  if (row.revoked) return 'revoked';
  return row.expiresAt !== null && row.expiresAt <= now ? 'expired' : 'stands';
}

/** Drops this instance's read of the grant: called where a revocation is written. */
export function forgetGrantStanding(grantId: string): void {
  known.delete(grantId);
}
