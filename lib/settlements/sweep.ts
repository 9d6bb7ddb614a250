// The sweep's part of settlements, and the inline kick after a mission's terminal transition:
// every PENDING row whose lease is free is carried on; concurrent runs skip each other's rows.
import 'server-only';
import { and, eq } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { settlements } from '../db/schema';
import { type OnSettled, processSettlement } from './process';
import { listClaimableSettlements } from './queries';

const SWEEP_WAIT_MS = 5_000;

export async function retryPendingSettlements(
  db: Db,
  cfg: Config,
  onSettled: OnSettled,
  limit = 50,
): Promise<{ attempted: number; mined: number }> {
  const ids = await listClaimableSettlements(db, new Date(), limit);
  let mined = 0;
  for (const id of ids) {
    const now = new Date();
    const row = await processSettlement(db, cfg, id, SWEEP_WAIT_MS, now);
    await onSettled(db, cfg, row, now);
    if (row.status === 'MINED') mined += 1;
  }
  return { attempted: ids.length, mined };
}

/** After a commit that may have written release/refund rows for this mission: send them now. */
export async function settleMission(db: Db, cfg: Config, missionId: string, onSettled: OnSettled): Promise<void> {
  if (!cfg.chain.escrow) return;
  const rows = await db
    .select({ id: settlements.id })
    .from(settlements)
    .where(and(eq(settlements.missionId, missionId), eq(settlements.status, 'PENDING')));
  for (const { id } of rows) {
    const now = new Date();
    await onSettled(db, cfg, await processSettlement(db, cfg, id, cfg.chain.mintWaitMs, now), now);
  }
}
