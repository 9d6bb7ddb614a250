'use client';
// The connected browser wallet as the dashboard needs it: which wallets can connect, whether the
// one connected is on the service's chain, and a viem client for transactions — refused while
// the wallet is on another network, so nothing is ever sent to the wrong chain.
import { useConfig, useConnection, useConnectors } from 'wagmi';
import { getConnectorClient } from 'wagmi/actions';
import { useRuntimeConfig } from './runtime-config-context';
import type { WalletClient } from './escrow';

export function useWallet() {
  const config = useConfig();
  const { chainId: wantedChainId } = useRuntimeConfig();
  const connection = useConnection();
  const all = useConnectors();
  // EIP-6963 announcements name the wallet; the generic window.ethereum connector is then redundant.
  const announced = all.filter((c) => c.id !== 'injected');
  const connectors = announced.length > 0 ? announced : all;
  const wrongNetwork = connection.isConnected && connection.chainId !== wantedChainId;

  async function walletClient(): Promise<WalletClient> {
    if (!connection.isConnected)
      throw Object.assign(new Error('No wallet is connected.'), { name: 'ConnectorNotConnectedError' });
    if (wrongNetwork) throw Object.assign(new Error('Wrong network.'), { name: 'ConnectorChainMismatchError' });
    return (await getConnectorClient(config, {
      chainId: wantedChainId,
      account: connection.address,
    })) as unknown as WalletClient;
  }

  return {
    address: connection.address,
    chainId: connection.chainId,
    isConnected: connection.isConnected,
    status: connection.status,
    connectors,
    wantedChainId,
    wrongNetwork,
    walletClient,
  };
}
