'use client';
// Shown while the wallet is on another chain than the service's: what is wrong, and a button
// that asks the wallet to switch (wallet_switchEthereumChain).
import { useSwitchChain } from 'wagmi';
import { useState } from 'react';
import { chainName } from '@/lib/web/chains';
import { classifyWalletError } from '@/lib/web/wallet-errors';
import { useWallet } from '@/lib/web/use-wallet';

export function NetworkNotice() {
  const wallet = useWallet();
  const switchChain = useSwitchChain();
  const [error, setError] = useState<string | null>(null);
  if (!wallet.wrongNetwork || wallet.chainId === undefined) return null;
  const wanted = chainName(wallet.wantedChainId);
  return (
    <div className="alert alert-warn" role="alert" data-testid="wrong-network">
      <p>
        <strong>Wrong network.</strong> Your wallet is on {chainName(wallet.chainId)} (chain id {wallet.chainId});
        taskmarket runs on {wanted} (chain id {wallet.wantedChainId}).
      </p>
      <button
        type="button"
        disabled={switchChain.isPending}
        onClick={async () => {
          setError(null);
          try {
            await switchChain.mutateAsync({ chainId: wallet.wantedChainId });
          } catch (e) {
            setError(classifyWalletError(e).message);
          }
        }}
      >
        {switchChain.isPending ? 'Switching…' : `Switch to ${wanted}`}
      </button>
      {error && <p>{error}</p>}
    </div>
  );
}
