// Funding at once from a standing allowance (docs/api.md#standing-allowance): the one decision every
// way of posting takes (POST /api/missions, MCP post_mission, order_offering) — whether a post made
// with a delegated token is funded now by the relayer's createTaskFor, or waits AWAITING_FUNDING with
// the cap that stopped it. The chain's state (the mandate in force, the UTC day's use, the permit's
// remaining allowance, the balance) is read before the transaction; inside it, under the poster's and
// then the grant's row lock, the grant's last 24 h and the poster's relays still in flight are added,
// so two posts racing for the last of a cap fund exactly one.
import 'server-only';
import { and, eq, gt, gte, isNull, lte, or, sql } from 'drizzle-orm';
import type { Hex } from 'viem';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { grantFundings, grants, missionFundings, missions } from '../db/schema';
import { getChainClients } from '../chain/clients';
import { chainDay, type FundingMandate, readAllowanceAndBalance, readFundedOn, readMandate } from '../chain/mandate';
import { readChain } from '../chain/rpc-errors';
import { ApiError } from '../errors';
import type { Kv } from '../kv';
import { chargeOf, consume, EVERYONE, giveBack } from '../limits/rate-limit';
import { RELEASE_WINDOW_MS } from '../oauth/release-limit';

import type { FundingReason } from './schemas';

/** What the chain said of the poster's standing allowance, read before the transaction. */
export interface Standing {
  mandate: FundingMandate | null;
  fundedToday: bigint;
  allowance: bigint;
  balance: bigint;
  relayer: Hex;
  /** When the reads began: a relay mined since may be missing from them. */
  readAt: Date;
}

export type FundingDecision = { fund: true } | { fund: false; reason: FundingReason };

/**
 * The chain's side, for a post by a delegated token whose grant may fund at all (a fundingLimit above
 * 0): `grant` when it may not (nothing is read from the chain), undefined for a wallet sign-in or a
 * deployment without a relayer (such a post simply waits, as before). An unreachable RPC is a 503, as
 * any chain read of a post's.
 */
export async function readStanding(
  db: Db,
  cfg: Config,
  grantId: string | undefined,
  wallet: string,
): Promise<Standing | 'grant' | undefined> {
  if (!grantId) return undefined;
  const [grant] = await db
    .select({ limit: grants.fundingLimit })
    .from(grants)
    .where(and(eq(grants.id, grantId), isNull(grants.revokedAt)));
  const clients = getChainClients();
  const relayer = clients?.relayer?.account?.address;
  const { escrow, rewardToken } = cfg.chain;
  if (!clients || !relayer || !escrow || !rewardToken) return undefined;
  if (!grant || BigInt(grant.limit) === 0n) return 'grant';
  const client = wallet.toLowerCase() as Hex;
  const readAt = new Date();
  const [{ mandate }, fundedToday, { allowance, balance }] = await readChain(() =>
    Promise.all([
      readMandate(clients.publicClient, escrow, client),
      chainDay(clients.publicClient).then((day) => readFundedOn(clients.publicClient, escrow, client, day)),
      readAllowanceAndBalance(clients.publicClient, rewardToken, client, escrow),
    ]),
  );
  return { mandate, fundedToday, allowance, balance, relayer: relayer.toLowerCase() as Hex, readAt };
}

/**
 * What the poster's mandate relays will pull beyond what the standing read: those still in flight (recorded,
 * not yet mined) and those mined since the reads began — a post racing another reads the chain before the
 * other is mined and locks after it is, and would count it nowhere. One mined during the reads may count
 * twice: a post refused that would have fitted, never a call the chain refuses.
 */
async function inFlight(tx: Db, clientId: string, readAt: Date): Promise<bigint> {
  const [row] = await tx
    .select({ sum: sql<string>`coalesce(sum(${missions.reward}), 0)::text` })
    .from(missionFundings)
    .innerJoin(missions, eq(missions.id, missionFundings.missionId))
    .where(
      and(
        eq(missionFundings.clientId, clientId),
        eq(missionFundings.via, 'MANDATE'),
        or(
          eq(missionFundings.status, 'RELAYING'),
          and(eq(missionFundings.status, 'MINED'), gte(missionFundings.minedAt, readAt)),
        ),
      ),
    );
  return BigInt(row?.sum ?? '0');
}

/**
 * Inside the post's transaction, the poster's row already locked (assertUnfundedRoom): the grant's row
 * is locked, its fundings of the last 24 h summed, and every cap checked in the order the answer names
 * them. Funded: the grant's use is written now (the mission's id given), so the next post counts it.
 */
export async function decideFunding(
  tx: Db,
  input: { grantId: string; clientId: string; reward: bigint; standing: Standing; now: Date },
): Promise<FundingDecision & { record?: (missionId: string) => Promise<void> }> {
  const { grantId, clientId, reward, standing, now } = input;
  const [grant] = await tx
    .select({ limit: grants.fundingLimit, revokedAt: grants.revokedAt })
    .from(grants)
    .where(eq(grants.id, grantId))
    .for('update');
  const since = new Date(now.getTime() - RELEASE_WINDOW_MS);
  // What fell out of the window is forgotten here, under the lock: the table holds at most a day per grant.
  await tx.delete(grantFundings).where(and(eq(grantFundings.grantId, grantId), lte(grantFundings.createdAt, since)));
  const [used] = await tx
    .select({ sum: sql<string>`coalesce(sum(${grantFundings.amount}), 0)::text` })
    .from(grantFundings)
    .where(and(eq(grantFundings.grantId, grantId), gt(grantFundings.createdAt, since)));
  if (!grant || grant.revokedAt !== null || BigInt(used?.sum ?? '0') + reward > BigInt(grant.limit))
    return { fund: false, reason: 'grant' };
  const { mandate } = standing;
  const nowSeconds = BigInt(Math.floor(now.getTime() / 1000));
  if (!mandate || mandate.funder !== standing.relayer || mandate.validUntil <= nowSeconds)
    return { fund: false, reason: 'no-mandate' };
  if (reward > mandate.perMission) return { fund: false, reason: 'mandate-per-mission' };
  const pending = await inFlight(tx, clientId, standing.readAt);
  if (standing.fundedToday + pending + reward > mandate.perDay) return { fund: false, reason: 'mandate-per-day' };
  if (standing.allowance < pending + reward) return { fund: false, reason: 'allowance' };
  if (standing.balance < pending + reward) return { fund: false, reason: 'balance' };
  return {
    fund: true,
    record: async (missionId) => {
      await tx.insert(grantFundings).values({ grantId, missionId, amount: reward.toString(), createdAt: now });
    },
  };
}

/**
 * docs/api.md#standing-allowance: a funding at once is a relay like a signed one — it costs the poster
 * one of their ten a day and needs room in everyone's hourly budget (peeked here, spent at the send).
 * False: the relayer cannot take it now; the post waits (reason `relayer`).
 */
export async function chargeMandateRelay(kv: Kv, cfg: Config, userId: string): Promise<boolean> {
  const budget = chargeOf(cfg, 'relayBudget', EVERYONE);
  if (Number((await kv.get(budget.key)) ?? 0) >= budget.max) return false;
  try {
    await consume(kv, cfg, 'relay', userId);
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 429) return false;
    throw error;
  }
}

export const giveBackMandateRelay = (kv: Kv, cfg: Config, userId: string) => giveBack(kv, cfg, 'relay', userId);
