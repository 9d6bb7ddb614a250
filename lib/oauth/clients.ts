// OAuth clients (RFC 7591 dynamic registration, docs/api.md#tokens): what a registration may say, the
// redirect-URI rules, looking a client up and authenticating it at the token endpoint, and
// forgetting registrations nobody used for 30 days.
import 'server-only';
import { timingSafeEqual } from 'node:crypto';
import { OAuthClientMetadataSchema } from '@modelcontextprotocol/sdk/shared/auth.js';
import { and, count, eq, gt, isNull, lt, min, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { oauthClients } from '../db/schema';
import { ApiError, OAuthError } from '../errors';
import { describeIssues, NO_CONTROLS_OR_FORMAT } from '../fields';
import { clientIdUrl } from './client-id-url';
import { hashSecret, newSecret } from './grants';

export const CLIENT_UNUSED_DAYS = 30;
const MAX_REDIRECT_URIS = 5;
const MAX_URI_LENGTH = 2000;
const AUTH_METHODS = ['none', 'client_secret_post', 'client_secret_basic'] as const;
type AuthMethod = (typeof AUTH_METHODS)[number];

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
// Schemes that are not a place to send a browser with a code (RFC 8252 §7.1 allows private-use
// schemes such as com.example.app: for native clients; these are not that).
const REFUSED_SCHEMES = new Set([
  'javascript:',
  'data:',
  'vbscript:',
  'file:',
  'about:',
  'blob:',
  'ftp:',
  'ws:',
  'wss:',
  'mailto:',
]);

/** Why `uri` cannot be a redirect URI, or undefined when it can (OAuth 2.1 §2.3.1, RFC 8252). */
export function redirectUriProblem(uri: string): string | undefined {
  if (uri.length > MAX_URI_LENGTH) return `longer than ${MAX_URI_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'not an absolute URL';
  }
  if (url.hash || uri.includes('#')) return 'must not contain a fragment';
  if (url.username || url.password) return 'must not contain credentials';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:')
    return LOOPBACK.has(url.hostname) ? undefined : 'http is allowed only for loopback (localhost, 127.0.0.1, [::1])';
  if (REFUSED_SCHEMES.has(url.protocol)) return `the ${url.protocol} scheme is not allowed`;
  return undefined;
}

// A loopback redirect URI split at its port: the host as written, and everything after the port.
const LOOPBACK_REDIRECT = /^http:\/\/(127\.0\.0\.1|\[::1\]|localhost)(?::\d{1,5})?([/?].*)?$/;

/**
 * Whether `asked` is the registered redirect URI: the same string (OAuth 2.1 §4.1.1), or for an
 * http loopback URI the same but for the port — a native app listens on whatever port the system
 * gives it at that moment (RFC 8252 §7.3, OAuth 2.1 §8.4.2; docs/api.md#loopback-redirects).
 */
export function redirectUriMatches(registered: string, asked: string): boolean {
  if (registered === asked) return true;
  const want = LOOPBACK_REDIRECT.exec(registered);
  const got = LOOPBACK_REDIRECT.exec(asked);
  if (!want || !got || want[1] !== got[1] || (want[2] ?? '') !== (got[2] ?? '')) return false;
  // The pattern is the gate; the URL parser confirms the port is one (at most 65535).
  return URL.canParse(asked) && !redirectUriProblem(asked);
}

export interface RegisteredClient {
  client_id: string;
  client_secret?: string;
  client_id_issued_at: number;
  client_secret_expires_at?: number;
  client_name: string;
  redirect_uris: string[];
  grant_types: string[];
  response_types: string[];
  token_endpoint_auth_method: AuthMethod;
  client_uri?: string;
}

const invalidMetadata = (description: string) => new OAuthError(400, 'invalid_client_metadata', description);

/**
 * Client metadata as we honour it, from a registration (RFC 7591) or a metadata document
 * (docs/api.md#client-id-metadata-documents).
 */
export interface CheckedMetadata {
  name: string;
  redirectUris: string[];
  grantTypes: string[];
  responseTypes: string[];
  method: AuthMethod;
  clientUri: string | undefined;
}

/**
 * Checks client metadata field by field; refuses anything we would not honour. `defaultMethod` is
 * RFC 7591 §2's client_secret_basic for a registration, `none` for a metadata document.
 */
export function checkClientMetadata(input: unknown, defaultMethod: AuthMethod): CheckedMetadata {
  const parsed = OAuthClientMetadataSchema.safeParse(input);
  if (!parsed.success) {
    const issues = describeIssues(parsed.error);
    const code = issues.some((i) => i.startsWith('redirect_uris')) ? 'invalid_redirect_uri' : 'invalid_client_metadata';
    throw new OAuthError(400, code, issues.join('; '));
  }
  const meta = parsed.data;
  if (meta.redirect_uris.length === 0 || meta.redirect_uris.length > MAX_REDIRECT_URIS) {
    throw new OAuthError(400, 'invalid_redirect_uri', `redirect_uris: between 1 and ${MAX_REDIRECT_URIS} URIs`);
  }
  for (const uri of meta.redirect_uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new OAuthError(400, 'invalid_redirect_uri', `redirect_uris: ${uri}: ${problem}`);
  }
  const grantTypes = meta.grant_types ?? ['authorization_code', 'refresh_token'];
  if (
    !grantTypes.includes('authorization_code') ||
    grantTypes.some((g) => g !== 'authorization_code' && g !== 'refresh_token')
  ) {
    throw invalidMetadata('grant_types: authorization_code (and refresh_token) only');
  }
  const responseTypes = meta.response_types ?? ['code'];
  if (responseTypes.some((r) => r !== 'code')) throw invalidMetadata('response_types: code only');
  const method = (meta.token_endpoint_auth_method ?? defaultMethod) as AuthMethod;
  if (!AUTH_METHODS.includes(method))
    throw invalidMetadata(`token_endpoint_auth_method: one of ${AUTH_METHODS.join(', ')}`);
  const name = (meta.client_name ?? new URL(meta.redirect_uris[0]!).host).trim();
  // docs/api.md#oauth-21: the name is what a person trusts on the consent page.
  if (name.length === 0 || name.length > 100 || !NO_CONTROLS_OR_FORMAT.test(name)) {
    throw invalidMetadata(
      'client_name: 1–100 characters, no control or format characters (bidi overrides, zero-width)',
    );
  }
  if (meta.client_uri && meta.client_uri.length > MAX_URI_LENGTH) throw invalidMetadata('client_uri: too long');
  return { name, redirectUris: meta.redirect_uris, grantTypes, responseTypes, method, clientUri: meta.client_uri };
}

export const UNUSED_WINDOW_MS = 3_600_000;

/**
 * Registers a client from its metadata (RFC 7591 §2), within the ceiling on unused registrations
 * (docs/api.md#oauth-21): at most `ceiling` registrations made in the last hour that no
 * authorization has used yet, across all sources, else 429. What the ceiling bounds is the table a
 * stranger can fill; a registration used in an authorization stops counting, so a flood leaves room
 * for clients that connect. Checked only once the metadata is acceptable (refused junk costs
 * nothing), and under a transaction lock, so concurrent registrations cannot overshoot it.
 */
export async function registerClient(db: Db, input: unknown, now: Date, ceiling: number): Promise<RegisteredClient> {
  const { name, redirectUris, grantTypes, responseTypes, method, clientUri } = checkClientMetadata(
    input,
    'client_secret_basic',
  );
  const clientId = newSecret('tmc_');
  const secret = method === 'none' ? undefined : newSecret('tms_');
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${REGISTRATION_LOCK})`);
    const since = new Date(now.getTime() - UNUSED_WINDOW_MS);
    const [unused] = await tx
      .select({ n: count(), oldest: min(oauthClients.createdAt) })
      .from(oauthClients)
      .where(and(isNull(oauthClients.authorizedAt), gt(oauthClients.createdAt, since)));
    if (unused!.n >= ceiling) {
      const wait = Math.ceil(((unused!.oldest?.getTime() ?? now.getTime()) + UNUSED_WINDOW_MS - now.getTime()) / 1000);
      throw new ApiError(429, 'Too many new client registrations; try again later', undefined, {
        'Retry-After': String(Math.max(1, wait)),
      });
    }
    await tx.insert(oauthClients).values({
      id: clientId,
      name,
      redirectUris,
      authMethod: method,
      secretHash: secret ? hashSecret(secret) : null,
      clientUri: clientUri ?? null,
      createdAt: now,
      lastUsedAt: now,
    });
  });
  return {
    client_id: clientId,
    ...(secret && { client_secret: secret, client_secret_expires_at: 0 }),
    client_id_issued_at: Math.floor(now.getTime() / 1000),
    client_name: name,
    redirect_uris: redirectUris,
    grant_types: grantTypes,
    response_types: responseTypes,
    token_endpoint_auth_method: method,
    ...(clientUri && { client_uri: clientUri }),
  };
}

