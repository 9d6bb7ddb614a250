// Carries one recorded funding relay (docs/api.md#post-and-pay) to the chain and back, as the
// settlement outbox does: the chain's own state first (the recorded transaction mined, pending or
// lost; the authorization already used), and only then sign, record the hash and send. A lease
// keeps two workers off the same row; an unreachable RPC leaves it RELAYING for the sweep, so an
// outage delays a funding and never loses or doubles it. Mined, the mission becomes OPEN.
import 'server-only';
import { and, asc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Hex, PublicClient } from 'viem';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { type MissionFunding, missionFundings, missions, users } from '../db/schema';
import { getChainClients } from '../chain/clients';
import {
  authorizationUsed,
  createdTaskOf,
  createTaskWithAuthorizationCall,
  type FundingTerms,
  findCreatedTask,
  readFundingNonce,
} from '../chain/funding-authorization';
import { isExecutionRevert, isRpcUnreachable } from '../chain/rpc-errors';
import { lookupTransaction, sendSerialized } from '../chain/sender';
import { unavailableDependency } from '../errors';
import { log } from '../log';
import { emitCreated, emitToParties } from '../webhooks/outbox';
import { recordEvent } from './events';
import * as ledger from './ledger';
import { lockMission, type Mission } from './queries';
import { decide } from './transitions';
import { SYSTEM } from './visibility';

const LEASE_MARGIN_MS = 30_000;

/** The terms the funding authorization's nonce commits to, from the mission and its poster's wallet. */
export const termsOf = (
  mission: Pick<Mission, 'reward' | 'fundingRef' | 'fundingExpiresAt'>,
  wallet: string,
): FundingTerms => ({
  client: wallet.toLowerCase() as Hex,
  reward: BigInt(mission.reward),
  ref: mission.fundingRef as Hex,
  expiresAt: mission.fundingExpiresAt!,
});

async function claimFunding(
  db: Db,
  missionId: string,
  now: Date,
  leaseMs: number,
): Promise<MissionFunding | undefined> {
  const [row] = await db
    .update(missionFundings)
    .set({ lockedUntil: new Date(now.getTime() + leaseMs), attempts: sql`${missionFundings.attempts} + 1` })
    .where(
      and(
        eq(missionFundings.missionId, missionId),
        eq(missionFundings.status, 'RELAYING'),
        or(isNull(missionFundings.lockedUntil), lt(missionFundings.lockedUntil, now)),
      ),
    )
    .returning();
  return row;
}

const update = (db: Db, missionId: string, set: Partial<MissionFunding>) =>
  db
    .update(missionFundings)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(missionFundings.missionId, missionId));

/** Back in the queue, lease freed: still RELAYING (an outage, a transaction still waiting). */
const release = (db: Db, missionId: string, lastError: string | null) =>
  update(db, missionId, { lockedUntil: null, lastError });

// Past its validBefore by this much, no transaction can use the authorization any more.
const PAST_USE_MS = 10 * 60 * 1000;

/**
 * A row the chain could not decide after SETTLEMENT_MAX_ATTEMPTS tries and past its authorization's
 * use ends FAILED (docs/api.md#post-and-pay), the error logged as `funding.relay_given_up`: it leaves
 * the sweep's batch, and the lapse (which asks the chain again before deleting anything) takes over.
 */
function giveUpOr(db: Db, cfg: Config, row: MissionFunding, lastError: string | null) {
  const pastUse = Date.now() > Number(row.validBefore) * 1000 + PAST_USE_MS;
  if (!pastUse || row.attempts < cfg.chain.settlementMaxAttempts) return release(db, row.missionId, lastError);
  log.error('funding.relay_given_up', { missionId: row.missionId, attempts: row.attempts, message: lastError });
  return fail(db, row.missionId, `given up after ${row.attempts} attempts: ${lastError ?? 'no answer from the chain'}`);
}

/** The relay failed for good: the mission stays AWAITING_FUNDING with the reason; the poster may sign again. */
const fail = (db: Db, missionId: string, reason: string) =>
  update(db, missionId, { status: 'FAILED', lockedUntil: null, lastError: reason });

