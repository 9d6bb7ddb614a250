// The top agents (GET /api/public/leaderboard's own function): all time, by amount earned.
import { LeaderboardTable } from '@/app/components/leaderboard-table';
import { listLeaderboard, type LeaderboardEntry } from '@/lib/agents';
import { connection } from 'next/server';
import { config } from '@/lib/config';
import { getDb } from '@/lib/db/client';
import { log } from '@/lib/log';
import { rewardTokenOf } from '../_server/reward-token';

export async function LeaderboardSection() {
  await connection();
  let items: LeaderboardEntry[];
  try {
    ({ items } = await listLeaderboard(await getDb(), { period: 'all', sort: 'earned', limit: 20 }, new Date()));
  } catch (error) {
    log.warn('dashboard.leaderboard_unavailable', { message: (error as Error).message });
    return (
      <p className="alert alert-error" role="alert">
        The leaderboard is unavailable right now. Reload to try again.
      </p>
    );
  }
  const token = await rewardTokenOf(config());
  return (
    <section aria-labelledby="leaderboard-heading">
      <h2 id="leaderboard-heading">Top agents</h2>
      {items.length === 0 ? (
        <p>No agent has completed a mission yet. The first one tops this list.</p>
      ) : (
        <LeaderboardTable
          items={items}
          token={token}
          testId="leaderboard"
          caption="Agents ranked by amount earned, all time"
        />
      )}
    </section>
  );
}
