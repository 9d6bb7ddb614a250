// Who is calling: a Bearer JWT (a wallet sign-in, or an OAuth client's access token), a personal
// access token (tm_…), or the dashboard's session cookie — all resolved to the same user, whose
// current role is read from the database, not the token, in one query with the user's passport.
// A delegated credential (OAuth or tm_) also brings its scopes (docs/api.md#tokens), and a token tied to
// a grant is refused once the grant is revoked or expired in the database (docs/api.md#grant-bound-tokens).
import 'server-only';
import type { Config } from '../config';
import { readSessionCookie } from '../auth/session-cookie';
import { isRevoked, readToken, TOKEN_AUDIENCE } from '../auth/tokens';
import type { Db } from '../db/client';
import type { Kv } from '../kv';
import { grantNow } from '../oauth/grant-standing';
import { findPersonalToken, touchGrant } from '../oauth/grants';
import { issuerOf, type ResourceName, resourceUri } from '../auth/resources';
import { parseScopes } from '../oauth/scopes';
import { findUserWithPassport } from '../users/queries';
import type { Caller } from '../oauth/caller';
import { ApiError } from '../errors';
import { assertAllowedOrigin } from './origin';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const JWT = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*)$/;
const PERSONAL_TOKEN = /^Bearer (tm_[A-Za-z0-9_-]{43})$/;
const INVALID = 'Invalid or expired token';

// Calls this process makes of its own routes for a caller it has just authenticated (the remote MCP
// tools, app/api/mcp/api-routes.ts), reads and writes, carry that caller: one tool call checks its
// token once, not once per layer. Only an in-process Request object can be a key (a module-private
// WeakMap, never a header); nothing from the network reaches it.
const vouched = new WeakMap<Request, Caller>();
export const vouchFor = (request: Request, caller: Caller): void => void vouched.set(request, caller);

// The requests a tool call makes inside an /api/mcp request are part of it: an access token issued for
// /api/mcp is accepted there (docs/api.md#audience). Only this process's own Request objects are marked.
const insideMcp = new WeakSet<Request>();
export const madeInsideMcp = (request: Request): void => void insideMcp.add(request);

/**
 * The resource a request is addressed to (docs/api.md#audience): the one its route serves (`declared`:
 * /api/mcp's says so, every other is the REST API's), or /api/mcp for a call made inside it.
 */
export const addressedResource = (request: Request, declared: ResourceName = 'api'): ResourceName =>
  insideMcp.has(request) ? 'mcp' : declared;

export async function authenticate(
  request: Request,
  cfg: Config,
  kv: Kv,
  db: () => Promise<Db>,
  resource: ResourceName = addressedResource(request),
  alsoFor?: ResourceName,
): Promise<Caller | undefined> {
  const known = vouched.get(request);
  if (known) return known;
  const authorization = request.headers.get('authorization');
  let token: string | undefined;
  let via: Caller['via'] = 'bearer';
  if (authorization !== null) {
    const personal = PERSONAL_TOKEN.exec(authorization.trim());
    if (personal) return personalTokenCaller(await db(), personal[1]!);
    const match = JWT.exec(authorization.trim());
    if (!match) throw new ApiError(401, 'Malformed Authorization header');
    token = match[1];
  } else {
    token = readSessionCookie(cfg, request.headers.get('cookie'));
    via = 'cookie';
  }
  if (!token) return undefined;
  const claims = await readToken(cfg, token);
  // An OAuth access token works at the resource it was issued for only (RFC 8707; docs/api.md#audience):
  // a claim in the token, so no lookup. A sign-in's (and a personal token's derivative's) is the whole API.
  const accepted = (name: ResourceName | undefined) =>
    name !== undefined && claims.aud === resourceUri(issuerOf(cfg), name);
  if (claims.aud !== TOKEN_AUDIENCE && !accepted(resource) && !accepted(alsoFor)) {
    throw new ApiError(401, 'Token was issued for another resource');
  }
  // A cookie rides along on cross-site requests; a bearer token does not (docs/api.md#origins).
  if (via === 'cookie' && !SAFE_METHODS.has(request.method)) assertAllowedOrigin(request, cfg, 'refuse');
  // Independent round trips, run together: the revocation list (KV), the current role and, for a
  // grant-bound token, the grant's standing (database; a flushed KV forgets revocations, it does not).
  const [revoked, found] = await Promise.all([
    isRevoked(kv, claims),
    db().then((handle) =>
      Promise.all([
        findUserWithPassport(handle, claims.sub),
        claims.gid ? grantNow(handle, claims.gid, Date.now(), parseScopes(claims.scope ?? '') ?? []) : undefined,
        claims.gid && touchGrant(handle, claims.gid),
      ]),
    ),
  ]);
  const [user, held] = found;
  if (revoked || held?.standing === 'revoked') throw new ApiError(401, 'Token revoked');
  if (held?.standing === 'expired' || !user) throw new ApiError(401, INVALID);
  // The token's scopes, less any its grant no longer holds (docs/api.md#re-authorizing).
  const grant =
    claims.gid && held
      ? { id: claims.gid, scopes: (parseScopes(claims.scope ?? '') ?? []).filter((s) => held.scopes.includes(s)) }
      : undefined;
  return { ...user, via, claims, expiresAt: claims.exp, ...(grant && { grant }) };
}

async function personalTokenCaller(db: Db, token: string): Promise<Caller> {
  const grant = await findPersonalToken(db, token, new Date());
  if (!grant) throw new ApiError(401, INVALID);
  const [found] = await Promise.all([findUserWithPassport(db, grant.userId), touchGrant(db, grant.id)]);
  if (!found) throw new ApiError(401, INVALID);
  const expiresAt = grant.expiresAt ? Math.floor(grant.expiresAt.getTime() / 1000) : undefined;
  return {
    ...found,
    via: 'personal-token',
    grant: { id: grant.id, scopes: grant.scopes },
    ...(expiresAt !== undefined && { expiresAt }),
  };
}
