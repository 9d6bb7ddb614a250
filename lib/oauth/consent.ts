// The consent decision (docs/api.md#oauth-21): the form posted from the authorize page, by a signed-in user
// with the one-time form token the page gave them, becomes a redirect to the client with a code —
// or with access_denied. Everything is checked again here: the page's view is not trusted, and a
// problem found before the form token is taken is the page's rule too — an error here, sent back
// to the client only when the user approved that client before (no open redirector). The person
// picks the scopes (docs/api.md#choosing-scopes): the form's `scope` fields, each one the page offered —
// which, for a client the person stands connected to, includes what the grant holds, so unticking one
// takes it away (docs/api.md#re-authorizing). The name the page showed is the name approved.
import 'server-only';
import type { Db } from '../db/client';
import { ApiError } from '../errors';
import type { Kv } from '../kv';
import {
  checkAuthorizationRequest,
  errorLocation,
  issueCode,
  consentForm,
  RedirectableError,
  redirectWith,
  takeConsentToken,
  UnsafeAuthorizationRequest,
} from './authorization';
import type { Requester } from './client-metadata-document';
import type { FormBody } from './form';
import { hasApprovedClient, withdrawScopes } from './grants';
import { consentReleaseLimit } from './release-limit';
import { isScope, type Scope, SCOPES } from './scopes';

/** The URL the browser is sent to (303) once the user approved or denied. */
export async function decideAuthorization(
  db: Db,
  kv: Kv,
  issuer: string,
  userId: string,
  form: FormBody,
  requester: Requester,
  /** The reward token's decimals (lib/chain/token-metadata.ts), asked only for a release limit above 0. */
  tokenDecimals: () => Promise<number | null>,
): Promise<string> {
  // `scope` is the person's choice here, not the request's: the page offered what was asked for.
  const {
    form_token: formToken,
    decision,
    scope: chosen,
    release_limit: limitField,
    funding_limit: fundingField,
    ...params
  } = form;
  let request;
  try {
    request = await checkAuthorizationRequest(db, issuer, params, requester);
  } catch (error) {
    if (error instanceof UnsafeAuthorizationRequest) throw new ApiError(400, error.message);
    if (!(error instanceof RedirectableError)) throw error;
    if (await hasApprovedClient(db, userId, error.clientId, new Date())) return errorLocation(error, issuer);
    throw new ApiError(400, error.message);
  }
  const shown = typeof formToken === 'string' ? await consentForm(kv, formToken) : undefined;
  // Checked before the form token is taken, so a refused choice leaves the form usable.
  const scopes = decision === 'approve' && shown ? chosenScopes(chosen, shown.offered) : [];
  // The field comes pre-filled with the grant's limit: left as it was (or not sent, as when the page could not
  // show it), the limit is not touched — a step-up never resets it, nor undoes a change made in Connected apps.
  const typed =
    decision === 'approve' && limitField !== undefined
      ? await consentReleaseLimit(limitField, tokenDecimals)
      : undefined;
  const releaseLimit = typed === shown?.releaseLimit ? undefined : typed;
  // docs/api.md#standing-allowance: the funding limit the same way, its own field.
  const typedFunding =
    decision === 'approve' && fundingField !== undefined
      ? await consentReleaseLimit(fundingField, tokenDecimals, 'funding_limit')
      : undefined;
  const fundingLimit = typedFunding === shown?.fundingLimit ? undefined : typedFunding;
  // Consent CSRF: without the token this page handed to this user for these exact terms, nothing happens.
  if (typeof formToken !== 'string' || !shown || !(await takeConsentToken(kv, userId, formToken, request))) {
    throw new ApiError(
      403,
      'This consent form has expired or was already used; start the connection again from your app',
    );
  }
  // The person approved the name they saw; a document that now says another is not what they approved.
  if (request.client.name !== shown.clientName) {
    throw new ApiError(409, "The app's name changed since the page was shown; start the connection again");
  }
  if (decision !== 'approve') {
    return redirectWith(request.redirectUri, {
      error: 'access_denied',
      error_description: 'The user declined',
      state: request.state,
      iss: issuer,
    });
  }
  await withdrawScopes(db, userId, request.client.id, scopes, new Date());
  const code = await issueCode(kv, {
    userId,
    clientId: request.client.id,
    clientName: shown.clientName,
    redirectUri: request.redirectUri,
    redirectUriGiven: request.redirectUriGiven,
    scopes,
    codeChallenge: request.codeChallenge,
    resource: request.resource,
    ...(releaseLimit !== undefined && { releaseLimit }),
    ...(fundingLimit !== undefined && { fundingLimit }),
  });
  return redirectWith(request.redirectUri, { code, state: request.state, iss: issuer });
}

/** The checked `scope` fields: at least one, each one the page offered (docs/api.md#choosing-scopes), else 400. */
function chosenScopes(chosen: string | string[] | undefined, offered: Scope[]): Scope[] {
  const values = [chosen ?? []].flat();
  const refused = values.filter((value) => !isScope(value) || !offered.includes(value));
  if (refused.length > 0)
    throw new ApiError(400, 'Validation failed', [`scope: not asked for: ${refused.join(', ').slice(0, 200)}`]);
  if (values.length === 0) throw new ApiError(400, 'Validation failed', ['scope: choose at least one']);
  return SCOPES.filter((scope) => values.includes(scope));
}
