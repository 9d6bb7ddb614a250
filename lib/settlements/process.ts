// Carries one settlement to the chain and back: reconcile from the chain's own state first (a
// task already released or refunded, a recorded transaction already mined or still waiting), and
// only then sign, record and send. It answers the row as it ended; what that outcome means for a
// mission is the caller's `OnSettled` to decide (lib/funding/reclaimed.ts). Run inline after a commit and by the
// sweep; a lease keeps two workers off the same row. A settlement that keeps failing stops at SETTLEMENT_MAX_ATTEMPTS
// as FAILED for the operator (docs/api.md#settlements); an unreachable RPC or a transaction still waiting in the
// mempool is not a failure and does not use up an attempt.
import 'server-only';
import type { Hex, PublicClient } from 'viem';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { Settlement } from '../db/schema';
import { getChainClients } from '../chain/clients';
import {
  TASK_STATE,
  claimForCall,
  claimedAmount,
  escrowOfTask,
  readTask,
  refundCall,
  readReleased,
  releaseCall,
  releasePartCall,
  releaseSplitCall,
  settleCall,
} from '../chain/escrow';
import { isRpcUnreachable, sendErrorText } from '../chain/rpc-errors';
import { lookupTransaction, sendSerialized } from '../chain/sender';
import { unavailableDependency } from '../errors';
import { log } from '../log';
import { inSpan } from '../observability/tracing';
import { emitClaimPaid } from '../webhooks/outbox';
import { recordChainCredit } from './chain-credit';
import {
  claimSettlement,
  findSettlement,
  markSettlement,
  minedPartsOf,
  recordSettlementTx,
  releaseSettlement,
} from './queries';

const LEASE_MARGIN_MS = 30_000;

function callOf(row: Settlement): Hex {
  if (row.kind === 'RELEASE') return releaseCall(row.taskId!, row.beneficiary as Hex, row.feeBps ?? 0);
  if (row.kind === 'REFUND') return refundCall(row.taskId!);
  if (row.kind === 'SPLIT') return releaseSplitCall(row.taskId!, row.recipients ?? [], row.feeBps ?? 0);
  if (row.kind === 'PART') return releasePartCall(row.taskId!, row.beneficiary as Hex, grossOf(row), row.feeBps ?? 0);
  // docs/api.md#settlement-offers: recipients[0] is the agent's part, before the fee the escrow takes on it.
  if (row.kind === 'SETTLE')
    return settleCall(row.taskId!, row.beneficiary as Hex, BigInt(row.recipients?.[0]?.amount ?? '0'), row.feeBps ?? 0);
  return claimForCall(row.beneficiary as Hex);
}

/** A PART's gross amount, as releasePart takes it (lib/settlements/enqueue.ts). */
const grossOf = (row: Settlement): bigint => BigInt(row.recipients?.[0]?.amount ?? row.amount);

/**
 * docs/api.md#milestones: whether this milestone's part is already paid: the task's released() covers this one
 * on top of every other part of the mission that may have been sent (mined, or with a transaction recorded) —
 * counted generously, so that a part not yet paid is never taken for paid; the recorded hash decides the rest.
 */
async function partPaid(db: Db, publicClient: PublicClient, escrow: Hex, row: Settlement): Promise<boolean> {
  const released = await readReleased(publicClient, escrow, row.taskId!);
  const mined = await minedPartsOf(db, row);
  return released >= mined + grossOf(row);
}

/** What a caller does with a settlement's outcome, once its row is written (a reclaimed release, say). */
export type OnSettled = (db: Db, cfg: Config, row: Settlement, now: Date) => Promise<void>;

export function processSettlement(
  db: Db,
  cfg: Config,
  id: string,
  waitMs: number,
  now = new Date(),
): Promise<Settlement> {
  return inSpan('settlement process', {}, async (span) => {
    const settlement = await attemptSettlement(db, cfg, id, waitMs, now);
    span?.setAttributes({
      'taskmarket.settlement.kind': settlement.kind,
      'taskmarket.settlement.status': settlement.status,
    });
    return settlement;
  });
}

