'use client';
// A grant's release limit (docs/api.md#confirmations): what the app or token may release from escrow over a
// rolling 24 h without asking; beyond it each release waits for the person's yes. With field="fundingLimit",
// its funding limit (docs/api.md#standing-allowance): what it may fund at once from the standing allowance.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiFetch, describeApiError } from '@/lib/web/api-client';
import { formatAmount } from '@taskmarket/sdk/money';
import { parseAmount } from '@/lib/web/money';
import { useRewardToken } from '@/lib/web/runtime-config-context';

export function ReleaseLimitForm({
  grantId,
  releaseLimit,
  listKey,
  field = 'releaseLimit',
}: {
  grantId: string;
  releaseLimit: string;
  listKey: readonly unknown[];
  field?: 'releaseLimit' | 'fundingLimit';
}) {
  const token = useRewardToken();
  const queryClient = useQueryClient();
  const [text, setText] = useState(formatAmount(BigInt(releaseLimit), token.decimals));
  const [problem, setProblem] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (limit: bigint) =>
      apiFetch(`/api/grants/${encodeURIComponent(grantId)}`, {
        method: 'PATCH',
        json: { [field]: limit.toString() },
      }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: listKey }),
  });
  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    // 0 (or nothing) is a limit too: every release then waits for you.
    const parsed = text.trim() === '' ? { ok: true as const, value: 0n } : parseAmount(text, token, { orZero: true });
    if (!parsed.ok) return setProblem(parsed.reason);
    setProblem(null);
    save.mutate(parsed.value);
  };
  const id = `${field === 'releaseLimit' ? 'release' : 'funding'}-limit-${grantId}`;
  const label = field === 'releaseLimit' ? 'Release without asking' : 'Fund from your allowance';
  return (
    <form className="row" onSubmit={onSubmit} noValidate>
      <label htmlFor={id}>
        {label}, per 24 h ({token.symbol})
      </label>
      <input
        id={id}
        name={field}
        inputMode="decimal"
        value={text}
        onChange={(e) => setText(e.target.value)}
        aria-invalid={problem !== null}
      />
      <button type="submit" disabled={save.isPending}>
        Save limit
      </button>
      {(problem ?? (save.isError && describeApiError(save.error))) && (
        <p className="alert alert-error" role="alert">
          {problem ?? describeApiError(save.error)}
        </p>
      )}
    </form>
  );
}
