// The earnings history: credits for completed missions and payouts, newest as the API lists them.
import Link from 'next/link';
import { describeHistoryEntry } from '@/lib/web/earnings';
import { formatAmount } from '@/lib/web/money';
import { useRewardToken } from '@/lib/web/runtime-config-context';
import { formatTime } from './mission-timeline';

export function EarningsHistory({ entries }: { entries: Record<string, unknown>[] }) {
  const token = useRewardToken();
  return (
    <section aria-labelledby="history-heading">
      <h2 id="history-heading">History</h2>
      {entries.length === 0 ? (
        <p>Nothing yet. Completed missions show up here.</p>
      ) : (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">What</th>
                <th scope="col">Amount</th>
                <th scope="col">Mission or transaction</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry, i) => {
                const h = describeHistoryEntry(entry);
                return (
                  // The history is append-only; a row's place is its identity.
                  // biome-ignore lint/suspicious/noArrayIndexKey: see the line above
                  <tr key={i}>
                    <td>{h.at ? formatTime(h.at) : '—'}</td>
                    <td>{h.kind ? h.kind.toLowerCase() : '—'}</td>
                    <td>{h.amount && /^[0-9]+$/.test(h.amount) ? formatAmount(h.amount, token) : '—'}</td>
                    <td>
                      {h.missionId && <Link href={`/missions/${h.missionId}`}>{h.missionTitle ?? 'Mission'}</Link>}
                      {h.txHash && <span className="mono"> {h.txHash}</span>}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
