// POST /api/agents/me/claim (docs/api.md#earnings): relay the escrow's claimFor(agent) with the operator key.
// One claim in flight per agent (a unique index), nothing claimable → 409, and an Idempotency-Key
// answers the claim it already made. The contract pays only the beneficiary and zeroes the
// balance first, so no retry can pay the same earnings twice.
import 'server-only';
import { and, eq } from 'drizzle-orm';
import type { Hex, PublicClient } from 'viem';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { type Settlement, settlements } from '../db/schema';
import { uniqueViolation } from '../db/unique-violation';
import { ApiError } from '../errors';
import { getChainClients } from '../chain/clients';
import { readClaimable } from '../chain/escrow';
import { readChain } from '../chain/rpc-errors';
import { processSettlement } from './process';

/** The escrows an agent may be owed on, oldest first: v2, v3 and v4 ones kept after upgrades, then the current one. */
export const claimEscrows = (cfg: Config): Hex[] => [
  ...new Set(
    [cfg.chain.escrowV2, cfg.chain.escrowV3, cfg.chain.escrowV4, cfg.chain.escrow].filter((e): e is Hex => Boolean(e)),
  ),
];

export const presentClaim = (row: Settlement) => ({ amount: row.amount, txHash: row.txHash, status: row.status });

async function findByKey(db: Db, userId: string, key: string) {
  const [row] = await db
    .select()
    .from(settlements)
    .where(and(eq(settlements.userId, userId), eq(settlements.idempotencyKey, key)))
    .limit(1);
  return row;
}

export async function claimEarnings(
  db: Db,
  cfg: Config,
  agent: { id: string; walletAddress: string },
  idempotencyKey: string | null,
) {
  const clients = getChainClients();
  if (!cfg.chain.escrow || !clients?.operator) {
    throw new ApiError(503, 'Payouts are not configured', undefined, { 'Retry-After': '3600' });
  }
  if (idempotencyKey) {
    const earlier = await findByKey(db, agent.id, idempotencyKey);
    if (earlier) return presentClaim(earlier);
  }
  // After an upgrade the agent may be owed on the v2 escrow too (docs/api.md#bounties): that one is paid
  // first, the current one by the next claim.
  let escrow: Hex | undefined;
  let claimable = 0n;
  for (const candidate of claimEscrows(cfg)) {
    claimable = await readChain(() => readClaimable(clients.publicClient, candidate, agent.walletAddress as Hex));
    if (claimable > 0n) {
      escrow = candidate;
      break;
    }
  }
  if (!escrow) throw new ApiError(409, 'Nothing to claim');
  let row: Settlement | undefined;
  try {
    [row] = await db
      .insert(settlements)
      .values({
        kind: 'CLAIM',
        userId: agent.id,
        beneficiary: agent.walletAddress,
        escrow,
        amount: claimable.toString(),
        idempotencyKey,
      })
      .returning();
  } catch (error) {
    const constraint = uniqueViolation(error);
    if (constraint === 'settlements_claim_key_idx' && idempotencyKey)
      return presentClaim((await findByKey(db, agent.id, idempotencyKey))!);
    if (constraint === 'settlements_claim_in_flight_idx') throw new ApiError(409, 'A claim is already in flight');
    throw error;
  }
  return presentClaim(
    await processSettlement(
      db,
      cfg,
      (await withBalanceNow(db, clients.publicClient, escrow, row!, claimable)).id,
      cfg.chain.mintWaitMs,
    ),
  );
}

/**
 * The claim row is the agent's one claim in flight (the unique index), so any claim before it has
 * been mined or has failed: the balance read now is what this claim pays. The one read before the
 * row may be stale — a concurrent claim mined in between — and answering it would report a payout
 * of nothing and count those earnings as claimed twice. Nothing left: the row goes, and 409.
 */
async function withBalanceNow(
  db: Db,
  publicClient: PublicClient,
  escrow: Hex,
  row: Settlement,
  readBefore: bigint,
): Promise<Settlement> {
  const drop = () => db.delete(settlements).where(eq(settlements.id, row.id));
  let claimable: bigint;
  try {
    claimable = await readChain(() => readClaimable(publicClient, escrow, row.beneficiary as Hex));
  } catch (error) {
    await drop();
    throw error;
  }
  if (claimable === 0n) {
    await drop();
    throw new ApiError(409, 'Nothing to claim');
  }
  if (claimable === readBefore) return row;
  const [updated] = await db
    .update(settlements)
    .set({ amount: claimable.toString() })
    .where(eq(settlements.id, row.id))
    .returning();
  return updated!;
}