// Serialises registrations for the ceiling's count (any constant; lib/db/client.ts's migration lock is another).
const REGISTRATION_LOCK = 7406252;

export type OAuthClient = typeof oauthClients.$inferSelect;

export async function findClient(db: Db, clientId: string): Promise<OAuthClient | undefined> {
  if (clientId.length > 100) return undefined;
  const [row] = await db.select().from(oauthClients).where(eq(oauthClients.id, clientId)).limit(1);
  return row;
}

/**
 * The client a token request comes from (RFC 6749 §2.3): its id in the body or in Basic auth,
 * and its secret checked when it registered with one. A public client proves itself with PKCE.
 */
export async function authenticateClient(
  db: Db,
  authorization: string | null,
  body: { client_id?: string; client_secret?: string },
): Promise<OAuthClient> {
  let id = body.client_id;
  let secret = body.client_secret;
  let basic = false;
  if (authorization && /^basic /i.test(authorization)) {
    ({ id, secret } = basicCredentials(authorization.slice(6)));
    basic = true;
  }
  if (!id) throw invalidClient();
  // A metadata document's client is public (docs/api.md#client-id-metadata-documents): nothing to check
  // here; its code or refresh token is bound to this client_id, and PKCE proves the code's holder.
  const documentUrl = clientIdUrl(id);
  if (documentUrl) return publicDocumentClient(documentUrl);
  const client = await findClient(db, id);
  if (!client) throw invalidClient();
  if (client.authMethod === 'none') return client;
  if (!secret || !client.secretHash || (client.authMethod === 'client_secret_basic') !== basic) throw invalidClient();
  const given = Buffer.from(hashSecret(secret));
  const stored = Buffer.from(client.secretHash);
  if (given.length !== stored.length || !timingSafeEqual(given, stored)) throw invalidClient();
  return client;
}

