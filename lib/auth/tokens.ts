// Access tokens: HS256 JWTs signed with JWT_SECRET (docs/api.md#session-tokens), and their revocation list
// in the shared KV so a logout on one instance holds on all.
import 'server-only';
import { randomUUID } from 'node:crypto';
import { jwtVerify } from 'jose';
import { z } from 'zod';
import type { Config } from '../config';
import { ApiError } from '../errors';
import type { Kv } from '../kv';
import { issuerOf, RESOURCE_NAMES, resourceUri } from './resources';
import { signHs256 } from './jwt-hs256';

export const TOKEN_ISSUER = 'taskmarket';
/** A wallet sign-in's audience: the whole API. An OAuth access token's is the resource it was issued for. */
export const TOKEN_AUDIENCE = 'taskmarket-api';

const claimsSchema = z.object({
  sub: z.string().uuid(),
  addr: z.string(),
  role: z.enum(['CLIENT', 'AGENT']),
  jti: z.string().min(1),
  exp: z.number(),
  iat: z.number(),
  // docs/api.md#audience: TOKEN_AUDIENCE, or an OAuth access token's resource (RFC 8707, RFC 9068 §3).
  aud: z.string(),
  // docs/api.md#tokens: a token issued to an OAuth client carries its grant and scopes; a sign-in's has neither.
  gid: z.string().uuid().optional(),
  scope: z.string().optional(),
});
export type TokenClaims = z.infer<typeof claimsSchema>;

// One imported HMAC key per secret, for verifying: handing jose raw bytes would import the key
// again on every call.
const keys = new Map<string, Promise<CryptoKey>>();
const keyOf = (secret: string): Promise<CryptoKey> => {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
    keys.set(secret, key);
  }
  return key;
};

/** What a token derived from a delegated credential carries: its grant, scopes and resource (an `aud`). */
export interface Delegation {
  grantId: string;
  scope: string;
  /** The resource an OAuth access token is for (docs/api.md#audience); none: the whole API, as a personal token's. */
  resource?: string;
}

/**
 * Signed by signHs256 (jwt-hs256.ts): the bytes jose's SignJWT wrote, at a fifth of its CPU. `notAfter`
 * (seconds since the epoch) caps `exp`: a token derived from another credential never outlives it
 * (docs/api.md#grant-bound-tokens).
 */
export async function issueToken(
  cfg: Config,
  user: { id: string; walletAddress: string; role: 'CLIENT' | 'AGENT' },
  now = new Date(),
  delegation?: Delegation,
  notAfter?: number,
): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  const grant = delegation ? { gid: delegation.grantId, scope: delegation.scope } : {};
  const exp = Math.min(iat + cfg.jwtTtlSeconds, notAfter ?? Infinity);
  // The claims in the order SignJWT wrote them: the payload's, then its setters'.
  const aud = delegation?.resource ?? TOKEN_AUDIENCE;
  const claims = {
    addr: user.walletAddress,
    role: user.role,
    ...grant,
    sub: user.id,
    iss: TOKEN_ISSUER,
    aud,
    iat,
    exp,
    jti: randomUUID(),
  };
  return signHs256(cfg.jwtSecret, claims);
}

const INVALID = 'Invalid or expired token';

// Verifying HS256 through WebCrypto costs more than the rest of an authenticated read, and a token's
// signature and claims never change: each token is verified once per instance (per secret), and
// only its expiry is checked again. Revocation is not cached: it is read from the KV every time.
const VERIFIED_MAX = 10_000;
const verified = new Map<string, { secret: string; claims: TokenClaims }>();

/**
 * Checks signature (HS256 only: `alg: none` and others are refused), issuer, audience — the API's, or one
 * of our resources' — and expiry. Whether the audience is the one a request is addressed to is the
 * caller's check (http/auth-guard.ts).
 */
export async function readToken(cfg: Config, token: string, now = Date.now()): Promise<TokenClaims> {
  const known = verified.get(token);
  if (known?.secret === cfg.jwtSecret) {
    // jose's rule: a token is expired from the second `exp` names.
    if (Math.floor(now / 1000) < known.claims.exp) return known.claims;
    verified.delete(token);
    throw new ApiError(401, INVALID);
  }
  let payload: unknown;
  try {
    ({ payload } = await jwtVerify(token, await keyOf(cfg.jwtSecret), {
      algorithms: ['HS256'],
      issuer: TOKEN_ISSUER,
      audience: [TOKEN_AUDIENCE, ...RESOURCE_NAMES.map((name) => resourceUri(issuerOf(cfg), name))],
      requiredClaims: ['exp', 'iat', 'jti', 'sub'],
      currentDate: new Date(now),
    }));
  } catch {
    throw new ApiError(401, INVALID);
  }
  const claims = claimsSchema.safeParse(payload);
  if (!claims.success) throw new ApiError(401, INVALID);
  // Oldest first out: a Map iterates in insertion order.
  if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!);
  verified.set(token, { secret: cfg.jwtSecret, claims: claims.data });
  return claims.data;
}

export async function isRevoked(kv: Kv, claims: TokenClaims): Promise<boolean> {
  if (!claims.gid) return (await kv.get(`revoked:${claims.jti}`)) !== null;
  // A revoked grant refuses every access token issued under it, on every instance (grants.ts) at its
  // next use; the database is checked too (oauth/grant-standing.ts), so a flushed KV brings none back.
  const [token, grant] = await Promise.all([kv.get(`revoked:${claims.jti}`), kv.get(grantRevokedKey(claims.gid))]);
  return token !== null || grant !== null;
}

export const grantRevokedKey = (grantId: string) => `revoked-grant:${grantId}`;

/** Refuses the token's jti until it would have expired anyway. */
export async function revokeToken(kv: Kv, claims: TokenClaims, now = new Date()): Promise<void> {
  const remainingMs = claims.exp * 1000 - now.getTime();
  if (remainingMs > 0) await kv.put(`revoked:${claims.jti}`, '1', remainingMs);
}
