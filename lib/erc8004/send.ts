// Carries one feedback row to the Reputation registry (docs/api.md#erc-8004-feedback), like a
// settlement: claimed by one worker at a time (a lease), the payout waited for (the feedback never
// goes before the money, and never holds it up), the file rendered once, then signed, its hash and
// block recorded before it leaves (lib/chain/sender.ts), and confirmed from the chain. A recorded
// transaction the node no longer knows is looked for among the registry's NewFeedback events from
// that block before anything is sent again, so a crash after the send never gives it twice. The hash is
// recorded only under a live lease, and the identity is read again right before the send. The operator
// broadcasts at most ERC8004_FEEDBACK_BUDGET_PER_HOUR of them an hour; the rest wait, PENDING, for the
// next hour's (docs/api.md#feedback-bounds).
import 'server-only';
import { and, desc, eq, gt, inArray, isNull, lt, notExists, or, sql } from 'drizzle-orm';
import { type Hex, type PublicClient, zeroAddress } from 'viem';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { settlements, users } from '../db/schema';
import { type ReputationFeedback, reputationFeedback } from '../db/schema/erc8004';
import { getChainClients } from '../chain/clients';
import { findGivenFeedback, giveFeedbackCall, readAgentWallet, readIdentityOwner } from '../chain/erc8004';
import { isExecutionRevert, isRpcUnreachable, sendErrorText } from '../chain/rpc-errors';
import { lookupTransaction, sendSerialized } from '../chain/sender';
import { issuerOf, resourceUri } from '../auth/resources';
import { getKv } from '../kv';
import { unavailableDependency } from '../errors';
import { log } from '../log';
import { renderFeedbackDocument } from './document';
import { CLIENT_FEEDBACK_TAG, FEEDBACK_TAG } from './outcomes';

const LEASE_MARGIN_MS = 30_000;
const SWEEP_WAIT_MS = 5_000;

const claimable = (now: Date) =>
  and(
    eq(reputationFeedback.status, 'PENDING'),
    or(isNull(reputationFeedback.lockedUntil), lt(reputationFeedback.lockedUntil, now)),
  );

async function claim(db: Db, id: string, now: Date, leaseMs: number) {
  const [row] = await db
    .update(reputationFeedback)
    .set({ lockedUntil: new Date(now.getTime() + leaseMs), attempts: sql`${reputationFeedback.attempts} + 1` })
    .where(and(eq(reputationFeedback.id, id), claimable(now)))
    .returning();
  return row;
}

async function find(db: Db, id: string) {
  const [row] = await db.select().from(reputationFeedback).where(eq(reputationFeedback.id, id)).limit(1);
  return row!;
}

/** Back in the queue; `counted: false` gives the attempt back (an outage, a payout or transaction still waiting). */
async function release(db: Db, id: string, lastError: string | null, { counted = true } = {}) {
  const [row] = await db
    .update(reputationFeedback)
    .set({ lockedUntil: null, lastError, ...(!counted && { attempts: sql`${reputationFeedback.attempts} - 1` }) })
    .where(eq(reputationFeedback.id, id))
    .returning();
  return row!;
}

async function mark(
  db: Db,
  id: string,
  status: 'MINED' | 'FAILED' | 'SUPERSEDED',
  changes: { txHash?: string; lastError?: string } = {},
) {
  const [row] = await db
    .update(reputationFeedback)
    .set({
      status,
      lockedUntil: null,
      lastError: changes.lastError ?? null,
      sentAt: status === 'MINED' ? new Date() : null,
      ...(changes.txHash && { txHash: changes.txHash }),
    })
    .where(and(eq(reputationFeedback.id, id), eq(reputationFeedback.status, 'PENDING')))
    .returning();
  return row ?? find(db, id);
}

/** Thrown by the record of a send whose lease ran out or was taken: nothing is sent, the row is another's. */
class LeaseLost extends Error {}

/** Thrown before a broadcast this hour's budget has no room for: nothing is sent, the row waits. */
class BudgetSpent extends Error {}

/** The lastError of a row the budget holds back; the sweep stops its batch at the first. */
const BUDGET_SPENT = "the operator's feedback budget";
const heldByBudget = (row: ReputationFeedback) => row.lastError?.startsWith(BUDGET_SPENT) === true;

const HOUR_MS = 3_600_000;

/**
 * docs/api.md#feedback-bounds: counts one broadcast in this hour's window (shared by every instance, in the
 * KV), right before it leaves; past ERC8004_FEEDBACK_BUDGET_PER_HOUR it is refused and the row stays PENDING.
 */
async function chargeBudget(cfg: Config): Promise<void> {
  const hour = Math.floor(Date.now() / HOUR_MS);
  const { count } = await getKv().hit(`erc8004-feedback-budget:${hour}`, HOUR_MS);
  if (count > cfg.chain.feedbackBudgetPerHour)
    throw new BudgetSpent(`${BUDGET_SPENT} (${cfg.chain.feedbackBudgetPerHour} an hour) is spent`);
}

