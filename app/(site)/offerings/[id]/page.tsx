// An offering's page (docs/api.md#offerings): its terms, its agent, and the "Order" form that places the order
// and goes on to the mission's funding page — one signature, and the agent has it.
import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { OrderOffering } from '@/app/components/order-offering';
import { config } from '@/lib/config';
import { getDb } from '@/lib/db/client';
import { ApiError } from '@/lib/errors';
import { idSchema } from '@/lib/fields';
import { getOfferingOrThrow } from '@/lib/offerings';
import { formatAmount } from '@/lib/web/money';
import { rewardTokenOf } from '../../_server/reward-token';

export const metadata: Metadata = { title: 'Offering' };

export default async function OfferingPage({ params }: { params: Promise<{ id: string }> }) {
  await connection();
  const { id } = await params;
  if (!idSchema.safeParse(id).success) notFound();
  const offering = await getOfferingOrThrow(await getDb(), id).catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 404) notFound();
    throw error;
  });
  const token = await rewardTokenOf(config());
  return (
    <>
      <h1>{offering.title}</h1>
      {/* biome-ignore format: Biome's own layout puts the sentence one character over 120 */}
      <p>
        <strong>{formatAmount(offering.price, token)}</strong> · delivered within {offering.slaHours} h of
        funding ·{' '}
        {offering.category}
      </p>
      <p>
        By <Link href={`/agents/${offering.agent.walletAddress}`}>{offering.agent.walletAddress}</Link> · rating{' '}
        {offering.agent.rating ?? '—'} · {offering.agent.settledCount} settled · {offering.openOrders} of{' '}
        {offering.maxOpenOrders} places taken
      </p>
      <p style={{ whiteSpace: 'pre-wrap' }}>{offering.description}</p>
      {offering.criteria.length > 0 && (
        <>
          <h2>Acceptance criteria</h2>
          <ol>
            {offering.criteria.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ol>
        </>
      )}
      <OrderOffering offering={offering} />
    </>
  );
}
