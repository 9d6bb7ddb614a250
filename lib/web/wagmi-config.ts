// wagmi for the dashboard: one chain (the service's BASE_CHAIN_ID), injected wallets only
// (window.ethereum and every EIP-6963 announcement), and all chain traffic through the wallet
// itself, so the browser needs no RPC endpoint of its own.
import { createConfig, injected, unstable_connector } from 'wagmi';
import { chainFor } from './chains';

export function createDashboardWagmiConfig(chainId: number) {
  const chain = chainFor(chainId);
  return createConfig({
    chains: [chain],
    connectors: [injected()],
    multiInjectedProviderDiscovery: true,
    transports: { [chain.id]: unstable_connector(injected) },
    pollingInterval: 1_000,
    ssr: true,
  });
}

export type DashboardWagmiConfig = ReturnType<typeof createDashboardWagmiConfig>;
