// An agent's earnings (docs/api.md#earnings), in base units. With the escrow, pending is what the contract
// holds for the agent (less a claim already on its way) plus releases not yet mined; without it,
// the ledger of completed missions is all there is, and nothing can be claimed.
import 'server-only';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Hex } from 'viem';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { agentEarnings, missions, settlements } from '../db/schema';
import { getChainClients } from '../chain/clients';
import { readClaimable } from '../chain/escrow';
import { DependencyDown } from '../errors';
import { readChain } from '../chain/rpc-errors';
import { singleFlight } from '../single-flight';
import { claimEscrows } from './claim';

const HISTORY_LIMIT = 50;

async function settlementSums(db: Db, userId: string) {
  const rows = await db
    .select({
      kind: settlements.kind,
      status: settlements.status,
      total: sql<string>`coalesce(sum(${settlements.amount}), 0)::text`,
    })
    .from(settlements)
    .where(eq(settlements.userId, userId))
    .groupBy(settlements.kind, settlements.status);
  const sum = (kind: string, status: string) =>
    BigInt(rows.find((r) => r.kind === kind && r.status === status)?.total ?? '0');
  // A bounty's releaseSplit not yet mined (docs/api.md#bounties): its row is the client's; the agent's part is its
  // credit.
  const [splitting] = await db
    .select({ total: sql<string>`coalesce(sum(${agentEarnings.amount}), 0)::text` })
    .from(agentEarnings)
    .innerJoin(
      settlements,
      and(
        eq(settlements.missionId, agentEarnings.missionId),
        eq(settlements.kind, 'SPLIT'),
        eq(settlements.status, 'PENDING'),
      ),
    )
    .where(eq(agentEarnings.agentId, userId));
  // A milestone's releasePart (docs/api.md#milestones) or a settle (docs/api.md#settlement-offers) not yet mined
  // is the agent's too: the agent's row, its net credit.
  const releasing =
    sum('RELEASE', 'PENDING') + sum('PART', 'PENDING') + sum('SETTLE', 'PENDING') + BigInt(splitting?.total ?? '0');
  return { releasing, inFlight: sum('CLAIM', 'PENDING'), claimed: sum('CLAIM', 'MINED') };
}

// docs/security.md#chain-reads: requests for one wallet's earnings that arrive while its read is in
// flight share that read; none is kept once it answers, so a figure is at most one read's round trip old.
const claimableReads = singleFlight<bigint>('claimable');

async function onChainClaimable(cfg: Config, wallet: Hex): Promise<bigint> {
  const clients = getChainClients();
  if (!clients || !cfg.chain.escrow) throw new DependencyDown('chain');
  let total = 0n;
  for (const escrow of claimEscrows(cfg)) {
    const key = `${escrow.toLowerCase()}|${wallet.toLowerCase()}`;
    total += await claimableReads(key, () => readChain(() => readClaimable(clients.publicClient, escrow, wallet)));
  }
  return total;
}

export async function getEarnings(db: Db, cfg: Config, agent: { id: string; walletAddress: string }) {
  const [sums, earned, history] = await Promise.all([
    settlementSums(db, agent.id),
    db
      .select({ total: sql<string>`coalesce(sum(${agentEarnings.amount}), 0)::text` })
      .from(agentEarnings)
      .where(eq(agentEarnings.agentId, agent.id)),
    earningHistory(db, agent.id),
  ]);
  let pending: bigint;
  if (cfg.chain.escrow) {
    const claimable = await onChainClaimable(cfg, agent.walletAddress as Hex);
    pending = (claimable > sums.inFlight ? claimable - sums.inFlight : 0n) + sums.releasing;
  } else {
    pending = BigInt(earned[0]?.total ?? '0');
  }
  return {
    pending: pending.toString(),
    claimed: sums.claimed.toString(),
    inFlight: sums.inFlight.toString(),
    history,
  };
}

/** Credits (completed missions) and claims, newest first. */
async function earningHistory(db: Db, agentId: string) {
  const [credits, claims] = await Promise.all([
    db
      .select({
        missionId: agentEarnings.missionId,
        title: missions.title,
        gross: agentEarnings.gross,
        fee: agentEarnings.fee,
        amount: agentEarnings.amount,
        at: agentEarnings.createdAt,
      })
      .from(agentEarnings)
      .innerJoin(missions, eq(missions.id, agentEarnings.missionId))
      .where(eq(agentEarnings.agentId, agentId))
      .orderBy(desc(agentEarnings.createdAt))
      .limit(HISTORY_LIMIT),
    db
      .select({
        amount: settlements.amount,
        status: settlements.status,
        txHash: settlements.txHash,
        at: settlements.createdAt,
      })
      .from(settlements)
      .where(and(eq(settlements.userId, agentId), eq(settlements.kind, 'CLAIM')))
      .orderBy(desc(settlements.createdAt))
      .limit(HISTORY_LIMIT),
  ]);
  return [
    ...credits.map((c) => ({
      type: 'EARNED' as const,
      missionId: c.missionId,
      title: c.title,
      gross: c.gross,
      fee: c.fee,
      amount: c.amount,
      status: null,
      txHash: null,
      at: c.at.toISOString(),
    })),
    ...claims.map((c) => ({
      type: 'CLAIM' as const,
      missionId: null,
      title: null,
      gross: null,
      fee: null,
      amount: c.amount,
      status: c.status,
      txHash: c.txHash,
      at: c.at.toISOString(),
    })),
  ]
    .sort((a, b) => b.at.localeCompare(a.at))
    .slice(0, HISTORY_LIMIT);
}
