'use client';
// The standing allowance page (docs/api.md#standing-allowance): the mandate in force, the permit's
// remaining allowance and today's use, read from the chain through GET /api/account/allowance; a form
// for new terms (total, per mission, per day, until), whose two typed data — a USDC permit to the escrow
// and a FundingMandate naming the relayer — the wallet signs, and the backend relays (no ETH); Revoke,
// one more signature relayed the same way.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { signTypedData } from 'viem/actions';
import { ApiRequestError, apiFetch, describeApiError } from '@/lib/web/api-client';
import { typedDataOf } from '@/lib/web/mission-funding';
import { formatAmount, parseAmount } from '@/lib/web/money';
import { useRewardToken } from '@/lib/web/runtime-config-context';
import { useSession } from '@/lib/web/use-session';
import { useWallet } from '@/lib/web/use-wallet';
import { classifyWalletError } from '@/lib/web/wallet-errors';
import { formatTime } from './mission-timeline';
import { NetworkNotice } from './network-notice';
import { ErrorAlert, LoadingMessage } from './request-status';
import { WalletConnect } from './wallet-connect';

type TypedData = {
  domain: Record<string, unknown>;
  types: Record<string, { name: string; type: string }[]>;
  primaryType: string;
  message: Record<string, unknown>;
};
interface Allowance {
  escrow: string;
  funder: string;
  mandate: null | { funder: string; perMission: string; perDay: string; validUntil: string; live: boolean };
  fundedToday: string;
  allowance: string;
  balance: string;
  relay: null | { kind: 'set' | 'revoke'; status: 'relaying' | 'mined' | 'failed'; error: string | null };
  typedData?: { permit: TypedData; mandate: TypedData };
}

const PATH = '/api/account/allowance';
const DAY_S = 86_400;

