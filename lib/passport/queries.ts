// Passport rows. The row is the outbox of the mint: written before anything is sent, claimed by
// one worker at a time with a conditional update, and decided from what the chain says.
import 'server-only';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { passports } from '../db/schema';

export async function ensurePassportRow(db: Db, user: { id: string; walletAddress: string }): Promise<void> {
  await db.insert(passports).values({ userId: user.id, walletAddress: user.walletAddress }).onConflictDoNothing();
}

export async function findPassport(db: Db, userId: string) {
  const [row] = await db.select().from(passports).where(eq(passports.userId, userId)).limit(1);
  return row;
}

const claimable = (now: Date) =>
  and(eq(passports.status, 'PENDING'), or(isNull(passports.lockedUntil), lt(passports.lockedUntil, now)));

/** Claims a PENDING passport for `leaseMs`; only one concurrent caller gets the row back. */
export async function claimPendingPassport(db: Db, userId: string, now: Date, leaseMs: number) {
  const [row] = await db
    .update(passports)
    .set({ lockedUntil: new Date(now.getTime() + leaseMs), attempts: sql`${passports.attempts} + 1`, updatedAt: now })
    .where(and(eq(passports.userId, userId), claimable(now)))
    .returning();
  return row;
}

export async function listClaimablePassports(db: Db, now: Date, limit: number): Promise<string[]> {
  const rows = await db
    .select({ userId: passports.userId })
    .from(passports)
    .where(claimable(now))
    .orderBy(passports.updatedAt)
    .limit(limit);
  return rows.map((row) => row.userId);
}

export async function recordMintTx(db: Db, userId: string, txHash: string): Promise<void> {
  await db.update(passports).set({ txHash, updatedAt: new Date() }).where(eq(passports.userId, userId));
}

export async function markMinted(db: Db, userId: string, tokenId: bigint) {
  const [row] = await db
    .update(passports)
    .set({ status: 'MINTED', tokenId: tokenId.toString(), lockedUntil: null, lastError: null, updatedAt: new Date() })
    .where(eq(passports.userId, userId))
    .returning();
  return row!;
}

export async function releasePassport(db: Db, userId: string, lastError: string | null) {
  const [row] = await db
    .update(passports)
    .set({ lockedUntil: null, lastError, updatedAt: new Date() })
    .where(and(eq(passports.userId, userId), eq(passports.status, 'PENDING')))
    .returning();
  return row ?? (await findPassport(db, userId))!;
}
