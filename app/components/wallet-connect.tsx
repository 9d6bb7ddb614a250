'use client';
// Connect a browser wallet (wagmi injected / EIP-6963) or show the one connected.
import { useConnect, useDisconnect } from 'wagmi';
import { useState, useSyncExternalStore } from 'react';
import { classifyWalletError } from '@/lib/web/wallet-errors';
import { useWallet } from '@/lib/web/use-wallet';
import { WalletAddress } from './wallet-address';

// wagmi always lists its generic injected connector; whether a provider is really there is known
// only in the browser (the server renders as if one were, so hydration matches).
const noSubscription = () => () => {};
const injectedProviderPresent = () =>
  typeof window !== 'undefined' && 'ethereum' in window && Boolean((window as { ethereum?: unknown }).ethereum);

export function WalletConnect() {
  const wallet = useWallet();
  const hasInjectedProvider = useSyncExternalStore(noSubscription, injectedProviderPresent, () => true);
  const connect = useConnect();
  const disconnect = useDisconnect();
  const [error, setError] = useState<string | null>(null);

  if (wallet.isConnected && wallet.address) {
    return (
      <div className="row">
        <span>
          Wallet connected: <WalletAddress address={wallet.address} />
        </span>
        <button type="button" className="secondary" onClick={() => disconnect.mutate({})}>
          Disconnect wallet
        </button>
      </div>
    );
  }
  if (wallet.status === 'reconnecting' || wallet.status === 'connecting') {
    return (
      <p role="status" className="loading">
        Connecting to your wallet…
      </p>
    );
  }
  // EIP-6963 wallets announce themselves by name; the generic injected connector (window.ethereum)
  // is offered only when none did, under a name people recognise.
  const named = wallet.connectors.filter((connector) => connector.id !== 'injected');
  const offered = named.length > 0 ? named : hasInjectedProvider ? wallet.connectors : [];
  if (offered.length === 0) {
    return (
      <div className="alert alert-warn" role="alert" data-testid="no-wallet">
        <p>
          No browser wallet found. To sign in, install a wallet extension, create or import an account, then reload this
          page:
        </p>
        <ul>
          <li>
            <a href="https://metamask.io/download/" rel="noopener noreferrer" target="_blank">
              MetaMask
            </a>
          </li>
          <li>
            <a href="https://www.coinbase.com/wallet/downloads" rel="noopener noreferrer" target="_blank">
              Coinbase Wallet
            </a>
          </li>
          <li>
            <a href="https://rabby.io/" rel="noopener noreferrer" target="_blank">
              Rabby
            </a>
          </li>
        </ul>
        <p className="hint">On a phone, open this page in your wallet app&apos;s browser instead.</p>
      </div>
    );
  }
  return (
    <div className="stack">
      <div className="row">
        {offered.map((connector) => (
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
            Connect {connector.id === 'injected' ? 'browser wallet' : connector.name}
          </button>
        ))}
      </div>
      {connect.isPending && (
        <p role="status" className="loading">
          Approve the connection in your wallet…
        </p>
      )}
      {error && (
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
