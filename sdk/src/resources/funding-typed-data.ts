// What the SDK signs to fund a mission (docs/api.md#post-and-pay), checked against what the caller
// knows before the key touches it: a server (or anything between) must not get a signature moving
// other money, to another address, on another chain or token, or valid for longer than the lapse.
import type { Address } from 'viem';
import { TaskmarketError } from '../errors.js';
import type { Answer, PublicConfig } from '../types.js';

type MissionFunding = Answer<'getMissionsByIdFunding'>;

// EIP-3009's ReceiveWithAuthorization, as USDC declares it: signed with these types, never the server's.
const RECEIVE_WITH_AUTHORIZATION = [
  { name: 'from', type: 'address' },
  { name: 'to', type: 'address' },
  { name: 'value', type: 'uint256' },
  { name: 'validAfter', type: 'uint256' },
  { name: 'validBefore', type: 'uint256' },
  { name: 'nonce', type: 'bytes32' },
] as const;

// Clocks differ a little; an unfunded mission lapses 24 h after it is posted (docs/api.md#post-and-pay).
const CLOCK_SKEW_SECONDS = 300;
const LONGEST_VALIDITY_SECONDS = 24 * 3600 + 3600;

export interface FundingExpectations {
  signer: Address;
  config: PublicConfig;
  /** The mission's reward in token base units. */
  reward: bigint;
  nowSeconds?: number;
}

const same = (a: unknown, b: string | null | undefined) =>
  typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();
const uint = (value: unknown): bigint | undefined =>
  typeof value === 'string' && /^[0-9]{1,78}$/.test(value) ? BigInt(value) : undefined;

/** The typed data ready for viem's signTypedData, or a TaskmarketError naming every field that is off. */
export function signableFunding(funding: MissionFunding, expected: FundingExpectations) {
  const { domain, types, primaryType, message } = funding.typedData;
  const { config } = expected;
  const now = expected.nowSeconds ?? Math.floor(Date.now() / 1000);
  const problems: string[] = [];
  if (primaryType !== 'ReceiveWithAuthorization') problems.push('primaryType: not ReceiveWithAuthorization');
  const fields = types.ReceiveWithAuthorization;
  if (
    !fields ||
    fields.length !== RECEIVE_WITH_AUTHORIZATION.length ||
    fields.some(
      (f, i) => f.name !== RECEIVE_WITH_AUTHORIZATION[i]!.name || f.type !== RECEIVE_WITH_AUTHORIZATION[i]!.type,
    )
  )
    problems.push("types: not EIP-3009's ReceiveWithAuthorization");
  if (domain.chainId !== config.chainId)
    problems.push(`domain.chainId: ${domain.chainId}, the server's chain is ${config.chainId}`);
  if (!same(domain.verifyingContract, config.contracts.rewardToken?.address))
    problems.push('domain.verifyingContract: not the reward token of /api/public/config');
  if (!same(message.from, expected.signer)) problems.push(`message.from: not this account (${expected.signer})`);
  if (!same(message.to, config.contracts.escrow)) problems.push('message.to: not the escrow of /api/public/config');
  const value = uint(message.value);
  if (value !== expected.reward)
    problems.push(`message.value: ${message.value}, the mission's reward is ${expected.reward}`);
  const validAfter = uint(message.validAfter);
  if (validAfter === undefined || validAfter > BigInt(now + CLOCK_SKEW_SECONDS))
    problems.push('message.validAfter: in the future');
  const validBefore = uint(message.validBefore);
  if (validBefore === undefined || validBefore > BigInt(now + LONGEST_VALIDITY_SECONDS))
    problems.push('message.validBefore: further away than an unfunded mission lives (24 h)');
  if (problems.length > 0)
    throw new TaskmarketError({
      status: 0,
      error: 'Refused to sign: the funding authorization is not the one this mission needs',
      details: problems,
    });
  return {
    domain,
    types: { ReceiveWithAuthorization: RECEIVE_WITH_AUTHORIZATION },
    primaryType: 'ReceiveWithAuthorization' as const,
    message: { ...message, value: value!, validAfter: validAfter!, validBefore: validBefore! },
  };
}
