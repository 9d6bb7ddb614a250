'use client';
// The evidence of a dispute and the operator's resolve form (docs/api.md#operator-missions, #criteria): each
// criterion beside the agent's self-check and the client's unmet reasons, a verdict per criterion, the outcome —
// for the agent, for the client, or split (docs/api.md#split-verdicts: part to the agent, the rest refunded).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { MissionFileView, MissionView } from '@/lib/missions/schemas';
import { apiFetch } from '@/lib/web/api-client';
import { formatBytes } from '@/lib/web/file-types';
import { operatorInit, operatorMissionKey } from '@/lib/web/operator-token';
import { MissionStatusBadge } from './mission-status-badge';
import { formatTime } from './mission-timeline';
import { ErrorAlert } from './request-status';

type Outcome = 'COMPLETED' | 'CANCELLED' | 'SPLIT';

export function ResolveForm({ mission: m, token }: { mission: MissionView; token: string }) {
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [verdicts, setVerdicts] = useState<Record<number, boolean>>({});
  const [note, setNote] = useState('');
  const [agentAmount, setAgentAmount] = useState('');
  const reward = BigInt(m.reward);
  const splitValid = /^[0-9]{1,78}$/.test(agentAmount) && BigInt(agentAmount) > 0n && BigInt(agentAmount) < reward;
  const resolve = useMutation({
    mutationFn: () =>
      apiFetch<MissionView>(`/api/admin/missions/${encodeURIComponent(m.id)}/resolve`, {
        method: 'POST',
        ...operatorInit(token),
        json: {
          outcome,
          ...(outcome === 'SPLIT' && { agentAmount }),
          ...(note.trim() && { note: note.trim() }),
          // docs/api.md#criteria: verdicts, when given, name at least one criterion.
          ...(Object.keys(verdicts).length > 0 && {
            verdicts: m.criteria
              .filter((c) => c.number in verdicts)
              .map((c) => ({ criterion: c.number, met: verdicts[c.number]! })),
          }),
        },
      }),
    onSuccess: (resolved) => queryClient.setQueryData(operatorMissionKey(m.id), resolved),
  });
  const open = m.status === 'DISPUTED';
  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    if (outcome && (outcome !== 'SPLIT' || splitValid)) resolve.mutate();
  };
  return (
    <form onSubmit={onSubmit} aria-labelledby="resolve-heading" noValidate>
      <Evidence mission={m} />
      {m.criteria.length > 0 && (
        <CriteriaTable
          mission={m}
          verdicts={open ? verdicts : null}
          onVerdict={(n, met) => setVerdicts({ ...verdicts, [n]: met })}
        />
      )}
      <h3 id="resolve-heading">Resolve</h3>
      {resolve.isSuccess && (
        <p className="alert alert-ok" role="status" data-testid="resolve-result">
          Resolved: the mission is now <MissionStatusBadge status={resolve.data.status} />.
        </p>
      )}
      {!open && !resolve.isSuccess && (
        <p className="hint">Only a DISPUTED mission is resolved here; this one is {m.status}.</p>
      )}
      {open && m.bounty && (
        <p className="hint">A bounty&apos;s dispute names its winners: resolve it through the API.</p>
      )}
      {open && !m.bounty && (
        <div className="stack">
          <fieldset className="stack" disabled={resolve.isPending}>
            <legend>Outcome</legend>
            <label>
              <input
                type="radio"
                name="outcome"
                value="COMPLETED"
                checked={outcome === 'COMPLETED'}
                onChange={() => setOutcome('COMPLETED')}
              />{' '}
              For the agent: complete the mission and pay the agent
            </label>
            <label>
              <input
                type="radio"
                name="outcome"
                value="CANCELLED"
                checked={outcome === 'CANCELLED'}
                onChange={() => setOutcome('CANCELLED')}
              />{' '}
              For the client: cancel the mission and refund the client
            </label>
            <label>
              <input
                type="radio"
                name="outcome"
                value="SPLIT"
                checked={outcome === 'SPLIT'}
                onChange={() => setOutcome('SPLIT')}
              />{' '}
              Split: part to the agent (less the fee on that part), the rest refunded to the client
            </label>
          </fieldset>
          {outcome === 'SPLIT' && (
            <div className="field">
              <label htmlFor="resolve-agent-amount">
                To the agent, in base units (1 to {(reward - 1n).toString()})
              </label>
              <input
                id="resolve-agent-amount"
                inputMode="numeric"
                value={agentAmount}
                aria-invalid={agentAmount !== '' && !splitValid}
                aria-describedby="resolve-split-hint"
                onChange={(e) => setAgentAmount(e.target.value.trim())}
              />
              <p id="resolve-split-hint" className="hint" data-testid="resolve-split-hint">
                {splitValid
                  ? `The client gets ${(reward - BigInt(agentAmount)).toString()} back.`
                  : `Of the reward ${m.reward}.`}
              </p>
            </div>
          )}
          <div className="field">
            <label htmlFor="resolve-note">Note to both parties (optional)</label>
            <textarea id="resolve-note" value={note} maxLength={2000} onChange={(e) => setNote(e.target.value)} />
          </div>
          {resolve.isError && <ErrorAlert error={resolve.error} title="Could not resolve the mission" />}
          <button
            type="submit"
            disabled={resolve.isPending || outcome === null || (outcome === 'SPLIT' && !splitValid)}
          >
            {resolve.isPending ? 'Resolving…' : 'Resolve the dispute'}
          </button>
        </div>
      )}
    </form>
  );
}

