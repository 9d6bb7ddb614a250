// The signatures of escrow v5's funding mandate (docs/escrow.md#the-funding-mandate): the EIP-712
// FundingMandate and FundingMandateRevocation in the domain { name "TaskEscrow", version "5",
// chainId, escrow }, and USDC's EIP-2612 permit letting the escrow pull the client's tokens. Built
// here from the documented types, not read from the contract, so the tests pin what the app signs.
import type { Hex } from 'viem';
import { usdcDomain } from './funding-authorization';

export interface FundingMandate {
  client: Hex;
  funder: Hex;
  perMission: bigint;
  perDay: bigint;
  validUntil: bigint;
  nonce: bigint;
}

export const escrowDomain = (chainId: number, escrow: Hex) =>
  ({ name: 'TaskEscrow', version: '5', chainId, verifyingContract: escrow }) as const;

export const FUNDING_MANDATE_TYPES = {
  FundingMandate: [
    { name: 'client', type: 'address' },
    { name: 'funder', type: 'address' },
    { name: 'perMission', type: 'uint256' },
    { name: 'perDay', type: 'uint256' },
    { name: 'validUntil', type: 'uint64' },
    { name: 'nonce', type: 'uint256' },
  ],
} as const;

export const FUNDING_MANDATE_REVOCATION_TYPES = {
  FundingMandateRevocation: [
    { name: 'client', type: 'address' },
    { name: 'nonce', type: 'uint256' },
  ],
} as const;

export const PERMIT_TYPES = {
  Permit: [
    { name: 'owner', type: 'address' },
    { name: 'spender', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
  ],
} as const;

export function mandateTypedData(chainId: number, escrow: Hex, mandate: FundingMandate) {
  return {
    domain: escrowDomain(chainId, escrow),
    types: FUNDING_MANDATE_TYPES,
    primaryType: 'FundingMandate',
    message: mandate,
  } as const;
}

export function revocationTypedData(chainId: number, escrow: Hex, client: Hex, nonce: bigint) {
  return {
    domain: escrowDomain(chainId, escrow),
    types: FUNDING_MANDATE_REVOCATION_TYPES,
    primaryType: 'FundingMandateRevocation',
    message: { client, nonce },
  } as const;
}

export function permitTypedData(
  token: { chainId: number; address: Hex; name: string },
  permit: { owner: Hex; spender: Hex; value: bigint; nonce: bigint; deadline: bigint },
) {
  return {
    domain: usdcDomain(token.name, token.chainId, token.address),
    types: PERMIT_TYPES,
    primaryType: 'Permit',
    message: permit,
  } as const;
}

/** The struct argument of setFundingMandate and setFundingMandateWithPermit. */
export const mandateArg = (m: FundingMandate) =>
  ({
    client: m.client,
    funder: m.funder,
    perMission: m.perMission,
    perDay: m.perDay,
    validUntil: m.validUntil,
    nonce: m.nonce,
  }) as const;
