// The sweep's part of docs/api.md#post-and-pay: relays left RELAYING are carried on, and a mission
// unfunded for 24 h is deleted — nothing of it is on-chain. Never one whose relay is in flight, and
// never before the chain says its authorization is unused: one used funded it, and it opens instead.
import 'server-only';
import { and, asc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Hex } from 'viem';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { missionFundings, missions, users } from '../db/schema';
import { getChainClients } from '../chain/clients';
import { authorizationUsed, findCreatedTask, fundingNonce } from '../chain/funding-authorization';
import { log } from '../log';
import { blobsOfMission, deleteUnusedBlobs, lockBlobs } from '../missions/files';
import { markFunded, retryRelayingFundings, termsOf } from './process';
import { FUNDING_WINDOW_MS } from './terms';
import { retryMandateRelays } from './allowance';

// Past the authorization's validBefore by more than a block's drift, nobody can use it any more.
const MARGIN_MS = 10 * 60 * 1000;

// A lapse the chain could not decide this many times leaves the batch for good (an error log line).
export const MAX_LAPSE_FAILURES = 10;

export async function sweepFundings(
  db: Db,
  cfg: Config,
  now: Date,
  limit = 50,
): Promise<{ relayed: number; deleted: number }> {
  const { attempted } = await retryRelayingFundings(db, cfg, now);
  // docs/api.md#standing-allowance: the mandates and revocations still to relay.
  await retryMandateRelays(db, cfg, now);
  // Oldest first, ones the chain could not decide last (least recently failed first), ones given up on
  // never: a mission that cannot be decided never fills the batch and holds everybody's lapse back. One
  // with a relay in flight is the relay's to finish (retryRelayingFundings), not the lapse's.
  const lapsed = await db
    .select({ mission: missions, wallet: users.walletAddress, fromBlock: missionFundings.fromBlock })
    .from(missions)
    .innerJoin(users, eq(users.id, missions.clientId))
    .leftJoin(missionFundings, eq(missionFundings.missionId, missions.id))
    .where(
      and(
        eq(missions.status, 'AWAITING_FUNDING'),
        lt(missions.createdAt, new Date(now.getTime() - FUNDING_WINDOW_MS - MARGIN_MS)),
        lt(missions.lapseFailures, MAX_LAPSE_FAILURES),
        or(isNull(missionFundings.status), eq(missionFundings.status, 'FAILED')),
      ),
    )
    .orderBy(sql`${missions.lapseFailedAt} asc nulls first`, asc(missions.createdAt), asc(missions.id))
    .limit(limit);
  let deleted = 0;
  for (const { mission, wallet, fromBlock } of lapsed) {
    try {
      if (await fundedMeanwhile(cfg, mission, wallet, fromBlock ?? undefined)) continue;
    } catch (error) {
      // The chain cannot say: keep it for a later sweep rather than delete what may be funded, behind the others.
      await lapseUndecided(db, mission.id, mission.lapseFailures + 1, error as Error, now);
      continue;
    }
    deleted += await lapse(db, mission.id);
  }
  return { relayed: attempted, deleted };

  /**
   * Whether the mission's authorization funded it after all: then the mission opens (true). Used
   * without a task holding its terms — cancelled by the poster — it funds nothing: the mission lapses.
   */
  async function fundedMeanwhile(
    c: Config,
    mission: typeof missions.$inferSelect,
    wallet: string,
    fromBlock: bigint | undefined,
  ): Promise<boolean> {
    const clients = getChainClients();
    if (!clients || !c.chain.rewardToken || !mission.escrow || mission.fundingRef === null) return false;
    const terms = termsOf(mission, wallet);
    const nonce = fundingNonce(c.chainId, mission.escrow as Hex, terms);
    if (!(await authorizationUsed(clients.publicClient, c.chain.rewardToken, terms.client, nonce))) return false;
    const taskId = await findCreatedTask(clients.publicClient, mission.escrow as Hex, terms, fromBlock);
    if (taskId === undefined) return false;
    await markFunded(db, c, mission.id, taskId, null, new Date());
    return true;
  }
}

/**
 * Deletes a lapsed mission and, in the same transaction, the blobs of its files that nothing else uses
 * (docs/api.md#post-and-pay): a free account must not keep 10 MB files forever by posting and never
 * paying. Bounded by the sweep's batch and each mission's file limit. 1 when deleted, 0 otherwise.
 */
async function lapse(db: Db, missionId: string): Promise<number> {
  return db.transaction(async (tx) => {
    const blobs = await lockBlobs(tx, await blobsOfMission(tx, missionId));
    const gone = await tx
      .delete(missions)
      .where(
        and(
          eq(missions.id, missionId),
          eq(missions.status, 'AWAITING_FUNDING'),
          sql`not exists (select 1 from ${missionFundings}
            where ${missionFundings.missionId} = ${missions.id} and ${missionFundings.status} <> 'FAILED')`,
        ),
      )
      .returning({ id: missions.id, clientId: missions.clientId });
    if (gone.length === 0) return 0;
    await deleteUnusedBlobs(tx, blobs);
    // docs/api.md#client-record: the mission leaves no row behind, so its client's record counts it here.
    await tx
      .update(users)
      .set({ unfundedLapsed: sql`${users.unfundedLapsed} + 1` })
      .where(eq(users.id, gone[0]!.clientId));
    return 1;
  });
}

/**
 * Counts a lapse check the chain could not answer. At MAX_LAPSE_FAILURES the mission stays
 * AWAITING_FUNDING out of every batch, and the operator reads `funding.lapse_given_up` (level error)
 * naming it (docs/api.md#post-and-pay); setting lapse_failures back to 0 puts it in the queue again.
 */
async function lapseUndecided(db: Db, missionId: string, failures: number, error: Error, now: Date) {
  const message = error.message?.split('\n')[0];
  await db
    .update(missions)
    .set({ lapseFailures: sql`${missions.lapseFailures} + 1`, lapseFailedAt: now })
    .where(eq(missions.id, missionId));
  if (failures >= MAX_LAPSE_FAILURES) log.error('funding.lapse_given_up', { missionId, failures, message });
  else log.warn('funding.lapse_check_failed', { missionId, failures, message });
}
