// The ERC-8004 registries of this worker's anvil as tests use them (contracts/erc8004/README.md):
// an agent wallet registering an identity, proving another wallet, and reading back what our
// operator gave — straight from the reference ABI, never through the app.
import { inject } from 'vitest';
import { getAbiItem, type Hex, parseEventLogs, type PrivateKeyAccount } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { POST as registerAgent } from '@/app/api/auth/register-agent/route';
import { ANVIL_KEYS } from '@/lib/chain/anvil-node';
import { identityRegistryArtifact, reputationRegistryArtifact } from '@/lib/chain/artifacts';
import { fund, publicClient, walletOf } from './chain';
import { call } from './http';
import type { Party } from './missions';
import { newWallet, signIn } from './wallets';

export const registries = () => inject('contracts') as unknown as { identityRegistry: Hex; reputationRegistry: Hex };
export const OPERATOR = privateKeyToAccount(ANVIL_KEYS[0]).address;

/** An agent signed in with a wallet the test holds (to sign and send from it). */
export async function agentWithWallet(
  wallet: PrivateKeyAccount = newWallet(),
): Promise<Party & { wallet: PrivateKeyAccount }> {
  const { token, user } = await signIn(wallet);
  const response = await call(registerAgent, { token, method: 'POST' });
  if (response.status !== 200) throw new Error(`register-agent: ${response.status} ${JSON.stringify(response.body)}`);
  return { token: response.body.token, address: user.walletAddress, id: user.id, wallet };
}

/** `register(agentURI)` sent from `account` (funded for gas first): the new agentId. */
export async function registerIdentity(
  account: PrivateKeyAccount,
  uri = 'https://agent.example/registration.json',
): Promise<bigint> {
  await fund(account.address);
  const hash = await walletOf(account).writeContract({
    address: registries().identityRegistry,
    abi: identityRegistryArtifact.abi,
    functionName: 'register',
    args: [uri],
  });
  const receipt = await publicClient().waitForTransactionReceipt({ hash });
  const [event] = parseEventLogs({ abi: identityRegistryArtifact.abi, logs: receipt.logs, eventName: 'Registered' });
  return event!.args.agentId;
}

/** The owner sets `wallet` as the identity's agentWallet, with the wallet's EIP-712 proof. */
export async function setAgentWallet(
  owner: PrivateKeyAccount,
  agentId: bigint,
  wallet: PrivateKeyAccount,
): Promise<void> {
  const { identityRegistry } = registries();
  const block = await publicClient().getBlock();
  const deadline = block.timestamp + 120n;
  const signature = await wallet.signTypedData({
    domain: { name: 'ERC8004IdentityRegistry', version: '1', chainId: 31337, verifyingContract: identityRegistry },
    types: {
      AgentWalletSet: [
        { name: 'agentId', type: 'uint256' },
        { name: 'newWallet', type: 'address' },
        { name: 'owner', type: 'address' },
        { name: 'deadline', type: 'uint256' },
      ],
    },
    primaryType: 'AgentWalletSet',
    message: { agentId, newWallet: wallet.address, owner: owner.address, deadline },
  });
  const hash = await walletOf(owner).writeContract({
    address: identityRegistry,
    abi: identityRegistryArtifact.abi,
    functionName: 'setAgentWallet',
    args: [agentId, wallet.address, deadline, signature],
  });
  await publicClient().waitForTransactionReceipt({ hash });
}

/** getSummary over our operator's feedback with tag1 `taskmarket`. */
export async function summaryOnChain(agentId: bigint) {
  const [count, value, decimals] = await publicClient().readContract({
    address: registries().reputationRegistry,
    abi: reputationRegistryArtifact.abi,
    functionName: 'getSummary',
    args: [agentId, [OPERATOR], 'taskmarket', ''],
  });
  return { count, value, decimals };
}

/** Every feedback our operator gave `agentId`, from the NewFeedback events. */
export async function feedbackEvents(agentId: bigint) {
  const logs = await publicClient().getLogs({
    address: registries().reputationRegistry,
    event: getAbiItem({ abi: reputationRegistryArtifact.abi, name: 'NewFeedback' }),
    args: { agentId, clientAddress: OPERATOR },
    fromBlock: 0n,
  });
  return logs.map((log) => ({ ...log.args, transactionHash: log.transactionHash }));
}
