'use client';
// The connected wallet's balance of the reward token, read through the wallet itself.
import { useQuery } from '@tanstack/react-query';
import type { Address } from 'viem';
import { tokenBalance } from '@/lib/web/escrow';
import { formatAmount } from '@/lib/web/money';
import { useRewardToken, useRuntimeConfig } from '@/lib/web/runtime-config-context';
import { useWallet } from '@/lib/web/use-wallet';
import { ErrorAlert } from './request-status';

export const walletBalanceKey = (address: string | undefined) => ['wallet-balance', address ?? ''] as const;

export function WalletTokenBalance() {
  const config = useRuntimeConfig();
  const token = useRewardToken();
  const wallet = useWallet();
  const tokenAddress = config.contracts.rewardToken?.address as Address | undefined;
  const query = useQuery({
    queryKey: walletBalanceKey(wallet.address),
    queryFn: async () => tokenBalance(await wallet.walletClient(), tokenAddress!),
    enabled: Boolean(tokenAddress && wallet.isConnected && !wallet.wrongNetwork),
  });
  if (!tokenAddress || !wallet.isConnected || wallet.wrongNetwork) return null;
  if (query.isPending)
    return (
      <p className="loading" role="status">
        Reading your wallet balance…
      </p>
    );
  if (query.isError)
    return (
      <ErrorAlert error={query.error} title="Could not read your wallet balance" onRetry={() => void query.refetch()} />
    );
  return (
    <p>
      Wallet balance: <strong data-testid="wallet-balance">{formatAmount(query.data, token)}</strong>
    </p>
  );
}
