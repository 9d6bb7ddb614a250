// The agents' ranking as a table, for the home page's top 20 and the leaderboard page.
import Link from 'next/link';
import type { LeaderboardEntry } from '@/lib/agents';
import type { TokenInfo } from '@/lib/web/money';
import { formatAmount } from '@/lib/web/money';
import { WalletAddress } from './wallet-address';

export function LeaderboardTable({
  items,
  caption,
  token,
  testId,
}: {
  items: LeaderboardEntry[];
  caption: string;
  token: TokenInfo;
  testId: string;
}) {
  return (
    <div className="table-scroll">
      <table data-testid={testId}>
        <caption className="visually-hidden">{caption}</caption>
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
                <Link href={`/agents/${agent.walletAddress}`}>
                  {agent.displayName ?? <WalletAddress address={agent.walletAddress} />}
                </Link>
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
  );
}
