// The token endpoint's two grants (OAuth 2.1 §4.1.3, §4.3, docs/api.md#tokens): an authorization code with
// its PKCE verifier becomes a grant, an access token and a refresh token; a refresh token is used
// once and replaced (rotation) — presenting a used one again revokes the whole grant, since either
// the client or a thief holds a copy (OAuth 2.1 §4.3.1, RFC 9700 §4.14.2).
import 'server-only';
import { and, eq, gt, inArray, isNull } from 'drizzle-orm';
import { z } from 'zod';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { grants, refreshTokens } from '../db/schema';
import { OAuthError } from '../errors';
import type { Kv } from '../kv';
import { grantRevokedKey, issueToken } from '../auth/tokens';
import { findUserWithPassport } from '../users/queries';
import { type FormBody, parseForm } from './form';
import { acceptsResource, grantOfUsedCode, rememberUsedCode, takeCode, verifierMatches } from './authorization';
import { issuerOf, namedResource, type ResourceName, resourceUri } from '../auth/resources';
import { type OAuthClient, touchClient } from './clients';
import { setFundingLimit, setReleaseLimit } from './grant-releases';
import { findLiveGrant, grantOAuthScopes, hashSecret, markGrantRevoked, newSecret, revokeGrantNow } from './grants';
import { formatScopes, parseScopes, type Scope } from './scopes';

export const REFRESH_TTL_MS = 30 * 86_400_000;
/**
 * A used refresh token presented again this soon is a client's own concurrent retry, not a copy in
 * other hands: refused, without revoking the grant the first use just renewed.
 */
export const REFRESH_RETRY_GRACE_MS = 1_000;

const field = z.string().min(1).max(2000);
const tokenRequestSchema = z.discriminatedUnion('grant_type', [
  z.object({
    grant_type: z.literal('authorization_code'),
    code: field,
    code_verifier: field,
    redirect_uri: field.optional(),
    client_id: field.optional(),
    client_secret: field.optional(),
    resource: field.optional(),
  }),
  z.object({
    grant_type: z.literal('refresh_token'),
    refresh_token: field,
    scope: z.string().max(500).optional(),
    client_id: field.optional(),
    client_secret: field.optional(),
    resource: field.optional(),
  }),
]);
export type TokenRequest = z.infer<typeof tokenRequestSchema>;

export function parseTokenRequest(form: FormBody): TokenRequest {
  const grantType = form.grant_type;
  if (grantType !== 'authorization_code' && grantType !== 'refresh_token' && !Array.isArray(grantType)) {
    throw new OAuthError(
      400,
      grantType ? 'unsupported_grant_type' : 'invalid_request',
      'grant_type must be authorization_code or refresh_token',
    );
  }
  return parseForm(tokenRequestSchema, form);
}

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

const invalidGrant = (description: string) => new OAuthError(400, 'invalid_grant', description);

export async function exchangeToken(
  db: Db,
  kv: Kv,
  cfg: Config,
  issuer: string,
  client: OAuthClient,
  request: TokenRequest,
  now: Date,
): Promise<TokenResponse> {
  if (!acceptsResource(issuer, request.resource))
    throw new OAuthError(400, 'invalid_target', 'resource is not this server');
  return request.grant_type === 'authorization_code'
    ? redeemCode(db, kv, cfg, client, request, now)
    : refresh(db, kv, cfg, client, request, now);
}

/**
 * The resource the access token is for (RFC 8707 §2.2; docs/api.md#audience): the one the token request
 * names, else the one the grant was for (the authorization request's, or the refresh token's), else
 * the MCP endpoint. Naming another than the grant's is `invalid_target`.
 */
function resourceFor(cfg: Config, granted: string | null | undefined, asked: string | undefined): ResourceName {
  const issuer = issuerOf(cfg);
  // A refresh token row holds the name; an authorization request, the URI it was given.
  const grantedName =
    granted === 'mcp' || granted === 'api' ? granted : granted ? namedResource(issuer, granted) : undefined;
  const askedName = asked === undefined ? undefined : namedResource(issuer, asked);
  if (grantedName && askedName && grantedName !== askedName) {
    throw new OAuthError(400, 'invalid_target', 'resource is not the one the authorization was for');
  }
  return askedName ?? grantedName ?? 'mcp';
}

