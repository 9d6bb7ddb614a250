// GET and POST /api/missions/{id}/funding (docs/api.md#post-and-pay): the poster reads the typed data
// of the one authorization that funds the mission, and hands back its signature — checked off-chain
// first (the poster's wallet, these exact terms, unexpired, unused), then recorded as a relay and
// sent — or the id of a task it opened from its own wallet (the fallback), checked like a post's.
import 'server-only';
import { eq } from 'drizzle-orm';
import type { Hex } from 'viem';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { type MissionFunding, missionFundings, missions, users } from '../db/schema';
import { getChainClients } from '../chain/clients';
import { authorizationUsed, fundingTypedData, readFundingNonce, readTokenName } from '../chain/funding-authorization';
import { readChain } from '../chain/rpc-errors';
import { uniqueViolation } from '../db/unique-violation';
import { ApiError, DependencyDown } from '../errors';
import { chargeOf, consume, EVERYONE } from '../limits/rate-limit';
import type { Kv } from '../kv';
import { verifyFunding } from './funding';
import { markFunded, processFunding, termsOf } from './funding-process';
import type { FundingView, FundMissionInput } from './funding-schemas';
import { fundByOf } from './funding-terms';
import type { Mission } from './queries';
import { canSeeMission, type Viewer } from './visibility';

const notFound = () => new ApiError(404, 'Mission not found');
const refuse = (detail: string) => new ApiError(400, 'Validation failed', [detail]);
const FALLBACK =
  'fund it from the wallet instead: approve the escrow, then createTask(reward, ref, ' +
  'expiresAt), and POST { onChainTaskId }';

/**
 * The mission, its poster's wallet and its relay row, for its poster only (others learn nothing of an unfunded one).
 */
async function posterMission(db: Db, id: string, viewer: Viewer) {
  const [found] = await db
    .select({ mission: missions, wallet: users.walletAddress, relay: missionFundings })
    .from(missions)
    .innerJoin(users, eq(users.id, missions.clientId))
    .leftJoin(missionFundings, eq(missionFundings.missionId, missions.id))
    .where(eq(missions.id, id));
  if (!found || !canSeeMission(found.mission, viewer)) throw notFound();
  if (viewer.kind !== 'user' || viewer.id !== found.mission.clientId)
    throw new ApiError(403, "Only the mission's owner may do this");
  if (found.mission.fundingRef === null || found.mission.fundingExpiresAt === null) {
    throw new ApiError(409, 'This mission was funded when it was posted');
  }
  return found as { mission: Mission; wallet: string; relay: MissionFunding | null };
}

async function authorizationOf(cfg: Config, mission: Mission, wallet: string) {
  const clients = getChainClients();
  if (!clients || !cfg.chain.rewardToken || !mission.escrow)
    throw new DependencyDown('chain', new Error('chain not configured'));
  const escrow = mission.escrow as Hex;
  const token = cfg.chain.rewardToken;
  const terms = termsOf(mission, wallet);
  const [nonce, tokenName] = await readChain(() =>
    Promise.all([readFundingNonce(clients.publicClient, escrow, terms), readTokenName(clients.publicClient, token)]),
  );
  const validBefore = BigInt(Math.floor(fundByOf(mission.createdAt).getTime() / 1000));
  const typedData = fundingTypedData({ chainId: cfg.chainId, token, tokenName, escrow }, terms, validBefore, nonce);
  return { clients, escrow, token, terms, nonce, validBefore, typedData };
}

/** Whether the relayer would take one more relay from this poster now (the budget is peeked, not spent). */
async function relayAvailable(kv: Kv, cfg: Config, userId: string): Promise<boolean> {
  if (!getChainClients()?.relayer) return false;
  const spent = async (name: 'relay' | 'relayBudget', subject: string) => {
    const charge = chargeOf(cfg, name, subject);
    return Number((await kv.get(charge.key)) ?? 0) >= charge.max;
  };
  return !(await spent('relay', userId)) && !(await spent('relayBudget', EVERYONE));
}

