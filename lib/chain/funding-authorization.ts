// The one signature that funds an escrow v4 task (docs/escrow.md#funding-with-one-signature): the
// EIP-712 typed data of a USDC EIP-3009 ReceiveWithAuthorization from the client to the escrow for
// exactly the reward, whose nonce the escrow derives from the task's terms; the call that relays
// it; and the token's own word on whether the authorization was used.
import 'server-only';
import {
  BaseError,
  ContractFunctionRevertedError,
  encodeAbiParameters,
  encodeFunctionData,
  type Hex,
  keccak256,
  parseAbi,
  parseEventLogs,
  type PublicClient,
  type TransactionReceipt,
  toBytes,
} from 'viem';
import { taskEscrowV4Artifact } from './artifacts';
import { readTask, TASK_STATE } from './escrow';
import { isExecutionRevert } from './rpc-errors';

const escrowAbi = taskEscrowV4Artifact.abi;
// What USDC (FiatToken v2.2) and MockUSDC both have: the domain's name and EIP-3009's state.
const tokenAbi = parseAbi([
  'function name() view returns (string)',
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
  'function balanceOf(address account) view returns (uint256)',
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

const TASK_FUNDING_TYPEHASH = keccak256(
  toBytes('TaskFunding(uint256 chainId,address escrow,address client,uint256 reward,bytes32 ref,uint64 expiresAt)'),
);

/**
 * The escrow's fundingNonce(client, reward, ref, expiresAt), computed here as TaskEscrowV4 does — a
 * pure function of the chain, the escrow and the task's fixed terms, so reading the funding costs no
 * chain call (docs/api.md#post-and-pay); tests/integration/mission-funding.test.ts compares it with the contract's.
 */
export const fundingNonce = (chainId: number, escrow: Hex, terms: FundingTerms): Hex =>
  keccak256(
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

/** What the signer's wallet holds of the token now. */
export const readTokenBalance = (publicClient: PublicClient, token: Hex, holder: Hex): Promise<bigint> =>
  publicClient.readContract({ address: token, abi: tokenAbi, functionName: 'balanceOf', args: [holder] });

/**
 * The chain's answer to the exact relay (createTaskWithAuthorization with this signature) sent from
 * `from`, the relayer, now: undefined when it would succeed, else the revert's reason. Nothing is sent.
 */
export async function simulateFunding(
  publicClient: PublicClient,
  from: Hex,
  escrow: Hex,
  terms: FundingTerms,
  validBefore: bigint,
  nonce: Hex,
  signature: Hex,
): Promise<string | undefined> {
  try {
    await publicClient.simulateContract({
      account: from,
      address: escrow,
      abi: escrowAbi,
      functionName: 'createTaskWithAuthorization',
      args: [terms.client, terms.reward, terms.ref, terms.expiresAt, 0n, validBefore, nonce, signature],
    });
    return undefined;
  } catch (error) {
    const reverted =
      error instanceof BaseError ? error.walk((e) => e instanceof ContractFunctionRevertedError) : undefined;
    if (reverted instanceof ContractFunctionRevertedError) return reasonOf(reverted);
    if (isExecutionRevert(error)) return (error as BaseError).shortMessage;
    throw error;
  }
}

/** A revert's reason as a person reads it: the require's text, or the custom error with its arguments. */
function reasonOf(error: ContractFunctionRevertedError): string {
  if (error.reason) return error.reason;
  if (error.data) return `${error.data.errorName}(${(error.data.args ?? []).map(String).join(', ')})`;
  return error.signature ? `an error with the unknown selector ${error.signature}` : 'reverted without a reason';
}

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

// Public RPCs refuse eth_getLogs over large ranges (Base's: a few thousand blocks), so the search goes
// in chunks; without a recorded block it looks back this far — past a mission's 24 h on any chain with
// blocks of a second or more (docs/api.md#post-and-pay).
export const LOG_CHUNK_BLOCKS = 2_000n;
export const LOG_LOOKBACK_BLOCKS = 100_000n;

/**
 * A task opened for the mission's terms since `fromBlock` (the block recorded before the relay's send;
 * undefined: LOG_LOOKBACK_BLOCKS back), whoever sent it: a ref is no secret and any wallet's own
 * createTask may carry it, so a TaskCreated event alone proves nothing. Only a task that is open, the
 * client's, holds at least the reward and expires no earlier than the terms say is adopted
 * (docs/api.md#post-and-pay); none such: undefined.
 */
export async function findCreatedTask(
  publicClient: PublicClient,
  escrow: Hex,
  terms: FundingTerms,
  fromBlock: bigint | undefined,
): Promise<bigint | undefined> {
  const latest = await publicClient.getBlockNumber();
  const lookback = latest > LOG_LOOKBACK_BLOCKS ? latest - LOG_LOOKBACK_BLOCKS : 0n;
  for (let from = fromBlock ?? lookback; from <= latest; from += LOG_CHUNK_BLOCKS) {
    const to = from + LOG_CHUNK_BLOCKS - 1n < latest ? from + LOG_CHUNK_BLOCKS - 1n : latest;
    const logs = await publicClient.getContractEvents({
      address: escrow,
      abi: escrowAbi,
      eventName: 'TaskCreated',
      args: { client: terms.client },
      fromBlock: from,
      toBlock: to,
    });
    const events = parseEventLogs({ abi: escrowAbi, eventName: 'TaskCreated', logs });
    for (const event of events) {
      if (event.args.ref.toLowerCase() !== terms.ref.toLowerCase()) continue;
      if (await holdsTerms(publicClient, escrow, event.args.taskId, terms)) return event.args.taskId;
    }
  }
  return undefined;
}

/** Whether the task holds what the authorization would have put there, and nothing less. */
export async function holdsTerms(publicClient: PublicClient, escrow: Hex, taskId: bigint, terms: FundingTerms) {
  const task = await readTask(publicClient, escrow, taskId);
  return (
    task.state === TASK_STATE.Open &&
    task.client === terms.client.toLowerCase() &&
    task.amount >= terms.reward &&
    task.expiresAt >= terms.expiresAt
  );
}
