// The authorization request (OAuth 2.1 §4.1, docs/api.md#tokens): which of its problems may be sent back to
// the client's redirect URI and which must be shown on our page instead (an unknown client or a
// redirect URI it did not register — never redirect there, or we are an open redirector), the
// one-time consent form token, and the single-use, 60-second authorization code with its PKCE
// challenge (S256 only).
import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Db } from '../db/client';
import { OAuthError } from '../errors';
import type { Kv } from '../kv';
import { clientIdUrl, MAX_CLIENT_ID_URL_LENGTH } from './client-id-url';
import { ClientDocumentError, clientFromDocument, type Requester } from './client-metadata-document';
import { findClient, type OAuthClient, redirectUriMatches } from './clients';
import { namedResource } from '../auth/resources';
import { DEFAULT_SCOPES, type Scope, parseScopes } from './scopes';

export { DEFAULT_SCOPES } from './scopes';
export const CODE_TTL_MS = 60_000;
const CONSENT_TTL_MS = 10 * 60_000;
export const MAX_CONSENT_FORMS = 50;
const PKCE = /^[A-Za-z0-9._~-]{43,128}$/;

const text = (max: number) => z.string().min(1).max(max);

export const authorizationQuerySchema = z.object({
  response_type: z.string().max(50).optional(),
  client_id: text(MAX_CLIENT_ID_URL_LENGTH),
  redirect_uri: text(2000).optional(),
  scope: z.string().max(500).optional(),
  state: z.string().max(1000).optional(),
  code_challenge: z.string().max(200).optional(),
  code_challenge_method: z.string().max(20).optional(),
  resource: z.string().max(2000).optional(),
});
export type AuthorizationQuery = z.infer<typeof authorizationQuerySchema>;

/** The client asking: registered (RFC 7591) or described by its metadata document. */
export type AuthorizingClient = Pick<OAuthClient, 'id' | 'name' | 'clientUri' | 'redirectUris'>;

export interface AuthorizationRequest {
  client: Omit<AuthorizingClient, 'redirectUris'> & {
    /** A metadata document's client: the host that serves its document. */
    documentHost?: string;
    /**
     * The document's host, only when it is also the redirect URI's host
     * (docs/api.md#client-id-metadata-documents): whoever runs it both describes the app and receives the code.
     */
    verifiedDomain?: string;
  };
  redirectUri: string;
  /** The request named its redirect_uri (rather than leaving it to the one registered): the token request must too. */
  redirectUriGiven: boolean;
  scopes: Scope[];
  state: string | undefined;
  codeChallenge: string;
  resource: string | undefined;
}

/** A problem shown on our page: the client cannot be trusted with a redirect. */
export class UnsafeAuthorizationRequest extends Error {}
/** A problem reported to the client at its redirect URI (RFC 6749 §4.1.2.1). */
export class RedirectableError extends Error {
  constructor(
    readonly clientId: string,
    readonly redirectUri: string,
    readonly code: string,
    description: string,
    readonly state: string | undefined,
  ) {
    super(description);
  }
}

/** Whether `resource` names one of ours (RFC 8707; docs/api.md#audience): the MCP endpoint or the REST API. */
export const acceptsResource = (issuer: string, resource: string | undefined): boolean =>
  namedResource(issuer, resource) !== undefined;

/**
 * The client named by `clientId`: a metadata document's (docs/api.md#client-id-metadata-documents), or a
 * registered one. A document that cannot be used is a problem for our page, like an unknown client.
 */
async function authorizingClient(
  db: Db,
  requester: Requester,
  clientId: string,
): Promise<AuthorizingClient | undefined> {
  const url = clientIdUrl(clientId);
  if (url) {
    try {
      return await clientFromDocument(requester, url);
    } catch (error) {
      if (error instanceof ClientDocumentError) throw new UnsafeAuthorizationRequest(error.message);
      throw error;
    }
  }
  return findClient(db, clientId);
}

