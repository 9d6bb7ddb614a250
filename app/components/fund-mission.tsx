'use client';
// The funding page (docs/api.md#post-and-pay): the exact terms the poster's signature commits to, one
// "Fund" button — one signature of the USDC authorization, relayed by the backend, no ETH — then
// progress until the escrow task is mined, then the mission. When the relay is not available (its
// budget is spent) or the poster prefers it, the wallet funds the same task itself: approve +
// createTask with the same ref and expiry, paying its own gas.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import type { MissionView } from '@/lib/missions/schemas';
import { ApiRequestError, apiFetch, describeApiError } from '@/lib/web/api-client';
import { chainName } from '@/lib/web/chains';
import type { FundingStep } from '@/lib/web/escrow';
import { expirySeconds, fundBySignature, fundFromWallet, readFunding } from '@/lib/web/mission-funding';
import { formatAmount } from '@/lib/web/money';
import { useRewardToken, useRuntimeConfig } from '@/lib/web/runtime-config-context';
import { missionKey } from '@/lib/web/use-mission-action';
import { useSession } from '@/lib/web/use-session';
import { useWallet } from '@/lib/web/use-wallet';
import { classifyWalletError } from '@/lib/web/wallet-errors';
import { formatTime } from './mission-timeline';
import { NetworkNotice } from './network-notice';
import { ErrorAlert, LoadingMessage } from './request-status';
import { WalletConnect } from './wallet-connect';

type Busy = null | 'sign' | 'send' | FundingStep | 'record';
const BUSY_LABELS: Record<Exclude<Busy, null>, string> = {
  sign: 'Sign the authorization in your wallet…',
  send: 'Sending the signature…',
  approve: 'Step 1 of 2: approve the reward in your wallet…',
  fund: 'Step 2 of 2: create the escrow task — confirm in your wallet…',
  record: 'Recording the escrow task…',
};
const POLL_MS = 1500;

