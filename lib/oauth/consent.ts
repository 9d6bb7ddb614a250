// The consent decision (docs/api.md#tokens): the form posted from the authorize page, by a signed-in user
// with the one-time form token the page gave them, becomes a redirect to the client with a code —
// or with access_denied. Everything is checked again here: the page's view is not trusted.
import 'server-only';
import type { Db } from '../db/client';
import { ApiError } from '../errors';
import type { Kv } from '../kv';
import {
  checkAuthorizationRequest,
  issueCode,
  RedirectableError,
  redirectWith,
  takeConsentToken,
  UnsafeAuthorizationRequest,
} from './authorization';
import type { FormBody } from './form';

/** The URL the browser is sent to (303) once the user approved or denied. */
export async function decideAuthorization(db: Db, kv: Kv, issuer: string, userId: string, form: FormBody): Promise<string> {
  const { form_token: formToken, decision, ...params } = form;
  let request;
  try {
    request = await checkAuthorizationRequest(db, issuer, params);
  } catch (error) {
    if (error instanceof UnsafeAuthorizationRequest) throw new ApiError(400, error.message);
    if (error instanceof RedirectableError) return redirectWith(error.redirectUri, { error: error.code, error_description: error.message, state: error.state, iss: issuer });
    throw error;
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
