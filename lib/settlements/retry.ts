// The operator's retry of a settlement that gave up (docs/api.md#settlements): FAILED → PENDING with fresh
// attempts, then carried on at once. Reconciling from the chain comes first, so a retry of a
// transfer that did go through records it instead of paying again.
import 'server-only';
import type { z } from 'zod';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { Settlement } from '../db/schema';
import { uniqueViolation } from '../db/unique-violation';
import { ApiError } from '../errors';
import { type OnSettled, processSettlement } from './process';
import { findSettlementOrNone, reopenFailedSettlement } from './queries';
import type { settlementSchema } from './schemas';

export async function retryFailedSettlement(
  db: Db,
  cfg: Config,
  id: string,
  onSettled: OnSettled,
): Promise<z.infer<typeof settlementSchema>> {
  const notFound = new ApiError(404, 'Settlement not found');
  const existing = await findSettlementOrNone(db, id);
  if (!existing) throw notFound;
  let reopened;
  try {
    reopened = await reopenFailedSettlement(db, id);
  } catch (error) {
    // A newer claim of the same agent is already in flight: one at a time.
    if (uniqueViolation(error) === 'settlements_claim_in_flight_idx')
      throw new ApiError(409, 'Another claim of this agent is in flight');
    throw error;
  }
  if (!reopened) throw new ApiError(409, `Only a FAILED settlement can be retried; this one is ${existing.status}`);
  const now = new Date();
  const row = await processSettlement(db, cfg, id, cfg.chain.mintWaitMs, now);
  await onSettled(db, cfg, row, now);
  return presentSettlement(row);
}

export const presentSettlement = (row: Settlement): z.infer<typeof settlementSchema> => ({
  id: row.id,
  kind: row.kind,
  status: row.status,
  missionId: row.missionId,
  beneficiary: row.beneficiary,
  amount: row.amount,
  txHash: row.txHash,
  attempts: row.attempts,
  lastError: row.lastError,
});