async function attemptSettlement(db: Db, cfg: Config, id: string, waitMs: number, now: Date): Promise<Settlement> {
  const row = await claimSettlement(db, id, now, waitMs + LEASE_MARGIN_MS);
  if (!row) return findSettlement(db, id);
  const clients = getChainClients();
  if (!clients?.operator || !cfg.chain.escrow)
    return releaseSettlement(db, id, 'chain not configured', { counted: false });
  const escrow = escrowOfTask(cfg, row.escrow);
  const { publicClient, operator } = clients;
  // A failed attempt: FAILED once the attempts are used up, else back in the queue.
  const failed = (lastError: string) =>
    row.attempts >= cfg.chain.settlementMaxAttempts
      ? markSettlement(db, id, 'FAILED', { lastError: `gave up after ${row.attempts} attempts: ${lastError}` })
      : releaseSettlement(db, id, lastError);
  try {
    if (row.kind !== 'CLAIM') {
      const task = await readTask(publicClient, escrow, row.taskId!);
      const done = row.kind === 'REFUND' ? TASK_STATE.Refunded : TASK_STATE.Released;
      if (task.state === done) return minedEarlier(db, publicClient, row);
      if (task.state === TASK_STATE.Reclaimed) return reclaimedFirst(db, row);
      // A part leaves the task open: the chain's released() says whether this one got through already.
      if (row.kind === 'PART' && task.state === TASK_STATE.Open && (await partPaid(db, publicClient, escrow, row)))
        return minedEarlier(db, publicClient, row);
      if (task.state !== TASK_STATE.Open)
        return markSettlement(db, id, 'FAILED', { lastError: `task is in state ${task.state}` });
    }
    if (row.txHash) {
      const earlier = await lookupTransaction(publicClient, row.txHash as Hex);
      if (earlier.state === 'pending') return releaseSettlement(db, id, null, { counted: false });
      // A part that went through leaves the task open: the receipt, not the task's state, says it is done.
      if (earlier.state === 'mined' && row.kind === 'PART' && earlier.receipt.status === 'success')
        return markSettlement(db, id, 'MINED', {});
      if (earlier.state === 'mined' && row.kind === 'CLAIM') {
        return earlier.receipt.status === 'success'
          ? markSettlement(db, id, 'MINED', { amount: claimedAmount(earlier.receipt) }, claimPaid)
          : markSettlement(db, id, 'FAILED', { lastError: 'claim reverted' });
      }
      // A release/refund that reverted or never reached the node: the task is still open, send again.
    }
    const hash = await sendSerialized(publicClient, operator, { to: escrow, data: callOf(row) }, (h) =>
      recordSettlementTx(db, id, h),
    );
    const receipt = await publicClient
      .waitForTransactionReceipt({ hash, timeout: waitMs, pollingInterval: 250 })
      .catch(() => undefined);
    if (!receipt) return releaseSettlement(db, id, null, { counted: false });
    if (receipt.status === 'success') {
      return row.kind === 'CLAIM'
        ? markSettlement(db, id, 'MINED', { amount: claimedAmount(receipt) }, claimPaid)
        : markSettlement(db, id, 'MINED', {}, recordChainCredit(receipt));
    }
    if (row.kind === 'CLAIM') return markSettlement(db, id, 'FAILED', { lastError: 'claim reverted' });
    return failed('transaction reverted');
  } catch (error) {
    const message = sendErrorText(error);
    log.warn('settlement.send_failed', { id, kind: row.kind, message });
    if (isRpcUnreachable(error) || unavailableDependency(error))
      return releaseSettlement(db, id, message ?? 'unreachable', { counted: false });
    return failed(message ?? 'send failed');
  }
}

/**
 * The task is already settled: by our recorded transaction, whose receipt says what the chain credited
 * (docs/api.md#settlements), or — with no transaction recorded — by nothing we can read, and the books stay.
 */
async function minedEarlier(db: Db, publicClient: PublicClient, row: Settlement): Promise<Settlement> {
  const earlier = row.txHash ? await lookupTransaction(publicClient, row.txHash as Hex) : undefined;
  const receipt = earlier?.state === 'mined' && earlier.receipt.status === 'success' ? earlier.receipt : undefined;
  return markSettlement(db, row.id, 'MINED', {}, receipt && recordChainCredit(receipt));
}

/**
 * The client reclaimed the task before this release or refund got through (docs/api.md#escrow): nothing is
 * sent, and the row ends SUPERSEDED. A superseded release takes its mission with it (CANCELLED, the
 * agent's unpaid credit void) through the caller's OnSettled; a refund had nothing left to do.
 */
const reclaimedFirst = (db: Db, row: Settlement): Promise<Settlement> =>
  markSettlement(db, row.id, 'SUPERSEDED', { lastError: 'the task was reclaimed by its client' });

/** docs/api.md#webhooks: the agent hears that the payout reached its wallet. */
const claimPaid = (tx: Db, row: Settlement) =>
  emitClaimPaid(tx, row.userId, { amount: row.amount, txHash: row.txHash }, new Date());
