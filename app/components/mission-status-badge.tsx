import styles from './mission-status-badge.module.css';

const LABELS: Record<string, string> = {
  OPEN: 'Open',
  ACCEPTED: 'Accepted',
  SUBMITTED: 'Submitted',
  COMPLETED: 'Completed',
  CONTESTED: 'Contested',
  DISPUTED: 'Disputed',
  CANCELLED: 'Cancelled',
  JUDGING: 'Judging',
  AWARDED: 'Awarded',
  AWAITING_FUNDING: 'Awaiting funding',
};

export function MissionStatusBadge({ status }: { status: string }) {
  return <span className={`${styles.badge} ${styles[status.toLowerCase()] ?? ''}`}>{LABELS[status] ?? status}</span>;
}