export async function checkAuthorizationRequest(
  db: Db,
  issuer: string,
  raw: Record<string, string | string[] | undefined>,
  requester: Requester,
): Promise<AuthorizationRequest> {
  // A parameter given twice is ambiguous (RFC 6749 §3.1): refused.
  const duplicated = Object.keys(raw).find((key) => Array.isArray(raw[key]));
  const parsed = authorizationQuerySchema.safeParse(
    Object.fromEntries(Object.entries(raw).filter(([, v]) => typeof v === 'string')),
  );
  const clientId = typeof raw.client_id === 'string' ? raw.client_id : undefined;
  const client = clientId ? await authorizingClient(db, requester, clientId) : undefined;
  if (!client)
    throw new UnsafeAuthorizationRequest('This application is not registered with taskmarket (unknown client_id).');
  const askedRedirect = typeof raw.redirect_uri === 'string' ? raw.redirect_uri : undefined;
  // Exact string match against a registered URI (OAuth 2.1 §4.1.1), any port for loopback
  // (docs/api.md#loopback-redirects); none given is fine only when there is one.
  const redirectUri = askedRedirect ?? (client.redirectUris.length === 1 ? client.redirectUris[0] : undefined);
  if (
    !redirectUri ||
    !client.redirectUris.some((registered) => redirectUriMatches(registered, redirectUri)) ||
    Array.isArray(raw.redirect_uri)
  ) {
    throw new UnsafeAuthorizationRequest('The redirect_uri does not match one this application registered.');
  }
  const state = typeof raw.state === 'string' ? raw.state : undefined;
  const refuse = (code: string, description: string) =>
    new RedirectableError(client.id, redirectUri, code, description, state);
  if (duplicated) throw refuse('invalid_request', `${duplicated} given more than once`);
  if (!parsed.success)
    throw refuse('invalid_request', parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  const query = parsed.data;
  if (query.response_type !== 'code') throw refuse('unsupported_response_type', 'response_type must be code');
  if (!query.code_challenge || !PKCE.test(query.code_challenge))
    throw refuse('invalid_request', 'code_challenge (PKCE) is required');
  if (query.code_challenge_method !== 'S256') throw refuse('invalid_request', 'code_challenge_method must be S256');
  if (!acceptsResource(issuer, query.resource)) throw refuse('invalid_target', 'resource is not this server');
  const scopes = query.scope === undefined || query.scope.trim() === '' ? DEFAULT_SCOPES : parseScopes(query.scope);
  if (!scopes || scopes.length === 0) throw refuse('invalid_scope', 'Unknown scope');
  const document = clientIdUrl(client.id);
  return {
    client: {
      id: client.id,
      name: client.name,
      clientUri: client.clientUri,
      ...(document && { documentHost: document.host }),
      ...(document && new URL(redirectUri).hostname === document.hostname && { verifiedDomain: document.host }),
    },
    redirectUri,
    redirectUriGiven: askedRedirect !== undefined,
    scopes,
    state,
    codeChallenge: query.code_challenge,
    resource: query.resource,
  };
}

/** Where the browser goes with the answer: the redirect URI plus code or error, state and iss (RFC 9207). */
export function redirectWith(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value);
  return url.toString();
}

/** Where a redirectable error sends the browser: the client's redirect URI with error, state and iss. */
export const errorLocation = (error: RedirectableError, issuer: string) =>
  redirectWith(error.redirectUri, {
    error: error.code,
    error_description: error.message,
    state: error.state,
    iss: issuer,
  });

// What the consent form token is bound to: this user, this client, these terms. The scopes are not
// among them: the person picks from those offered (docs/api.md#choosing-scopes), which the token's
// entry keeps beside its fingerprint, with the client name the page showed and the release limit it
// pre-filled.
const fingerprint = (userId: string, request: AuthorizationRequest) =>
  createHash('sha256')
    .update(
      JSON.stringify([
        userId,
        request.client.id,
        request.redirectUri,
        request.codeChallenge,
        request.state ?? '',
        request.resource ?? '',
      ]),
    )
    .digest('base64url');
const FORM_TOKEN = /^[A-Za-z0-9_-]{32}$/;

const consentKey = (token: string) => `consent:${token}`;
const consentSet = (userId: string) => `consents:${userId}`;

/** What the page showed with a form token: the POST is checked against it. */
export interface ConsentForm {
  /** The scopes offered as checkboxes: those asked for and those the standing grant holds. */
  offered: Scope[];
  /** The client's name as the page showed it (docs/api.md#consent-names-what-you-saw). */
  clientName: string;
  /** The release limit the field was pre-filled with (base units): posted unchanged, it changes nothing. */
  releaseLimit: string;
  /** The funding limit the field was pre-filled with (docs/api.md#standing-allowance). */
  fundingLimit?: string;
}
type ConsentEntry = ConsentForm & { fingerprint: string };

/**
 * A one-time token for the consent form: the POST must carry it, for this user and these terms. A
 * user has at most MAX_CONSENT_FORMS open; a newer page evicts the oldest form rather than being
 * refused (docs/api.md#oauth-21), so tabs left open never lock anyone out of connecting an app.
 */
