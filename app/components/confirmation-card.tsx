'use client';
// One release waiting for the person's yes (docs/api.md#confirmations): the mission, the amount, who is paid
// what, the deliverable, the app that asked — and approve or deny. The terms it was asked on are shown
// beside the same terms as they are now (docs/api.md#confirmation-terms), and the approval carries the
// termsHash the person saw. Used by the confirmation page and by Connected apps.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import type { ConfirmationView } from '@/lib/confirmations/schemas';
import type { MissionView } from '@/lib/missions/schemas';
import { apiFetch, describeApiError } from '@/lib/web/api-client';
import { appNameOf } from '@/lib/web/app-name';
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
  SUPERSEDED: 'Superseded: what it asked about changed, and nothing was released',
};

/** docs/api.md#confirmation-terms: the rows of the terms table, as the person reads them. */
const TERM_ROWS: { key: keyof NonNullable<ConfirmationView['terms']>; label: string; money?: boolean }[] = [
  { key: 'taskAmount', label: 'Escrow task holds', money: true },
  { key: 'reward', label: 'Reward', money: true },
  { key: 'agent', label: 'Agent' },
  { key: 'assignment', label: 'Assignment' },
  { key: 'round', label: 'Delivery round' },
  { key: 'winners', label: 'Winners' },
];

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
        json: { decision, ...(c.termsHash && { termsHash: c.termsHash }) },
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
      <AskedBy c={c} />
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
      {c.status === 'SUPERSEDED' && c.reason && <p data-testid="confirmation-reason">Why: {c.reason}</p>}
      {c.terms && <TermsTable c={c} token={token} />}
      {typeof c.body.reason === 'string' && <p>Reason given for places left unawarded: {c.body.reason}</p>}
      {showDeliverable && c.action === 'approve' && <Deliverable missionId={c.mission.id} />}
      {decide.isError && (
        <p className="alert alert-error" role="alert">
          {describeApiError(decide.error)}
        </p>
      )}
      {c.status === 'PENDING' && (
        <div className="row">
          <button
            type="button"
            disabled={decide.isPending || (c.live?.changed.length ?? 0) > 0}
            onClick={() => decide.mutate('approve')}
          >
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

/** Who asked: a personal token by the name the person gave it; an app by its own, unverified, claim. */
function AskedBy({ c }: { c: ConfirmationView }) {
  const app = appNameOf(c.grant);
  return (
    <p className="hint">
      Asked by{' '}
      {c.grant.kind === 'oauth' ? (
        <>
          the connected app <strong data-testid="confirmation-app">{app.name}</strong>{' '}
          <em data-testid="confirmation-app-unverified">(unverified name: the app chose it)</em>
          {app.reserved && ' (it calls itself “taskmarket”, a name only this service uses: it is not us)'}
          {c.grant.clientDomain && (
            <>
              {' '}
              — described by a document at <code>{c.grant.clientDomain}</code>
            </>
          )}
        </>
      ) : (
        <>
          your personal access token <strong>{c.grant.name}</strong>
        </>
      )}{' '}
      on {formatTime(c.createdAt)}. The text of a mission is written by others: decide on what you see here, not on what
      an agent told you.
    </p>
  );
}

const termText = (value: unknown, money: boolean | undefined, token: ReturnType<typeof useRewardToken>) => {
  if (value === null || value === undefined) return '—';
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.join(', ');
  return money ? formatAmount(String(value), token) : String(value);
};

/** The terms it was asked on, and beside them the same terms now: a difference is marked, and blocks the approval. */
function TermsTable({ c, token }: { c: ConfirmationView; token: ReturnType<typeof useRewardToken> }) {
  const stored = c.terms!;
  const live = c.live;
  const rows = TERM_ROWS.filter((row) => stored[row.key] !== null);
  return (
    <table data-testid="confirmation-terms">
      <caption>
        The terms you are asked to approve
        {live && live.changed.length > 0 && ' — they changed since; approving is refused'}
      </caption>
      <thead>
        <tr>
          <th scope="col">Term</th>
          <th scope="col">When asked</th>
          <th scope="col">Now</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => {
          const changed = live?.changed.includes(row.key) ?? false;
          return (
            <tr key={row.key} data-changed={changed || undefined}>
              <th scope="row">{row.label}</th>
              <td data-testid={`terms-stored-${row.key}`} style={{ overflowWrap: 'anywhere' }}>
                {termText(stored[row.key], row.money, token)}
              </td>
              <td data-testid={`terms-live-${row.key}`} style={{ overflowWrap: 'anywhere' }}>
                {live ? termText(live.terms[row.key], row.money, token) : 'unavailable'}
                {changed && <strong> (changed)</strong>}
              </td>
            </tr>
          );
        })}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">termsHash</th>
          <td colSpan={2}>
            <code data-testid="confirmation-terms-hash" style={{ overflowWrap: 'anywhere' }}>
              {c.termsHash}
            </code>
          </td>
        </tr>
      </tfoot>
    </table>
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
