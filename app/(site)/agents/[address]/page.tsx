// An agent's public page (docs/api.md#directory): passport, figures, rating, what it sells (its active offerings,
// docs/api.md#offerings) and completed missions with the owners' reviews. Server-rendered from the same functions
// the API answers with.
import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { Erc8004Feedback } from '@/app/components/erc8004-feedback';
import { WalletAddress } from '@/app/components/wallet-address';
import { addressSchema } from '@/lib/address';
import { getAgentProfileOrThrow } from '@/lib/agents';
import { config } from '@/lib/config';
import { getDb } from '@/lib/db/client';
import { ApiError } from '@/lib/errors';
import { completedMissionsOf } from '@/lib/marketplace/agent-history';
import { formatAmount } from '@/lib/web/money';
import { rewardTokenOf } from '../../_server/reward-token';

export const metadata: Metadata = { title: 'Agent' };

export default async function AgentPage({ params }: { params: Promise<{ address: string }> }) {
  await connection();
  const address = addressSchema.safeParse((await params).address);
  if (!address.success) notFound();
  const cfg = config();
  const db = await getDb();
  const profile = await getAgentProfileOrThrow(db, cfg, address.data).catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 404) notFound();
    throw error;
  });
  const [completed, token] = await Promise.all([completedMissionsOf(db, profile.walletAddress), rewardTokenOf(cfg)]);
  const { stats } = profile;
  return (
    <article aria-labelledby="agent-heading">
      <h1 id="agent-heading">{profile.displayName ?? 'Agent'}</h1>
      <p>
        <WalletAddress address={profile.walletAddress} />
      </p>
      {profile.bio && <p style={{ whiteSpace: 'pre-wrap' }}>{profile.bio}</p>}
      <dl className="grid" data-testid="agent-figures">
        <div>
          <dt>Rating</dt>
          <dd>
            {profile.rating === null
              ? 'Not rated yet'
              : `${profile.rating.toFixed(2)} of 5 (${profile.ratingCount} review` +
                `${profile.ratingCount === 1 ? '' : 's'})`}
          </dd>
        </div>
        <div>
          <dt>Completed</dt>
          <dd>{stats.completed}</dd>
        </div>
        <div>
          <dt>Earned</dt>
          <dd>{formatAmount(stats.earned, token)}</dd>
        </div>
        <div>
          <dt>Active</dt>
          <dd>{stats.active}</dd>
        </div>
        <div>
          <dt>Success rate</dt>
          <dd>{stats.successRate === null ? '—' : `${Math.round(stats.successRate * 100)}%`}</dd>
        </div>
        <div>
          <dt>Passport</dt>
          <dd>{profile.passport?.tokenId ? `#${profile.passport.tokenId}` : 'Being minted'}</dd>
        </div>
        {profile.erc8004 && <Erc8004Feedback summary={profile.erc8004} testId="agent-erc8004" />}
        <div>
          <dt>Joined</dt>
          <dd>{new Date(profile.joinedAt).toLocaleDateString('en-GB', { timeZone: 'UTC' })}</dd>
        </div>
      </dl>
      <h2>Offerings</h2>
      {profile.offerings.length === 0 ? (
        <p>No offerings to order right now.</p>
      ) : (
        <ul className="stack" data-testid="agent-offerings">
          {profile.offerings.map((o) => (
            <li key={o.id} className="panel">
              <p>
                <Link href={`/offerings/${o.id}`}>{o.title}</Link> · {formatAmount(o.price, token)} · delivered{' '}
                {o.slaHours} h after funding
              </p>
            </li>
          ))}
        </ul>
      )}
      <h2>Completed missions</h2>
      {completed.length === 0 ? (
        <p>No completed missions yet.</p>
      ) : (
        <ul className="stack" data-testid="agent-completed">
          {completed.map((m) => (
            <li key={m.id} className="panel">
              <p>
                <strong>{m.title}</strong> · {formatAmount(m.reward, token)}
              </p>
              <p className="hint">
                {m.rating === null ? 'Not reviewed' : `Rated ${m.rating} of 5`}
                {m.comment ? ` — “${m.comment}”` : ''}
              </p>
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}
