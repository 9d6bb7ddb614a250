// Grants (docs/api.md#tokens): what a user allowed a client (OAUTH) or made for a headless agent (TOKEN,
// a personal access token shown once and stored hashed). Listing, last use and revocation — a
// revocation is marked in the shared KV first, so every instance refuses the grant's access tokens
// at once, then recorded in the database, which every token tied to the grant is checked against
// (grant-standing.ts; docs/api.md#grant-bound-tokens).
import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { and, count, desc, eq, gt, isNull, lt, or, type SQLWrapper, sql } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { builtOnce } from '../db/prepared';
import { confirmations, grants, users } from '../db/schema';
import { ApiError } from '../errors';
import type { Kv } from '../kv';
import { grantRevokedKey } from '../auth/tokens';
import { forgetGrantStanding } from './grant-standing';
import { fundedByGrant, releasedByGrant } from './grant-releases';
import type { Scope } from './scopes';

export const MAX_PERSONAL_TOKENS = 20;

/** SHA-256, base64url: tokens are high-entropy random strings, so a plain hash is enough to store. */
export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('base64url');

/** A fresh random secret with a recognisable prefix: 32 bytes, 43 base64url characters. */
export const newSecret = (prefix: string) => `${prefix}${randomBytes(32).toString('base64url')}`;

// `now` a time, or a prepared statement's placeholder for one.
const live = (now: Date | SQLWrapper) =>
  and(isNull(grants.revokedAt), or(isNull(grants.expiresAt), gt(grants.expiresAt, now)));

// Every request with a personal token runs this lookup: one prepared statement per database handle,
// not a query built again each time (194–368 µs of CPU a lookup built, 53–86 prepared, in one
// process: docs/performance.md; found by profiling npm run bench's MCP pairs).
const findPersonalTokenStatement = builtOnce((db: Db) =>
  db
    .select({ id: grants.id, userId: grants.userId, scopes: grants.scopes, expiresAt: grants.expiresAt })
    .from(grants)
    .where(and(eq(grants.tokenHash, sql.placeholder('hash')), eq(grants.kind, 'TOKEN'), live(sql.placeholder('now'))))
    .limit(1)
    .prepare('find_personal_token'),
);

export async function findPersonalToken(
  db: Db,
  token: string,
  now: Date,
): Promise<{ id: string; userId: string; scopes: Scope[]; expiresAt: Date | null } | undefined> {
  const [row] = await findPersonalTokenStatement(db, undefined).execute({
    hash: hashSecret(token),
    now: now.toISOString(),
  });
  return row ? { ...row, scopes: row.scopes as Scope[] } : undefined;
}

// "Last used" to the minute: at most one write a minute per grant and instance, not one per request.
const TOUCH_EVERY_MS = 60_000;
const touched = new Map<string, number>();

export async function touchGrant(db: Db, grantId: string, now = Date.now()): Promise<void> {
  if (now - (touched.get(grantId) ?? 0) < TOUCH_EVERY_MS) return;
  if (touched.size > 10_000) touched.clear();
  touched.set(grantId, now);
  await db
    .update(grants)
    .set({ lastUsedAt: new Date(now) })
    .where(
      and(eq(grants.id, grantId), or(isNull(grants.lastUsedAt), lt(grants.lastUsedAt, new Date(now - TOUCH_EVERY_MS)))),
    );
}

