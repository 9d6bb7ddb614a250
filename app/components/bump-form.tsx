'use client';
// Bump an open mission back to the top of the board, optionally raising the reward. With escrow
// on, the extra amount is first added to the on-chain task from the client's wallet (topUp).
import { useState, type FormEvent } from 'react';
import type { Address } from 'viem';
import type { MissionView } from '@/lib/missions/schemas';
import { ApiRequestError } from '@/lib/web/api-client';
import { topUpTask, type FundingStep } from '@/lib/web/escrow';
import { formatAmount, parseAmount } from '@/lib/web/money';
import { useRewardToken, useRuntimeConfig } from '@/lib/web/runtime-config-context';
import { useMissionAction } from '@/lib/web/use-mission-action';
import { useWallet } from '@/lib/web/use-wallet';
import { classifyWalletError } from '@/lib/web/wallet-errors';
import { ErrorAlert } from './request-status';

export function BumpForm({ mission }: { mission: MissionView }) {
  const config = useRuntimeConfig();
  const token = useRewardToken();
  const wallet = useWallet();
  const mutation = useMissionAction(mission.id, 'bump');
  const [reward, setReward] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [step, setStep] = useState<FundingStep | null>(null);
  const current = BigInt(mission.reward);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setProblem(null);
    let next: bigint | undefined;
    if (reward.trim()) {
      const parsed = parseAmount(reward, token);
      if (!parsed.ok) return setProblem(parsed.reason);
      if (parsed.value < current)
        return setProblem(`The new reward cannot be lower than the current ${formatAmount(current, token)}.`);
      next = parsed.value;
    }
    try {
      const escrow = config.contracts.escrow as Address | null;
      const tokenAddress = config.contracts.rewardToken?.address as Address | undefined;
      if (next !== undefined && next > current && escrow && tokenAddress && mission.onChainTaskId !== null) {
        await topUpTask(
          await wallet.walletClient(),
          { escrow, token: tokenAddress },
          mission.onChainTaskId,
          next - current,
          setStep,
        );
      }
      setStep(null);
      await mutation.mutateAsync({ fields: { reward: next?.toString() } });
      setReward('');
    } catch (error) {
      setStep(null);
      // The API's refusals are shown by the mutation's own error state.
      if (!(error instanceof ApiRequestError)) setProblem(classifyWalletError(error).message);
    }
  }

  return (
    <form className="panel" onSubmit={submit} noValidate aria-labelledby="bump-heading">
      <h3 id="bump-heading">Bump this mission</h3>
      <p className="hint">
        Moves it to the top of the board (once an hour). You may raise the reward at the same time.
      </p>
      <div className="field">
        <label htmlFor="bump-reward">New reward in {token.symbol} (optional)</label>
        <input
          id="bump-reward"
          inputMode="decimal"
          value={reward}
          onChange={(e) => setReward(e.target.value)}
          aria-invalid={Boolean(problem)}
        />
      </div>
      <div aria-live="polite">
        {step && (
          <p className="loading">
            {step === 'approve'
              ? 'Approve the extra amount in your wallet…'
              : 'Add it to the escrow — confirm in your wallet…'}
          </p>
        )}
      </div>
      {problem && (
        <p className="alert alert-error" role="alert">
          {problem}
        </p>
      )}
      {mutation.isError && <ErrorAlert error={mutation.error} title="Could not bump" />}
      <button type="submit" className="secondary" disabled={mutation.isPending || step !== null}>
        {mutation.isPending ? 'Bumping…' : 'Bump'}
      </button>
    </form>
  );
}
