// A grant's release limit (docs/api.md#confirmations): its shape, the amount the person types on the
// consent page, the change made in Connected apps, and what the grant released at once lately. Here,
// beside the grants, because OAuth sets it; lib/confirmations, above, enforces it.
import 'server-only';
import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import { parseUnits } from 'viem';
import { z } from 'zod';
import type { Db } from '../db/client';
import { grantReleases, grants } from '../db/schema';
import { ApiError } from '../errors';

/** The window a release limit covers: a rolling 24 h. */
export const RELEASE_WINDOW_MS = 24 * 3600 * 1000;

/**
 * A release limit: base units over a rolling 24 h, a string like a reward; 0 (every release waits
 * for the person) up to 10^30 (no one needs more, and the sum of a day's releases stays exact).
 */
export const releaseLimitSchema = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,29})$/, 'must be a string of decimal digits (base units), at most 30 digits')
  .describe(
    'Base units a delegated token may release at once over a rolling 24 h; beyond it the person confirms. 0 by default',
  );

const USDC_DECIMALS = 6;
const WHOLE_TOKENS = /^[0-9]{1,24}(\.[0-9]{1,6})?$/;

/** The limit typed on the consent page, in whole USDC ("25", "12.50"; empty is 0), as base units; else 400. */
export function consentReleaseLimit(field: string | string[] | undefined): string {
  if (Array.isArray(field)) throw new ApiError(400, 'Validation failed', ['release_limit: give it once']);
  const text = (field ?? '').trim();
  if (text === '') return '0';
  if (!WHOLE_TOKENS.test(text))
    throw new ApiError(400, 'Validation failed', ['release_limit: an amount of USDC such as 25 or 12.50']);
  return parseUnits(text, USDC_DECIMALS).toString();
}

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
