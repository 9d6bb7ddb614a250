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
  /** What the grant holds now: a token's own scopes count only while its grant still holds them. */
  scopes: string[];
  /** expires_at in ms since the epoch; null: the grant has no end of its own (OAuth). */
  expiresAt: number | null;
}
const known = new Map<string, { readAt: number; row: Promise<Row>; scopesRead?: string[] }>();

// One prepared statement per database handle: this read is on every delegated request's path
// (docs/performance.md, the grant check).
const findGrantRowStatement = builtOnce((db: Db) =>
  db
    .select({ revokedAt: grants.revokedAt, expiresAt: grants.expiresAt, scopes: grants.scopes })
    .from(grants)
    .where(eq(grants.id, sql.placeholder('id')))
    .limit(1)
    .prepare('find_grant_standing'),
);

async function readRow(db: Db, grantId: string): Promise<Row> {
  const [row] = await findGrantRowStatement(db, undefined).execute({ id: grantId });
  // A grant that is gone refuses its tokens as a revoked one does.
  return {
    revoked: !row || row.revokedAt !== null,
    scopes: row?.scopes ?? [],
    expiresAt: row?.expiresAt ? row.expiresAt.getTime() : null,
  };
}

/** The grant's standing at `now`, from the database or this instance's read of it under a second old. */
export async function grantStanding(db: Db, grantId: string, now = Date.now()): Promise<GrantStanding> {
  return (await grantNow(db, grantId, now)).standing;
}

/**
 * The grant's standing and the scopes it holds at `now` (docs/api.md#grant-bound-tokens): a scope the
 * person took away at a later consent is gone from its tokens too, within the same second.
 */
export async function grantNow(
  db: Db,
  grantId: string,
  now = Date.now(),
  wanted: readonly string[] = [],
): Promise<{ standing: GrantStanding; scopes: string[] }> {
  let entry = known.get(grantId);
  // A token naming a scope this instance's read lacks may come from a consent newer than that read (a
  // step-up widening the grant, perhaps on another instance): the row is read again rather than cut the
  // new token down to the old grant. An older token of a narrowed grant costs that read while it lives.
  const read = entry?.scopesRead; // undefined while the read is in flight: it is fresh
  const stale = read !== undefined && wanted.some((scope) => !read.includes(scope));
  if (!entry || stale || now - entry.readAt >= STANDING_TTL_MS || now < entry.readAt) {
    known.delete(grantId);
    if (known.size >= STANDING_MAX) known.delete(known.keys().next().value!);
    const row = readRow(db, grantId);
    entry = { readAt: now, row };
    known.set(grantId, entry);
    const reading = entry;
    void row.then((r) => (reading.scopesRead = r.scopes)).catch(() => undefined);
    // A failed read is not kept: the next request reads again (and this one answers 503).
    const failed = entry;
    failed.row.catch(() => known.get(grantId) === failed && known.delete(grantId));
  }
  const row = await entry.row;
  const standing = row.revoked ? 'revoked' : row.expiresAt !== null && row.expiresAt <= now ? 'expired' : 'stands';
  return { standing, scopes: row.scopes };
}

/** Drops this instance's read of the grant: called where a revocation is written. */
export function forgetGrantStanding(grantId: string): void {
  known.delete(grantId);
}
