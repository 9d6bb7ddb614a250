// What the authorize page shows for each answer lib/oauth/authorization-view.ts decided
// (docs/api.md#oauth-21). An error is shown here with a plain link back — nothing on this page sends the
// browser anywhere by itself (no meta refresh, no script) — except for a client this user already
// approved, which is redirected to (Next's 307).
import { redirect } from 'next/navigation';
import { SignInPanel } from '@/app/components/sign-in-panel';
import type { AuthorizationView } from '@/lib/oauth/authorization-view';
import { SCOPE_DESCRIPTIONS } from '@/lib/oauth/scopes';

export function AuthorizationScreen({
  view,
  here,
  hidden,
}: {
  view: AuthorizationView;
  here: string;
  hidden: Record<string, string>;
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
      return <Consent view={view} hidden={{ ...carried, form_token: view.formToken }} />;
    }
  }
}

function Consent({
  view,
  hidden,
}: {
  view: Extract<AuthorizationView, { kind: 'consent' }>;
  hidden: Record<string, string>;
}) {
  const { request } = view;
  return (
    <>
      <h1>Connect {request.client.name}</h1>
      <section className="panel stack" aria-labelledby="consent-heading">
        <h2 id="consent-heading">
          Allow <span data-testid="client-name">{request.client.name}</span> to act for your wallet?
        </h2>
        <ClientIdentity verifiedDomain={request.client.verifiedDomain} redirectOrigin={view.redirectOrigin} />
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
          {/* docs/api.md#choosing-scopes: each scope asked for, checked; the grant holds the ones left checked. */}
          <fieldset data-testid="scopes">
            <legend>It asks to (untick what you do not want to allow):</legend>
            {request.scopes.map((scope) => (
              <label key={scope} style={{ fontWeight: 'normal', display: 'block' }}>
                <input type="checkbox" name="scope" value={scope} defaultChecked /> <code>{scope}</code> —{' '}
                {SCOPE_DESCRIPTIONS[scope]}
              </label>
            ))}
          </fieldset>
          {/* docs/api.md#confirmations: beyond this, each payment the app asks for waits for your yes. */}
          <p>
            <label htmlFor="release_limit">Payments it may release without asking you, per 24 h (USDC)</label>{' '}
            <input
              id="release_limit"
              name="release_limit"
              inputMode="decimal"
              defaultValue="0"
              data-testid="release-limit"
            />
            <br />
            <span className="hint">
              0: every approval or award it makes waits until you confirm it. Change it later in Connected apps.
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
 * host (docs/api.md#client-id-metadata-documents); a dynamically registered one named itself, so
 * where the answer goes is what to judge.
 */
function ClientIdentity({
  verifiedDomain,
  redirectOrigin,
}: {
  verifiedDomain: string | undefined;
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