async function redeemCode(
  db: Db,
  kv: Kv,
  cfg: Config,
  client: OAuthClient,
  request: Extract<TokenRequest, { grant_type: 'authorization_code' }>,
  now: Date,
) {
  const code = await takeCode(kv, request.code);
  if (!code) {
    const grantId = await grantOfUsedCode(kv, request.code);
    if (grantId) await revokeEverywhere(db, kv, cfg, grantId, now);
    throw invalidGrant('Authorization code is invalid, expired or already used');
  }
  // The code is gone now, whatever follows: a wrong verifier cannot be retried with the same code.
  if (code.clientId !== client.id) throw invalidGrant('Authorization code was issued to another client');
  // RFC 6749 §4.1.3 (docs/api.md#oauth-21): required when the authorization request had one, and then the same.
  if (request.redirect_uri === undefined && code.redirectUriGiven) {
    throw new OAuthError(400, 'invalid_request', 'redirect_uri is required: the authorization request named one');
  }
  if (request.redirect_uri !== undefined && request.redirect_uri !== code.redirectUri)
    throw invalidGrant('redirect_uri does not match the authorization request');
  if (!verifierMatches(request.code_verifier, code.codeChallenge))
    throw invalidGrant('code_verifier does not match the code_challenge');
  const resource = resourceFor(cfg, code.resource, request.resource);
  // A second approval sets what the standing grant holds (docs/api.md#re-authorizing): the tokens carry all
  // it now holds.
  const grant = await grantOAuthScopes(
    db,
    code.userId,
    { id: client.id, name: code.clientName ?? client.name },
    code.scopes,
    now,
  );
  // The person's latest consent sets what the app may release without asking (docs/api.md#confirmations);
  // a field they left as the page pre-filled it changes nothing (a new grant starts at 0).
  if (code.releaseLimit !== undefined) await setReleaseLimit(db, code.userId, grant.id, code.releaseLimit);
  if (code.fundingLimit !== undefined) await setFundingLimit(db, code.userId, grant.id, code.fundingLimit);
  await rememberUsedCode(kv, request.code, grant.id);
  await touchClient(db, client.id, now);
  return tokensFor(db, cfg, code.userId, grant.id, grant.scopes, now, resource);
}

async function refresh(
  db: Db,
  kv: Kv,
  cfg: Config,
  client: OAuthClient,
  request: Extract<TokenRequest, { grant_type: 'refresh_token' }>,
  now: Date,
) {
  const hash = hashSecret(request.refresh_token);
  // One conditional write takes the token: of two concurrent refreshes, one wins. It names the client
  // (docs/api.md#oauth-21): another client presenting the token uses nothing up and revokes nothing.
  const ownGrants = db.select({ id: grants.id }).from(grants).where(eq(grants.clientId, client.id));
  const [taken] = await db
    .update(refreshTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(refreshTokens.hash, hash),
        isNull(refreshTokens.usedAt),
        gt(refreshTokens.expiresAt, now),
        inArray(refreshTokens.grantId, ownGrants),
      ),
    )
    .returning({ grantId: refreshTokens.grantId, resource: refreshTokens.resource });
  if (!taken) {
    const [known] = await db
      .select({ grantId: refreshTokens.grantId, usedAt: refreshTokens.usedAt })
      .from(refreshTokens)
      .where(and(eq(refreshTokens.hash, hash), inArray(refreshTokens.grantId, ownGrants)))
      .limit(1);
    const retry = known?.usedAt && now.getTime() - known.usedAt.getTime() < REFRESH_RETRY_GRACE_MS;
    if (known?.usedAt && !retry) await revokeEverywhere(db, kv, cfg, known.grantId, now);
    if (retry) throw invalidGrant('Refresh token was just used by a concurrent request');
    throw invalidGrant(
      known?.usedAt ? 'Refresh token was already used; the grant is revoked' : 'Refresh token is invalid or expired',
    );
  }
  const grant = await findLiveGrant(db, taken.grantId, now);
  if (!grant || grant.clientId !== client.id) throw invalidGrant('Refresh token is invalid or expired');
  if ((await kv.get(grantRevokedKey(grant.id))) !== null) throw invalidGrant('The grant was revoked');
  const resource = resourceFor(cfg, taken.resource, request.resource);
  let scopes = grant.scopes as Scope[];
  if (request.scope !== undefined) {
    // RFC 6749 §6: a refresh may narrow the scopes, never widen them.
    const asked = parseScopes(request.scope);
    if (!asked || asked.length === 0 || asked.some((s) => !scopes.includes(s)))
      throw new OAuthError(400, 'invalid_scope', 'scope exceeds what was granted');
    scopes = asked;
  }
  await touchClient(db, client.id, now);
  return tokensFor(db, cfg, grant.userId, grant.id, scopes, now, resource);
}

async function tokensFor(
  db: Db,
  cfg: Config,
  userId: string,
  grantId: string,
  scopes: Scope[],
  now: Date,
  resource: ResourceName,
): Promise<TokenResponse> {
  const found = await findUserWithPassport(db, userId);
  if (!found) throw invalidGrant('The user no longer exists');
  const refreshToken = newSecret('tmr_');
  const expiresAt = new Date(now.getTime() + REFRESH_TTL_MS);
  await db.insert(refreshTokens).values({ hash: hashSecret(refreshToken), grantId, expiresAt, resource });
  const scope = formatScopes(scopes);
  return {
    access_token: await issueToken(cfg, found.user, now, {
      grantId,
      scope,
      resource: resourceUri(issuerOf(cfg), resource),
    }),
    token_type: 'Bearer',
    expires_in: cfg.jwtTtlSeconds,
    refresh_token: refreshToken,
    scope,
  };
}

async function revokeEverywhere(db: Db, kv: Kv, cfg: Config, grantId: string, now: Date): Promise<void> {
  await markGrantRevoked(kv, cfg, grantId);
  await revokeGrantNow(db, grantId, now);
}
