'use client';
// The marketplace steps of a mission page (docs/api.md#applications): an agent applies to an APPLICATION mission,
// its owner reads the applications and assigns one, the owner of a COMPLETED mission rates its agent, and the
// agent of a settled one its client (docs/api.md#reviews, double-blind). Each panel shows only where the viewer
// may act.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { type Application, applySchema, reviewSchema, type ReviewView } from '@/lib/marketplace/schemas';
import type { MissionView } from '@/lib/missions/schemas';
import { apiFetch, describeApiError } from '@/lib/web/api-client';
import { useSession } from '@/lib/web/use-session';
import { missionKey } from '@/lib/web/use-mission-action';
import { ErrorAlert, LoadingMessage } from './request-status';
import { WalletAddress } from './wallet-address';

export function MissionMarketplace({ mission }: { mission: MissionView }) {
  const { session } = useSession();
  if (!session) return null;
  const owner = session.user.walletAddress === mission.client.walletAddress;
  const open = mission.status === 'OPEN' && mission.assignment === 'APPLICATION';
  return (
    <>
      {open && !owner && session.user.role === 'AGENT' && <ApplyForm missionId={mission.id} />}
      {open && owner && <Applications missionId={mission.id} />}
      {mission.status === 'COMPLETED' && owner && <ReviewForm missionId={mission.id} subject="agent" />}
      {(mission.status === 'COMPLETED' || mission.status === 'CANCELLED') &&
        mission.agent?.walletAddress === session.user.walletAddress && (
          <ReviewForm missionId={mission.id} subject="client" />
        )}
    </>
  );
}

function ApplyForm({ missionId }: { missionId: string }) {
  const [pitch, setPitch] = useState('');
  const apply = useMutation({
    mutationFn: () =>
      apiFetch<Application>(`/api/missions/${encodeURIComponent(missionId)}/apply`, {
        method: 'POST',
        json: { pitch: pitch.trim() },
      }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (pitch.trim()) apply.mutate();
  };
  if (apply.isSuccess)
    return (
      <p className="alert alert-ok" role="status" data-testid="applied">
        Applied. The client will choose an agent from the applications.
      </p>
    );
  return (
    <form className="panel stack" onSubmit={submit} aria-labelledby="apply-heading">
      <h3 id="apply-heading">Apply for this mission</h3>
      <p className="hint">The client picks the agent from the applications.</p>
      <label htmlFor="apply-pitch">Why you (your pitch)</label>
      <textarea
        id="apply-pitch"
        value={pitch}
        maxLength={applySchema.shape.pitch.maxLength!}
        rows={3}
        onChange={(e) => setPitch(e.target.value)}
      />
      <button type="submit" disabled={apply.isPending || !pitch.trim()}>
        Apply
      </button>
      {apply.isError && (
        <p className="alert alert-error" role="alert">
          {describeApiError(apply.error)}
        </p>
      )}
    </form>
  );
}

function Applications({ missionId }: { missionId: string }) {
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: ['applications', missionId],
    queryFn: () =>
      apiFetch<{ items: Application[] }>(`/api/missions/${encodeURIComponent(missionId)}/applications?limit=100`),
  });
  const assign = useMutation({
    mutationFn: (agent: string) =>
      apiFetch<MissionView>(`/api/missions/${encodeURIComponent(missionId)}/assign`, {
        method: 'POST',
        json: { agent },
      }),
    onSuccess: (mission) => {
      queryClient.setQueryData(missionKey(missionId), mission);
      void queryClient.invalidateQueries({ queryKey: ['missions'] });
    },
  });
  if (list.isPending) return <LoadingMessage label="Loading the applications" />;
  if (list.isError)
    return (
      <ErrorAlert error={list.error} title="Could not load the applications" onRetry={() => void list.refetch()} />
    );
  return (
    <section className="panel stack" aria-labelledby="applications-heading">
      <h3 id="applications-heading">Applications</h3>
      {list.data.items.length === 0 && <p className="hint">No agent has applied yet.</p>}
      <ul className="stack" data-testid="applications">
        {list.data.items.map((a) => (
          <li key={a.id} className="stack">
            <p>
              <WalletAddress address={a.agent.walletAddress} />
              {a.agent.rating !== null
                ? ` · rated ${a.agent.rating.toFixed(2)} (${a.agent.ratingCount})`
                : ' · not rated yet'}
            </p>
            <p style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{a.pitch}</p>
            <button type="button" disabled={assign.isPending} onClick={() => assign.mutate(a.agent.walletAddress)}>
              Assign this agent
            </button>
          </li>
        ))}
      </ul>
      {assign.isError && (
        <p className="alert alert-error" role="alert">
          {describeApiError(assign.error)}
        </p>
      )}
    </section>
  );
}

function ReviewForm({ missionId, subject }: { missionId: string; subject: 'agent' | 'client' }) {
  const [rating, setRating] = useState(5);
  const [comment, setComment] = useState('');
  const review = useMutation({
    mutationFn: () =>
      apiFetch<ReviewView>(`/api/missions/${encodeURIComponent(missionId)}/review`, {
        method: 'POST',
        json: { rating, ...(comment.trim() && { comment: comment.trim() }) },
      }),
  });
  if (review.isSuccess)
    return (
      <p className="alert alert-ok" role="status" data-testid="reviewed">
        Thanks — you rated this {subject} {review.data.rating} of 5. It stays hidden from them until they review you
        too, or for 7 days.
      </p>
    );
  return (
    <form
      className="panel stack"
      aria-labelledby="review-heading"
      onSubmit={(e) => {
        e.preventDefault();
        review.mutate();
      }}
    >
      <h3 id="review-heading">Rate the {subject}</h3>
      <label htmlFor="review-rating">Rating (1–5)</label>
      <select id="review-rating" value={rating} onChange={(e) => setRating(Number(e.target.value))}>
        {[5, 4, 3, 2, 1].map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
      <label htmlFor="review-comment">Comment (optional)</label>
      <textarea
        id="review-comment"
        value={comment}
        maxLength={reviewSchema.shape.comment.unwrap().maxLength!}
        rows={2}
        onChange={(e) => setComment(e.target.value)}
      />
      <button type="submit" disabled={review.isPending}>
        Send review
      </button>
      {review.isError && (
        <p className="alert alert-error" role="alert">
          {describeApiError(review.error)}
        </p>
      )}
    </form>
  );
}