function statusOf(
  mission: Mission,
  relay: MissionFunding | null,
): Pick<FundingView, 'status' | 'reason' | 'txHash' | 'onChainTaskId'> {
  const txHash = relay?.txHash ?? undefined;
  if (mission.status !== 'AWAITING_FUNDING')
    return { status: 'funded', txHash, onChainTaskId: mission.onChainTaskId ?? undefined };
  if (relay?.status === 'RELAYING') return { status: 'relaying', txHash };
  if (relay?.status === 'FAILED') return { status: 'failed', reason: relay.lastError ?? 'the relay failed', txHash };
  return { status: 'awaiting_signature' };
}

export async function getFunding(
  db: Db,
  kv: Kv,
  cfg: Config,
  id: string,
  viewer: Viewer & { kind: 'user' },
): Promise<FundingView> {
  let found = await posterMission(db, id, viewer);
  // A relay whose lease is free is carried on by whoever looks (a quick look: the sweep waits longer).
  if (found.relay?.status === 'RELAYING') {
    await processFunding(db, cfg, id, 0);
    found = await posterMission(db, id, viewer);
  }
  const { mission, wallet, relay } = found;
  const { typedData, escrow, token, terms } = await authorizationOf(cfg, mission, wallet);
  const message = typedData.message;
  return {
    typedData: {
      ...typedData,
      types: { ...typedData.types, ReceiveWithAuthorization: [...typedData.types.ReceiveWithAuthorization] },
      message: {
        ...message,
        value: String(message.value),
        validAfter: String(message.validAfter),
        validBefore: String(message.validBefore),
      },
    },
    escrow,
    token,
    amount: terms.reward.toString(),
    ref: terms.ref,
    expiresAt: terms.expiresAt.toString(),
    fundBy: fundByOf(mission.createdAt).toISOString(),
    ...statusOf(mission, relay),
    relayAvailable: await relayAvailable(kv, cfg, viewer.id),
  };
}

export type FundingAnswer = { status: 200 | 202; body: FundingView };

export async function fundMission(
  db: Db,
  kv: Kv,
  cfg: Config,
  id: string,
  viewer: Viewer & { kind: 'user' },
  input: FundMissionInput,
  now: Date,
): Promise<FundingAnswer> {
  const found = await posterMission(db, id, viewer);
  if (found.mission.status !== 'AWAITING_FUNDING') {
    // docs/api.md#post-and-pay: a wallet fallback that lost the race to the relay is a conflict whatever
    // the timing (here, or inside fundFromWallet); the same task again is answered again.
    if ('onChainTaskId' in input) {
      if (found.mission.onChainTaskId === input.onChainTaskId)
        return { status: 200, body: await getFunding(db, kv, cfg, id, viewer) };
      throw new ApiError(409, 'The mission was funded by another task meanwhile');
    }
    throw refuse(`mission: it is ${found.mission.status}, no longer awaiting funding`);
  }
  if ('onChainTaskId' in input) {
    await fundFromWallet(db, cfg, found, input.onChainTaskId, now);
    return { status: 200, body: await getFunding(db, kv, cfg, id, viewer) };
  }
  const signature = input.signature as Hex;
  if (found.relay?.status === 'RELAYING') {
    // docs/api.md#post-and-pay: one relay per mission; the same signature again is answered, another refused.
    if (found.relay.signature === signature.toLowerCase())
      return { status: 202, body: await getFunding(db, kv, cfg, id, viewer) };
    throw new ApiError(409, 'A funding is already being relayed for this mission');
  }
  const { clients, token, terms, nonce, validBefore, typedData } = await authorizationOf(
    cfg,
    found.mission,
    found.wallet,
  );
  if (now >= fundByOf(found.mission.createdAt))
    throw refuse('signature: the authorization has expired (the mission lapsed unfunded)');
  // viem's public verifyTypedData checks an EOA's signature and asks a contract wallet (ERC-1271, ERC-6492).
  const valid = await readChain(() =>
    clients.publicClient.verifyTypedData({ address: terms.client, ...typedData, signature }),
  ).catch((error) => {
    if (error instanceof DependencyDown) throw error;
    return false;
  });
  if (!valid)
    throw refuse(
      "signature: not the poster's wallet's signature of this mission's typedData (from, to, " +
        'value, validBefore and nonce exactly)',
    );
  if (await readChain(() => authorizationUsed(clients.publicClient, token, terms.client, nonce))) {
    throw refuse('signature: this authorization was already used or cancelled');
  }
  await chargeRelay(kv, cfg, viewer.id);
  await recordRelay(db, found.mission, signature, validBefore, now);
  await processFunding(db, cfg, id, Math.min(cfg.chain.mintWaitMs, 5_000), now);
  return { status: 202, body: await getFunding(db, kv, cfg, id, viewer) };
}

