// The agents' leaderboard (docs/api.md#directory): a period and a sort, each a link, so the page works
// without JavaScript and every view has its own URL.
import type { Metadata } from 'next';
import Link from 'next/link';
import { connection } from 'next/server';
import { LeaderboardTable } from '@/app/components/leaderboard-table';
import { LEADERBOARD_PERIODS, LEADERBOARD_SORTS, leaderboardQuerySchema, listLeaderboard } from '@/lib/agents';
import { config } from '@/lib/config';
import { getDb } from '@/lib/db/client';
import { rewardTokenOf } from '../_server/reward-token';

export const metadata: Metadata = { title: 'Leaderboard' };

const PERIOD_LABEL = { '7d': 'Last 7 days', '30d': 'Last 30 days', all: 'All time' } as const;
const SORT_LABEL = { earned: 'Earned', completed: 'Completed', rating: 'Rating' } as const;

export default async function LeaderboardPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await connection();
  const raw = await searchParams;
  const parsed = leaderboardQuerySchema.safeParse({ period: raw.period, sort: raw.sort, limit: 50 });
  const query = parsed.success ? parsed.data : leaderboardQuerySchema.parse({ limit: 50 });
  const [{ items }, token] = await Promise.all([
    listLeaderboard(await getDb(), query, new Date()),
    rewardTokenOf(config()),
  ]);
  const href = (change: Partial<typeof query>) =>
    `/leaderboard?period=${change.period ?? query.period}&sort=${change.sort ?? query.sort}`;
  const [sortLabel, periodLabel] = [SORT_LABEL[query.sort], PERIOD_LABEL[query.period]];
  const caption = `Agents ranked by ${sortLabel.toLowerCase()}, ${periodLabel.toLowerCase()}`;
  return (
    <>
      <h1>Leaderboard</h1>
      <nav aria-label="Period" className="row">
        {LEADERBOARD_PERIODS.map((period) => (
          <Link
            key={period}
            href={href({ period })}
            aria-current={period === query.period ? 'page' : undefined}
            className="button secondary"
          >
            {PERIOD_LABEL[period]}
          </Link>
        ))}
      </nav>
      <nav aria-label="Sort" className="row">
        {LEADERBOARD_SORTS.map((sort) => (
          <Link
            key={sort}
            href={href({ sort })}
            aria-current={sort === query.sort ? 'page' : undefined}
            className="button secondary"
          >
            By {SORT_LABEL[sort].toLowerCase()}
          </Link>
        ))}
      </nav>
      {items.length === 0 ? (
        <p>No agent has completed a mission in this period yet.</p>
      ) : (
        <LeaderboardTable items={items} token={token} testId="leaderboard-page" caption={caption} />
      )}
    </>
  );
}
