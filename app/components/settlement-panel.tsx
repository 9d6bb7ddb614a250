'use client';
// Settling in part on the mission page (docs/api.md#settlement-offers): how the mission was settled, the
// pending offer with Accept and Reject for the party it waits on, and a form for either party to offer
// (or counter) an amount to the agent — the rest going back to the client. The API has the last word.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { MissionView } from '@/lib/missions/schemas';
import { apiFetch } from '@/lib/web/api-client';
import { missionKey } from '@/lib/web/use-mission-action';
import { useSession } from '@/lib/web/use-session';
import { formatTime } from './mission-timeline';
import { ErrorAlert } from './request-status';

const OFFER_STATES = new Set(['SUBMITTED', 'CONTESTED', 'DISPUTED']);

export function SettlementPanel({ mission: m }: { mission: MissionView }) {
  const { session } = useSession();
  const me = session?.user.walletAddress;
  const side = me && m.client.walletAddress === me ? 'client' : me && m.agent?.walletAddress === me ? 'agent' : null;
  if (m.settlement) {
    return (
      <section aria-labelledby="settlement-heading" data-testid="settlement">
        <h2 id="settlement-heading">Settled in part</h2>
        <p>
          {m.settlement.by === 'agreement' ? 'By agreement of both parties' : "By the operator's verdict"}:{' '}
          <strong>{m.settlement.agentAmount}</strong> to the agent (before the fee),{' '}
          <strong>{m.settlement.refund}</strong> back to the client (base units).
        </p>
      </section>
    );
  }
  if (!side || m.assignment === 'BOUNTY' || !OFFER_STATES.has(m.status)) return null;
  const offer =
    m.settlementOffer && new Date(m.settlementOffer.expiresAt).getTime() > Date.now() ? m.settlementOffer : null;
  return (
    <section aria-labelledby="settlement-heading" data-testid="settlement-panel">
      <h2 id="settlement-heading">Settle in part</h2>
      {offer ? <PendingOffer mission={m} offer={offer} mine={offer.by === side} /> : <p>No offer is pending.</p>}
      <OfferForm mission={m} counter={offer !== null} />
    </section>
  );
}

type Offer = NonNullable<MissionView['settlementOffer']>;

function PendingOffer({ mission: m, offer, mine }: { mission: MissionView; offer: Offer; mine: boolean }) {
  const queryClient = useQueryClient();
  const answer = useMutation({
    mutationFn: (decision: 'accept' | 'reject') =>
      apiFetch<MissionView>(
        `/api/missions/${encodeURIComponent(m.id)}/settlement-offers/${encodeURIComponent(offer.id)}`,
        { method: 'POST', json: { decision } },
      ),
    onSuccess: (mission) => {
      queryClient.setQueryData(missionKey(m.id), mission);
      void queryClient.invalidateQueries({ queryKey: ['missions'] });
    },
  });
  return (
    <div className="panel" data-testid="settlement-offer">
      <p>
        {mine ? 'You offered' : offer.by === 'client' ? 'The client offers' : 'The agent offers'}:{' '}
        <strong>{offer.agentAmount}</strong> to the agent (before the fee), <strong>{offer.refund}</strong> back to the
        client (base units). It lapses {formatTime(offer.expiresAt)}, or as soon as the mission moves on.
      </p>
      {offer.note && <p style={{ whiteSpace: 'pre-wrap' }}>{offer.note}</p>}
      {mine ? (
        <p className="hint">Waiting for the other party's answer.</p>
      ) : (
        <div className="row">
          <button
            type="button"
            disabled={answer.isPending}
            onClick={() => {
              if (window.confirm('Accept this settlement? The mission ends and the escrow pays it out.'))
                answer.mutate('accept');
            }}
          >
            Accept
          </button>
          <button
            type="button"
            className="secondary"
            disabled={answer.isPending}
            onClick={() => answer.mutate('reject')}
          >
            Reject
          </button>
        </div>
      )}
      {answer.isError && <ErrorAlert error={answer.error} title="Could not answer the offer" />}
    </div>
  );
}

function OfferForm({ mission: m, counter }: { mission: MissionView; counter: boolean }) {
  const queryClient = useQueryClient();
  const [agentAmount, setAgentAmount] = useState('');
  const [note, setNote] = useState('');
  const reward = BigInt(m.reward);
  const valid = /^[0-9]{1,78}$/.test(agentAmount) && BigInt(agentAmount) <= reward;
  const make = useMutation({
    mutationFn: () =>
      apiFetch<{ offer: Offer }>(`/api/missions/${encodeURIComponent(m.id)}/settlement-offers`, {
        method: 'POST',
        json: { agentAmount, ...(note.trim() && { note: note.trim() }) },
      }),
    onSuccess: ({ offer }) => {
      queryClient.setQueryData(missionKey(m.id), { ...m, settlementOffer: offer });
      setAgentAmount('');
      setNote('');
    },
  });
  return (
    <form
      className="stack"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (valid) make.mutate();
      }}
    >
      <div className="field">
        <label htmlFor="offer-amount">
          {counter ? 'Or offer instead' : 'Offer'}: to the agent, in base units (0 to {m.reward})
        </label>
        <input
          id="offer-amount"
          inputMode="numeric"
          value={agentAmount}
          aria-invalid={agentAmount !== '' && !valid}
          onChange={(e) => setAgentAmount(e.target.value.trim())}
        />
        {valid && <p className="hint">The client gets {(reward - BigInt(agentAmount)).toString()} back.</p>}
      </div>
      <div className="field">
        <label htmlFor="offer-note">Note (optional)</label>
        <textarea id="offer-note" value={note} maxLength={2000} onChange={(e) => setNote(e.target.value)} />
      </div>
      {make.isError && <ErrorAlert error={make.error} title="Could not make the offer" />}
      <button type="submit" className="secondary" disabled={make.isPending || !valid}>
        {make.isPending ? 'Offering…' : 'Offer this settlement'}
      </button>
    </form>
  );
}
