'use client';
// The operator's dispute desk (docs/api.md#operator-missions): ADMIN_TOKEN pasted into this tab only, the
// mission read whole through GET /api/admin/missions/{id}, then the resolve form.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { MissionView } from '@/lib/missions/schemas';
import { ApiRequestError, apiFetch } from '@/lib/web/api-client';
import { operatorInit, operatorMissionKey, readOperatorToken, storeOperatorToken } from '@/lib/web/operator-token';
import { CheckResultList, MissionCriteria } from './mission-criteria';
import { MissionSummary } from './mission-summary';
import { MissionTimeline } from './mission-timeline';
import { ErrorAlert, LoadingMessage } from './request-status';
import { ResolveForm } from './resolve-form';
import { WalletAddress } from './wallet-address';

export function OperatorDispute({ id }: { id: string }) {
  const [token, setToken] = useState<string | null>(null);
  const queryClient = useQueryClient();
  useEffect(() => setToken(readOperatorToken()), []);
  const use = (value: string | null) => {
    storeOperatorToken(value);
    queryClient.removeQueries({ queryKey: operatorMissionKey(id) });
    setToken(value);
  };
  return (
    <>
      <h1>Operator: mission</h1>
      <TokenForm token={token} onChange={use} />
      {token && <OperatorMission id={id} token={token} />}
    </>
  );
}

function TokenForm({ token, onChange }: { token: string | null; onChange: (token: string | null) => void }) {
  const [text, setText] = useState('');
  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    if (text.trim()) onChange(text.trim());
    setText('');
  };
  return (
    <section aria-labelledby="operator-token-heading" className="panel">
      <h2 id="operator-token-heading">Operator token</h2>
      <p className="hint">
        The token is kept in this browser tab&apos;s sessionStorage only — never in a URL or a cookie — and is forgotten
        when the tab closes.
      </p>
      {token ? (
        <p className="row">
          <span role="status">Token set for this tab.</span>
          <button type="button" className="secondary" onClick={() => onChange(null)}>
            Forget the token
          </button>
        </p>
      ) : (
        <form className="row" onSubmit={onSubmit}>
          <label htmlFor="operator-token">ADMIN_TOKEN</label>
          <input
            id="operator-token"
            type="password"
            autoComplete="off"
            spellCheck={false}
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
          <button type="submit">Use token</button>
        </form>
      )}
    </section>
  );
}

function OperatorMission({ id, token }: { id: string; token: string }) {
  const query = useQuery({
    queryKey: operatorMissionKey(id),
    queryFn: () => apiFetch<MissionView>(`/api/admin/missions/${encodeURIComponent(id)}`, operatorInit(token)),
    retry: false,
  });
  if (query.isPending) return <LoadingMessage label="Loading the mission" />;
  if (query.isError) {
    const status = query.error instanceof ApiRequestError ? query.error.status : 0;
    if (status === 401)
      return (
        <p className="alert alert-error" role="alert">
          The token was refused. Forget it and paste the server&apos;s ADMIN_TOKEN.
        </p>
      );
    if (status === 404)
      return (
        <p className="alert alert-warn" role="alert">
          No such mission (or this server has no ADMIN_TOKEN set).
        </p>
      );
    return <ErrorAlert error={query.error} title="Could not load the mission" onRetry={() => void query.refetch()} />;
  }
  const m = query.data;
  return (
    <article aria-labelledby="mission-title">
      <h2 id="mission-title">{m.title}</h2>
      <MissionSummary mission={m} />
      <dl className="grid">
        <div>
          <dt>Client</dt>
          <dd>
            <WalletAddress address={m.client.walletAddress} />
          </dd>
        </div>
        <div>
          <dt>Agent</dt>
          <dd>{m.agent ? <WalletAddress address={m.agent.walletAddress} /> : 'None'}</dd>
        </div>
      </dl>
      <h3>Description</h3>
      <p style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{m.description}</p>
      <MissionCriteria mission={m} />
      {m.submission && <CheckResultList criteria={m.criteria} items={m.submission.checks} />}
      <ResolveForm mission={m} token={token} />
      <MissionTimeline mission={m} />
    </article>
  );
}
