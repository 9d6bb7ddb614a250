// fundAndCreateMission and missions.fund (docs/api.md#post-and-pay): by default the mission is posted
// unfunded and funded with one EIP-3009 signature the server relays (no ETH needed); with
// `fundFrom: 'wallet'`, the reward is escrowed from the client's own wallet — approve +
// createTask(reward, ref, expiresAt) — and the mission posted with the new task id.
import { keccak256, toHex, type Address } from 'viem';
import type { Signer } from '../account.js';
import type { Api } from '../api.js';
import { chainAccess, fundTask } from '../chain.js';
import { TaskmarketError } from '../errors.js';
import { newIdempotencyKey } from '../http.js';
import type { Answer, CreateMissionInput, Mission, PublicConfig } from '../types.js';
import { segment } from '../api.js';
import { signableFunding } from './funding-typed-data.js';
import type { MissionsResource, WithFiles } from './missions.js';

export type FundedMissionInput = Omit<CreateMissionInput, 'onChainTaskId'>;
export type MissionFunding = Answer<'getMissionsByIdFunding'>;

export interface FundOptions {
  /** Wait until the relayed task is mined and the mission OPEN (default true). */
  wait?: boolean;
  /** How long to wait, in milliseconds (default 120 000). */
  timeoutMs?: number;
  /** The reward the signature may move, in base units (default: the mission's, read first). */
  reward?: bigint;
}

/**
 * missions.fund(id): read the funding's typed data, sign it with the account, hand it back; by default wait until OPEN.
 */
export function fundMissionOf(
  api: Api,
  missions: MissionsResource,
  signer: Signer | undefined,
  config: () => Promise<PublicConfig>,
) {
  return async (id: string, options: FundOptions = {}): Promise<MissionFunding> => {
    if (!signer)
      throw new TaskmarketError({ status: 0, error: 'Funding a mission needs an account: createClient({ account })' });
    let state = await missions.funding(id);
    if (state.status === 'funded') return state;
    if (state.status !== 'relaying') {
      // Checked against the public config, this account and the mission's reward before signing.
      const reward = options.reward ?? BigInt((await missions.get(id)).reward);
      const data = signableFunding(state, { signer: signer.address, config: await config(), reward }) as never;
      const wallet = signer.walletClient;
      const signature = signer.localAccount?.signTypedData
        ? await signer.localAccount.signTypedData(data)
        : await wallet!.signTypedData({ account: wallet!.account, ...(data as object) } as never);
      state = await api.json<MissionFunding>({
        auth: 'required',
        method: 'POST',
        path: `/api/missions/${segment(id)}/funding`,
        body: { signature },
      });
    }
    const until = Date.now() + (options.timeoutMs ?? 120_000);
    while (options.wait !== false && state.status === 'relaying' && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      state = await missions.funding(id);
    }
    if (state.status === 'failed')
      throw new TaskmarketError({
        status: 0,
        error: `Funding failed: ${state.reason ?? 'the relayed transaction failed'}`,
      });
    return state;
  };
}

// Beyond the server's minimum (deadline + expiresAfterDeadlineSeconds): the chain's clock and
// ours may differ a little, and a task that expires too early is refused with a 400.
const EXPIRY_MARGIN_SECONDS = 3600;

export function fundAndCreateMissionOf(
  api: Api,
  missions: MissionsResource,
  signer: Signer | undefined,
  rpcUrl: string | undefined,
  config: () => Promise<PublicConfig>,
) {
  const fund = fundMissionOf(api, missions, signer, config);
  return async (
    input: FundedMissionInput,
    options: WithFiles & FundOptions & { fundFrom?: 'signature' | 'wallet' } = {},
  ): Promise<Mission> => {
    if (!signer)
      throw new TaskmarketError({ status: 0, error: 'Funding a mission needs an account: createClient({ account })' });
    const { chainId, contracts, missions: rules } = await config();
    if (!contracts.escrow || !contracts.rewardToken)
      throw new TaskmarketError({ status: 0, error: 'The server has no escrow configured: use missions.create' });
    // What can be checked before paying is checked here: the server would refuse it after the
    // reward is escrowed, and the escrow gives it back only at expiresAt.
    const problems: string[] = [];
    if (!/^[0-9]{1,78}$/.test(input.reward) || BigInt(input.reward) === 0n)
      problems.push('reward: must be a positive string of decimal digits (base units)');
    const deadline = Date.parse(input.deadline);
    if (Number.isNaN(deadline)) problems.push('deadline: must be an ISO 8601 date-time');
    else if (deadline <= Date.now()) problems.push('deadline: must be in the future');
    if (problems.length > 0)
      throw new TaskmarketError({ status: 0, error: 'Not funded: the mission would be refused', details: problems });
    if (options.fundFrom !== 'wallet') {
      // docs/api.md#post-and-pay: posted AWAITING_FUNDING, then one signature; the server pays the gas.
      const posted = await missions.create(input, { files: options.files });
      if (posted.status !== 'AWAITING_FUNDING') return posted;
      await fund(posted.id, { ...options, reward: BigInt(input.reward) });
      return missions.get(posted.id);
    }
    await api.session.currentToken(); // signed in before paying: a refused sign-in costs nothing
    // One key for the whole call: it names the task on-chain (ref) and makes the create idempotent.
    const idempotencyKey = newIdempotencyKey();
    const onChainTaskId = await fundTask(chainAccess(signer, rpcUrl, chainId), {
      escrow: contracts.escrow as Address,
      token: contracts.rewardToken.address as Address,
      reward: BigInt(input.reward),
      ref: keccak256(toHex(idempotencyKey)),
      // A bounty's task outlives its judging, contest and dispute windows instead (docs/api.md#bounties).
      expiresAt: BigInt(
        Math.ceil(deadline / 1000) +
          (input.assignment === 'BOUNTY'
            ? rules.bountyExpiresAfterDeadlineSeconds
            : rules.expiresAfterDeadlineSeconds) +
          EXPIRY_MARGIN_SECONDS,
      ),
    });
    try {
      return await missions.create({ ...input, onChainTaskId }, { ...options, idempotencyKey });
    } catch (error) {
      if (!(error instanceof TaskmarketError)) throw error;
      // The reward is escrowed: say which task, so a retry reuses it instead of paying again.
      throw new TaskmarketError({
        status: error.status,
        error: error.error,
        details: error.details,
        onChainTaskId,
        cause: error,
      });
    }
  };
}
