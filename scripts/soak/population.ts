// The soak's users: funded clients and registered agents (each with a webhook endpoint at the local
// receiver), returning wallets that sign in now and then, and anonymous visitors — each an SDK
// client behind the balancer, from an address of its own.
import { createPublicClient, createTestClient, createWalletClient, http, parseEther, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { ANVIL_KEYS } from '../../lib/chain/anvil-node';
import { mockUsdcArtifact } from '../../lib/chain/artifacts';
import type { LocalChain } from '../../lib/chain/local-chain';
import { createClient, type TaskmarketClient } from '../../sdk/src/index';
import type { Balancer } from './balancer';
import type { WebhookReceiver } from './webhook-receiver';

/** The public origin the instances answer for (tests/faults/support/instances.ts: SIWE_DOMAIN). */
export const PUBLIC_ORIGIN = 'http://localhost:3000';

export interface Party {
  account: PrivateKeyAccount;
  tm: TaskmarketClient;
  /** Taken by one lifecycle or claim at a time: a wallet's chain nonces and an agent's capacity. */
  busy: boolean;
  /** Agents: missions approved since the last claim. */
  unclaimed: number;
  /** Clients: when each of their missions was posted. */
  created: number[];
}

let lastIp = 0;
/** A fresh address in 10.0.0.0/8 for a simulated user. */
export const nextIp = () => {
  lastIp += 1;
  return `10.${(lastIp >> 16) & 255}.${(lastIp >> 8) & 255}.${lastIp & 255}`;
};

export interface Population {
  clients: Party[];
  agents: Party[];
  /** Wallets that come back to sign in, each from its own address. */
  returning: { account: PrivateKeyAccount; ip: string }[];
  client(account: PrivateKeyAccount | undefined, ip: string): TaskmarketClient;
  /** Funds and subscribes more clients, up to `count` in all. */
  growClients(count: number): Promise<void>;
}

const CLIENT_EVENTS = ['mission.accepted', 'mission.submitted', 'mission.completed', 'mission.cancelled'] as const;
const AGENT_EVENTS = ['mission.created', 'earnings.released', 'claim.paid', 'mission.completed'] as const;

export async function populate(
  chain: LocalChain,
  lb: Balancer,
  receiver: WebhookReceiver,
  size: { clients: number; agents: number; returning: number },
): Promise<Population> {
  const client = (account: PrivateKeyAccount | undefined, ip: string) =>
    createClient({ baseUrl: PUBLIC_ORIGIN, account, rpcUrl: chain.rpcUrl, maxRetries: 0, fetch: lb.fetchFor(ip) });
  const transport = http(chain.rpcUrl);
  const anvil = createTestClient({ chain: foundry, mode: 'anvil', transport });
  const reader = createPublicClient({ chain: foundry, transport, pollingInterval: 50 });
  // A faucet of its own: the registrar key is the instances', and sharing it would race their nonces.
  const faucet = createWalletClient({ chain: foundry, transport, account: privateKeyToAccount(ANVIL_KEYS[1]!) });

  const party = async (role: 'client' | 'agent', index: number): Promise<Party> => {
    const account = privateKeyToAccount(generatePrivateKey());
    await anvil.setBalance({ address: account.address, value: parseEther('100') });
    const tm = client(account, nextIp());
    if (role === 'client') {
      const hash = await faucet.writeContract({
        address: chain.contracts.rewardToken as Address,
        abi: mockUsdcArtifact.abi,
        functionName: 'mint',
        args: [account.address, 10n ** 15n],
      });
      await reader.waitForTransactionReceipt({ hash });
    } else {
      await tm.registerAgent();
    }
    const endpoint = receiver.endpoint(`${role}-${index}`);
    const { secret } = await tm.webhooks.create({
      url: endpoint.url,
      events: [...(role === 'client' ? CLIENT_EVENTS : AGENT_EVENTS)],
    });
    endpoint.trust(secret);
    return { account, tm, busy: false, unclaimed: 0, created: [] };
  };
  // One at a time: the faucet's and the registrar's nonces are sequential anyway.
  const clients: Party[] = [];
  for (let i = 0; i < size.clients; i++) clients.push(await party('client', i));
  const agents: Party[] = [];
  for (let i = 0; i < size.agents; i++) agents.push(await party('agent', i));
  const returning = Array.from({ length: size.returning }, () => ({
    account: privateKeyToAccount(generatePrivateKey()),
    ip: nextIp(),
  }));
  const growClients = async (count: number) => {
    while (clients.length < count) clients.push(await party('client', clients.length));
  };
  return { clients, agents, returning, client, growClients };
}