/**
 * Records the hash about to be sent, only while this worker's lease (`lease`, as it claimed it) still holds:
 * a worker that stalled past it (another sweep may have claimed the row and sent) writes nothing and sends
 * nothing, so once a hash is recorded no second sender can send (docs/api.md#erc-8004-feedback).
 */
async function recordSend(db: Db, id: string, lease: Date, hash: Hex, fromBlock: bigint): Promise<void> {
  const [recorded] = await db
    .update(reputationFeedback)
    .set({ txHash: hash, sentFromBlock: fromBlock })
    .where(
      and(
        eq(reputationFeedback.id, id),
        eq(reputationFeedback.status, 'PENDING'),
        eq(reputationFeedback.lockedUntil, lease),
        gt(reputationFeedback.lockedUntil, new Date()),
      ),
    )
    .returning({ id: reputationFeedback.id });
  if (!recorded) throw new LeaseLost(`feedback ${id}: the lease ran out before the send`);
}

/**
 * docs/api.md#erc-8004-feedback: whether the identity still belongs to the agent, read from the Identity
 * registry right before the send — its owner or its agentWallet is the agent's wallet, as when it was linked.
 */
async function stillTheAgents(db: Db, publicClient: PublicClient, registry: Hex, row: ReputationFeedback) {
  const [agent] = await db.select({ wallet: users.walletAddress }).from(users).where(eq(users.id, row.userId)).limit(1);
  const agentId = BigInt(row.agentId);
  const [owner, wallet] = await Promise.all([
    // ownerOf reverts for a burnt identity: no one's, so not the agent's either.
    readIdentityOwner(publicClient, registry, agentId).catch((error: unknown) => {
      if (isExecutionRevert(error)) return zeroAddress;
      throw error;
    }),
    readAgentWallet(publicClient, registry, agentId),
  ]);
  const mine = agent?.wallet.toLowerCase();
  return owner.toLowerCase() === mine || wallet.toLowerCase() === mine;
}

/** The mission's payout (release, split, settle or refund), if it has one on-chain. */
async function payoutOf(db: Db, missionId: string) {
  const [row] = await db
    .select({ kind: settlements.kind, status: settlements.status, txHash: settlements.txHash })
    .from(settlements)
    .where(
      and(
        eq(settlements.missionId, missionId),
        inArray(settlements.kind, ['RELEASE', 'SPLIT', 'REFUND', 'PART', 'SETTLE']),
      ),
    )
    // docs/api.md#milestones: a mission of several parts waits for all of them; one not mined is answered first.
    .orderBy(sql`${settlements.status} = 'MINED'`, desc(settlements.createdAt))
    .limit(1);
  return row;
}

/** The stored file and hash, rendered now if this is the first attempt that got this far. */
async function withDocument(
  db: Db,
  cfg: Config,
  row: ReputationFeedback,
  payout: { kind: string; txHash: string | null } | undefined,
) {
  if (row.document && row.feedbackHash) return row;
  const { text, hash } = await renderFeedbackDocument(db, cfg, row, payout);
  const [stored] = await db
    .update(reputationFeedback)
    .set({ document: text, feedbackHash: hash })
    .where(and(eq(reputationFeedback.id, row.id), isNull(reputationFeedback.document)))
    .returning();
  return stored ?? find(db, row.id);
}

