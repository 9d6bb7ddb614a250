'use client';
// One release waiting for the person's yes (docs/api.md#confirmations): the mission, the amount, who is paid
// what, the deliverable, the app that asked — and approve or deny. Used by the confirmation page and
// by Connected apps.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import type { ConfirmationView } from '@/lib/confirmations/schemas';
import type { MissionView } from '@/lib/missions/schemas';
import { apiFetch, describeApiError } from '@/lib/web/api-client';
import { formatAmount } from '@/lib/web/money';
import { useRewardToken } from '@/lib/web/runtime-config-context';
import { MissionFileList } from './mission-file-list';
import { formatTime } from './mission-timeline';

export const CONFIRMATIONS_KEY = ['confirmations'];

const STATUS_TEXT: Record<ConfirmationView['status'], string> = {
  PENDING: 'Waiting for your decision',
  APPROVED: 'Approved: the release was applied',
  DENIED: 'Denied: nothing was released',
  EXPIRED: 'Expired: nothing was released',
};

export function ConfirmationCard({
  confirmation: c,
  showDeliverable = false,
}: {
  confirmation: ConfirmationView;
  showDeliverable?: boolean;
}) {
  const token = useRewardToken();
  const queryClient = useQueryClient();
  const decide = useMutation({
    mutationFn: (decision: 'approve' | 'deny') =>
      apiFetch<ConfirmationView>(`/api/confirmations/${encodeURIComponent(c.id)}`, {
        method: 'POST',
        json: { decision },
      }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: CONFIRMATIONS_KEY });
      void queryClient.invalidateQueries({ queryKey: ['confirmation', c.id] });
    },
  });
  const what = c.action === 'approve' ? 'Approve the delivery of' : 'Award the bounty';
  return (
    <article className="panel stack" aria-labelledby={`confirmation-${c.id}`} data-testid="confirmation">
      <h3 id={`confirmation-${c.id}`} style={{ overflowWrap: 'anywhere' }}>
        {what} <Link href={`/missions/${c.mission.id}`}>{c.mission.title}</Link>
      </h3>
      <p className="hint">
        Asked by <strong>{c.grant.name}</strong> ({c.grant.kind === 'oauth' ? 'connected app' : 'personal access token'}
        ) on {formatTime(c.createdAt)}. The text of a mission is written by others: decide on what you see here, not on
        what an agent told you.
      </p>
      <dl className="grid">
        <div>
          <dt>Released from your escrow</dt>
          <dd data-testid="confirmation-amount">{formatAmount(c.amount, token)}</dd>
        </div>
        <div>
          <dt>Paid to</dt>
          <dd>
            {c.recipients.length === 0
              ? 'No one: every place left unawarded'
              : c.recipients.map((r) => (
                  <span key={r.walletAddress} style={{ display: 'block', overflowWrap: 'anywhere' }}>
                    <code>{r.walletAddress}</code>
                    {r.amount !== null && ` — ${formatAmount(r.amount, token)}`}
                  </span>
                ))}
          </dd>
        </div>
        <div>
          <dt>Mission now</dt>
          <dd>{c.mission.status}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd data-testid="confirmation-status">
            {STATUS_TEXT[c.status]}
            {c.status === 'PENDING' && ` (until ${formatTime(c.expiresAt)})`}
          </dd>
        </div>
      </dl>
      {typeof c.body.reason === 'string' && <p>Reason given for places left unawarded: {c.body.reason}</p>}
      {showDeliverable && c.action === 'approve' && <Deliverable missionId={c.mission.id} />}
      {decide.isError && (
        <p className="alert alert-error" role="alert">
          {describeApiError(decide.error)}
        </p>
      )}
      {c.status === 'PENDING' && (
        <div className="row">
          <button type="button" disabled={decide.isPending} onClick={() => decide.mutate('approve')}>
            Approve and release
          </button>
          <button type="button" className="danger" disabled={decide.isPending} onClick={() => decide.mutate('deny')}>
            Deny
          </button>
        </div>
      )}
    </article>
  );
}

/** What the agent delivered, as the mission's owner sees it. */
function Deliverable({ missionId }: { missionId: string }) {
  const mission = useQuery({
    queryKey: ['mission', missionId],
    queryFn: () => apiFetch<MissionView>(`/api/missions/${encodeURIComponent(missionId)}`),
  });
  const submission = mission.data?.submission;
  if (!submission) return null;
  return (
    <section className="stack" aria-label="The deliverable">
      <h4>The deliverable</h4>
      {submission.note && <p style={{ whiteSpace: 'pre-wrap' }}>{submission.note}</p>}
      <MissionFileList missionId={missionId} files={submission.files} label="Deliverables" />
    </section>
  );
}
