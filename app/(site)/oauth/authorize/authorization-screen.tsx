// What the authorize page shows for each answer lib/oauth/authorization-view.ts decided
// (docs/api.md#oauth-21). An error is shown here with a plain link back — nothing on this page sends the
// browser anywhere by itself (no meta refresh, no script) — except for a client this user already
// approved, which is redirected to (Next's 307).
import { redirect } from 'next/navigation';
import { SignInPanel } from '@/app/components/sign-in-panel';
import type { AuthorizationView } from '@/lib/oauth/authorization-view';
import { releaseLimitPrefill } from '@/lib/oauth/release-limit';
import { SCOPE_DESCRIPTIONS } from '@/lib/oauth/scopes';
import { DEFAULT_TOKEN } from '@/lib/web/money';

export function AuthorizationScreen({
  view,
  here,
  hidden,
  tokenSymbol = DEFAULT_TOKEN.symbol,
  tokenDecimals = DEFAULT_TOKEN.decimals,
}: {
  view: AuthorizationView;
  here: string;
  hidden: Record<string, string>;
  /** The reward token's, which the release limit is typed in (app/(site)/_server/reward-token.ts). */
  tokenSymbol?: string;
  /** null while the chain cannot say: the limit is then shown as kept, not editable. */
  tokenDecimals?: number | null;
}) {
  switch (view.kind) {
    case 'redirect':
      return redirect(view.location);
    case 'refused':
      return <Refused message={view.message} />;
    case 'error':
      return (
        <>
          <h1>Cannot connect this app</h1>
          <div className="alert alert-error" role="alert">
            <p data-testid="authorization-error">{view.message}</p>
            <p>
              Nothing was shared. The app that sent you here is at{' '}
              <strong data-testid="redirect-host">{view.redirectHost}</strong>.
            </p>
          </div>
          <p>
            <a href={view.back} rel="noreferrer" data-testid="back-to-app">
              Go back to {view.redirectHost}
            </a>
          </p>
        </>
      );
    case 'sign-in':
      return (
        <>
          <h1>Connect {view.request.client.name}</h1>
          <p>
            <strong>{view.request.client.name}</strong> wants to use taskmarket on your behalf. Sign in with your wallet
            first; you will see what it asks for before anything is allowed.
          </p>
          <SignInPanel next={here} />
        </>
      );
    case 'consent': {
      // The request's own `scope` is not carried: the checkboxes below are the person's answer
      // (docs/api.md#choosing-scopes).
      const { scope: _asked, ...carried } = hidden;
      return (
        <Consent
          view={view}
          hidden={{ ...carried, form_token: view.formToken }}
          tokenSymbol={tokenSymbol}
          tokenDecimals={tokenDecimals}
        />
      );
    }
  }
}

