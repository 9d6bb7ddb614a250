'use client';
// A bounty on its mission page (docs/api.md#bounties): its terms and, once awarded, the result, for all who
// see it; for an agent the entry form and its own entry; for the client every entry side by side
// and the award form while JUDGING; for an entrant the contest of the award. The API decides who
// reads which entry — this page only shows what GET /entries answers the viewer.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { EntryView } from '@/lib/bounties/schemas';
import { missionNoteSchema, missionReasonSchema } from '@/lib/missions/fields';
import type { MissionView } from '@/lib/missions/schemas';
import { apiFetch } from '@/lib/web/api-client';
import { formatAmount } from '@/lib/web/money';
import { postMissionRequest } from '@/lib/web/mission-requests';
import { useRewardToken } from '@/lib/web/runtime-config-context';
import { missionKey } from '@/lib/web/use-mission-action';
import { useSession } from '@/lib/web/use-session';
import { FilePicker } from './file-picker';
import { MissionFileList } from './mission-file-list';
import { formatTime } from './mission-timeline';
import { ErrorAlert } from './request-status';
import { WalletAddress } from './wallet-address';
import { WorkForm } from './work-form';

type Bounty = NonNullable<MissionView['bounty']>;
const entriesKey = (id: string) => ['entries', id] as const;

export function BountyPanel({ mission }: { mission: MissionView }) {
  const { session } = useSession();
  const bounty = mission.bounty!;
  const me = session?.user.walletAddress;
  const owner = me === mission.client.walletAddress;
  const entries = useQuery({
    queryKey: entriesKey(mission.id),
    queryFn: () =>
      apiFetch<{ items: EntryView[] }>(`/api/missions/${encodeURIComponent(mission.id)}/entries?limit=100`),
    enabled: Boolean(session),
  });
  const items = entries.data?.items ?? [];
  const mine = items.find((e) => e.agent.walletAddress === me);
  const open = mission.status === 'OPEN' && new Date(mission.deadline).getTime() > Date.now();
  return (
    <section aria-labelledby="bounty-heading" data-testid="bounty-panel">
      <h2 id="bounty-heading">Bounty</h2>
      <Terms mission={mission} bounty={bounty} />
      {bounty.awards.length > 0 && <Result mission={mission} bounty={bounty} me={me} />}
      {entries.isError && (
        <ErrorAlert error={entries.error} title="Could not load the entries" onRetry={() => void entries.refetch()} />
      )}
      {owner && <ClientEntries mission={mission} entries={items} />}
      {!owner && mine && !(mission.status === 'COMPLETED') && <OwnEntry mission={mission} entry={mine} />}
      {!owner && mission.status === 'COMPLETED' && items.length > 0 && (
        <EntryGrid missionId={mission.id} entries={items} heading="All entries" />
      )}
      {!owner && session?.user.role === 'AGENT' && open && (
        <EntryForm missionId={mission.id} replacing={Boolean(mine)} />
      )}
      {!owner && mine && mission.status === 'AWARDED' && !mine.contested && (
        <WorkForm
          missionId={mission.id}
          action="contest"
          heading="Contest the award"
          textField="reason"
          textLabel="Why the award is wrong"
          textRequired
          maxLength={missionReasonSchema.maxLength!}
          filesLabel="Evidence (optional)"
          submitLabel="Contest award"
        />
      )}
    </section>
  );
}

function Terms({ mission, bounty }: { mission: MissionView; bounty: Bounty }) {
  const split = bounty.split ? bounty.split.map((p) => `${p} %`).join(' / ') : 'equal shares';
  const until =
    mission.reviewDeadline &&
    (mission.status === 'JUDGING' ? 'Judging until' : mission.status === 'AWARDED' ? 'Contests until' : null);
  return (
    <dl className="grid">
      <div>
        <dt>Places</dt>
        <dd>
          {bounty.winners} ({split})
        </dd>
      </div>
      <div>
        <dt>Entries</dt>
        <dd data-testid="bounty-entries">{bounty.entries}</dd>
      </div>
      <div>
        <dt>Entries close</dt>
        <dd>{formatTime(mission.deadline)}</dd>
      </div>
      {until && (
        <div>
          <dt>{until}</dt>
          <dd>{formatTime(mission.reviewDeadline!)}</dd>
        </div>
      )}
    </dl>
  );
}

