// Who is calling: a Bearer JWT (SDK, integrations) or the dashboard's session cookie, both
// resolved to the same user, whose current role is read from the database, not the token, in one
// query with the user's passport.
import 'server-only';
import type { Config } from '../config';
import { readSessionCookie } from '../auth/session-cookie';
import { isRevoked, readToken, type TokenClaims } from '../auth/tokens';
import type { Db } from '../db/client';
import type { Kv } from '../kv';
import { findUserWithPassport, type PassportSummary, type UserSummary } from '../users/queries';
import { ApiError } from '../errors';
import { assertAllowedOrigin } from './origin';

export interface Caller {
  user: UserSummary;
  passport: PassportSummary | null;
  claims: TokenClaims;
  via: 'bearer' | 'cookie';
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export async function authenticate(request: Request, cfg: Config, kv: Kv, db: () => Promise<Db>): Promise<Caller | undefined> {
  const authorization = request.headers.get('authorization');
  let token: string | undefined;
  let via: Caller['via'] = 'bearer';
  if (authorization !== null) {
    const match = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*)$/.exec(authorization.trim());
    if (!match) throw new ApiError(401, 'Malformed Authorization header');
    token = match[1];
  } else {
    token = readSessionCookie(cfg, request.headers.get('cookie'));
    via = 'cookie';
  }
  if (!token) return undefined;
  const claims = await readToken(cfg, token);
  // A cookie rides along on cross-site requests; a bearer token does not (docs/api.md#origins).
  if (via === 'cookie' && !SAFE_METHODS.has(request.method)) assertAllowedOrigin(request, cfg, 'refuse');
  // Independent round trips, run together: the revocation list (KV) and the current role (database).
  const [revoked, found] = await Promise.all([isRevoked(kv, claims), db().then((handle) => findUserWithPassport(handle, claims.sub))]);
  if (revoked) throw new ApiError(401, 'Token revoked');
  if (!found) throw new ApiError(401, 'Invalid or expired token');
  return { ...found, claims, via };
}
