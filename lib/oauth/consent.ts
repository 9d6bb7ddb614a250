// The consent decision (docs/api.md#oauth-21): the form posted from the authorize page, by a signed-in user
// with the one-time form token the page gave them, becomes a redirect to the client with a code —
// or with access_denied. Everything is checked again here: the page's view is not trusted, and a
// problem found before the form token is taken is the page's rule too — an error here, sent back
// to the client only when the user approved that client before (no open redirector).
import 'server-only';
import type { Db } from '../db/client';
import { ApiError } from '../errors';
import type { Kv } from '../kv';
import {
  checkAuthorizationRequest,
  errorLocation,
  issueCode,
  RedirectableError,
  redirectWith,
  takeConsentToken,
  UnsafeAuthorizationRequest,
} from './authorization';
import type { FormBody } from './form';
import { hasApprovedClient } from './grants';

/** The URL the browser is sent to (303) once the user approved or denied. */
export async function decideAuthorization(db: Db, kv: Kv, issuer: string, userId: string, form: FormBody): Promise<string> {
  const { form_token: formToken, decision, ...params } = form;
  let request;
  try {
    request = await checkAuthorizationRequest(db, issuer, params);
  } catch (error) {
    if (error instanceof UnsafeAuthorizationRequest) throw new ApiError(400, error.message);
    if (!(error instanceof RedirectableError)) throw error;
    if (await hasApprovedClient(db, userId, error.clientId, new Date())) return errorLocation(error, issuer);
    throw new ApiError(400, error.message);
  }
  // Consent CSRF: without the token this page handed to this user for these exact terms, nothing happens.
  if (typeof formToken !== 'string' || !(await takeConsentToken(kv, userId, formToken, request))) {
    throw new ApiError(403, 'This consent form has expired or was already used; start the connection again from your app');
  }
  if (decision !== 'approve') {
    return redirectWith(request.redirectUri, { error: 'access_denied', error_description: 'The user declined', state: request.state, iss: issuer });
  }
  const code = await issueCode(kv, {
    userId,
    clientId: request.client.id,
    redirectUri: request.redirectUri,
    redirectUriGiven: request.redirectUriGiven,
    scopes: request.scopes,
    codeChallenge: request.codeChallenge,
  });
  return redirectWith(request.redirectUri, { code, state: request.state, iss: issuer });
}
