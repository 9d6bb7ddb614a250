// The terms of a mission posted unfunded (docs/api.md#post-and-pay): its task's ref and expiry, fixed
// at creation so the authorization's nonce is the same on every read; how long it may wait (24 h);
// how many one poster may hold at once; and the funding page's link in the creation's answer.
import 'server-only';
import { randomBytes } from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { missions, users } from '../db/schema';
import { ApiError } from '../errors';
import { expiryRules } from './funding';
import { earliestExpiresAt } from './escrow-expiry';
import type { MissionJson } from './present';

/** docs/api.md#post-and-pay: unfunded this long, the sweep deletes the mission; the authorization expires with it. */
export const FUNDING_WINDOW_MS = 24 * 60 * 60 * 1000;

/** When an unfunded mission created at `createdAt` lapses: the signature's validBefore too. */
export const fundByOf = (createdAt: Date): Date => new Date(createdAt.getTime() + FUNDING_WINDOW_MS);

/** A random ref (nobody can guess another mission's) and the earliest expiry the deadline allows. */
export const fundingTermsAt = (cfg: Config, deadline: Date, bounty: boolean) => ({
  fundingRef: `0x${randomBytes(32).toString('hex')}`,
  fundingExpiresAt: earliestExpiresAt(deadline, expiryRules(cfg), bounty),
});

/**
 * docs/api.md#post-and-pay: a stranger could otherwise post unfunded missions without end; a poster
 * holds at most MAX_UNFUNDED_MISSIONS. Counted under the poster's row lock, so concurrent posts count each other.
 */
export async function assertUnfundedRoom(tx: Db, cfg: Config, clientId: string): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, clientId)).for('update');
  const [row] = await tx
    .select({ waiting: count() })
    .from(missions)
    .where(and(eq(missions.clientId, clientId), eq(missions.status, 'AWAITING_FUNDING')));
  if ((row?.waiting ?? 0) >= cfg.missions.maxUnfunded) {
    throw new ApiError(409, 'Too many missions awaiting funding', [
      `MAX_UNFUNDED_MISSIONS: a poster holds at most ${cfg.missions.maxUnfunded} unfunded ` +
        `missions at once; fund one, or wait until it lapses`,
    ]);
  }
}

/** The funding page of a mission: where the poster signs (the dashboard, signed in as the poster). */
export const fundingUrlOf = (cfg: Config, id: string): string => `${cfg.appOrigins[0]}/missions/${id}/fund`;

/** The creation's answer of an unfunded mission: the mission, and where and until when to fund it. */
export function withFundingLink(cfg: Config, mission: MissionJson, id: string): MissionJson {
  const parsed = JSON.parse(mission) as { status: string; createdAt: string };
  if (parsed.status !== 'AWAITING_FUNDING') return mission;
  const funding = { url: fundingUrlOf(cfg, id), expiresAt: fundByOf(new Date(parsed.createdAt)).toISOString() };
  return `${mission.slice(0, -1)},"funding":${JSON.stringify(funding)}}` as MissionJson;
}