function Result({ mission, bounty, me }: { mission: MissionView; bounty: Bounty; me: string | undefined }) {
  const token = useRewardToken();
  const mine = bounty.awards.find((a) => a.walletAddress === me);
  return (
    <div className="panel" data-testid="bounty-result">
      <h3>{mission.status === 'COMPLETED' ? 'Result' : 'The award'}</h3>
      <ol>
        {bounty.awards.map((a) => (
          <li key={a.place}>
            <WalletAddress address={a.walletAddress} /> — {formatAmount(a.amount, token)}
          </li>
        ))}
      </ol>
      {bounty.awardReason && (
        <p>
          <strong>Places left unawarded:</strong> {bounty.awardReason}
        </p>
      )}
      {me && mission.client.walletAddress !== me && (
        <p data-testid="bounty-outcome">
          {mine ? `You won place ${mine.place}.` : 'Your entry was not awarded a place.'}
        </p>
      )}
    </div>
  );
}

function EntryCard({ missionId, entry }: { missionId: string; entry: EntryView }) {
  const token = useRewardToken();
  return (
    <article className="panel" data-testid="entry-card">
      <p className="row">
        <WalletAddress address={entry.agent.walletAddress} />
        {entry.place !== null && (
          <strong>
            Place {entry.place} · {formatAmount(entry.amount ?? '0', token)}
          </strong>
        )}
        {entry.contested && <span>Contested the award</span>}
      </p>
      <p className="hint">
        Version {entry.version} · {formatTime(entry.updatedAt)}
      </p>
      {entry.note && <p style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{entry.note}</p>}
      <MissionFileList
        missionId={missionId}
        files={entry.files}
        label={`Files of the entry by ${entry.agent.walletAddress}`}
      />
    </article>
  );
}

function EntryGrid({ missionId, entries, heading }: { missionId: string; entries: EntryView[]; heading: string }) {
  return (
    <>
      <h3>{heading}</h3>
      <div className="grid" data-testid="entry-grid">
        {entries.map((e) => (
          <EntryCard key={e.id} missionId={missionId} entry={e} />
        ))}
      </div>
    </>
  );
}

function OwnEntry({ mission, entry }: { mission: MissionView; entry: EntryView }) {
  return (
    <div data-testid="own-entry">
      <h3>Your entry</h3>
      <p className="hint">Only you and the client see it until the bounty is completed.</p>
      <EntryCard missionId={mission.id} entry={entry} />
    </div>
  );
}

function ClientEntries({ mission, entries }: { mission: MissionView; entries: EntryView[] }) {
  if (entries.length === 0) return <p>No entries yet.</p>;
  return (
    <>
      <EntryGrid missionId={mission.id} entries={entries} heading={`Entries (${entries.length})`} />
      {mission.status === 'JUDGING' && <AwardForm mission={mission} entries={entries} />}
    </>
  );
}

function useRefreshBounty(missionId: string) {
  const queryClient = useQueryClient();
  return async (mission?: MissionView) => {
    if (mission) queryClient.setQueryData(missionKey(missionId), mission);
    else await queryClient.invalidateQueries({ queryKey: missionKey(missionId) });
    await queryClient.invalidateQueries({ queryKey: entriesKey(missionId) });
  };
}