export function FundMission({ id }: { id: string }) {
  const config = useRuntimeConfig();
  const token = useRewardToken();
  const wallet = useWallet();
  const router = useRouter();
  const queryClient = useQueryClient();
  const walletAddress = useSession().session?.user.walletAddress ?? '';
  const [busy, setBusy] = useState<Busy>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [walletPath, setWalletPath] = useState(false);

  const mission = useQuery({
    queryKey: missionKey(id),
    queryFn: () => apiFetch<MissionView>(`/api/missions/${encodeURIComponent(id)}`),
  });
  const awaiting = mission.data?.status === 'AWAITING_FUNDING';
  const funding = useQuery({
    queryKey: ['mission-funding', id],
    queryFn: () => readFunding(id),
    enabled: awaiting,
    // Progress while the relayed transaction is mined.
    refetchInterval: (query) => (query.state.data?.status === 'relaying' ? POLL_MS : false),
  });
  const status = funding.data?.status;

  // Mined: the mission is OPEN; go to it.
  useEffect(() => {
    if (status !== 'funded') return;
    void queryClient.invalidateQueries({ queryKey: missionKey(id) });
    router.push(`/missions/${id}`);
  }, [status, id, queryClient, router]);

  if (mission.isPending) return <LoadingMessage label="Loading the mission" />;
  if (mission.isError)
    return (
      <ErrorAlert error={mission.error} title="Could not load the mission" onRetry={() => void mission.refetch()} />
    );
  const m = mission.data;
  if (!awaiting) {
    return (
      <section aria-labelledby="fund-heading" className="stack">
        <h1 id="fund-heading">{m.title}</h1>
        <p className="alert alert-ok" role="status">
          This mission is funded{m.onChainTaskId !== null && ` (escrow task #${m.onChainTaskId})`}.{' '}
          <Link href={`/missions/${id}`}>Go to the mission</Link>
        </p>
      </section>
    );
  }
  if (funding.isPending) return <LoadingMessage label="Preparing the funding" />;
  if (funding.isError)
    return (
      <ErrorAlert error={funding.error} title="Could not prepare the funding" onRetry={() => void funding.refetch()} />
    );
  const f = funding.data;
  const walletMismatch = Boolean(wallet.address && wallet.address.toLowerCase() !== walletAddress.toLowerCase());
  const relaying = f.status === 'relaying' || f.status === 'funded';
  const canAct = wallet.isConnected && !wallet.wrongNetwork && !walletMismatch && busy === null && !relaying;
  const offerWallet = walletPath || !f.relayAvailable;

  async function run(work: () => Promise<void>) {
    setProblem(null);
    try {
      await work();
      await funding.refetch();
    } catch (error) {
      // A 429 (the relay's budget) says so and the wallet's own path is offered.
      if (error instanceof ApiRequestError && error.status === 429) {
        setWalletPath(true);
        setProblem(
          `${[error.message, ...error.details].join(': ')}. You can fund it from your wallet ` +
            `instead: two transactions, paying their gas.`,
        );
      } else {
        setProblem(
          error instanceof ApiRequestError
            ? [describeApiError(error), ...error.details].join(' — ')
            : classifyWalletError(error).message,
        );
      }
    } finally {
      setBusy(null);
    }
  }

  const bySignature = () =>
    run(async () => {
      setBusy('sign');
      const client = await wallet.walletClient();
      await fundBySignature(client, id, f, () => setBusy('send'));
    });
  const byWallet = () =>
    run(async () => {
      const client = await wallet.walletClient();
      await fundFromWallet(client, id, f, (step) => setBusy(step));
      setBusy('record');
    });

  const expires = new Date(Number(expirySeconds(f.expiresAt)) * 1000).toISOString();
  return (
    <section aria-labelledby="fund-heading" className="stack">
      <h1 id="fund-heading">Fund “{m.title}”</h1>
      <p>
        The mission is posted but not yet on the board: nobody can see or take it until its reward is held in escrow.
        Check the terms, then fund it with one signature from your wallet — no ETH needed, taskmarket pays the gas.
      </p>
      <dl className="grid" data-testid="funding-terms">
        <div>
          <dt>Title</dt>
          <dd>{m.title}</dd>
        </div>
        <div>
          <dt>Reward</dt>
          <dd>{formatAmount(f.amount, token)}</dd>
        </div>
        <div>
          <dt>Deadline</dt>
          <dd>{formatTime(m.deadline)}</dd>
        </div>
        <div>
          <dt>Review window</dt>
          <dd>{reviewWindow(config.missions.reviewWindowSeconds)} after delivery</dd>
        </div>
        {/* docs/api.md#auto-approval: funding here is the person's yes to paying on passing checks. */}
        {m.autoApprove === 'onChecks' && (
          <div data-testid="funding-auto-approve">
            <dt>Approval</dt>
            <dd>Pays automatically when every check passes: the agent is paid at submit, without your review.</dd>
          </div>
        )}
        <div>
          <dt>Escrow</dt>
          <dd className="mono" style={{ overflowWrap: 'anywhere' }}>
            {f.escrow}
          </dd>
        </div>
        <div>
          <dt>Chain</dt>
          <dd>{chainName(config.chainId)}</dd>
        </div>
        <div>
          <dt>Refundable to you after</dt>
          <dd>{formatTime(expires)}</dd>
        </div>
        {f.fundBy && (
          <div>
            <dt>Fund before</dt>
            <dd>{formatTime(f.fundBy)}</dd>
          </div>
        )}
      </dl>
      <WalletConnect />
      <NetworkNotice />
      {walletMismatch && (
        <p className="alert alert-warn" role="alert">
          The connected wallet is not the account you signed in with. Switch accounts in your wallet.
        </p>
      )}
      {f.status === 'failed' && (
        <p className="alert alert-error" role="alert">
          The escrow task could not be created{f.reason ? `: ${f.reason}` : '.'} Nothing was taken from your wallet; you
          can fund it again.
        </p>
      )}
      <div aria-live="polite">
        {busy && <p className="loading">{BUSY_LABELS[busy]}</p>}
        {relaying && (
          <p className="loading" data-testid="funding-progress">
            {f.status === 'funded' ? 'Funded. Opening the mission…' : 'Creating the escrow task on-chain…'}
            {f.txHash && <> Transaction {f.txHash.slice(0, 10)}…</>}
          </p>
        )}
      </div>
      {problem && (
        <p className="alert alert-error" role="alert">
          {problem}
        </p>
      )}
      {!f.relayAvailable && (
        <p className="alert alert-warn">
          Funding by signature is not available right now. Your wallet can fund the task itself, paying its own gas.
        </p>
      )}
      <div className="row">
        {f.relayAvailable && (
          <button type="button" disabled={!canAct} onClick={() => void bySignature()}>
            Fund {formatAmount(f.amount, token)}
          </button>
        )}
        {offerWallet ? (
          <button
            type="button"
            className={f.relayAvailable ? 'secondary' : undefined}
            disabled={!canAct}
            onClick={() => void byWallet()}
          >
            Fund from my wallet (two transactions, pays gas)
          </button>
        ) : (
          <button
            type="button"
            className="secondary"
            disabled={busy !== null || relaying}
            onClick={() => setWalletPath(true)}
          >
            I prefer to send the transactions from my wallet
          </button>
        )}
      </div>
    </section>
  );
}

function reviewWindow(seconds: number): string {
  if (seconds % 86_400 === 0) return `${seconds / 86_400} day${seconds === 86_400 ? '' : 's'}`;
  if (seconds % 3600 === 0) return `${seconds / 3600} hour${seconds === 3600 ? '' : 's'}`;
  return `${Math.round(seconds / 60)} minutes`;
}