export async function processFunding(
  db: Db,
  cfg: Config,
  missionId: string,
  waitMs: number,
  now = new Date(),
): Promise<void> {
  const row = await claimFunding(db, missionId, now, waitMs + LEASE_MARGIN_MS);
  if (!row) return;
  const clients = getChainClients();
  const [found] = await db
    .select({ mission: missions, wallet: users.walletAddress })
    .from(missions)
    .innerJoin(users, eq(users.id, missions.clientId))
    .where(eq(missions.id, missionId));
  // Opened by another task (the wallet fallback won the race): this relay can fund nothing here any more,
  // and left RELAYING it would come back to every sweep.
  if (found?.mission.status !== 'AWAITING_FUNDING')
    return void (await fail(db, missionId, 'the mission was funded by another task'));
  if (!clients?.relayer || !cfg.chain.rewardToken || !found.mission.escrow)
    return void (await release(db, missionId, 'chain not configured'));
  const { publicClient, relayer } = clients;
  const escrow = found.mission.escrow as Hex;
  const terms = termsOf(found.mission, found.wallet);
  /**
   * The chain refused our transaction: someone may have sent the same signature first (the token then
   * calls ours a replay), which opened the very task — found by its ref, the mission opens. Else it failed.
   */
  const adoptOrFail = async (reason: string) => {
    const nonce = await readFundingNonce(publicClient, escrow, terms);
    if (await authorizationUsed(publicClient, cfg.chain.rewardToken!, terms.client, nonce)) {
      const taskId = await findCreatedTask(publicClient, escrow, terms, row.fromBlock ?? undefined);
      if (taskId !== undefined) return markFunded(db, missionId, taskId, null, new Date());
    }
    await fail(db, missionId, reason);
  };
  try {
    if (row.txHash) {
      const earlier = await lookupTransaction(publicClient, row.txHash as Hex);
      if (earlier.state === 'pending') return void (await giveUpOr(db, cfg, row, null));
      if (earlier.state === 'mined') {
        const taskId = createdTaskOf(earlier.receipt, terms.ref);
        if (earlier.receipt.status === 'success' && taskId !== undefined)
          return markFunded(db, missionId, taskId, row.txHash, new Date());
        return adoptOrFail('the relayed transaction reverted');
      }
      // Never reached the node: the authorization is unused (checked next), send it again.
    }
    const nonce = await readFundingNonce(publicClient, escrow, terms);
    if (await authorizationUsed(publicClient, cfg.chain.rewardToken, terms.client, nonce)) {
      // Used: by an earlier send of ours whose hash we lost, or by anyone holding the signature. The task says which.
      const taskId = await findCreatedTask(publicClient, escrow, terms, row.fromBlock ?? undefined);
      if (taskId !== undefined) return markFunded(db, missionId, taskId, row.txHash, new Date());
      return void (await fail(db, missionId, 'the authorization was used or cancelled without funding this mission'));
    }
    if (BigInt(Math.floor(Date.now() / 1000)) >= row.validBefore)
      return void (await fail(db, missionId, 'the authorization expired before it could be relayed'));
    const fromBlock = await publicClient.getBlockNumber();
    const hash = await sendSerialized(
      publicClient,
      relayer,
      { to: escrow, data: createTaskWithAuthorizationCall(terms, row.validBefore, nonce, row.signature as Hex) },
      (h) => update(db, missionId, { txHash: h, fromBlock }).then(() => undefined),
    );
    const receipt = await publicClient
      .waitForTransactionReceipt({ hash, timeout: waitMs, pollingInterval: 250 })
      .catch(() => undefined);
    if (!receipt) return void (await giveUpOr(db, cfg, row, null));
    const taskId = createdTaskOf(receipt, terms.ref);
    if (receipt.status === 'success' && taskId !== undefined)
      return markFunded(db, missionId, taskId, hash, new Date());
    await adoptOrFail('the relayed transaction reverted');
  } catch (error) {
    const message =
      (error as { shortMessage?: string }).shortMessage ?? (error as Error).message?.split('\n')[0] ?? 'send failed';
    log.warn('funding.relay_failed', { missionId, message });
    if (isRpcUnreachable(error) || unavailableDependency(error)) return void (await giveUpOr(db, cfg, row, message));
    // The chain's own no (a balance too small, a signature the token refuses): nothing was sent.
    if (isExecutionRevert(error))
      return adoptOrFail(message)
        .catch(() => giveUpOr(db, cfg, row, message))
        .then(() => undefined);
    if (row.attempts >= cfg.chain.settlementMaxAttempts) return void (await fail(db, missionId, message));
    await release(db, missionId, message);
  }
}

/**
 * The task exists: the mission becomes OPEN with it (transitions.ts `fund`), joins the board, and its
 * poster hears `mission.funded`; endpoints watching the board hear `mission.created` only now.
 */
export async function markFunded(
  db: Db,
  missionId: string,
  taskId: bigint,
  txHash: string | null,
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    const mission = await lockMission(tx, missionId);
    if (!mission) return;
    const decision = decide('fund', { ...mission, entered: false }, SYSTEM, now, {
      reviewWindowSeconds: 0,
      maxContests: 0,
      acceptWindowSeconds: 0,
    });
    if (!decision.ok) return;
    const [opened] = await tx
      .update(missions)
      .set({ status: 'OPEN', onChainTaskId: Number(taskId), listedAt: now, updatedAt: now })
      .where(and(eq(missions.id, missionId), eq(missions.status, 'AWAITING_FUNDING')))
      .returning();
    if (!opened) return;
    await ledger.fund(tx, opened);
    await tx
      .update(missionFundings)
      .set({ status: 'MINED', txHash, lockedUntil: null, lastError: null, minedAt: now, updatedAt: now })
      .where(eq(missionFundings.missionId, missionId));
    const data = { onChainTaskId: Number(taskId), txHash };
    await recordEvent(tx, {
      missionId,
      clientId: opened.clientId,
      viewer: SYSTEM,
      action: 'funded',
      from: 'AWAITING_FUNDING',
      to: 'OPEN',
      data,
      now,
    });
    await emitToParties(tx, 'mission.funded', opened, now, { funding: data });
    await emitCreated(tx, opened, now);
  });
}

/** The sweep's part: every RELAYING row whose lease is free is carried on (docs/api.md#sweep). */
export async function retryRelayingFundings(
  db: Db,
  cfg: Config,
  now: Date,
  limit = 50,
): Promise<{ attempted: number }> {
  const rows = await db
    .select({ missionId: missionFundings.missionId })
    .from(missionFundings)
    .where(
      and(
        eq(missionFundings.status, 'RELAYING'),
        or(isNull(missionFundings.lockedUntil), lt(missionFundings.lockedUntil, now)),
      ),
    )
    // Oldest first, ones that failed last time after ones that did not: a row the chain keeps refusing
    // never fills the batch (processFunding gives up on it once its authorization is past use).
    .orderBy(sql`${missionFundings.lastError} is not null`, asc(missionFundings.updatedAt))
    .limit(limit);
  for (const { missionId } of rows) await processFunding(db, cfg, missionId, 5_000, new Date());
  return { attempted: rows.length };
}

export type { PublicClient };
