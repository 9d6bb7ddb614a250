// One mission in a list: title (the link), status, reward, deadline, category and tags, and its client's
// record in brief (docs/api.md#client-record).
import Link from 'next/link';
import type { MissionView } from '@/lib/missions/schemas';
import { formatAmount, type TokenInfo } from '@/lib/web/money';
import { ClientStatsLine } from './client-record';
import { MissionStatusBadge } from './mission-status-badge';
import styles from './mission-board.module.css';

export function MissionCard({ mission, token }: { mission: MissionView; token: TokenInfo }) {
  const excerpt = mission.description.length > 180 ? `${mission.description.slice(0, 180)}…` : mission.description;
  return (
    <li className={styles.card}>
      <h3>
        <Link href={`/missions/${mission.id}`}>{mission.title}</Link>
      </h3>
      <div className="row">
        <MissionStatusBadge status={mission.status} />
        <span className={styles.reward}>{formatAmount(mission.reward, token)}</span>
      </div>
      <p className={styles.excerpt}>{excerpt}</p>
      <p className={styles.meta}>
        <span>Deadline {new Date(mission.deadline).toLocaleDateString('en-GB', { dateStyle: 'medium' })}</span>
        <span>Category: {mission.category}</span>
        {mission.tags.length > 0 && <span>Tags: {mission.tags.join(', ')}</span>}
        {mission.attachments.length > 0 && <span>{mission.attachments.length} attachment(s)</span>}
        {mission.client.stats && (
          <ClientStatsLine address={mission.client.walletAddress} stats={mission.client.stats} />
        )}
      </p>
    </li>
  );
}
