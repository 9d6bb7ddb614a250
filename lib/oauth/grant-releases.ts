// A grant's release limit in the database (docs/api.md#confirmations): the change made in Connected
// apps, and what the grant released at once lately.
import 'server-only';
import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { grantFundings, grantReleases, grants } from '../db/schema';
import { ApiError } from '../errors';
import { RELEASE_WINDOW_MS } from './release-limit';

/** Connected apps: the person changes a live grant's limit (404 for another's or a revoked one). */
export async function setReleaseLimit(db: Db, userId: string, grantId: string, releaseLimit: string): Promise<void> {
  const [row] = await db
    .update(grants)
    .set({ releaseLimit })
    .where(and(eq(grants.id, grantId), eq(grants.userId, userId), isNull(grants.revokedAt)))
    .returning({ id: grants.id });
  if (!row) throw new ApiError(404, 'Grant not found');
}

/** What each grant released at once in the last 24 h (base units; Connected apps shows it). */
export async function releasedByGrant(db: Db, grantIds: string[], now: Date): Promise<Map<string, string>> {
  if (grantIds.length === 0) return new Map();
  const rows = await db
    .select({ grantId: grantReleases.grantId, sum: sql<string>`sum(${grantReleases.amount})::text` })
    .from(grantReleases)
    .where(
      and(
        inArray(grantReleases.grantId, grantIds),
        gt(grantReleases.createdAt, new Date(now.getTime() - RELEASE_WINDOW_MS)),
      ),
    )
    .groupBy(grantReleases.grantId);
  return new Map(rows.map((row) => [row.grantId, row.sum]));
}

/** Connected apps: the person changes a live grant's funding limit (docs/api.md#standing-allowance). */
export async function setFundingLimit(db: Db, userId: string, grantId: string, fundingLimit: string): Promise<void> {
  const [row] = await db
    .update(grants)
    .set({ fundingLimit })
    .where(and(eq(grants.id, grantId), eq(grants.userId, userId), isNull(grants.revokedAt)))
    .returning({ id: grants.id });
  if (!row) throw new ApiError(404, 'Grant not found');
}

/** What each grant funded at once from the standing allowance in the last 24 h (base units). */
export async function fundedByGrant(db: Db, grantIds: string[], now: Date): Promise<Map<string, string>> {
  if (grantIds.length === 0) return new Map();
  const rows = await db
    .select({ grantId: grantFundings.grantId, sum: sql<string>`sum(${grantFundings.amount})::text` })
    .from(grantFundings)
    .where(
      and(
        inArray(grantFundings.grantId, grantIds),
        gt(grantFundings.createdAt, new Date(now.getTime() - RELEASE_WINDOW_MS)),
      ),
    )
    .groupBy(grantFundings.grantId);
  return new Map(rows.map((row) => [row.grantId, row.sum]));
}