export async function processFeedback(
  db: Db,
  cfg: Config,
  id: string,
  waitMs: number,
  now = new Date(),
): Promise<ReputationFeedback> {
  let row = await claim(db, id, now, waitMs + LEASE_MARGIN_MS);
  if (!row) return find(db, id);
  const clients = getChainClients();
  const identityRegistry = cfg.chain.identityRegistry as Hex | undefined;
  if (!clients?.operator || !cfg.chain.reputationRegistry || !identityRegistry)
    return release(db, id, 'chain not configured', { counted: false });
  const lease = row.lockedUntil!;
  const { publicClient, operator } = clients;
  const failed = (lastError: string) =>
    row!.attempts >= cfg.chain.settlementMaxAttempts
      ? mark(db, id, 'FAILED', { lastError: `gave up after ${row!.attempts} attempts: ${lastError}` })
      : release(db, id, lastError);
  try {
    // The money first: feedback speaks of a payout that happened.
    const payout = await payoutOf(db, row.missionId);
    if (payout?.status === 'SUPERSEDED')
      return mark(db, id, 'SUPERSEDED', { lastError: 'the task was reclaimed by its client' });
    if (payout && payout.status !== 'MINED') return release(db, id, 'waiting for the payout', { counted: false });
    row = await withDocument(db, cfg, row, payout);
    const registry = row.registry as Hex;
    const operatorAddress = operator.account!.address;
    if (row.txHash) {
      const earlier = await lookupTransaction(publicClient, row.txHash as Hex);
      if (earlier.state === 'pending') return release(db, id, null, { counted: false });
      if (earlier.state === 'mined' && earlier.receipt.status === 'success') return mark(db, id, 'MINED');
      if (earlier.state === 'unknown') {
        // Sent by a worker that crashed, and mined under another hash? The registry's events say.
        const given = await findGivenFeedback(
          publicClient,
          registry,
          BigInt(row.agentId),
          operatorAddress,
          row.feedbackHash as Hex,
          row.sentFromBlock ?? 0n,
        );
        if (given) return mark(db, id, 'MINED', { txHash: given });
      }
    }
    // An identity sold or handed over since the settlement: the feedback would speak of someone else.
    if (!(await stillTheAgents(db, publicClient, identityRegistry, row)))
      return mark(db, id, 'FAILED', {
        lastError: `identity ${row.agentId} is no longer the agent's: neither its owner nor its agentWallet`,
      });
    const data = giveFeedbackCall({
      agentId: BigInt(row.agentId),
      value: row.value,
      // docs/api.md#client-feedback: what we say of a client is filed under its own tag.
      tag1: row.subject === 'client' ? CLIENT_FEEDBACK_TAG : FEEDBACK_TAG,
      tag2: row.outcome,
      endpoint: resourceUri(issuerOf(cfg), 'mcp'),
      feedbackUri: row.feedbackUri,
      feedbackHash: row.feedbackHash as Hex,
    });
    const fromBlock = await publicClient.getBlockNumber({ cacheTime: 0 });
    const hash = await sendSerialized(publicClient, operator, { to: registry, data }, async (h) => {
      await chargeBudget(cfg);
      await recordSend(db, id, lease, h, fromBlock);
    });
    const receipt = await publicClient
      .waitForTransactionReceipt({ hash, timeout: waitMs, pollingInterval: 250 })
      .catch(() => undefined);
    if (!receipt) return release(db, id, null, { counted: false });
    if (receipt.status === 'success') return mark(db, id, 'MINED');
    return failed('transaction reverted');
  } catch (error) {
    // Not ours any more: whoever holds the row now decides it; leave its lease and attempts alone.
    if (error instanceof LeaseLost) return find(db, id);
    // Waits for the next hour, its attempt given back: the budget is no fault of the row's.
    if (error instanceof BudgetSpent)
      return release(db, id, `${error.message}; waiting for the next hour`, {
        counted: false,
      });
    const message = sendErrorText(error);
    log.warn('erc8004.feedback_failed', { id, message });
    if (isRpcUnreachable(error) || unavailableDependency(error))
      return release(db, id, message ?? 'unreachable', { counted: false });
    return failed(message ?? 'send failed');
  }
}

/** The sweep's part: every PENDING feedback whose lease is free, oldest first. */
export async function retryPendingFeedback(
  db: Db,
  cfg: Config,
  limit = 50,
): Promise<{ attempted: number; given: number }> {
  if (!cfg.chain.reputationRegistry) return { attempted: 0, given: 0 };
  // Rows still waiting for their payout (a FAILED one waits for the operator's retry) are left out,
  // so however many wait, they never crowd the batch out of the feedback that can go.
  const payoutPending = db
    .select({ one: sql`1` })
    .from(settlements)
    .where(
      and(
        eq(settlements.missionId, reputationFeedback.missionId),
        inArray(settlements.kind, ['RELEASE', 'SPLIT', 'REFUND', 'PART', 'SETTLE']),
        inArray(settlements.status, ['PENDING', 'FAILED']),
      ),
    );
  const rows = await db
    .select({ id: reputationFeedback.id })
    .from(reputationFeedback)
    .where(and(claimable(new Date()), notExists(payoutPending)))
    .orderBy(reputationFeedback.createdAt)
    .limit(limit);
  let given = 0;
  let attempted = 0;
  for (const { id } of rows) {
    const row = await processFeedback(db, cfg, id, SWEEP_WAIT_MS);
    attempted += 1;
    if (row.status === 'MINED') given += 1;
    // The hour's budget is spent: the rest wait for the next run, without reading the chain for nothing.
    else if (heldByBudget(row)) break;
  }
  return { attempted, given };
}

/**
 * After a settling transition and its payout: give the mission's feedback now. Never throws — the
 * caller's answer is about the mission, and the sweep retries whatever did not go.
 */
export async function sendMissionFeedback(db: Db, cfg: Config, missionId: string): Promise<void> {
  if (!cfg.chain.reputationRegistry) return;
  try {
    const rows = await db
      .select({ id: reputationFeedback.id })
      .from(reputationFeedback)
      .where(and(eq(reputationFeedback.missionId, missionId), eq(reputationFeedback.status, 'PENDING')));
    for (const { id } of rows) await processFeedback(db, cfg, id, cfg.chain.mintWaitMs);
  } catch (error) {
    log.warn('erc8004.feedback_deferred', { missionId, message: (error as Error).message });
  }
}
