// GET and POST /api/missions/{id}/funding (docs/api.md#post-and-pay): the poster reads the typed data
// of the one authorization that funds the mission, and hands back its signature — checked off-chain
// first (the poster's wallet, these exact terms, unexpired, unused), then recorded as a relay and
// sent — or the id of a task it opened from its own wallet (the fallback), checked like a post's.
import 'server-only';
import { eq } from 'drizzle-orm';
import type { Hex, PublicClient } from 'viem';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { type MissionFunding, missionFundings, missions, users } from '../db/schema';
import { getChainClients } from '../chain/clients';
import { readTask, readTaskRef } from '../chain/escrow';
import {
  authorizationUsed,
  type FundingTerms,
  fundingNonce,
  fundingTypedData,
  readTokenBalance,
  readTokenName,
  simulateFunding,
} from '../chain/funding-authorization';
import { readChain } from '../chain/rpc-errors';
import { uniqueViolation } from '../db/unique-violation';
import { ApiError, DependencyDown } from '../errors';
import { chargeOf, consume, EVERYONE, giveBack } from '../limits/rate-limit';
import type { Kv } from '../kv';
import { verifyFunding } from './verify';
import { BUDGET_SPENT, markFunded, processFunding, termsOf } from './process';
import type { FundingView, FundMissionInput } from './schemas';
import { fundByOf } from './terms';
import type { Mission } from '../missions/queries';
import { canSeeMission, type Viewer } from '../missions/visibility';

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
  // The nonce is computed from the fixed terms, never read (docs/api.md#post-and-pay); the token's name is
  // read once per process: a read of the funding costs the chain nothing.
  const nonce = fundingNonce(cfg.chainId, escrow, terms);
  const tokenName = await readChain(() => readTokenName(clients.publicClient, token));
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
  const { clients, escrow, token, terms, nonce, validBefore, typedData } = await authorizationOf(
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
  const relayer = clients.relayer?.account?.address;
  if (!relayer) throw new ApiError(429, 'Relaying is not available', [FALLBACK]);
  await assertRelayable(clients.publicClient, relayer, token, { escrow, terms, validBefore, nonce, signature });
  await chargeRelay(kv, cfg, viewer.id);
  try {
    await recordRelay(db, found.mission, signature, validBefore, now);
  } catch (error) {
    await giveBack(kv, cfg, 'relay', viewer.id);
    throw error;
  }
  const pass = await processFunding(db, cfg, id, Math.min(cfg.chain.mintWaitMs, 5_000), now);
  // Spent by others between the check and the send: nothing was sent and the poster's unit is back.
  if (pass.budgetSpent) throw new ApiError(429, 'Too many requests', [BUDGET_SPENT], pass.budgetSpent);
  return { status: 202, body: await getFunding(db, kv, cfg, id, viewer) };
}

/**
 * docs/api.md#post-and-pay: before anything is charged, the relay must be able to succeed — the signer
 * holds the reward, and the exact call, from the relayer's account, runs without reverting (an eth_call:
 * nothing sent). A wallet holding nothing is refused here, so it never spends the relayer's budget.
 */
async function assertRelayable(
  publicClient: PublicClient,
  relayer: Hex,
  token: Hex,
  call: { escrow: Hex; terms: FundingTerms; validBefore: bigint; nonce: Hex; signature: Hex },
): Promise<void> {
  const { escrow, terms, validBefore, nonce, signature } = call;
  const balance = await readChain(() => readTokenBalance(publicClient, token, terms.client));
  if (balance < terms.reward)
    throw refuse(
      `balance: the wallet ${terms.client} holds ${balance} of the ${terms.reward} reward, short by ` +
        `${terms.reward - balance} (base units)`,
    );
  const reverted = await readChain(() =>
    simulateFunding(publicClient, relayer, escrow, terms, validBefore, nonce, signature),
  );
  if (reverted !== undefined)
    throw refuse(`signature: the relayed createTaskWithAuthorization would revert: ${reverted}`);
}

/**
 * docs/api.md#post-and-pay: the poster's ten a day (given back when nothing is sent), and beyond
 * everyone's hourly budget of broadcasts — only looked at here, spent at the send; beyond either,
 * the wallet pays its own gas.
 */
async function chargeRelay(kv: Kv, cfg: Config, userId: string): Promise<void> {
  const budget = chargeOf(cfg, 'relayBudget', EVERYONE);
  if (Number((await kv.get(budget.key)) ?? 0) >= budget.max)
    throw new ApiError(429, 'Too many requests', [BUDGET_SPENT], { 'Retry-After': '60' });
  try {
    await consume(kv, cfg, 'relay', userId);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 429) throw error;
    throw new ApiError(
      429,
      'Too many requests',
      [`this account's relays for today are used up; ${FALLBACK}`],
      error.headers,
    );
  }
}

/**
 * The one conditional write that claims the relay: a first row, or a FAILED one taken again; a concurrent one loses.
 */
async function recordRelay(db: Db, mission: Mission, signature: Hex, validBefore: bigint, now: Date): Promise<void> {
  const values = {
    // A funding at once that failed (docs/api.md#standing-allowance) is taken again by the poster's signature.
    via: 'AUTHORIZATION' as const,
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

/**
 * docs/api.md#post-and-pay: the fallback's task is the one the GET described — its `ref` (kept only in
 * its TaskCreated event) and its `expiresAt` (the escrow's `tasks(id)`) are the mission's, so a task
 * opened for something else cannot be linked here; verifyFunding checked the amount, client and state.
 */
async function verifyFundingTerms(cfg: Config, mission: Mission, wallet: string, taskId: number) {
  const clients = getChainClients();
  if (!clients || !cfg.chain.escrow) throw new DependencyDown('chain', new Error('chain not configured'));
  // The escrow verifyFunding read the task on.
  const escrow = cfg.chain.escrow;
  const terms = termsOf(mission, wallet);
  const [task, ref] = await readChain(() =>
    Promise.all([
      readTask(clients.publicClient, escrow, BigInt(taskId)),
      readTaskRef(clients.publicClient, escrow, BigInt(taskId)),
    ]),
  );
  if (ref !== terms.ref.toLowerCase())
    throw refuse(`onChainTaskId: the task was not created with this mission's ref ${terms.ref}`);
  if (task.expiresAt !== terms.expiresAt)
    throw refuse(`onChainTaskId: the task expires at ${task.expiresAt}, not at this mission's ${terms.expiresAt}`);
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
  await verifyFundingTerms(cfg, mission, wallet, taskId);
  try {
    await markFunded(db, cfg, mission.id, BigInt(taskId), null, now);
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