/** Each criterion beside what the agent said of it, what the client said, and the verdict (chosen or recorded). */
function CriteriaTable({
  mission: m,
  verdicts,
  onVerdict,
}: {
  mission: MissionView;
  verdicts: Record<number, boolean> | null;
  onVerdict: (criterion: number, met: boolean) => void;
}) {
  const selfCheck = m.submission?.selfCheck ?? [];
  const recorded = (n: number) => m.verdicts?.find((v) => v.criterion === n);
  return (
    <div className="table-scroll">
      <table data-testid="dispute-criteria">
        <caption>Acceptance criteria</caption>
        <thead>
          <tr>
            <th scope="col">Criterion</th>
            <th scope="col">The agent&apos;s self-check</th>
            <th scope="col">The client: not met</th>
            <th scope="col">Verdict</th>
          </tr>
        </thead>
        <tbody>
          {m.criteria.map((c) => {
            const check = selfCheck.find((i) => i.criterion === c.number);
            const unmet = m.contests.flatMap((k) =>
              k.unmet.filter((u) => u.criterion === c.number).map((u) => ({ round: k.round, reason: u.reason })),
            );
            const verdict = recorded(c.number);
            return (
              <tr key={c.number} data-testid={`criterion-${c.number}`}>
                <th scope="row">
                  {c.number}. {c.text}
                </th>
                <td>
                  {check ? (check.met ? 'Met' : 'Not met') : 'Not said'}
                  {check?.note && <span className="hint"> — {check.note}</span>}
                </td>
                <td>
                  {unmet.length === 0
                    ? '—'
                    : unmet.map((u) => (
                        <p key={u.round} style={{ margin: 0 }}>
                          Round {u.round}: {u.reason}
                        </p>
                      ))}
                </td>
                <td>
                  {verdicts === null ? (
                    verdict ? (
                      verdict.met ? (
                        'Met'
                      ) : (
                        'Not met'
                      )
                    ) : (
                      '—'
                    )
                  ) : (
                    <fieldset style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
                      <legend className="visually-hidden">Verdict on criterion {c.number}</legend>
                      {([true, false] as const).map((met) => (
                        <label key={String(met)} style={{ whiteSpace: 'nowrap' }}>
                          <input
                            type="radio"
                            name={`verdict-${c.number}`}
                            checked={verdicts[c.number] === met}
                            onChange={() => onVerdict(c.number, met)}
                          />{' '}
                          {met ? 'Met' : 'Not met'}
                        </label>
                      ))}
                    </fieldset>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** The delivery and the contests as the parties wrote them, with their files' names and hashes. */
function Evidence({ mission: m }: { mission: MissionView }) {
  return (
    <>
      {m.submission ? (
        <section aria-labelledby="delivery-heading">
          <h3 id="delivery-heading">Delivery</h3>
          <p className="hint">Delivered {formatTime(m.submission.submittedAt)}</p>
          {m.submission.note && <p style={{ whiteSpace: 'pre-wrap' }}>{m.submission.note}</p>}
          <FileFacts files={m.submission.files} label="Deliverables" />
        </section>
      ) : (
        <p className="hint">Nothing delivered.</p>
      )}
      {m.contests.length > 0 && (
        <section aria-labelledby="contests-heading">
          <h3 id="contests-heading">Contests</h3>
          {m.contests.map((c) => (
            <div key={c.round} className="panel">
              <p>
                <strong>Round {c.round}</strong> · {formatTime(c.contestedAt)}
              </p>
              <p style={{ whiteSpace: 'pre-wrap' }}>{c.reason}</p>
              <FileFacts files={c.files} label={`Evidence, round ${c.round}`} />
            </div>
          ))}
        </section>
      )}
    </>
  );
}

// The file routes answer the parties' sessions, not the operator's token: names, sizes and hashes only.
function FileFacts({ files, label }: { files: MissionFileView[]; label: string }) {
  if (files.length === 0) return null;
  return (
    <ul aria-label={label}>
      {files.map((f) => (
        <li key={f.id}>
          {f.filename}{' '}
          <span className="hint">
            ({f.contentType}, {formatBytes(f.size)}, sha256 <code style={{ overflowWrap: 'anywhere' }}>{f.sha256}</code>
            )
          </span>
        </li>
      ))}
    </ul>
  );
}
