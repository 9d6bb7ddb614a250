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
  fundingNonce,
} from '../chain/funding-authorization';
import { createTaskForCall } from '../chain/mandate';
import { isExecutionRevert, isRpcUnreachable, sendErrorText } from '../chain/rpc-errors';
import { lookupTransaction, sendSerialized } from '../chain/sender';
import { ApiError, unavailableDependency } from '../errors';
import { getKv } from '../kv';
import { consume, EVERYONE, giveBack } from '../limits/rate-limit';
import { log } from '../log';
import { emitCreated, emitToParties, emitToUser } from '../webhooks/outbox';
import { recordEvent } from '../missions/events';
import { lockMission, type Mission, missionColumns } from '../missions/queries';
import { writeTransition } from '../missions/apply-transition';
import { decide } from '../missions/transitions';
import { SYSTEM } from '../missions/visibility';

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
function giveUpOr(
  db: Db,
  cfg: Config,
  row: MissionFunding,
  lastError: string | null,
  fail: (reason: string) => Promise<void>,
) {
  const pastUse = Date.now() > Number(row.validBefore) * 1000 + PAST_USE_MS;
  if (!pastUse || row.attempts < cfg.chain.settlementMaxAttempts) return release(db, row.missionId, lastError);
  log.error('funding.relay_given_up', { missionId: row.missionId, attempts: row.attempts, message: lastError });
  return fail(`given up after ${row.attempts} attempts: ${lastError ?? 'no answer from the chain'}`);
}

/** The relay failed for good: the mission stays AWAITING_FUNDING with the reason; the poster may sign again. */
async function failRow(db: Db, missionId: string, reason: string): Promise<boolean> {
  const changed = await db
    .update(missionFundings)
    .set({ status: 'FAILED', lockedUntil: null, lastError: reason, updatedAt: new Date() })
    .where(and(eq(missionFundings.missionId, missionId), eq(missionFundings.status, 'RELAYING')))
    .returning({ missionId: missionFundings.missionId });
  return changed.length > 0;
}

/** Why a relay that could have been sent was not: the hourly budget of broadcasts was spent at the send. */
export const BUDGET_SPENT =
  "the relayer's budget for this hour is used up; fund it from the wallet instead: approve the escrow, then " +
  'createTask(reward, ref, expiresAt), and POST { onChainTaskId }';

/** The 429 of a relay the budget stopped at its send: its RateLimit-* headers. */
class BudgetSpent extends Error {
  constructor(readonly headers: Record<string, string> | undefined) {
    super(BUDGET_SPENT);
  }
}

/**
 * docs/api.md#post-and-pay: RELAY_BUDGET_PER_HOUR counts transactions broadcast, one hit here, in the
 * shared KV (atomic across instances), once the node has estimated the call — so a call that cannot
 * succeed never spends it — and just before the signed transaction leaves.
 */
async function chargeBroadcast(cfg: Config): Promise<void> {
  try {
    await consume(getKv(), cfg, 'relayBudget', EVERYONE);
  } catch (error) {
    if (error instanceof ApiError && error.status === 429) throw new BudgetSpent(error.headers);
    throw error;
  }
}

/** What a pass of processFunding came to that its caller answers apart: the budget spent at the send (its headers). */
export interface FundingPass {
  budgetSpent?: Record<string, string>;
}

export async function processFunding(
  db: Db,
  cfg: Config,
  missionId: string,
  waitMs: number,
  now = new Date(),
): Promise<FundingPass> {
  const pass: FundingPass = {};
  await relayOnce(db, cfg, missionId, waitMs, now, pass);
  return pass;
}

