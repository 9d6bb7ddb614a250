'use client';
// A client's analytics (GET /api/enterprise/analytics): range and interval, the headline figures,
// the series chart and the agents hired most.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { Analytics } from '@/lib/enterprise/schemas';
import { apiFetch } from '@/lib/web/api-client';
import { formatAmount } from '@/lib/web/money';
import { useRewardToken } from '@/lib/web/runtime-config-context';
import { ErrorAlert, LoadingMessage } from './request-status';
import { SeriesChart } from './series-chart';
import { WalletAddress } from './wallet-address';

const day = (d: Date) => d.toISOString().slice(0, 10);
const duration = (s: number | null) =>
  s === null
    ? '—'
    : s < 3600
      ? `${Math.round(s / 60)} min`
      : s < 172_800
        ? `${(s / 3600).toFixed(1)} h`
        : `${(s / 86_400).toFixed(1)} days`;

export function AnalyticsView() {
  const token = useRewardToken();
  const [range, setRange] = useState(() => ({
    from: day(new Date(Date.now() - 29 * 86_400_000)),
    to: day(new Date()),
    interval: 'day',
  }));
  const [draft, setDraft] = useState(range);
  const query = useQuery({
    queryKey: ['analytics', range],
    queryFn: () => apiFetch<Analytics>(`/api/enterprise/analytics?${new URLSearchParams(range)}`),
    placeholderData: keepPreviousData,
  });
  const apply = (e: FormEvent) => {
    e.preventDefault();
    setRange(draft);
  };
  const a = query.data;
  return (
    <>
      <form className="panel row" onSubmit={apply} aria-label="Analytics range">
        <div className="field">
          <label htmlFor="from">From</label>
          <input
            id="from"
            type="date"
            value={draft.from}
            onChange={(e) => setDraft({ ...draft, from: e.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor="to">To</label>
          <input id="to" type="date" value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} />
        </div>
        <div className="field">
          <label htmlFor="interval">Interval</label>
          <select
            id="interval"
            value={draft.interval}
            onChange={(e) => setDraft({ ...draft, interval: e.target.value })}
          >
            <option value="day">Day</option>
            <option value="week">Week</option>
          </select>
        </div>
        <button type="submit">Show</button>
      </form>
      {query.isPending && <LoadingMessage label="Loading analytics" />}
      {query.isError && (
        <ErrorAlert error={query.error} title="Could not load analytics" onRetry={() => void query.refetch()} />
      )}
      {a && (
        <div aria-busy={query.isFetching}>
          <dl className="grid" data-testid="analytics-figures">
            <div className="panel">
              <dt>Missions posted</dt>
              <dd>
                <strong>{a.missions.total}</strong>
              </dd>
            </div>
            <div className="panel">
              <dt>Held in escrow</dt>
              <dd>{formatAmount(a.escrowed, token)}</dd>
            </div>
            <div className="panel">
              <dt>Paid out</dt>
              <dd>{formatAmount(a.paid, token)}</dd>
            </div>
            <div className="panel">
              <dt>Average time to accept</dt>
              <dd>{duration(a.avgSecondsToAccept)}</dd>
            </div>
            <div className="panel">
              <dt>Average time to complete</dt>
              <dd>{duration(a.avgSecondsToComplete)}</dd>
            </div>
            <div className="panel">
              <dt>Contest rate</dt>
              <dd>{a.contestRate === null ? '—' : `${Math.round(a.contestRate * 100)}%`}</dd>
            </div>
          </dl>
          <h2>Over time</h2>
          <SeriesChart series={a.series} />
          <h2>By status</h2>
          <p>
            {Object.entries(a.missions.byStatus)
              .map(([s, n]) => `${s.toLowerCase()}: ${n}`)
              .join(' · ')}
          </p>
          <h2>Agents hired most</h2>
          {a.topAgents.length === 0 ? (
            <p>No mission completed in this range.</p>
          ) : (
            <ol>
              {a.topAgents.map((t) => (
                <li key={t.walletAddress}>
                  {t.displayName ?? <WalletAddress address={t.walletAddress} />} — {t.completed} completed,{' '}
                  {formatAmount(t.paid, token)}
                </li>
              ))}
            </ol>
          )}
        </div>
      )}
    </>
  );
}
