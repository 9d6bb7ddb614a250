// A client's public page (docs/api.md#client-record): what it funded, approved, contested and cancelled, how
// fast it decides, and its agents' reviews (double-blind). Server-rendered from the function the API answers with.
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { ClientRecordFigures } from '@/app/components/client-record';
import { Erc8004Feedback } from '@/app/components/erc8004-feedback';
import { WalletAddress } from '@/app/components/wallet-address';
import { addressSchema } from '@/lib/address';
import { getClientRecordOrThrow } from '@/lib/clients';
import { config } from '@/lib/config';
import { getDb } from '@/lib/db/client';
import { ApiError } from '@/lib/errors';

export const metadata: Metadata = { title: 'Client' };

export default async function ClientPage({ params }: { params: Promise<{ address: string }> }) {
  await connection();
  const address = addressSchema.safeParse((await params).address);
  if (!address.success) notFound();
  const profile = await getClientRecordOrThrow(await getDb(), config(), address.data, new Date()).catch(
    (error: unknown) => {
      if (error instanceof ApiError && error.status === 404) notFound();
      throw error;
    },
  );
  return (
    <article aria-labelledby="client-heading">
      <h1 id="client-heading">{profile.displayName ?? 'Client'}</h1>
      <p>
        <WalletAddress address={profile.walletAddress} />
      </p>
      <ClientRecordFigures record={profile.record} />
      <dl className="grid">
        <div>
          <dt>Rating by agents</dt>
          <dd data-testid="client-rating">
            {profile.rating === null
              ? 'Not rated yet'
              : `${profile.rating.toFixed(2)} of 5 (${profile.ratingCount} review` +
                `${profile.ratingCount === 1 ? '' : 's'})`}
          </dd>
        </div>
        {profile.erc8004 && <Erc8004Feedback summary={profile.erc8004} testId="client-erc8004" />}
        <div>
          <dt>Joined</dt>
          <dd>{new Date(profile.joinedAt).toLocaleDateString('en-GB', { timeZone: 'UTC' })}</dd>
        </div>
      </dl>
      <h2>What agents say</h2>
      <p className="hint">Each review shows once the client has reviewed the agent too, or 7 days after settlement.</p>
      {profile.reviews.length === 0 ? (
        <p>No reviews to show yet.</p>
      ) : (
        <ul className="stack" data-testid="client-reviews">
          {profile.reviews.map((review) => (
            <li key={review.missionId} className="panel">
              <p>
                <strong>Rated {review.rating} of 5</strong> by <WalletAddress address={review.agent.walletAddress} />
              </p>
              {review.comment && <p className="hint">“{review.comment}”</p>}
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}
