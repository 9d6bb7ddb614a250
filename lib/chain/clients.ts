// viem clients for the configured chain, created once per configuration: one public client, and a
// wallet client per backend key — the registrar (passport mints), the operator (escrow release,
// refund, claimFor) and the relayer (funding authorizations), separate so a leaked or drained one
// does not take the others' jobs with it.
import 'server-only';
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  type Hex,
  http,
  type PublicClient,
  type Transport,
  type WalletClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { config } from '../config';
import { rpcFetch } from './rpc-fetch';

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
  /** Sends mints (REGISTRAR_PRIVATE_KEY). */
  registrar?: WalletClient;
  /** Sends release, refund and claimFor (OPERATOR_PRIVATE_KEY, else the registrar key). */
  operator?: WalletClient;
  /** Relays funding authorizations, docs/api.md#post-and-pay (RELAYER_PRIVATE_KEY, else the operator key). */
  relayer?: WalletClient;
}

const store = globalThis as unknown as { __taskmarketChain?: Clients };

/** The chain clients, or undefined when no RPC_URL is configured. */
export function getChainClients(): Clients | undefined {
  const cfg = config();
  const { rpcUrl, registrarKey, operatorKey, relayerKey } = cfg.chain;
  if (!rpcUrl) return undefined;
  // Keyed on the settings themselves: deriving an account's address costs a curve multiplication.
  const key = `${cfg.chainId}|${rpcUrl}|${registrarKey ?? ''}|${operatorKey ?? ''}|${relayerKey ?? ''}`;
  if (store.__taskmarketChain?.key === key) return store.__taskmarketChain;
  const chain = chainOf(cfg.chainId, rpcUrl);
  // Short timeouts and no transport retries: a dead RPC must become a quick 503 or PENDING.
  const transport = http(rpcUrl, { timeout: 5_000, retryCount: 0, fetchFn: rpcFetch });
  const publicClient = createPublicClient({ chain, transport, pollingInterval: 250 }) as PublicClient;
  // No per-process nonce manager: nonces come from the node under a lock shared by every
  // instance (lib/chain/sender.ts), which a process-local counter would contradict.
  const wallet = (privateKey: Hex | undefined) =>
    privateKey
      ? (createWalletClient({
          chain,
          transport: transport as Transport,
          account: privateKeyToAccount(privateKey),
        }) as WalletClient)
      : undefined;
  const registrar = wallet(registrarKey);
  const operator = operatorKey === registrarKey ? registrar : wallet(operatorKey);
  const relayer = relayerKey === operatorKey ? operator : relayerKey === registrarKey ? registrar : wallet(relayerKey);
  store.__taskmarketChain = { key, publicClient, registrar, operator, relayer };
  return store.__taskmarketChain;
}
