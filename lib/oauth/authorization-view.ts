// What the authorize page shows (docs/api.md#oauth-21), decided here so the page only renders it. The
// page is on our trusted host, so it must not be an open redirector: any client can register any
// https redirect URI, and a link to our page that fails a check would otherwise bounce the browser
// there with our name on the way. So an error found before the person approves is shown on our
// page — the client's redirect host and a plain link back — and only sent back by itself when this
// user already stands connected to that client.
import 'server-only';
import type { Db } from '../db/client';
import type { Kv } from '../kv';
import {
  type AuthorizationRequest,
  checkAuthorizationRequest,
  errorLocation,
  issueConsentToken,
  RedirectableError,
  UnsafeAuthorizationRequest,
} from './authorization';
import type { Requester } from './client-metadata-document';
import { hasApprovedClient, standingGrant } from './grants';
import { type Scope, SCOPES } from './scopes';

export type AuthorizationView =
  /** An unknown client or an unregistered redirect URI: no link anywhere. */
  | { kind: 'refused'; message: string }
  /** A problem with the request, shown here; `back` is the client's redirect URI with the error, as a link. */
  | { kind: 'error'; message: string; redirectHost: string; back: string }
  /** The same problem for a client this user approved before: sent back to it (a 307). */
  | { kind: 'redirect'; location: string }
  | { kind: 'sign-in'; request: AuthorizationRequest }
  | {
      kind: 'consent';
      request: AuthorizationRequest;
      formToken: string;
      redirectOrigin: string;
      /** The checkboxes: the scopes asked for and those the standing grant holds (docs/api.md#re-authorizing). */
      offered: Scope[];
      /** What this user's standing grant to the client holds already: shown as granted. */
      granted: Scope[];
      /** The release limit field's value (base units): the standing grant's, else 0. */
      releaseLimit: string;
      /** The funding limit field's value (base units): the standing grant's, else 0. */
      fundingLimit: string;
    };

type Params = Record<string, string | string[] | undefined>;

/**
 * The page's answer to `params`, for a signed-in `userId` or nobody. `requester` is whose IP a client
 * metadata document fetched for this view is counted against (docs/api.md#client-id-metadata-documents).
 */
export async function viewAuthorization(
  db: Db,
  kv: Kv,
  issuer: string,
  params: Params,
  userId: string | undefined,
  now: Date,
  requester: Requester,
): Promise<AuthorizationView> {
  let request: AuthorizationRequest;
  try {
    request = await checkAuthorizationRequest(db, issuer, params, requester);
  } catch (error) {
    if (error instanceof UnsafeAuthorizationRequest) return { kind: 'refused', message: error.message };
    if (!(error instanceof RedirectableError)) throw error;
    const location = errorLocation(error, issuer);
    if (userId && (await hasApprovedClient(db, userId, error.clientId, now))) return { kind: 'redirect', location };
    return { kind: 'error', message: error.message, redirectHost: redirectHost(error.redirectUri), back: location };
  }
  if (!userId) return { kind: 'sign-in', request };
  const standing = await standingGrant(db, userId, request.client.id, now);
  const granted = standing?.scopes ?? [];
  const offered = SCOPES.filter((scope) => request.scopes.includes(scope) || granted.includes(scope));
  const releaseLimit = standing?.releaseLimit ?? '0';
  const fundingLimit = standing?.fundingLimit ?? '0';
  return {
    kind: 'consent',
    request,
    formToken: await issueConsentToken(kv, userId, request, {
      offered,
      clientName: request.client.name,
      releaseLimit,
      fundingLimit,
    }),
    redirectOrigin: redirectOrigin(request.redirectUri),
    offered,
    granted,
    releaseLimit,
    fundingLimit,
  };
}

/** The host a person recognises; a native app's private-use scheme has none, so its scheme stands in. */
export function redirectHost(uri: string): string {
  const url = new URL(uri);
  return url.host || url.protocol;
}

/**
 * Where the code will go, in full: scheme, host and port (a look-alike host or an odd port is
 * visible), or for a private-use scheme the whole URI, which is all that identifies the app.
 */
export function redirectOrigin(uri: string): string {
  const url = new URL(uri);
  return url.origin === 'null' ? uri : url.origin;
}
