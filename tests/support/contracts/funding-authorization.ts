// The one signature that funds an escrow v4 task (docs/escrow.md#funding-with-one-signature): the
// EIP-712 typed data of a USDC EIP-3009 ReceiveWithAuthorization from the client to the escrow for
// exactly the reward, whose nonce is derived from the task's terms. Built here from the documented
// formula, not read from the contract, so the tests pin the formula the app and SDK compute.
import { encodeAbiParameters, type Hex, keccak256, parseSignature, toHex } from 'viem';

export interface FundingTerms {
  client: Hex;
  reward: bigint;
  ref: Hex;
  expiresAt: bigint;
}

export interface FundingWindow {
  validAfter: bigint;
  validBefore: bigint;
}

export const TASK_FUNDING_TYPEHASH = keccak256(
  toHex('TaskFunding(uint256 chainId,address escrow,address client,uint256 reward,bytes32 ref,uint64 expiresAt)'),
);

/** nonce = keccak256(abi.encode(TASK_FUNDING_TYPEHASH, chainId, escrow, client, reward, ref, expiresAt)). */
export function fundingNonce(chainId: number, escrow: Hex, terms: FundingTerms): Hex {
  return keccak256(
    encodeAbiParameters(
      [
        { type: 'bytes32' },
        { type: 'uint256' },
        { type: 'address' },
        { type: 'address' },
        { type: 'uint256' },
        { type: 'bytes32' },
        { type: 'uint64' },
      ],
      [TASK_FUNDING_TYPEHASH, BigInt(chainId), escrow, terms.client, terms.reward, terms.ref, terms.expiresAt],
    ),
  );
}

/** USDC v2.2's EIP-712 domain: its name() (here "Mock USDC"), version "2", the chain and the token. */
export const usdcDomain = (name: string, chainId: number, token: Hex) =>
  ({ name, version: '2', chainId, verifyingContract: token }) as const;

export const RECEIVE_WITH_AUTHORIZATION_TYPES = {
  ReceiveWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const;

/** The typed data the client signs: `from` is the task's client (an EOA, or a contract wallet its owner signs for). */
export function fundingTypedData(
  chain: { chainId: number; token: Hex; tokenName: string; escrow: Hex },
  terms: FundingTerms,
  window: FundingWindow,
  nonce?: Hex,
) {
  return {
    domain: usdcDomain(chain.tokenName, chain.chainId, chain.token),
    types: RECEIVE_WITH_AUTHORIZATION_TYPES,
    primaryType: 'ReceiveWithAuthorization',
    message: {
      from: terms.client,
      to: chain.escrow,
      value: terms.reward,
      validAfter: window.validAfter,
      validBefore: window.validBefore,
      nonce: nonce ?? fundingNonce(chain.chainId, chain.escrow, terms),
    },
  } as const;
}

/** The contract's call arguments for createTaskWithAuthorization, in its order. */
export function fundingArgs(terms: FundingTerms, window: FundingWindow, nonce: Hex, signature: Hex) {
  return [
    terms.client,
    terms.reward,
    terms.ref,
    terms.expiresAt,
    window.validAfter,
    window.validBefore,
    nonce,
    signature,
  ] as const;
}

/** A signature split for the `v, r, s` overloads. */
export function vrs(signature: Hex): [number, Hex, Hex] {
  const { v, r, s, yParity } = parseSignature(signature);
  return [Number(v ?? BigInt(27 + yParity)), r, s];
}
