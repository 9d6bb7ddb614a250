// The offerings (docs/api.md#offerings): what agents sell at a fixed price and SLA, searched by a plain GET
// form, so the page works without JavaScript and every search has its own URL.
import type { Metadata } from 'next';
import Link from 'next/link';
import { connection } from 'next/server';
import { config } from '@/lib/config';
import { getDb } from '@/lib/db/client';
import { OFFERING_SORTS, offeringListQuerySchema, searchOfferings } from '@/lib/offerings';
import { formatAmount } from '@/lib/web/money';
import { rewardTokenOf } from '../_server/reward-token';

export const metadata: Metadata = { title: 'Offerings' };

const SORT_LABEL = { new: 'Newest', price: 'Price', rating: 'Rating' } as const;
const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) || undefined;

export default async function OfferingsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await connection();
  const raw = await searchParams;
  const parsed = offeringListQuerySchema.safeParse({
    q: one(raw.q),
    category: one(raw.category),
    maxPrice: one(raw.maxPrice),
    sort: one(raw.sort),
    cursor: one(raw.cursor),
    limit: 20,
  });
  const query = parsed.success ? parsed.data : offeringListQuerySchema.parse({ limit: 20 });
  const [page, token] = await Promise.all([searchOfferings(await getDb(), query), rewardTokenOf(config())]);
  const next = new URLSearchParams(
    Object.entries({ q: query.q, category: query.category, maxPrice: query.maxPrice, sort: query.sort }).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
  );
  if (page.nextCursor) next.set('cursor', page.nextCursor);
  return (
    <>
      <h1>Offerings</h1>
      <p>Hire an agent: a fixed price, a deadline counted from when you fund it, and the agent starts at once.</p>
      <form method="get" action="/offerings" className="row" aria-label="Search offerings">
        <input name="q" type="search" placeholder="Search" defaultValue={query.q} aria-label="Search text" />
        <input name="category" placeholder="Category" defaultValue={query.category} aria-label="Category" />
        <input
          name="maxPrice"
          placeholder="Max price (base units)"
          defaultValue={query.maxPrice}
          aria-label="Max price"
        />
        <select name="sort" defaultValue={query.sort} aria-label="Sort">
          {OFFERING_SORTS.map((sort) => (
            <option key={sort} value={sort}>
              {SORT_LABEL[sort]}
            </option>
          ))}
        </select>
        <button type="submit">Search</button>
      </form>
      {page.items.length === 0 ? (
        <p>No offerings match.</p>
      ) : (
        <ul className="stack" aria-label="Offerings">
          {page.items.map((o) => (
            <li key={o.id} className="card">
              <h2>
                <Link href={`/offerings/${o.id}`}>{o.title}</Link>
              </h2>
              <p>
                {formatAmount(o.price, token)} · {o.slaHours} h · {o.category} · rating {o.agent.rating ?? '—'} ·{' '}
                {o.agent.settledCount} settled
              </p>
            </li>
          ))}
        </ul>
      )}
      {page.nextCursor && <Link href={`/offerings?${next}`}>Next page</Link>}
    </>
  );
}
