'use client';
// Connected apps (docs/api.md#tokens): the OAuth apps and personal access tokens acting for the signed-in
// user — name, scopes, when made, last used, expiry — each revocable, and the form to make a token; and
// per grant its release limit, what it released in the last 24 h and the releases waiting for the
// person's yes, decided here too (docs/api.md#confirmations).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ConfirmationView } from '@/lib/confirmations/schemas';
import type { ListedGrant } from '@/lib/oauth/grants';
import { formatAmount } from '@/lib/web/money';
import { useRewardToken } from '@/lib/web/runtime-config-context';
import { ConfirmationCard, CONFIRMATIONS_KEY } from './confirmation-card';
import { ReleaseLimitForm } from './release-limit-form';
import { apiFetch, describeApiError } from '@/lib/web/api-client';
import { formatTime } from './mission-timeline';
import { PersonalTokenForm, TOKENS_KEY } from './personal-token-form';
import { ErrorAlert, LoadingMessage } from './request-status';

const GRANTS_KEY = ['grants'];

export function ConnectedApps() {
  return (
    <div className="stack">
      <section aria-labelledby="oauth-apps-heading">
        <h2 id="oauth-apps-heading">Apps</h2>
        <p className="hint">Connected by signing in from the app and approving it (OAuth).</p>
        <GrantList kind="oauth" />
      </section>
      <section aria-labelledby="tokens-heading">
        <h2 id="tokens-heading">Personal access tokens</h2>
        {/* biome-ignore format: Biome's own layout puts the sentence one character over 120 */}
        <p className="hint">
          For agents that run without a browser: the CLI reads one from <code>TASKMARKET_TOKEN</code>, the SDK
          takes <code>createClient({'{ token }'})</code>.
        </p>
        <GrantList kind="token" />
        <PersonalTokenForm />
      </section>
    </div>
  );
}

type GrantView = ListedGrant;

function GrantList({ kind }: { kind: GrantView['kind'] }) {
  const queryClient = useQueryClient();
  const token = useRewardToken();
  const pending = useQuery({
    queryKey: CONFIRMATIONS_KEY,
    queryFn: () => apiFetch<{ items: ConfirmationView[] }>('/api/confirmations'),
  });
  const [path, key, noun] =
    kind === 'oauth'
      ? (['/api/grants', GRANTS_KEY, 'apps'] as const)
      : (['/api/tokens', TOKENS_KEY, 'tokens'] as const);
  const list = useQuery({ queryKey: key, queryFn: () => apiFetch<{ items: GrantView[] }>(path) });
  const revoke = useMutation({
    mutationFn: (id: string) => apiFetch(`${path}/${id}`, { method: 'DELETE' }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: key }),
  });
  if (list.isPending) return <LoadingMessage label={`Loading your ${noun}`} />;
  if (list.isError)
    return <ErrorAlert error={list.error} title={`Could not load your ${noun}`} onRetry={() => void list.refetch()} />;
  const onRevoke = (grant: GrantView) => {
    const what =
      kind === 'oauth'
        ? `Disconnect ${grant.name}? It loses access at once.`
        : `Revoke the token "${grant.name}"? Agents using it stop working at once.`;
    if (window.confirm(what)) revoke.mutate(grant.id);
  };
  return (
    <>
      {revoke.isError && (
        <p className="alert alert-error" role="alert">
          {describeApiError(revoke.error)}
        </p>
      )}
      {list.data.items.length === 0 ? (
        <p>{kind === 'oauth' ? 'No apps connected.' : 'No personal access tokens.'}</p>
      ) : (
        <ul
          className="stack"
          data-testid={kind === 'oauth' ? 'connected-apps' : 'personal-tokens'}
          style={{ listStyle: 'none', padding: 0 }}
        >
          {list.data.items.map((grant) => (
            <li key={grant.id} className="panel stack" aria-labelledby={`grant-${grant.id}`}>
              <h3 id={`grant-${grant.id}`} style={{ overflowWrap: 'anywhere' }}>
                {grant.name}
                {grant.tokenHint && (
                  <span className="hint">
                    {' '}
                    · <code>{grant.tokenHint}…</code>
                  </span>
                )}
              </h3>
              <dl className="grid">
                <div>
                  <dt>Scopes</dt>
                  <dd>
                    {grant.scopes.map((scope, i) => (
                      <span key={scope}>
                        {i > 0 && ', '}
                        <code>{scope}</code>
                      </span>
                    ))}
                  </dd>
                </div>
                <div>
                  <dt>Created</dt>
                  <dd>{formatTime(grant.createdAt)}</dd>
                </div>
                <div>
                  <dt>Last used</dt>
                  <dd data-testid="last-used">{grant.lastUsedAt ? formatTime(grant.lastUsedAt) : 'Never'}</dd>
                </div>
                <div>
                  <dt>Expires</dt>
                  <dd>{grant.expiresAt ? formatTime(grant.expiresAt) : 'When revoked'}</dd>
                </div>
                <div>
                  <dt>Release limit (24 h)</dt>
                  <dd data-testid="release-limit">
                    {grant.releaseLimit === '0'
                      ? 'None: every payment asks you'
                      : formatAmount(grant.releaseLimit, token)}
                  </dd>
                </div>
                <div>
                  <dt>Released in the last 24 h</dt>
                  <dd data-testid="released-24h">{formatAmount(grant.releasedLast24h, token)}</dd>
                </div>
                {/* docs/api.md#standing-allowance: what it may fund at once from your standing allowance. */}
                <div>
                  <dt>Funding limit (24 h)</dt>
                  <dd data-testid="funding-limit">
                    {grant.fundingLimit === '0'
                      ? 'None: every mission it posts waits for your signature'
                      : formatAmount(grant.fundingLimit, token)}
                  </dd>
                </div>
                <div>
                  <dt>Funded in the last 24 h</dt>
                  <dd data-testid="funded-24h">{formatAmount(grant.fundedLast24h ?? '0', token)}</dd>
                </div>
              </dl>
              <ReleaseLimitForm grantId={grant.id} releaseLimit={grant.releaseLimit} listKey={key} />
              <ReleaseLimitForm
                grantId={grant.id}
                releaseLimit={grant.fundingLimit}
                listKey={key}
                field="fundingLimit"
              />
              {pending.data?.items
                .filter((c) => c.grant.id === grant.id)
                .map((c) => (
                  <ConfirmationCard key={c.id} confirmation={c} />
                ))}
              <button
                type="button"
                className="danger"
                disabled={revoke.isPending}
                onClick={() => onRevoke(grant)}
                aria-describedby={`grant-${grant.id}`}
              >
                {kind === 'oauth' ? 'Disconnect' : 'Revoke'}
              </button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