async function relayOnce(db: Db, cfg: Config, missionId: string, waitMs: number, now: Date, pass: FundingPass) {
  const row = await claimFunding(db, missionId, now, waitMs + LEASE_MARGIN_MS);
  if (!row) return;
  // Whether this pass let a transaction of ours leave (an earlier pass's recorded hash counts too): a
  // row that ends FAILED with none gives its poster's daily unit back (docs/api.md#post-and-pay).
  let sent = row.txHash !== null;
  const fail = async (reason: string) => {
    if (!(await failRow(db, missionId, reason)) || sent) return;
    await giveBack(getKv(), cfg, 'relay', row.clientId).catch((error) =>
      log.warn('funding.relay_unit_kept', { missionId, message: (error as Error).message }),
    );
  };
  const clients = getChainClients();
  const [found] = await db
    .select({ mission: missions, wallet: users.walletAddress })
    .from(missions)
    .innerJoin(users, eq(users.id, missions.clientId))
    .where(eq(missions.id, missionId));
  // Opened by another task (the wallet fallback won the race): this relay can fund nothing here any more,
  // and left RELAYING it would come back to every sweep.
  if (found?.mission.status !== 'AWAITING_FUNDING') return void (await fail('the mission was funded by another task'));
  if (!clients?.relayer || !cfg.chain.rewardToken || !found.mission.escrow)
    return void (await release(db, missionId, 'chain not configured'));
  const { publicClient, relayer } = clients;
  const escrow = found.mission.escrow as Hex;
  const terms = termsOf(found.mission, found.wallet);
  /**
   * The chain refused our transaction: someone may have sent the same signature first (the token then
   * calls ours a replay), which opened the very task — found by its ref, the mission opens. Else it failed.
   */
  const nonce = fundingNonce(cfg.chainId, escrow, terms);
  // docs/api.md#standing-allowance: a MANDATE row has no signature anyone else could send — createTaskFor
  // is the funder's alone — so only a transaction of ours, recorded before it left, can have opened its task.
  const mandate = row.via === 'MANDATE';
  const adoptOrFail = async (reason: string) => {
    // Nothing of ours ever left for this row: there is no task to look for.
    if (mandate && !sent) return void (await fail(reason));
    if (mandate || (await authorizationUsed(publicClient, cfg.chain.rewardToken!, terms.client, nonce))) {
      const taskId = await findCreatedTask(publicClient, escrow, terms, row.fromBlock ?? undefined);
      if (taskId !== undefined) return markFunded(db, cfg, missionId, taskId, null, new Date());
    }
    await fail(reason);
  };
  try {
    if (row.txHash) {
      const earlier = await lookupTransaction(publicClient, row.txHash as Hex);
      if (earlier.state === 'pending') return void (await giveUpOr(db, cfg, row, null, fail));
      if (earlier.state === 'mined') {
        const taskId = createdTaskOf(earlier.receipt, terms.ref);
        if (earlier.receipt.status === 'success' && taskId !== undefined)
          return markFunded(db, cfg, missionId, taskId, row.txHash, new Date());
        return adoptOrFail('the relayed transaction reverted');
      }
      // Never reached the node: the authorization is unused (checked next), send it again.
      if (mandate) {
        // Unknown to the node, yet perhaps mined under another hash of ours: the task by its ref says.
        const taskId = await findCreatedTask(publicClient, escrow, terms, row.fromBlock ?? undefined);
        if (taskId !== undefined) return markFunded(db, cfg, missionId, taskId, null, new Date());
      }
    }
    if (!mandate && (await authorizationUsed(publicClient, cfg.chain.rewardToken, terms.client, nonce))) {
      // Used: by an earlier send of ours whose hash we lost, or by anyone holding the signature. The task says which.
      const taskId = await findCreatedTask(publicClient, escrow, terms, row.fromBlock ?? undefined);
      if (taskId !== undefined) return markFunded(db, cfg, missionId, taskId, row.txHash, new Date());
      return void (await fail('the authorization was used or cancelled without funding this mission'));
    }
    if (BigInt(Math.floor(Date.now() / 1000)) >= row.validBefore)
      return void (await fail('the authorization expired before it could be relayed'));
    const fromBlock = await publicClient.getBlockNumber();
    const hash = await sendSerialized(
      publicClient,
      relayer,
      {
        to: escrow,
        data: mandate
          ? createTaskForCall(terms.client, terms.reward, terms.ref, terms.expiresAt)
          : createTaskWithAuthorizationCall(terms, row.validBefore, nonce, row.signature as Hex),
      },
      async (h) => {
        await chargeBroadcast(cfg);
        await update(db, missionId, { txHash: h, fromBlock });
        sent = true;
      },
    );
    const receipt = await publicClient
      .waitForTransactionReceipt({ hash, timeout: waitMs, pollingInterval: 250 })
      .catch(() => undefined);
    if (!receipt) return void (await giveUpOr(db, cfg, row, null, fail));
    const taskId = createdTaskOf(receipt, terms.ref);
    if (receipt.status === 'success' && taskId !== undefined)
      return markFunded(db, cfg, missionId, taskId, hash, new Date());
    await adoptOrFail('the relayed transaction reverted');
  } catch (error) {
    if (error instanceof BudgetSpent) {
      log.warn('funding.relay_budget_spent', { missionId });
      await fail(BUDGET_SPENT);
      pass.budgetSpent = error.headers ?? {};
      return;
    }
    const message = sendErrorText(error) ?? 'send failed';
    log.warn('funding.relay_failed', { missionId, message });
    if (isRpcUnreachable(error) || unavailableDependency(error))
      return void (await giveUpOr(db, cfg, row, message, fail));
    // The chain's own no (a balance too small, a signature the token refuses): nothing was sent.
    if (isExecutionRevert(error))
      return adoptOrFail(message)
        .catch(() => giveUpOr(db, cfg, row, message, fail))
        .then(() => undefined);
    if (row.attempts >= cfg.chain.settlementMaxAttempts) return void (await fail(message));
    await release(db, missionId, message);
  }
}

/**
 * The task exists: the mission becomes OPEN with it (lib/missions/transitions.ts `fund`), joins the board, and its
 * poster hears `mission.funded`; endpoints watching the board hear `mission.created` only now.
 */
export async function markFunded(
  db: Db,
  cfg: Config,
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
      .returning(missionColumns);
    if (!opened) return;
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
    await announceFunded(tx, cfg, opened, now);
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

/**
 * Who hears of a funded mission: watchers of the board; a DIRECT mission's named agent alone
 * (docs/api.md#direct-missions); and an order is the agent's at once (the table's `acceptOrder`), which
 * it hears as offering.ordered (docs/api.md#offerings).
 */
async function announceFunded(tx: Db, cfg: Config, opened: Mission, now: Date): Promise<void> {
  if (!opened.directAgentId) return emitCreated(tx, opened, now);
  if (!opened.offeringId) return emitToUser(tx, 'mission.created', opened.directAgentId, opened, now);
  const accepted = await writeTransition(
    tx,
    cfg,
    'acceptOrder',
    opened,
    SYSTEM,
    { assigneeId: opened.directAgentId },
    now,
  );
  await emitToUser(tx, 'offering.ordered', opened.directAgentId, accepted, now, {
    offering: { id: opened.offeringId, title: opened.offeringTitle },
  });
}