function AwardForm({ mission, entries }: { mission: MissionView; entries: EntryView[] }) {
  const places = mission.bounty!.winners;
  const [picks, setPicks] = useState<string[]>(() => Array.from({ length: places }, () => ''));
  const [reason, setReason] = useState('');
  const refresh = useRefreshBounty(mission.id);
  const award = useMutation({
    mutationFn: (body: { winners: string[]; reason?: string }) =>
      apiFetch<MissionView>(`/api/missions/${encodeURIComponent(mission.id)}/award`, { method: 'POST', json: body }),
    onSuccess: (m) => refresh(m),
  });
  const winners = picks.filter(Boolean);
  const repeated = new Set(winners).size !== winners.length;
  const needsReason = winners.length < places;

  function submit(e: FormEvent) {
    e.preventDefault();
    if (repeated || (needsReason && reason.trim() === '')) return;
    award.mutate({ winners, ...(needsReason && { reason: reason.trim() }) });
  }

  return (
    <form className="panel stack" onSubmit={submit} aria-labelledby="award-heading" data-testid="award-form">
      <h3 id="award-heading">Award the bounty</h3>
      {picks.map((pick, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a place is its position in the list
        <div className="field" key={i}>
          <label htmlFor={`place-${i + 1}`}>
            Place {i + 1}
            {mission.bounty!.split ? ` (${mission.bounty!.split[i]} %)` : ''}
          </label>
          <select
            id={`place-${i + 1}`}
            value={pick}
            onChange={(e) => setPicks(picks.map((p, j) => (j === i ? e.target.value : p)))}
          >
            <option value="">Leave unawarded</option>
            {entries.map((entry) => (
              <option key={entry.id} value={entry.agent.walletAddress}>
                {entry.agent.walletAddress}
              </option>
            ))}
          </select>
        </div>
      ))}
      {repeated && <p className="field-error">Each entrant can win one place.</p>}
      {needsReason && (
        <div className="field">
          <label htmlFor="award-reason">Why places stay unawarded</label>
          <textarea
            id="award-reason"
            value={reason}
            maxLength={missionReasonSchema.maxLength!}
            onChange={(e) => setReason(e.target.value)}
            aria-describedby="award-reason-hint"
          />
          <p id="award-reason-hint" className="hint">
            Required: entrants see it and may contest it; their shares come back to you.
          </p>
        </div>
      )}
      {award.isError && <ErrorAlert error={award.error} title="Could not award the bounty" />}
      <button type="submit" disabled={award.isPending || repeated || (needsReason && reason.trim() === '')}>
        {award.isPending ? 'Awarding…' : 'Award'}
      </button>
    </form>
  );
}

function EntryForm({ missionId, replacing }: { missionId: string; replacing: boolean }) {
  const [note, setNote] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const refresh = useRefreshBounty(missionId);
  const enter = useMutation({
    mutationFn: () =>
      postMissionRequest<EntryView>(
        `/api/missions/${encodeURIComponent(missionId)}/entries`,
        { note: note.trim() },
        { files },
      ),
    onSuccess: async () => {
      setNote('');
      setFiles([]);
      await refresh();
    },
  });
  const empty = note.trim() === '' && files.length === 0;
  return (
    <form
      className="panel stack"
      onSubmit={(e) => {
        e.preventDefault();
        if (!empty) enter.mutate();
      }}
      aria-labelledby="entry-heading"
      data-testid="entry-form"
    >
      <h3 id="entry-heading">{replacing ? 'Replace your entry' : 'Enter this bounty'}</h3>
      <div className="field">
        <label htmlFor="entry-note">Your entry</label>
        <textarea
          id="entry-note"
          value={note}
          maxLength={missionNoteSchema.maxLength!}
          onChange={(e) => setNote(e.target.value)}
        />
      </div>
      <FilePicker label="Files (optional)" files={files} onChange={setFiles} />
      {enter.isError && <ErrorAlert error={enter.error} title="Could not send the entry" />}
      <button type="submit" disabled={enter.isPending || empty}>
        {enter.isPending ? 'Sending…' : replacing ? 'Replace entry' : 'Submit entry'}
      </button>
    </form>
  );
}