function Consent({
  view,
  hidden,
  tokenSymbol,
  tokenDecimals,
}: {
  view: Extract<AuthorizationView, { kind: 'consent' }>;
  hidden: Record<string, string>;
  tokenSymbol: string;
  tokenDecimals: number | null;
}) {
  const { request, granted } = view;
  const limitLabel = `Payments it may release without asking you, per 24 h (${tokenSymbol})`;
  const prefill = releaseLimitPrefill(view.releaseLimit, tokenDecimals);
  const fundingPrefill = releaseLimitPrefill(view.fundingLimit, tokenDecimals);
  return (
    <>
      <h1>Connect {request.client.name}</h1>
      <section className="panel stack" aria-labelledby="consent-heading">
        <h2 id="consent-heading">
          Allow <span data-testid="client-name">{request.client.name}</span> to act for your wallet?
        </h2>
        <ClientIdentity
          verifiedDomain={request.client.verifiedDomain}
          documentHost={request.client.documentHost}
          redirectOrigin={view.redirectOrigin}
        />
        <p>
          After you approve, you are sent back to{' '}
          <strong data-testid="redirect-host">{new URL(request.redirectUri).host || request.redirectUri}</strong>. Only
          approve an app you started connecting yourself.
        </p>
        <p>It can never move money from your wallet. You can disconnect it at any time in Connected apps.</p>
        <form method="post" action="/api/oauth/authorize" className="stack">
          {Object.entries(hidden).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          {/* docs/api.md#choosing-scopes: each scope asked for, and each the app holds already (marked granted),
              checked; the grant holds the ones left checked (docs/api.md#re-authorizing). */}
          <fieldset data-testid="scopes">
            <legend>It asks to (untick what you do not want to allow):</legend>
            {view.offered.map((scope) => (
              <label key={scope} style={{ fontWeight: 'normal', display: 'block' }}>
                <input type="checkbox" name="scope" value={scope} defaultChecked /> <code>{scope}</code> —{' '}
                {SCOPE_DESCRIPTIONS[scope]}
                {granted.includes(scope) && (
                  <>
                    {' '}
                    <strong data-testid="granted">(granted)</strong>
                  </>
                )}
              </label>
            ))}
            {granted.length > 0 && (
              <p className="hint" data-testid="granted-hint">
                Marked granted: this app holds it already. Untick it to take it away — its tokens lose it at once.
              </p>
            )}
          </fieldset>
          {/* docs/api.md#confirmations: beyond this, each payment the app asks for waits for your yes. */}
          <p>
            <label htmlFor="release_limit">{limitLabel}</label>{' '}
            <input
              id="release_limit"
              name="release_limit"
              inputMode="decimal"
              defaultValue={prefill ?? ''}
              disabled={prefill === null}
              data-testid="release-limit"
            />
            <br />
            <span className="hint">
              0: every approval or award it makes waits until you confirm it.{' '}
              {granted.length > 0 ? 'This is the limit it has now; left as it is, it stays. ' : ''}Change it later in
              Connected apps.
            </span>
          </p>
          {/* docs/api.md#standing-allowance: what it may fund at once from your standing allowance. */}
          <p>
            <label htmlFor="funding_limit">
              Missions it may fund from your standing allowance without asking you, per 24 h ({tokenSymbol})
            </label>{' '}
            <input
              id="funding_limit"
              name="funding_limit"
              inputMode="decimal"
              defaultValue={fundingPrefill ?? ''}
              disabled={fundingPrefill === null}
              data-testid="funding-limit"
            />
            <br />
            <span className="hint">
              0: every mission it posts waits for your signature. Above 0, only within the allowance you signed at{' '}
              <a href="/account/allowance">Standing allowance</a>.
            </span>
          </p>
          <p>
            <button type="submit" name="decision" value="approve">
              Approve
            </button>{' '}
            <button type="submit" name="decision" value="deny" className="secondary">
              Deny
            </button>
          </p>
        </form>
      </section>
    </>
  );
}

/**
 * Who is asking. A client whose id is its metadata document's URL is vouched for by that document's
 * host — a verified domain only when the code goes to that same host
 * (docs/api.md#client-id-metadata-documents); otherwise the page says only where the description is.
 * A dynamically registered one named itself, so where the answer goes is what to judge.
 */
function ClientIdentity({
  verifiedDomain,
  documentHost,
  redirectOrigin,
}: {
  verifiedDomain: string | undefined;
  documentHost: string | undefined;
  redirectOrigin: string;
}) {
  const destination = (
    <p>
      Approving sends access to <strong data-testid="redirect-origin">{redirectOrigin}</strong>
    </p>
  );
  if (verifiedDomain) {
    return (
      <div className="alert alert-ok" data-testid="verified">
        <p>
          Verified domain: <strong data-testid="verified-domain">{verifiedDomain}</strong> publishes this app&apos;s
          description.
        </p>
        {destination}
      </div>
    );
  }
  if (documentHost) {
    return (
      <div className="alert alert-warn" data-testid="described">
        <p>
          Described by a document at <strong data-testid="document-host">{documentHost}</strong>. Its answer goes to
          another host, so taskmarket cannot say who runs this app.
        </p>
        {destination}
      </div>
    );
  }
  return (
    <div className="alert alert-warn" data-testid="unverified">
      <p>
        <strong>Unverified app.</strong> Anyone can register an app under any name; taskmarket has not checked who runs
        this one.
      </p>
      {destination}
    </div>
  );
}

function Refused({ message }: { message: string }) {
  return (
    <>
      <h1>Cannot connect this app</h1>
      <div className="alert alert-error" role="alert">
        <p data-testid="authorization-error">{message}</p>
        <p>Nothing was shared. Start the connection again from your app.</p>
      </div>
    </>
  );
}