/**
 * docs/api.md#post-and-pay: the poster's ten a day, then everyone's hourly budget; beyond, the wallet pays its own gas.
 */
async function chargeRelay(kv: Kv, cfg: Config, userId: string): Promise<void> {
  if (!getChainClients()?.relayer) throw new ApiError(429, 'Relaying is not available', [FALLBACK]);
  for (const [name, subject] of [
    ['relay', userId],
    ['relayBudget', EVERYONE],
  ] as const) {
    try {
      await consume(kv, cfg, name, subject);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 429) throw error;
      const which = name === 'relay' ? "this account's relays for today" : "the relayer's budget for this hour";
      throw new ApiError(429, 'Too many requests', [`${which} is used up; ${FALLBACK}`], error.headers);
    }
  }
}

/**
 * The one conditional write that claims the relay: a first row, or a FAILED one taken again; a concurrent one loses.
 */
async function recordRelay(db: Db, mission: Mission, signature: Hex, validBefore: bigint, now: Date): Promise<void> {
  const values = {
    signature: signature.toLowerCase(),
    validBefore,
    status: 'RELAYING' as const,
    txHash: null,
    fromBlock: null,
    attempts: 0,
    lastError: null,
    lockedUntil: null,
    updatedAt: now,
  };
  const [claimed] = await db
    .insert(missionFundings)
    .values({ missionId: mission.id, clientId: mission.clientId, createdAt: now, ...values })
    .onConflictDoUpdate({
      target: missionFundings.missionId,
      set: values,
      setWhere: eq(missionFundings.status, 'FAILED'),
    })
    .returning({ missionId: missionFundings.missionId });
  if (!claimed) throw new ApiError(409, 'A funding is already being relayed for this mission');
}

/** The fallback: the poster opened the task itself; checked as a post's task is, then the mission opens now. */
async function fundFromWallet(
  db: Db,
  cfg: Config,
  found: { mission: Mission; wallet: string; relay: MissionFunding | null },
  taskId: number,
  now: Date,
) {
  const { mission, wallet, relay } = found;
  if (relay?.status === 'RELAYING') throw new ApiError(409, 'A funding is already being relayed for this mission');
  await verifyFunding(
    cfg,
    wallet,
    taskId,
    BigInt(mission.reward),
    mission.deadline,
    mission.assignmentMode === 'BOUNTY',
  );
  try {
    await markFunded(db, mission.id, BigInt(taskId), null, now);
  } catch (error) {
    if (uniqueViolation(error) === 'missions_on_chain_task_idx')
      throw refuse('onChainTaskId: already linked to another mission');
    throw error;
  }
  // A relay that won the race opened the mission with its own task: this one funds nothing here.
  const [after] = await db
    .select({ status: missions.status, onChainTaskId: missions.onChainTaskId })
    .from(missions)
    .where(eq(missions.id, mission.id));
  if (after?.status === 'AWAITING_FUNDING') throw refuse('mission: no longer awaiting funding');
  if (after?.onChainTaskId !== taskId) throw new ApiError(409, 'The mission was funded by another task meanwhile');
}