export async function createPersonalToken(
  db: Db,
  userId: string,
  input: { name: string; scopes: Scope[]; expiresIn: number; releaseLimit?: string; fundingLimit?: string },
  now: Date,
): Promise<{ token: string; grant: GrantView }> {
  const token = newSecret('tm_');
  const row = await db.transaction(async (tx) => {
    // The user's row serialises concurrent creations, so the cap holds under a race.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    const [{ n }] = (await tx
      .select({ n: count() })
      .from(grants)
      .where(and(eq(grants.userId, userId), eq(grants.kind, 'TOKEN'), live(now)))) as [{ n: number }];
    if (n >= MAX_PERSONAL_TOKENS)
      throw new ApiError(409, `At most ${MAX_PERSONAL_TOKENS} personal access tokens; revoke one first`);
    const [created] = await tx
      .insert(grants)
      .values({
        userId,
        kind: 'TOKEN',
        name: input.name,
        scopes: input.scopes,
        tokenHash: hashSecret(token),
        tokenHint: token.slice(0, 7),
        releaseLimit: input.releaseLimit ?? '0',
        fundingLimit: input.fundingLimit ?? '0',
        createdAt: now,
        expiresAt: new Date(now.getTime() + input.expiresIn * 1000),
      })
      .returning();
    return created!;
  });
  return { token, grant: presentGrant(row) };
}

/**
 * The user's grant to the client after they approved `scopes`: a new one, or — when they already
 * stand connected to that client — the same grant holding exactly what they left ticked this time
 * (docs/api.md#re-authorizing): the consent page offered what it held already beside what was asked
 * for, so stepping up keeps what the person kept and drops what they unticked. The user's row
 * serialises concurrent approvals, so one client never ends up with two grants.
 */
export async function grantOAuthScopes(
  db: Db,
  userId: string,
  client: { id: string; name: string },
  scopes: Scope[],
  now: Date,
): Promise<{ id: string; scopes: Scope[] }> {
  const granted = await db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    const standing = await standingGrant(tx, userId, client.id, now);
    if (standing) {
      await tx.update(grants).set({ scopes, lastUsedAt: now }).where(eq(grants.id, standing.id));
      return { id: standing.id, scopes };
    }
    const [row] = await tx
      .insert(grants)
      .values({
        userId,
        kind: 'OAUTH',
        clientId: client.id,
        name: client.name,
        scopes,
        createdAt: now,
        lastUsedAt: now,
      })
      .returning({ id: grants.id });
    return { id: row!.id, scopes };
  });
  forgetGrantStanding(granted.id);
  return granted;
}

/** The user's live grant to the client, if any: what the consent page shows as granted. */
export async function standingGrant(
  db: Db,
  userId: string,
  clientId: string,
  now: Date,
): Promise<{ id: string; scopes: Scope[]; releaseLimit: string; fundingLimit: string } | undefined> {
  const [row] = await db
    .select({
      id: grants.id,
      scopes: grants.scopes,
      releaseLimit: grants.releaseLimit,
      fundingLimit: grants.fundingLimit,
    })
    .from(grants)
    .where(and(eq(grants.userId, userId), eq(grants.kind, 'OAUTH'), eq(grants.clientId, clientId), live(now)))
    .orderBy(desc(grants.createdAt), desc(grants.id))
    .limit(1);
  return (
    row && {
      id: row.id,
      scopes: row.scopes as Scope[],
      releaseLimit: String(row.releaseLimit),
      fundingLimit: String(row.fundingLimit),
    }
  );
}

/**
 * At the consent POST: the scopes of the standing grant the person unticked are taken away at once —
 * not only once the client redeems its code — and every token of the grant loses them
 * (docs/api.md#re-authorizing).
 */
export async function withdrawScopes(db: Db, userId: string, clientId: string, kept: Scope[], now: Date) {
  const standing = await standingGrant(db, userId, clientId, now);
  if (!standing || standing.scopes.every((scope) => kept.includes(scope))) return;
  const left = standing.scopes.filter((scope) => kept.includes(scope));
  await db.update(grants).set({ scopes: left }).where(eq(grants.id, standing.id));
  forgetGrantStanding(standing.id);
}

/**
 * Whether the user has a standing grant for the client: they approved it before and have not
 * disconnected it. Only then may an authorization error be redirected to it (docs/api.md#oauth-21).
 */
export async function hasApprovedClient(db: Db, userId: string, clientId: string, now: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: grants.id })
    .from(grants)
    .where(and(eq(grants.userId, userId), eq(grants.kind, 'OAUTH'), eq(grants.clientId, clientId), live(now)))
    .limit(1);
  return row !== undefined;
}

