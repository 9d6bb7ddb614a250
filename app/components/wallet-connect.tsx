'use client';
// Connect a browser wallet (wagmi injected / EIP-6963) or show the one connected.
import { useConnect, useDisconnect } from 'wagmi';
import { useState } from 'react';
import { classifyWalletError } from '@/lib/web/wallet-errors';
import { useWallet } from '@/lib/web/use-wallet';
import { WalletAddress } from './wallet-address';

export function WalletConnect() {
  const wallet = useWallet();
  const connect = useConnect();
  const disconnect = useDisconnect();
  const [error, setError] = useState<string | null>(null);

  if (wallet.isConnected && wallet.address) {
    return (
      <div className="row">
        <span>
          Wallet connected: <WalletAddress address={wallet.address} />
        </span>
        <button type="button" className="secondary" onClick={() => disconnect.mutate({})}>Disconnect wallet</button>
      </div>
    );
  }
  if (wallet.status === 'reconnecting' || wallet.status === 'connecting') {
    return <p role="status" className="loading">Connecting to your wallet…</p>;
  }
  if (wallet.connectors.length === 0) {
    return (
      <p className="alert alert-warn" role="alert">
        No browser wallet found. Install a wallet extension (for example MetaMask), then reload this page.
      </p>
    );
  }
  return (
    <div className="stack">
      <div className="row">
        {wallet.connectors.map((connector) => (
          <button
            key={connector.uid}
            type="button"
            disabled={connect.isPending}
            onClick={async () => {
              setError(null);
              try {
                await connect.mutateAsync({ connector });
              } catch (e) {
                setError(classifyWalletError(e).message);
              }
            }}
          >
            Connect {connector.name}
          </button>
        ))}
      </div>
      {connect.isPending && <p role="status" className="loading">Approve the connection in your wallet…</p>}
      {error && <p className="alert alert-error" role="alert">{error}</p>}
    </div>
  );
}