/**
 * RFC 6749 §2.3.1: base64 of `id:secret`, each form-urlencoded. Whatever a client sends there that
 * does not decode (a stray `%`, no colon) is a failed authentication, never a 500
 * (docs/api.md#oauth-21).
 */
function basicCredentials(encoded: string): { id: string; secret: string } {
  const decoded = Buffer.from(encoded.trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw invalidClient();
  const formDecoded = (part: string) => {
    try {
      return decodeURIComponent(part.replaceAll('+', ' '));
    } catch {
      throw invalidClient();
    }
  };
  return { id: formDecoded(decoded.slice(0, colon)), secret: formDecoded(decoded.slice(colon + 1)) };
}

/** A metadata document's client at the token and revocation endpoints: its id, public, no secret. */
function publicDocumentClient(url: URL): OAuthClient {
  const epoch = new Date(0);
  return {
    id: url.href,
    name: url.host,
    redirectUris: [],
    authMethod: 'none',
    secretHash: null,
    clientUri: null,
    createdAt: epoch,
    lastUsedAt: epoch,
    authorizedAt: epoch,
  };
}

const invalidClient = () =>
  new OAuthError(401, 'invalid_client', 'Client authentication failed', {
    'WWW-Authenticate': 'Basic realm="taskmarket"',
  });

/** The client was used (a code redeemed, a refresh): its first use takes it out of the unused ceiling. */
export async function touchClient(db: Db, clientId: string, now: Date): Promise<void> {
  await db
    .update(oauthClients)
    .set({
      lastUsedAt: now,
      authorizedAt: sql`coalesce(${oauthClients.authorizedAt}, ${now.toISOString()}::timestamptz)`,
    })
    .where(eq(oauthClients.id, clientId));
}

/** The sweep's part: registrations nobody used for CLIENT_UNUSED_DAYS are deleted. */
export async function deleteUnusedClients(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - CLIENT_UNUSED_DAYS * 86_400_000);
  const deleted = await db
    .delete(oauthClients)
    .where(lt(oauthClients.lastUsedAt, cutoff))
    .returning({ id: oauthClients.id });
  return deleted.length;
}
