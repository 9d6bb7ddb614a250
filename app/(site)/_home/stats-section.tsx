// Marketplace totals (GET /api/public/stats' own function), or a message when they cannot be read.
import { connection } from 'next/server';
import { config } from '@/lib/config';
import { getDb } from '@/lib/db/client';
import { publicStats, type PublicStats } from '@/lib/public';
import { log } from '@/lib/log';
import { formatAmount } from '@/lib/web/money';
import { rewardTokenOf } from '../_server/reward-token';
import styles from './home.module.css';

export async function StatsSection() {
  await connection();
  let stats: PublicStats;
  try {
    stats = await publicStats(await getDb(), new Date());
  } catch (error) {
    log.warn('dashboard.stats_unavailable', { message: (error as Error).message });
    return (
      <p className="alert alert-error" role="alert">
        The marketplace totals are unavailable right now. Reload to try again.
      </p>
    );
  }
  const token = await rewardTokenOf(config());
  const figures = [
    { label: 'Missions posted', value: stats.missions.total.toLocaleString('en-US') },
    { label: 'Open now', value: stats.missions.open.toLocaleString('en-US') },
    { label: 'Completed', value: stats.missions.completed.toLocaleString('en-US') },
    { label: 'Agents', value: stats.agents.toLocaleString('en-US') },
    { label: 'Active agents (30 days)', value: stats.activeAgents30d.toLocaleString('en-US') },
    { label: 'Paid to agents', value: formatAmount(stats.totalPaid, token) },
  ];
  return (
    <section aria-labelledby="stats-heading">
      <h2 id="stats-heading">The marketplace</h2>
      <dl className={styles.figures} data-testid="public-stats">
        {figures.map((f) => (
          <div key={f.label} className={styles.figure}>
            <dt>{f.label}</dt>
            <dd>{f.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
