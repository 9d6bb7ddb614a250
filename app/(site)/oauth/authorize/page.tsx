// The OAuth authorize page (docs/api.md#tokens): an AI client sent the person here. Unknown client or an
// unregistered redirect URI: said here, never redirected. Otherwise the person signs in with their
// wallet, sees who is asking, where the answer goes and what it may do, then approves or denies —
// a plain form POST with a one-time token bound to them and to these exact terms.
import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { SignInPanel } from '@/app/components/sign-in-panel';
import { config } from '@/lib/config';
import { getDb } from '@/lib/db/client';
import { getKv } from '@/lib/kv';
import {
  checkAuthorizationRequest,
  issueConsentToken,
  RedirectableError,
  redirectWith,
  UnsafeAuthorizationRequest,
  type AuthorizationRequest,
} from '@/lib/oauth/authorization';
import { issuerOf } from '@/lib/oauth/metadata';
import { SCOPE_DESCRIPTIONS } from '@/lib/oauth/scopes';
import { currentSession } from '../../_server/current-session';

export const metadata: Metadata = { title: 'Connect an app' };

type SearchParams = Record<string, string | string[] | undefined>;

export default async function AuthorizePage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams;
  const issuer = issuerOf(config());
  let request: AuthorizationRequest;
  try {
    request = await checkAuthorizationRequest(await getDb(), issuer, params);
  } catch (error) {
    if (error instanceof UnsafeAuthorizationRequest) return <Refused message={error.message} />;
    if (error instanceof RedirectableError) {
      redirect(redirectWith(error.redirectUri, { error: error.code, error_description: error.message, state: error.state, iss: issuer }));
    }
    throw error;
  }
  const session = await currentSession();
  const here = `/oauth/authorize?${new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => typeof e[1] === 'string')).toString()}`;
  if (!session) {
    return (
      <>
        <h1>Connect {request.client.name}</h1>
        <p>
          <strong>{request.client.name}</strong> wants to use taskmarket on your behalf. Sign in with your wallet first; you will see what it
          asks for before anything is allowed.
        </p>
        <SignInPanel next={here} />
      </>
    );
  }
  const formToken = await issueConsentToken(getKv(), session.user.id, request);
  const hidden = { ...Object.fromEntries(Object.entries(params).filter((e): e is [string, string] => typeof e[1] === 'string')), form_token: formToken };
  return (
    <>
      <h1>Connect {request.client.name}</h1>
      <section className="panel stack" aria-labelledby="consent-heading">
        <h2 id="consent-heading">
          Allow <span data-testid="client-name">{request.client.name}</span> to act for your wallet?
        </h2>
        <p>
          After you approve, you are sent back to <strong data-testid="redirect-host">{new URL(request.redirectUri).host || request.redirectUri}</strong>.
          Only approve an app you started connecting yourself.
        </p>
        <p>It asks to:</p>
        <ul data-testid="scopes">
          {request.scopes.map((scope) => (
            <li key={scope}>
              <code>{scope}</code> — {SCOPE_DESCRIPTIONS[scope]}
            </li>
          ))}
        </ul>
        <p>It can never move money from your wallet. You can disconnect it at any time in Connected apps.</p>
        <form method="post" action="/api/oauth/authorize" className="stack">
          {Object.entries(hidden).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
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

function Refused({ message }: { message: string }) {
  return (
    <>
      <h1>Cannot connect this app</h1>
      <div className="alert alert-error" role="alert">
        <p>{message}</p>
        <p>Nothing was shared. Start the connection again from your app.</p>
      </div>
    </>
  );
}
