// viem clients for the configured chain, created once per configuration. The registrar/operator
// account manages its own nonces so concurrent sends from one instance do not collide.
import 'server-only';
import { createPublicClient, createWalletClient, defineChain, http, type PublicClient, type WalletClient } from 'viem';
import { nonceManager, privateKeyToAccount } from 'viem/accounts';
import { config } from '../config';

function chainOf(id: number, rpcUrl: string) {
  return defineChain({
    id,
    name: `chain-${id}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}

interface Clients {
  key: string;
  publicClient: PublicClient;
  walletClient?: WalletClient;
}

const store = globalThis as unknown as { __taskmarketChain?: Clients };

/** The chain clients, or undefined when no RPC_URL is configured. */
export function getChainClients(): Clients | undefined {
  const cfg = config();
  const { rpcUrl, registrarKey } = cfg.chain;
  if (!rpcUrl) return undefined;
  // Keyed on the settings themselves: deriving the account's address costs a curve multiplication.
  const key = `${cfg.chainId}|${rpcUrl}|${registrarKey ?? ''}`;
  if (store.__taskmarketChain?.key === key) return store.__taskmarketChain;
  const chain = chainOf(cfg.chainId, rpcUrl);
  // Short timeouts and no transport retries: a dead RPC must become a quick 503 or PENDING.
  const transport = http(rpcUrl, { timeout: 5_000, retryCount: 0 });
  const publicClient = createPublicClient({ chain, transport, pollingInterval: 250 }) as PublicClient;
  const walletClient = registrarKey
    ? createWalletClient({ chain, transport, account: privateKeyToAccount(registrarKey, { nonceManager }) })
    : undefined;
  store.__taskmarketChain = { key, publicClient, walletClient };
  return store.__taskmarketChain;
}
