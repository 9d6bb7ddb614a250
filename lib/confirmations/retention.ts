// Confirmations do not pile up (docs/api.md#confirmations): a decided one, or a pending one past its
// 24 h, is kept for the person's history for WEBHOOK_RETENTION_DAYS, then deleted by the sweep.
import 'server-only';
import { and, inArray, isNotNull, lt, or, sql } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { confirmations } from '../db/schema';

const DAY_MS = 24 * 3600 * 1000;
/** Rows one sweep deletes at most, so a backlog never makes one statement long. */
const BATCH = 5_000;

export async function deleteOldConfirmations(db: Db, cfg: Config, now: Date): Promise<number> {
  const before = new Date(now.getTime() - cfg.webhooks.retentionDays * DAY_MS);
  const old = db
    .select({ id: confirmations.id })
    .from(confirmations)
    .where(
      or(
        and(isNotNull(confirmations.decidedAt), lt(confirmations.decidedAt, before)),
        lt(confirmations.expiresAt, before),
      ),
    )
    .limit(BATCH);
  const deleted = await db
    .delete(confirmations)
    .where(inArray(confirmations.id, sql`(${old})`))
    .returning({ id: confirmations.id });
  return deleted.length;
}
