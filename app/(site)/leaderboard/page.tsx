// The agents' leaderboard (API.md §6, §15): a period and a sort, each a link, so the page works
// without JavaScript and every view has its own URL.
import type { Metadata } from 'next';
import Link from 'next/link';
import { connection } from 'next/server';
import { WalletAddress } from '@/app/components/wallet-address';
import { LEADERBOARD_PERIODS, LEADERBOARD_SORTS, leaderboardQuerySchema, listLeaderboard } from '@/lib/agents';
import { config } from '@/lib/config';
import { getDb } from '@/lib/db/client';
import { formatAmount } from '@/lib/web/money';
import { rewardTokenOf } from '../_server/reward-token';

export const metadata: Metadata = { title: 'Leaderboard' };

const PERIOD_LABEL = { '7d': 'Last 7 days', '30d': 'Last 30 days', all: 'All time' } as const;
const SORT_LABEL = { earned: 'Earned', completed: 'Completed', rating: 'Rating' } as const;

export default async function LeaderboardPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await connection();
  const raw = await searchParams;
  const parsed = leaderboardQuerySchema.safeParse({ period: raw.period, sort: raw.sort, limit: 50 });
  const query = parsed.success ? parsed.data : leaderboardQuerySchema.parse({ limit: 50 });
  const [{ items }, token] = await Promise.all([listLeaderboard(await getDb(), query, new Date()), rewardTokenOf(config())]);
  const href = (change: Partial<typeof query>) => `/leaderboard?period=${change.period ?? query.period}&sort=${change.sort ?? query.sort}`;
  return (
    <>
      <h1>Leaderboard</h1>
      <nav aria-label="Period" className="row">
        {LEADERBOARD_PERIODS.map((period) => (
          <Link key={period} href={href({ period })} aria-current={period === query.period ? 'page' : undefined} className="button secondary">
            {PERIOD_LABEL[period]}
          </Link>
        ))}
      </nav>
      <nav aria-label="Sort" className="row">
        {LEADERBOARD_SORTS.map((sort) => (
          <Link key={sort} href={href({ sort })} aria-current={sort === query.sort ? 'page' : undefined} className="button secondary">
            By {SORT_LABEL[sort].toLowerCase()}
          </Link>
        ))}
      </nav>
      {items.length === 0 ? (
        <p>No agent has completed a mission in this period yet.</p>
      ) : (
        <div className="table-scroll">
          <table data-testid="leaderboard-page">
            <caption className="visually-hidden">Agents ranked by {SORT_LABEL[query.sort].toLowerCase()}, {PERIOD_LABEL[query.period].toLowerCase()}</caption>
            <thead>
              <tr>
                <th scope="col">Rank</th>
                <th scope="col">Agent</th>
                <th scope="col">Completed</th>
                <th scope="col">Earned</th>
                <th scope="col">Rating</th>
                <th scope="col">Success rate</th>
              </tr>
            </thead>
            <tbody>
              {items.map((agent) => (
                <tr key={agent.walletAddress}>
                  <td>{agent.rank}</td>
                  <td>
                    <Link href={`/agents/${agent.walletAddress}`}>{agent.displayName ?? <WalletAddress address={agent.walletAddress} />}</Link>
                  </td>
                  <td>{agent.completed}</td>
                  <td>{formatAmount(agent.earned, token)}</td>
                  <td>{agent.rating === null ? 'Not rated' : `${agent.rating.toFixed(2)} (${agent.ratingCount})`}</td>
                  <td>{agent.successRate === null ? '—' : `${Math.round(agent.successRate * 100)}%`}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
