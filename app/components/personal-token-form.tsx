'use client';
// Making a personal access token: a name, its scopes and how long it lives; the token comes back
// once (only its hash is stored), so it is shown here with a copy button and a warning to keep it.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { GrantView } from '@/lib/oauth/grants';
import { createTokenSchema } from '@/lib/oauth/schemas';
import { SCOPE_DESCRIPTIONS, SCOPES, type Scope } from '@/lib/oauth/scopes';
import { apiFetch, describeApiError } from '@/lib/web/api-client';

const DAY = 86_400;
const EXPIRIES = [
  { seconds: 7 * DAY, label: '7 days' },
  { seconds: 30 * DAY, label: '30 days' },
  { seconds: 90 * DAY, label: '90 days' },
  { seconds: 365 * DAY, label: '1 year' },
];
export const TOKENS_KEY = ['tokens'];

export function PersonalTokenForm() {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(['missions:read', 'missions:work']);
  const [expiresIn, setExpiresIn] = useState(90 * DAY);
  const [token, setToken] = useState<string | null>(null);
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const create = useMutation({
    mutationFn: () =>
      apiFetch<{ token: string; grant: GrantView }>('/api/tokens', {
        method: 'POST',
        json: { name: name.trim(), scopes, expiresIn },
      }),
    onSuccess: (created) => {
      setToken(created.token);
      setCopied(null);
      setName('');
      void queryClient.invalidateQueries({ queryKey: TOKENS_KEY });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim() && scopes.length > 0) create.mutate();
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(token!);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <>
      {token && (
        <div className="alert alert-warn stack" role="status" data-testid="new-token">
          <p>
            <strong>Copy your new token now: it is not shown again.</strong> Anyone holding it can act for your wallet
            within its scopes.
          </p>
          <p>
            <code data-testid="new-token-value">{token}</code>
          </p>
          <p className="row">
            <button type="button" className="secondary" onClick={() => void copy()}>
              Copy token
            </button>
            <span aria-live="polite">
              {copied === 'yes'
                ? 'Copied.'
                : copied === 'failed'
                  ? 'Could not copy; select the token and copy it by hand.'
                  : ''}
            </span>
          </p>
        </div>
      )}
      <form className="panel stack" onSubmit={submit} aria-labelledby="new-token-heading">
        <h3 id="new-token-heading">Make a personal access token</h3>
        <div>
          <label htmlFor="token-name">Name</label>
          <input
            id="token-name"
            value={name}
            maxLength={createTokenSchema.shape.name.maxLength!}
            onChange={(e) => setName(e.target.value)}
            placeholder="e.g. my build agent"
            aria-describedby="token-name-hint"
          />
          <p id="token-name-hint" className="hint">
            Shown here, so you know what to revoke later.
          </p>
        </div>
        <fieldset className="stack">
          <legend>Scopes</legend>
          {SCOPES.map((scope) => (
            <label key={scope} style={{ fontWeight: 'normal' }}>
              <input
                type="checkbox"
                checked={scopes.includes(scope)}
                onChange={(e) =>
                  setScopes(
                    e.target.checked
                      ? SCOPES.filter((s) => s === scope || scopes.includes(s))
                      : scopes.filter((s) => s !== scope),
                  )
                }
              />{' '}
              <code>{scope}</code> — {SCOPE_DESCRIPTIONS[scope]}
            </label>
          ))}
        </fieldset>
        <div>
          <label htmlFor="token-expiry">Expires after</label>
          <select id="token-expiry" value={expiresIn} onChange={(e) => setExpiresIn(Number(e.target.value))}>
            {EXPIRIES.map((option) => (
              <option key={option.seconds} value={option.seconds}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" disabled={create.isPending || !name.trim() || scopes.length === 0}>
          Make token
        </button>
        {create.isError && (
          <p className="alert alert-error" role="alert">
            {describeApiError(create.error)}
          </p>
        )}
      </form>
    </>
  );
}
