'use client';
// One mission: its facts, attachments, the delivery and contests (for the two parties), the
// timeline, and what the viewer may do next. Read from GET /api/missions/{id}.
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import type { MissionView } from '@/lib/missions/schemas';
import { ApiRequestError, apiFetch } from '@/lib/web/api-client';
import { missionKey } from '@/lib/web/use-mission-action';
import { BountyPanel } from './bounty-panel';
import { MilestonesPanel } from './milestones-panel';
import { MissionActions } from './mission-actions';
import { SettlementPanel } from './settlement-panel';
import { MissionClientRecord } from './mission-client-record';
import { MissionComments } from './mission-comments';
import { CriteriaEditor } from './criteria-editor';
import { CheckResultList, MissionCriteria, SelfCheckList, UnmetList } from './mission-criteria';
import { MissionMarketplace } from './mission-marketplace';
import { MissionFileList } from './mission-file-list';
import { MissionSummary } from './mission-summary';
import { formatTime, MissionTimeline } from './mission-timeline';
import { ErrorAlert, LoadingMessage } from './request-status';
import { WalletAddress } from './wallet-address';

export function MissionDetail({ id }: { id: string }) {
  const query = useQuery({
    queryKey: missionKey(id),
    queryFn: () => apiFetch<MissionView>(`/api/missions/${encodeURIComponent(id)}`),
  });
  if (query.isPending) return <LoadingMessage label="Loading the mission" />;
  if (query.isError) {
    if (query.error instanceof ApiRequestError && query.error.status === 404) {
      return (
        <p className="alert alert-warn" role="alert">
          This mission does not exist, or only its client and agent (or, for a bounty, its entrants) can see it. Sign in
          with one of those wallets.
        </p>
      );
    }
    return <ErrorAlert error={query.error} title="Could not load the mission" onRetry={() => void query.refetch()} />;
  }
  const m = query.data;
  return (
    <article aria-labelledby="mission-title">
      <h1 id="mission-title">{m.title}</h1>
      <MissionSummary mission={m} />
      {m.status === 'AWAITING_FUNDING' && (
        <p className="alert alert-warn" role="status">
          Not on the board yet: the reward is not in escrow.{' '}
          <Link href={`/missions/${encodeURIComponent(m.id)}/fund`}>Fund this mission</Link>
        </p>
      )}
      <dl className="grid">
        <div>
          <dt>Deadline</dt>
          <dd>{formatTime(m.deadline)}</dd>
        </div>
        <div>
          <dt>Client</dt>
          <dd>
            <WalletAddress address={m.client.walletAddress} />
            {/* docs/api.md#client-record: whom the agent would work for. */}
            <br />
            <MissionClientRecord address={m.client.walletAddress} />
          </dd>
        </div>
        {!m.bounty && (
          <div>
            <dt>Agent</dt>
            <dd>{m.agent ? <WalletAddress address={m.agent.walletAddress} /> : 'Not yet accepted'}</dd>
          </div>
        )}
        <div>
          <dt>Category</dt>
          <dd>
            {m.category}
            {m.tags.length > 0 && ` · ${m.tags.join(', ')}`}
          </dd>
        </div>
        {m.reviewDeadline && (
          <div>
            <dt>Review until</dt>
            <dd>{formatTime(m.reviewDeadline)}</dd>
          </div>
        )}
      </dl>
      <h2>Description</h2>
      <p style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{m.description}</p>
      {m.attachments.length > 0 && (
        <>
          <h2>Attachments</h2>
          <MissionFileList missionId={m.id} files={m.attachments} label="Attachments" />
        </>
      )}
      <MissionCriteria mission={m} />
      <MilestonesPanel mission={m} />
      {/* docs/api.md#criteria: only its poster sees a mission AWAITING_FUNDING, and may still change them. */}
      {m.status === 'AWAITING_FUNDING' && <CriteriaEditor mission={m} />}
      {m.submission && (
        <section aria-labelledby="delivery-heading">
          <h2 id="delivery-heading">Delivery</h2>
          <p className="hint">Delivered {formatTime(m.submission.submittedAt)}</p>
          {m.submission.note && <p style={{ whiteSpace: 'pre-wrap' }}>{m.submission.note}</p>}
          <CheckResultList criteria={m.criteria} items={m.submission.checks} />
          <SelfCheckList criteria={m.criteria} items={m.submission.selfCheck} />
          <MissionFileList missionId={m.id} files={m.submission.files} label="Deliverables" />
        </section>
      )}
      {m.contests.length > 0 && (
        <section aria-labelledby="contests-heading">
          <h2 id="contests-heading">Contests</h2>
          {m.contests.map((c) => (
            <div key={c.round} className="panel">
              <p>
                <strong>Round {c.round}</strong> · {formatTime(c.contestedAt)}
              </p>
              <p style={{ whiteSpace: 'pre-wrap' }}>{c.reason}</p>
              <UnmetList criteria={m.criteria} items={c.unmet} />
              <MissionFileList missionId={m.id} files={c.files} label={`Evidence, round ${c.round}`} />
            </div>
          ))}
        </section>
      )}
      {m.bounty && <BountyPanel mission={m} />}
      <SettlementPanel mission={m} />
      <MissionTimeline mission={m} />
      <section aria-labelledby="actions-heading" className="actions-section">
        <h2 id="actions-heading">Actions</h2>
        <MissionActions mission={m} />
        <MissionMarketplace mission={m} />
      </section>
      <section aria-labelledby="comments-heading">
        <h2 id="comments-heading">Questions</h2>
        <MissionComments missionId={m.id} />
      </section>
    </article>
  );
}
