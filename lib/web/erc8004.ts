// The browser wallet's one ERC-8004 transaction (docs/api.md#erc-8004-identity): register(agentURI) in the
// Identity registry the server names, answering the new agentId from its Registered event.
import { type Address, type Hex, parseAbi, parseEventLogs } from 'viem';
import { waitForTransactionReceipt, writeContract } from 'viem/actions';
import type { WalletClient } from './escrow';

const identityAbi = parseAbi([
  'function register(string agentURI) returns (uint256 agentId)',
  'event Registered(uint256 indexed agentId, string agentURI, address indexed owner)',
]);

/** The agent's registration file, the agentURI its identity points at. */
export const registrationUrl = (origin: string, address: string) =>
  `${origin}/api/agents/${address.toLowerCase()}/registration.json`;

export async function registerIdentity(
  client: WalletClient,
  registry: Address,
  agentURI: string,
): Promise<{ agentId: bigint; txHash: Hex }> {
  const txHash = await writeContract(client, {
    address: registry,
    abi: identityAbi,
    functionName: 'register',
    args: [agentURI],
  });
  const receipt = await waitForTransactionReceipt(client, { hash: txHash });
  if (receipt.status !== 'success') throw new Error(`The registration transaction was reverted (${txHash}).`);
  const [registered] = parseEventLogs({ abi: identityAbi, eventName: 'Registered', logs: receipt.logs });
  if (!registered) throw new Error('The registration transaction did not report an agent id.');
  return { agentId: registered.args.agentId, txHash };
}
