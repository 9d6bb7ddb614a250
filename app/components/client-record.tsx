// A client's record as the dashboard shows it (docs/api.md#client-record): the compact line a board card
// carries (client.stats) and the full figures of the client page. Plain markup, for server and client pages.
import Link from 'next/link';
import type { ClientRecord, ClientStats } from '@/lib/clients/schemas';

/** 3 h 20 min, 45 s: a decision time as a person reads it. */
export function formatDecisionTime(seconds: number | null): string {
  if (seconds === null) return '—';
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
}

const percent = (rate: number | null) => (rate === null ? '—' : `${Math.round(rate * 100)}%`);

/** One line: whom the mission is for, with a link to the client's page. */
export function ClientStatsLine({ address, stats }: { address: string; stats: ClientStats }) {
  return (
    <span data-testid="client-stats">
      <Link href={`/clients/${address}`}>Client</Link>: {stats.completed} of {stats.funded} completed · approves{' '}
      {percent(stats.approvalRate)} · decides in {formatDecisionTime(stats.medianDecisionSeconds)}
    </span>
  );
}

export function ClientRecordFigures({ record }: { record: ClientRecord }) {
  const figures: [string, string | number][] = [
    ['Funded', record.funded],
    ['Completed', record.completed],
    ['Approved', record.approvedExplicitly],
    ['Approved by silence', record.approvedBySilence],
    ['Approval rate', percent(record.approvalRate)],
    ['Median decision', formatDecisionTime(record.medianDecisionSeconds)],
    ['Contests raised', record.contestsRaised],
    ['Contests decided for the agent', record.contestsDecidedForAgent],
    ['Cancelled after acceptance', record.cancelledAfterAcceptance],
    ['Unfunded, lapsed', record.unfundedLapsed],
  ];
  return (
    <dl className="grid" data-testid="client-record">
      {figures.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
