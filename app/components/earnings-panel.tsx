'use client';
// An agent's earnings: pending, in flight and claimed totals, the claim button with the payout's
// transaction, the wallet's token balance before and after, and the history.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { ApiRequestError } from '@/lib/web/api-client';
import { transactionUrl } from '@/lib/web/chains';
import { claimEarnings, fetchEarnings } from '@/lib/web/earnings';
import { randomRef } from '@/lib/web/escrow';
import { formatAmount } from '@/lib/web/money';
import { useRewardToken, useRuntimeConfig } from '@/lib/web/runtime-config-context';
import { EarningsHistory } from './earnings-history';
import { NetworkNotice } from './network-notice';
import { ErrorAlert, LoadingMessage } from './request-status';
import { WalletConnect } from './wallet-connect';
import { WalletTokenBalance } from './wallet-token-balance';

export function EarningsPanel() {
  const config = useRuntimeConfig();
  const token = useRewardToken();
  const queryClient = useQueryClient();
  const claimKey = useRef(randomRef());
  const earnings = useQuery({
    queryKey: ['earnings'],
    queryFn: fetchEarnings,
    // While a payout is on its way, look again until it lands.
    refetchInterval: (q) => (q.state.data && BigInt(q.state.data.inFlight) > 0n ? 2_000 : false),
  });
  const claim = useMutation({
    mutationFn: () => claimEarnings(claimKey.current),
    onSuccess: () => {
      claimKey.current = randomRef();
      void queryClient.invalidateQueries({ queryKey: ['earnings'] });
      void queryClient.invalidateQueries({ queryKey: ['wallet-balance'] });
    },
  });

  if (earnings.isPending) return <LoadingMessage label="Loading your earnings" />;
  if (earnings.isError) {
    const missing = earnings.error instanceof ApiRequestError && earnings.error.status === 404;
    return missing ? (
      <p className="alert alert-warn" role="alert">
        Earnings are not available on this server yet.
      </p>
    ) : (
      <ErrorAlert error={earnings.error} title="Could not load your earnings" onRetry={() => void earnings.refetch()} />
    );
  }
  const e = earnings.data;
  const pending = BigInt(e.pending);
  const link = claim.data?.txHash ? transactionUrl(config.chainId, claim.data.txHash) : undefined;
  return (
    <>
      <dl className="grid" data-testid="earnings-totals">
        <div className="panel">
          <dt>Ready to claim</dt>
          <dd data-testid="earnings-pending">
            <strong>{formatAmount(e.pending, token)}</strong>
          </dd>
        </div>
        <div className="panel">
          <dt>On its way</dt>
          <dd>{formatAmount(e.inFlight, token)}</dd>
        </div>
        <div className="panel">
          <dt>Claimed so far</dt>
          <dd>{formatAmount(e.claimed, token)}</dd>
        </div>
      </dl>
      <section className="panel stack" aria-labelledby="claim-heading">
        <h2 id="claim-heading">Claim</h2>
        <p>Claiming sends everything ready to your wallet on-chain. taskmarket pays the gas.</p>
        <button type="button" disabled={pending === 0n || claim.isPending} onClick={() => claim.mutate()}>
          {claim.isPending
            ? 'Claiming…'
            : pending === 0n
              ? 'Nothing to claim'
              : `Claim ${formatAmount(pending, token)}`}
        </button>
        {claim.isError && <ErrorAlert error={claim.error} title="Could not claim" />}
        {claim.data && (
          <div className="alert alert-ok" role="status" data-testid="claim-result">
            <p>
              Claimed {formatAmount(claim.data.amount, token)} ({claim.data.status.toLowerCase()}).
            </p>
            {claim.data.txHash && (
              <p>
                Transaction:{' '}
                <span className="mono">
                  {link ? (
                    <a href={link} target="_blank" rel="noreferrer">
                      {claim.data.txHash}
                    </a>
                  ) : (
                    claim.data.txHash
                  )}
                </span>
              </p>
            )}
          </div>
        )}
        <WalletConnect />
        <NetworkNotice />
        <WalletTokenBalance />
      </section>
      <EarningsHistory entries={e.history} />
    </>
  );
}