export async function issueConsentToken(
  kv: Kv,
  userId: string,
  request: AuthorizationRequest,
  form: ConsentForm,
): Promise<string> {
  const token = randomBytes(24).toString('base64url');
  const entry: ConsentEntry = { fingerprint: fingerprint(userId, request), ...form };
  await kv.putEvictingOldest(
    consentKey(token),
    JSON.stringify(entry),
    CONSENT_TTL_MS,
    consentSet(userId),
    MAX_CONSENT_FORMS,
  );
  return token;
}

function parseEntry(entry: string | null): ConsentEntry | undefined {
  if (entry === null || !entry.startsWith('{')) return undefined;
  return JSON.parse(entry) as ConsentEntry;
}

/** What the page showed with this form token, read without taking it; undefined when it is unknown. */
export async function consentForm(kv: Kv, token: string): Promise<ConsentForm | undefined> {
  if (!FORM_TOKEN.test(token)) return undefined;
  return parseEntry(await kv.get(consentKey(token)));
}

/** Takes the form token (one use); false when it is unknown, used, expired or for other terms. */
export async function takeConsentToken(
  kv: Kv,
  userId: string,
  token: string,
  request: AuthorizationRequest,
): Promise<boolean> {
  if (!FORM_TOKEN.test(token)) return false;
  const entry = parseEntry(await kv.take(consentKey(token), consentSet(userId)));
  return entry !== undefined && entry.fingerprint === fingerprint(userId, request);
}

export interface CodeGrant {
  userId: string;
  clientId: string;
  /** The name the person saw: a metadata document's client has no row to read it from at the token endpoint. */
  clientName?: string;
  redirectUri: string;
  redirectUriGiven: boolean;
  scopes: Scope[];
  codeChallenge: string;
  /** The authorization request's `resource` (RFC 8707), which the token request may not change. */
  resource?: string;
  /**
   * What the person let the app release without asking, in base units (docs/api.md#confirmations);
   * absent when they left the pre-filled field as it was: the grant's limit stays what it is then.
   */
  releaseLimit?: string;
  /** The funding limit the person typed (docs/api.md#standing-allowance); absent: left as it was. */
  fundingLimit?: string;
  /** When it was issued (ms since the epoch), set by issueCode. */
  issuedAt?: number;
}

// The code is 32 random bytes and nothing else (docs/api.md#oauth-21): it travels in the browser's
// URL, history and the client's logs, so it names no user. The user is in the KV entry it keys
// (stored under the code's hash), counted in that user's live set: a flood of consents fills one
// user's set only.
const codeKey = (code: string) => `oauth-code:${createHash('sha256').update(code).digest('base64url')}`;
const codeSet = (userId: string) => `oauth-codes:${userId}`;
const CODE = /^[A-Za-z0-9_-]{43}$/;

export async function issueCode(kv: Kv, grant: CodeGrant): Promise<string> {
  const code = randomBytes(32).toString('base64url');
  const stored = await kv.putCapped(
    codeKey(code),
    JSON.stringify({ ...grant, issuedAt: Date.now() }),
    CODE_TTL_MS,
    codeSet(grant.userId),
    20,
  );
  if (!stored)
    throw new OAuthError(429, 'temporarily_unavailable', 'Too many authorizations at once; try again in a minute');
  return code;
}

/** Takes the code (single use: at most one caller ever sees it); undefined when unknown, used or expired. */
export async function takeCode(kv: Kv, code: string): Promise<CodeGrant | undefined> {
  if (!CODE.test(code)) return undefined;
  // The read only finds the user's set; the take alone decides, so of two concurrent exchanges one wins.
  const found = await kv.get(codeKey(code));
  if (!found) return undefined;
  const value = await kv.take(codeKey(code), codeSet((JSON.parse(found) as CodeGrant).userId));
  if (!value) return undefined;
  const grant = JSON.parse(value) as CodeGrant;
  // Its own clock as well as the KV's TTL: a store that evicts late (or a replica behind) never stretches the 60 s.
  return grant.issuedAt !== undefined && Date.now() - grant.issuedAt >= CODE_TTL_MS ? undefined : grant;
}

/** PKCE S256 (RFC 7636 §4.6): BASE64URL(SHA256(verifier)) equals the challenge. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!PKCE.test(verifier)) return false;
  return createHash('sha256').update(verifier).digest('base64url') === challenge;
}

// A code presented twice may have been stolen: the grant made with it is revoked (RFC 6749 §4.1.2).
const usedCodeKey = (code: string) => `oauth-code-used:${createHash('sha256').update(code).digest('base64url')}`;

export const rememberUsedCode = (kv: Kv, code: string, grantId: string) =>
  kv.put(usedCodeKey(code), grantId, 10 * 60_000);
export const grantOfUsedCode = (kv: Kv, code: string) => kv.get(usedCodeKey(code));
