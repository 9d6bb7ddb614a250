// The one signature that funds an escrow v4 task (docs/escrow.md#funding-with-one-signature): the
// EIP-712 typed data of a USDC EIP-3009 ReceiveWithAuthorization from the client to the escrow for
// exactly the reward, whose nonce the escrow derives from the task's terms; the call that relays
// it; and the token's own word on whether the authorization was used.
import 'server-only';
import {
  encodeFunctionData,
  type Hex,
  parseAbi,
  parseEventLogs,
  type PublicClient,
  type TransactionReceipt,
} from 'viem';
import { taskEscrowV4Artifact } from './artifacts';

const escrowAbi = taskEscrowV4Artifact.abi;
// What USDC (FiatToken v2.2) and MockUSDC both have: the domain's name and EIP-3009's state.
const tokenAbi = parseAbi([
  'function name() view returns (string)',
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
]);

export interface FundingTerms {
  client: Hex;
  reward: bigint;
  ref: Hex;
  expiresAt: bigint;
}

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

/** The typed data the client signs; USDC v2.2's domain is its name(), version "2", the chain and the token. */
export function fundingTypedData(
  chain: { chainId: number; token: Hex; tokenName: string; escrow: Hex },
  terms: FundingTerms,
  validBefore: bigint,
  nonce: Hex,
) {
  return {
    domain: { name: chain.tokenName, version: '2', chainId: chain.chainId, verifyingContract: chain.token },
    types: RECEIVE_WITH_AUTHORIZATION_TYPES,
    primaryType: 'ReceiveWithAuthorization' as const,
    message: { from: terms.client, to: chain.escrow, value: terms.reward, validAfter: 0n, validBefore, nonce },
  };
}

export type FundingTypedData = ReturnType<typeof fundingTypedData>;

/** The escrow's fundingNonce(client, reward, ref, expiresAt): read, so the app never disagrees with the contract. */
export const readFundingNonce = (publicClient: PublicClient, escrow: Hex, terms: FundingTerms): Promise<Hex> =>
  publicClient.readContract({
    address: escrow,
    abi: escrowAbi,
    functionName: 'fundingNonce',
    args: [terms.client, terms.reward, terms.ref, terms.expiresAt],
  });

const names = new Map<string, string>();

/** The token's name(), the EIP-712 domain's name; it never changes, so it is read once. */
export async function readTokenName(publicClient: PublicClient, token: Hex): Promise<string> {
  const known = names.get(token);
  if (known !== undefined) return known;
  const name = await publicClient.readContract({ address: token, abi: tokenAbi, functionName: 'name' });
  names.set(token, name);
  return name;
}

/** Whether the token already used (or the client cancelled) this authorization nonce. */
export const authorizationUsed = (publicClient: PublicClient, token: Hex, client: Hex, nonce: Hex): Promise<boolean> =>
  publicClient.readContract({
    address: token,
    abi: tokenAbi,
    functionName: 'authorizationState',
    args: [client, nonce],
  });

export const createTaskWithAuthorizationCall = (
  terms: FundingTerms,
  validBefore: bigint,
  nonce: Hex,
  signature: Hex,
): Hex =>
  encodeFunctionData({
    abi: escrowAbi,
    functionName: 'createTaskWithAuthorization',
    args: [terms.client, terms.reward, terms.ref, terms.expiresAt, 0n, validBefore, nonce, signature],
  });

/** The task a mined transaction opened for `ref`, from its TaskCreated event. */
export function createdTaskOf(receipt: Pick<TransactionReceipt, 'logs'>, ref: Hex): bigint | undefined {
  const events = parseEventLogs({ abi: escrowAbi, eventName: 'TaskCreated', logs: receipt.logs });
  return events.find((e) => e.args.ref.toLowerCase() === ref.toLowerCase())?.args.taskId;
}

/** The task the client opened for `ref` since `fromBlock`, by its TaskCreated event (whoever sent it). */
export async function findCreatedTask(
  publicClient: PublicClient,
  escrow: Hex,
  client: Hex,
  ref: Hex,
  fromBlock: bigint,
): Promise<bigint | undefined> {
  const logs = await publicClient.getContractEvents({
    address: escrow,
    abi: escrowAbi,
    eventName: 'TaskCreated',
    args: { client },
    fromBlock,
    toBlock: 'latest',
  });
  return createdTaskOf({ logs } as Pick<TransactionReceipt, 'logs'>, ref);
}
