// A standing allowance on escrow v5 (docs/api.md#standing-allowance, docs/escrow.md#the-funding-mandate):
// the two typed data a person signs once — a USDC EIP-2612 Permit letting the escrow pull at most a
// total, and an EIP-712 FundingMandate naming our relayer as funder — the revocation's typed data, the
// calls that relay them and createTaskFor, and the chain's own word on the mandate in force, the UTC
// day's use, the permit's remaining allowance and the wallet's balance.
import 'server-only';
import { encodeFunctionData, type Hex, parseAbi, type PublicClient } from 'viem';

// The escrow v5 surface this module uses, exactly as /work/shared/COMMON.md fixes it.
// Parts of the signatures below, so that each line stays short; as literals, parseAbi still types them.
const MANDATE_PARTIES = 'address client; address funder;';
const MANDATE_FIELDS = `${MANDATE_PARTIES} uint256 perMission; uint256 perDay; uint64 validUntil; uint256 nonce;`;
const MANDATE_TERMS = 'uint256 perMission, uint256 perDay, uint64 validUntil, uint256 nonce';
const PERMIT_PARAMS = 'uint256 permitValue, uint256 permitDeadline, bytes permitSignature';
export const mandateEscrowAbi = parseAbi([
  `struct FundingMandate { ${MANDATE_FIELDS} }`,
  'function setFundingMandate(FundingMandate m, bytes signature)',
  `function setFundingMandateWithPermit(FundingMandate m, bytes signature, ${PERMIT_PARAMS})`,
  'function revokeFundingMandate()',
  'function revokeFundingMandateBySig(address client, uint256 nonce, bytes signature)',
  'function createTaskFor(address client, uint256 reward, bytes32 ref, uint64 expiresAt) returns (uint256 taskId)',
  `function fundingMandate(address client) view returns (address funder, ${MANDATE_TERMS})`,
  'function mandateNonce(address client) view returns (uint256)',
  'function fundedOn(address client, uint256 day) view returns (uint256)',
  'event TaskFundedByMandate(uint256 indexed taskId, address indexed client, address indexed funder, uint256 reward)',
]);

// FiatToken v2.2 (and MockUSDC): EIP-2612 with the bytes-signature permit for contract wallets.
const permitTokenAbi = parseAbi([
  'function name() view returns (string)',
  'function version() view returns (string)',
  'function nonces(address owner) view returns (uint256)',
  'function allowance(address owner, address spender) view returns (uint256)',
  'function balanceOf(address account) view returns (uint256)',
]);

/** The escrow's EIP-712 domain for mandates and revocations. */
export const mandateDomain = (chainId: number, escrow: Hex) => ({
  name: 'TaskEscrow',
  version: '5',
  chainId,
  verifyingContract: escrow,
});

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

export const REVOCATION_TYPES = {
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

export interface FundingMandate {
  client: Hex;
  funder: Hex;
  perMission: bigint;
  perDay: bigint;
  validUntil: bigint;
  nonce: bigint;
}

export function mandateTypedData(chainId: number, escrow: Hex, mandate: FundingMandate) {
  return {
    domain: mandateDomain(chainId, escrow),
    types: FUNDING_MANDATE_TYPES,
    primaryType: 'FundingMandate' as const,
    message: mandate,
  };
}

export function revocationTypedData(chainId: number, escrow: Hex, client: Hex, nonce: bigint) {
  return {
    domain: mandateDomain(chainId, escrow),
    types: REVOCATION_TYPES,
    primaryType: 'FundingMandateRevocation' as const,
    message: { client, nonce },
  };
}

export interface PermitTerms {
  owner: Hex;
  spender: Hex;
  value: bigint;
  nonce: bigint;
  deadline: bigint;
}

/** The USDC permit's typed data: the token's own name() and version() on its chain. */
export function permitTypedData(
  token: { chainId: number; address: Hex; name: string; version: string },
  permit: PermitTerms,
) {
  return {
    domain: { name: token.name, version: token.version, chainId: token.chainId, verifyingContract: token.address },
    types: PERMIT_TYPES,
    primaryType: 'Permit' as const,
    message: permit,
  };
}

/** What the token says of a permit's owner now: its domain, the owner's next nonce. */
export async function readPermitToken(publicClient: PublicClient, token: Hex, owner: Hex) {
  const [name, version, nonce] = await Promise.all([
    publicClient.readContract({ address: token, abi: permitTokenAbi, functionName: 'name' }),
    publicClient.readContract({ address: token, abi: permitTokenAbi, functionName: 'version' }),
    publicClient.readContract({ address: token, abi: permitTokenAbi, functionName: 'nonces', args: [owner] }),
  ]);
  return { name, version, nonce };
}

/** The mandate in force on the chain (funder zero: none), and the next nonce a new one must carry. */
export async function readMandate(
  publicClient: PublicClient,
  escrow: Hex,
  client: Hex,
): Promise<{ mandate: FundingMandate | null; nonce: bigint }> {
  const [[funder, perMission, perDay, validUntil, nonce], next] = await Promise.all([
    publicClient.readContract({
      address: escrow,
      abi: mandateEscrowAbi,
      functionName: 'fundingMandate',
      args: [client],
    }),
    publicClient.readContract({ address: escrow, abi: mandateEscrowAbi, functionName: 'mandateNonce', args: [client] }),
  ]);
  const none = /^0x0{40}$/i.test(funder);
  return {
    mandate: none ? null : { client, funder: funder.toLowerCase() as Hex, perMission, perDay, validUntil, nonce },
    nonce: next,
  };
}

/** The UTC day the chain is on now (its latest block's timestamp / 86400), as createTaskFor will count it. */
export async function chainDay(publicClient: PublicClient): Promise<bigint> {
  const block = await publicClient.getBlock({ blockTag: 'latest' });
  return block.timestamp / 86400n;
}

/** What the escrow funded for the client on that UTC day. */
export const readFundedOn = (publicClient: PublicClient, escrow: Hex, client: Hex, day: bigint): Promise<bigint> =>
  publicClient.readContract({ address: escrow, abi: mandateEscrowAbi, functionName: 'fundedOn', args: [client, day] });

/** What the permit left the escrow to pull from the client, and what the client holds. */
export async function readAllowanceAndBalance(publicClient: PublicClient, token: Hex, client: Hex, escrow: Hex) {
  const [allowance, balance] = await Promise.all([
    publicClient.readContract({
      address: token,
      abi: permitTokenAbi,
      functionName: 'allowance',
      args: [client, escrow],
    }),
    publicClient.readContract({ address: token, abi: permitTokenAbi, functionName: 'balanceOf', args: [client] }),
  ]);
  return { allowance, balance };
}

export const setMandateWithPermitCall = (
  mandate: FundingMandate,
  signature: Hex,
  permitValue: bigint,
  permitDeadline: bigint,
  permitSignature: Hex,
): Hex =>
  encodeFunctionData({
    abi: mandateEscrowAbi,
    functionName: 'setFundingMandateWithPermit',
    args: [mandate, signature, permitValue, permitDeadline, permitSignature],
  });

export const revokeBySigCall = (client: Hex, nonce: bigint, signature: Hex): Hex =>
  encodeFunctionData({
    abi: mandateEscrowAbi,
    functionName: 'revokeFundingMandateBySig',
    args: [client, nonce, signature],
  });

export const createTaskForCall = (client: Hex, reward: bigint, ref: Hex, expiresAt: bigint): Hex =>
  encodeFunctionData({ abi: mandateEscrowAbi, functionName: 'createTaskFor', args: [client, reward, ref, expiresAt] });
