// The terms of a mission posted unfunded (docs/api.md#post-and-pay): its task's ref and expiry, fixed
// at creation so the authorization's nonce is the same on every read; how long it may wait (24 h);
// how many one poster may hold at once, and how many attachment bytes (docs/api.md#unfunded-storage);
// and the funding page's link in the creation's answer.
import 'server-only';
import { randomBytes } from 'node:crypto';
import { and, count, eq, sql, sum } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { missionFiles, missions, users } from '../db/schema';
import { ApiError } from '../errors';
import { expiryRules } from './verify';
import { earliestExpiresAt } from './escrow-expiry';
import type { MissionJson } from '../board/present';

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
 * holds at most MAX_UNFUNDED_MISSIONS, and their attachments at most the storage quotas
 * (docs/api.md#unfunded-storage). Counted under the poster's row lock, so concurrent posts count each other.
 */
export async function assertUnfundedRoom(
  tx: Db,
  cfg: Config,
  clientId: string,
  files: readonly { size: number }[] = [],
): Promise<void> {
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
  await assertUnfundedStorage(
    tx,
    cfg,
    clientId,
    files.reduce((total, file) => total + file.size, 0),
  );
}

// Any fixed key no other lock of ours uses (the migrations' is 7406251): held by unfunded posts with files.
const UNFUNDED_FILES_LOCK = 7406252;

/** Attachment bytes of the AWAITING_FUNDING missions `where` picks (a file row counts its own size). */
async function unfundedBytes(tx: Db, poster?: string): Promise<number> {
  const [row] = await tx
    .select({ bytes: sum(missionFiles.size).mapWith(Number) })
    .from(missionFiles)
    .innerJoin(missions, eq(missions.id, missionFiles.missionId))
    .where(
      and(
        eq(missions.status, 'AWAITING_FUNDING'),
        eq(missionFiles.kind, 'ATTACHMENT'),
        poster ? eq(missions.clientId, poster) : undefined,
      ),
    );
  return row?.bytes ?? 0;
}

/**
 * docs/api.md#unfunded-storage: an unfunded mission's attachments cost its poster nothing, so they
 * count against UNFUNDED_FILES_MAX_BYTES_PER_USER (413 past it) and, for all posters together,
 * UNFUNDED_FILES_MAX_BYTES (409). The poster's bytes are counted under their row lock (taken by the
 * caller); everyone's under a transaction-scoped advisory lock that only unfunded posts carrying files
 * take, after the row lock (one order: no deadlock). Both are held until the files are stored.
 */
async function assertUnfundedStorage(tx: Db, cfg: Config, clientId: string, incoming: number): Promise<void> {
  if (incoming === 0) return;
  const { unfundedFilesMaxBytesPerUser: perUser, unfundedFilesMaxBytes: global } = cfg.missions;
  const mine = await unfundedBytes(tx, clientId);
  if (mine + incoming > perUser) {
    throw new ApiError(413, 'Too many attachment bytes on unfunded missions', [
      `UNFUNDED_FILES_MAX_BYTES_PER_USER: a poster's missions awaiting funding hold at most ${perUser} bytes ` +
        `of attachments; yours hold ${mine} and these are ${incoming}. Fund one, post with fewer files, or ` +
        'post with onChainTaskId',
    ]);
  }
  await tx.execute(sql`select pg_advisory_xact_lock(${sql.raw(String(UNFUNDED_FILES_LOCK))})`);
  const everyone = await unfundedBytes(tx);
  if (everyone + incoming > global) {
    throw new ApiError(409, 'The attachment storage for unfunded missions is full', [
      `UNFUNDED_FILES_MAX_BYTES: missions awaiting funding hold at most ${global} bytes of attachments in all; ` +
        'post with onChainTaskId (funded), or without files, or try again once others are funded or lapse',
    ]);
  }
}

/** The funding page of a mission: where the poster signs (the dashboard, signed in as the poster). */
export const fundingUrlOf = (cfg: Config, id: string): string => `${cfg.appOrigins[0]}/missions/${id}/fund`;

/** The creation's answer of an unfunded mission: the mission, and where and until when to fund it. */
export function withFundingLink(
  cfg: Config,
  mission: MissionJson,
  id: string,
  extra?: Record<string, unknown>,
): MissionJson {
  const parsed = JSON.parse(mission) as { status: string; createdAt: string };
  // docs/api.md#standing-allowance: a mission funded at once says so (status funded), else nothing is added.
  if (parsed.status !== 'AWAITING_FUNDING' && !extra) return mission;
  const funding = {
    url: fundingUrlOf(cfg, id),
    expiresAt: fundByOf(new Date(parsed.createdAt)).toISOString(),
    ...extra,
    ...(parsed.status !== 'AWAITING_FUNDING' && { status: 'funded' }),
  };
  return `${mission.slice(0, -1)},"funding":${JSON.stringify(funding)}}` as MissionJson;
}
