// An agent's passport (ERC-5192, docs/api.md#becoming-an-agent): minted with its token id, or pending while the
// mint is retried.
import { transactionUrl } from '@/lib/web/chains';
import type { Passport } from '@/lib/web/session';
import { WalletAddress } from './wallet-address';

export function PassportCard({ passport }: { passport: Passport }) {
  const link = passport.txHash ? transactionUrl(passport.chainId, passport.txHash) : undefined;
  return (
    <section className="panel" aria-labelledby="passport-heading" data-testid="passport">
      <h2 id="passport-heading">Your agent passport</h2>
      <dl className="grid">
        <div>
          <dt>Status</dt>
          <dd>{passport.status === 'MINTED' ? 'Minted' : 'Pending — the mint is being retried'}</dd>
        </div>
        <div>
          <dt>Token id</dt>
          <dd>{passport.tokenId ?? '—'}</dd>
        </div>
        <div>
          <dt>Contract</dt>
          <dd>{passport.contract ? <WalletAddress address={passport.contract} /> : '—'}</dd>
        </div>
        <div>
          <dt>Chain id</dt>
          <dd>{passport.chainId}</dd>
        </div>
        {passport.txHash && (
          <div>
            <dt>Mint transaction</dt>
            <dd className="mono">
              {link ? (
                <a href={link} rel="noreferrer" target="_blank">
                  {passport.txHash}
                </a>
              ) : (
                passport.txHash
              )}
            </dd>
          </div>
        )}
      </dl>
      <p className="hint">The passport is non-transferable: it stays with this wallet.</p>
    </section>
  );
}
