// The ERC-8004 registries as the backend uses them (contracts/erc8004/README.md): reading who owns an
// identity and its agentWallet, the summary of our operator's feedback, and giveFeedback as call data
// for the operator key to send. The ABIs are the vendored reference contracts'.
import 'server-only';
import { encodeFunctionData, getAbiItem, type Hex, type PublicClient } from 'viem';
import { identityRegistryArtifact, reputationRegistryArtifact } from './artifacts';

const identityAbi = identityRegistryArtifact.abi;
const reputationAbi = reputationRegistryArtifact.abi;

/** ERC-8004's registry identifier: `eip155:{chainId}:{address}` (CAIP-10 style). */
export const registryId = (chainId: number, address: string): string => `eip155:${chainId}:${address}`;

/** The owner of an identity; reverts (ERC721NonexistentToken) for an id never registered. */
export const readIdentityOwner = (publicClient: PublicClient, registry: Hex, agentId: bigint): Promise<Hex> =>
  publicClient.readContract({
    address: registry,
    abi: identityAbi,
    functionName: 'ownerOf',
    args: [agentId],
  }) as Promise<Hex>;

/** The identity's verified wallet (zero once transferred, or never set). */
export const readAgentWallet = (publicClient: PublicClient, registry: Hex, agentId: bigint): Promise<Hex> =>
  publicClient.readContract({
    address: registry,
    abi: identityAbi,
    functionName: 'getAgentWallet',
    args: [agentId],
  }) as Promise<Hex>;

export interface FeedbackSummary {
  count: bigint;
  value: bigint;
  decimals: number;
}

/** getSummary over the feedback `clients` gave with tag1 `tag1` (revoked feedback left out). */
export async function readFeedbackSummary(
  publicClient: PublicClient,
  registry: Hex,
  agentId: bigint,
  clients: Hex[],
  tag1: string,
): Promise<FeedbackSummary> {
  const [count, value, decimals] = (await publicClient.readContract({
    address: registry,
    abi: reputationAbi,
    functionName: 'getSummary',
    args: [agentId, clients, tag1, ''],
  })) as readonly [bigint, bigint, number];
  return { count, value, decimals };
}

export interface FeedbackCall {
  agentId: bigint;
  value: number;
  tag1: string;
  tag2: string;
  endpoint: string;
  feedbackUri: string;
  feedbackHash: Hex;
}

export const giveFeedbackCall = (f: FeedbackCall): Hex =>
  encodeFunctionData({
    abi: reputationAbi,
    functionName: 'giveFeedback',
    args: [f.agentId, BigInt(f.value), 0, f.tag1, f.tag2, f.endpoint, f.feedbackUri, f.feedbackHash],
  });

/**
 * The transaction of a NewFeedback `client` gave `agentId` with `feedbackHash`, mined from block
 * `fromBlock` on: how a retry tells a feedback that went through (its recorded transaction unknown
 * to the node now) from one that never left, before sending it again.
 */
export async function findGivenFeedback(
  publicClient: PublicClient,
  registry: Hex,
  agentId: bigint,
  client: Hex,
  feedbackHash: Hex,
  fromBlock: bigint,
): Promise<Hex | undefined> {
  const logs = await publicClient.getLogs({
    address: registry,
    event: getAbiItem({ abi: reputationAbi, name: 'NewFeedback' }),
    args: { agentId, clientAddress: client },
    fromBlock,
    toBlock: 'latest',
  });
  return (
    logs.find((log) => log.args.feedbackHash?.toLowerCase() === feedbackHash.toLowerCase())?.transactionHash ??
    undefined
  );
}
