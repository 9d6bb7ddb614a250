// Settlement rows: claimed by one worker at a time (a lease), settled from what the chain says.
import 'server-only';
import { and, eq, isNotNull, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { type Settlement, settlements } from '../db/schema';

const claimable = (now: Date) =>
  and(eq(settlements.status, 'PENDING'), or(isNull(settlements.lockedUntil), lt(settlements.lockedUntil, now)));

export async function claimSettlement(db: Db, id: string, now: Date, leaseMs: number) {
  const [row] = await db
    .update(settlements)
    .set({ lockedUntil: new Date(now.getTime() + leaseMs), attempts: sql`${settlements.attempts} + 1` })
    .where(and(eq(settlements.id, id), claimable(now)))
    .returning();
  return row;
}

export async function findSettlement(db: Db, id: string) {
  const [row] = await db.select().from(settlements).where(eq(settlements.id, id)).limit(1);
  return row!;
}

export async function findSettlementOrNone(db: Db, id: string) {
  const [row] = await db.select().from(settlements).where(eq(settlements.id, id)).limit(1);
  return row;
}

export async function listClaimableSettlements(db: Db, now: Date, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: settlements.id })
    .from(settlements)
    .where(claimable(now))
    .orderBy(settlements.createdAt)
    .limit(limit);
  return rows.map((row) => row.id);
}

/** docs/api.md#milestones: the gross of the mission's other parts that may have reached the chain. */
export async function minedPartsOf(db: Db, row: Settlement): Promise<bigint> {
  const [sum] = await db
    .select({ total: sql<string>`coalesce(sum((${settlements.recipients} -> 0 ->> 'amount')::numeric), 0)::text` })
    .from(settlements)
    .where(
      and(
        eq(settlements.missionId, row.missionId!),
        isNotNull(settlements.milestone),
        ne(settlements.id, row.id),
        or(eq(settlements.status, 'MINED'), isNotNull(settlements.txHash)),
      ),
    );
  return BigInt(sum?.total ?? '0');
}

export async function recordSettlementTx(db: Db, id: string, txHash: string): Promise<void> {
  await db.update(settlements).set({ txHash }).where(eq(settlements.id, id));
}

export async function markSettlement(
  db: Db,
  id: string,
  status: 'MINED' | 'FAILED' | 'SUPERSEDED',
  changes: { amount?: bigint; lastError?: string } = {},
  also?: (tx: Db, row: Settlement) => Promise<void>,
) {
  const row = await db.transaction(async (tx) => {
    const [marked] = await tx
      .update(settlements)
      .set({
        status,
        lockedUntil: null,
        lastError: changes.lastError ?? null,
        minedAt: status === 'MINED' ? new Date() : null,
        ...(changes.amount !== undefined && { amount: changes.amount.toString() }),
      })
      .where(and(eq(settlements.id, id), eq(settlements.status, 'PENDING')))
      .returning();
    // What the change implies elsewhere (a webhook event) commits with it, or not at all.
    if (marked && also) await also(tx, marked);
    return marked;
  });
  return row ?? findSettlement(db, id);
}

/** Back in the queue; `counted: false` gives the attempt back (an outage, a transaction still waiting). */
export async function releaseSettlement(db: Db, id: string, lastError: string | null, { counted = true } = {}) {
  const [row] = await db
    .update(settlements)
    .set({ lockedUntil: null, lastError, ...(!counted && { attempts: sql`${settlements.attempts} - 1` }) })
    .where(eq(settlements.id, id))
    .returning();
  return row!;
}

/** The operator's retry of a FAILED settlement: PENDING again with its attempts restored (docs/api.md#settlements). */
export async function reopenFailedSettlement(db: Db, id: string) {
  const [row] = await db
    .update(settlements)
    .set({ status: 'PENDING', attempts: 0, lockedUntil: null })
    .where(and(eq(settlements.id, id), eq(settlements.status, 'FAILED')))
    .returning({ id: settlements.id });
  return row;
}

export async function countFailedSettlements(db: Db): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(settlements)
    .where(eq(settlements.status, 'FAILED'));
  return Number(row?.n ?? 0);
}