export function StandingAllowance() {
  const token = useRewardToken();
  const wallet = useWallet();
  const walletAddress = useSession().session?.user.walletAddress ?? '';
  const [form, setForm] = useState({ total: '', perMission: '', perDay: '', days: '30' });
  const [busy, setBusy] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const state = useQuery({
    queryKey: ['account-allowance'],
    queryFn: () => apiFetch<Allowance>(PATH, { cache: 'no-store' }),
    refetchInterval: (query) => (query.state.data?.relay?.status === 'relaying' ? 1500 : false),
  });

  if (state.isPending) return <LoadingMessage label="Reading your allowance from the chain" />;
  if (state.isError)
    return (
      <ErrorAlert error={state.error} title="Could not read your allowance" onRetry={() => void state.refetch()} />
    );
  const a = state.data;
  const walletMismatch = Boolean(wallet.address && wallet.address.toLowerCase() !== walletAddress.toLowerCase());
  const canSign = wallet.isConnected && !wallet.wrongNetwork && !walletMismatch && busy === null;

  async function run(label: string, work: () => Promise<void>, success: string) {
    setProblem(null);
    setDone(null);
    setBusy(label);
    try {
      await work();
      setDone(success);
      await state.refetch();
    } catch (error) {
      setProblem(
        error instanceof ApiRequestError
          ? [describeApiError(error), ...error.details].join(' — ')
          : classifyWalletError(error).message,
      );
    } finally {
      setBusy(null);
    }
  }

  const onSet = (event: React.FormEvent) => {
    event.preventDefault();
    const amounts = (['total', 'perMission', 'perDay'] as const).map((k) => parseAmount(form[k], token));
    const bad = amounts.find((p) => !p.ok);
    if (bad && !bad.ok) return setProblem(bad.reason);
    const days = Number(form.days);
    if (!Number.isInteger(days) || days < 1 || days > 365) return setProblem('Valid for 1 to 365 days');
    const [total, perMission, perDay] = amounts.map((p) => (p.ok ? p.value : 0n));
    const terms = {
      total: String(total),
      perMission: String(perMission),
      perDay: String(perDay),
      validUntil: String(Math.floor(Date.now() / 1000) + days * DAY_S),
    };
    void run(
      'Sign the USDC permit, then the mandate, in your wallet…',
      async () => {
        const read = await apiFetch<Allowance>(`${PATH}?${new URLSearchParams(terms)}`, { cache: 'no-store' });
        const client = await wallet.walletClient();
        const sign = (typedData: TypedData) =>
          signTypedData(client, { account: client.account, ...typedDataOf({ typedData }) } as never);
        const permitSignature = await sign(read.typedData!.permit);
        const mandateSignature = await sign(read.typedData!.mandate);
        setBusy('Relaying your allowance…');
        await apiFetch(PATH, { method: 'POST', json: { terms, permitSignature, mandateSignature } });
      },
      'Your standing allowance is set.',
    );
  };

  const onRevoke = () =>
    run(
      'Sign the revocation in your wallet…',
      async () => {
        const read = await apiFetch<{ typedData: TypedData }>(`${PATH}/revocation`, { cache: 'no-store' });
        const client = await wallet.walletClient();
        const signature = await signTypedData(client, {
          account: client.account,
          ...typedDataOf({ typedData: read.typedData }),
        } as never);
        setBusy('Relaying the revocation…');
        await apiFetch(`${PATH}/revocation`, { method: 'POST', json: { signature } });
      },
      'Your standing allowance is revoked.',
    );

  const m = a.mandate;
  return (
    <section className="stack" aria-labelledby="allowance-heading">
      <h2 id="allowance-heading">In force</h2>
      {m ? (
        <dl className="grid" data-testid="mandate">
          <div>
            <dt>Per mission</dt>
            <dd data-testid="per-mission">{formatAmount(m.perMission, token)}</dd>
          </div>
          <div>
            <dt>Per day (UTC)</dt>
            <dd data-testid="per-day">{formatAmount(m.perDay, token)}</dd>
          </div>
          <div>
            <dt>Used today</dt>
            <dd data-testid="funded-today">{formatAmount(a.fundedToday, token)}</dd>
          </div>
          <div>
            <dt>Remaining allowance</dt>
            <dd data-testid="remaining-allowance">{formatAmount(a.allowance, token)}</dd>
          </div>
          <div>
            <dt>Valid until</dt>
            <dd>{formatTime(new Date(Number(m.validUntil) * 1000).toISOString())}</dd>
          </div>
          <div>
            <dt>Funder</dt>
            <dd className="mono" style={{ overflowWrap: 'anywhere' }}>
              {m.funder}
              {!m.live && ' (not in force: expired, or not our relayer)'}
            </dd>
          </div>
        </dl>
      ) : (
        <p data-testid="no-mandate">No standing allowance: every mission an app posts waits for your signature.</p>
      )}
      <WalletConnect />
      <NetworkNotice />
      {walletMismatch && (
        <p className="alert alert-warn" role="alert">
          The connected wallet is not the account you signed in with. Switch accounts in your wallet.
        </p>
      )}
      {m && (
        <p>
          <button type="button" className="danger" disabled={!canSign} onClick={() => void onRevoke()}>
            Revoke
          </button>
        </p>
      )}
      <h2>{m ? 'Replace it' : 'Set one'}</h2>
      <form className="stack" onSubmit={onSet} noValidate>
        {(
          [
            ['total', `In all, at most (${token.symbol})`],
            ['perMission', `Per mission, at most (${token.symbol})`],
            ['perDay', `Per day, at most (${token.symbol})`],
            ['days', 'Valid for (days)'],
          ] as const
        ).map(([key, label]) => (
          <p key={key}>
            <label htmlFor={`allowance-${key}`}>{label}</label>{' '}
            <input
              id={`allowance-${key}`}
              name={key}
              inputMode="decimal"
              value={form[key]}
              onChange={(e) => setForm({ ...form, [key]: e.target.value })}
            />
          </p>
        ))}
        <p className="hint">
          You sign twice, no ETH needed: a USDC permit letting the escrow take at most the total, and the mandate naming
          taskmarket's relayer <code>{a.funder}</code> as the only one who may fund missions for you with it. The escrow
          contract refuses anything over these caps, whatever our server does.
        </p>
        <p>
          <button type="submit" disabled={!canSign}>
            Sign and set
          </button>
        </p>
      </form>
      <div aria-live="polite">
        {busy && <p className="loading">{busy}</p>}
        {a.relay?.status === 'relaying' && <p className="loading">Being mined…</p>}
        {a.relay?.status === 'failed' && (
          <p className="alert alert-error" role="alert">
            The last {a.relay.kind === 'set' ? 'allowance' : 'revocation'} could not be relayed
            {a.relay.error ? `: ${a.relay.error}` : '.'}
          </p>
        )}
        {done && (
          <p className="alert alert-ok" role="status" data-testid="allowance-done">
            {done}
          </p>
        )}
        {problem && (
          <p className="alert alert-error" role="alert">
            {problem}
          </p>
        )}
      </div>
    </section>
  );
}