/** The grant behind a refresh or an access token, while it stands. */
export async function findLiveGrant(db: Db, grantId: string, now: Date) {
  const [row] = await db
    .select()
    .from(grants)
    .where(and(eq(grants.id, grantId), live(now)))
    .limit(1);
  return row;
}

type GrantRow = typeof grants.$inferSelect;

export function presentGrant(row: GrantRow) {
  return {
    id: row.id,
    kind: row.kind === 'OAUTH' ? ('oauth' as const) : ('token' as const),
    name: row.name,
    clientId: row.clientId,
    scopes: row.scopes,
    tokenHint: row.tokenHint,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    releaseLimit: String(row.releaseLimit),
    fundingLimit: String(row.fundingLimit),
  };
}
export type GrantView = ReturnType<typeof presentGrant>;

/** The user's standing grants and tokens, newest first, with what each released in the last 24 h. */
export async function listGrants(
  db: Db,
  userId: string,
  kind: GrantRow['kind'] | undefined,
  now: Date,
): Promise<ListedGrant[]> {
  const rows = await db
    .select()
    .from(grants)
    .where(and(eq(grants.userId, userId), kind ? eq(grants.kind, kind) : undefined, live(now)))
    .orderBy(desc(grants.createdAt), desc(grants.id))
    .limit(500);
  const released = await releasedByGrant(
    db,
    rows.map((row) => row.id),
    now,
  );
  const funded = await fundedByGrant(
    db,
    rows.map((row) => row.id),
    now,
  );
  return rows.map((row) => ({
    ...presentGrant(row),
    releasedLast24h: released.get(row.id) ?? '0',
    fundedLast24h: funded.get(row.id) ?? '0',
  }));
}
export type ListedGrant = GrantView & { releasedLast24h: string; fundedLast24h: string };

/**
 * Revokes the user's grant (the owner is in the WHERE clause: someone else's id is 404). The KV mark
 * comes first and outlives every access token issued under the grant.
 */
export async function revokeGrant(
  db: Db,
  kv: Kv,
  cfg: Config,
  userId: string,
  grantId: string,
  kind: GrantRow['kind'] | undefined,
  now: Date,
): Promise<void> {
  const [row] = await db
    .select({ id: grants.id })
    .from(grants)
    .where(
      and(
        eq(grants.id, grantId),
        eq(grants.userId, userId),
        kind ? eq(grants.kind, kind) : undefined,
        isNull(grants.revokedAt),
      ),
    )
    .limit(1);
  if (!row) throw new ApiError(404, kind === 'TOKEN' ? 'Token not found' : 'Grant not found');
  await markGrantRevoked(kv, cfg, grantId);
  await revokeGrantNow(db, grantId, now);
}

/** Refuses the grant's access tokens on every instance (they live at most JWT_TTL_SECONDS). */
export async function markGrantRevoked(kv: Kv, cfg: Config, grantId: string): Promise<void> {
  await kv.put(grantRevokedKey(grantId), '1', (cfg.jwtTtlSeconds + 60) * 1000);
}

/**
 * Records the revocation in the database, which every grant-bound token is checked against
 * (grant-standing.ts), and drops this instance's read of the grant; other instances re-read it
 * within STANDING_TTL_MS.
 */
export async function revokeGrantNow(db: Db, grantId: string, now: Date): Promise<void> {
  await db
    .update(grants)
    .set({ revokedAt: now })
    .where(and(eq(grants.id, grantId), isNull(grants.revokedAt)));
  // Its releases still waiting die with it (docs/api.md#confirmations): the person cut the app off, and
  // a payment prompt from it afterwards would only invite a mistaken yes. A decision racing this is
  // a compare-and-set on PENDING, so exactly one of the two lands.
  await db
    .update(confirmations)
    .set({ status: 'DENIED', decidedAt: now })
    .where(and(eq(confirmations.grantId, grantId), eq(confirmations.status, 'PENDING')));
  forgetGrantStanding(grantId);
}
