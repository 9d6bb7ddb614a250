// HS256 JSON Web Tokens signed with node:crypto's HMAC, in exactly the bytes jose's SignJWT writes
// for the same header and claims (tests/unit/auth/jwt-hs256.test.ts holds it to that). jose signs
// through WebCrypto, whose job costs a sign-in ~90 µs of CPU on Node 24 against ~20 here: 11-17 %
// of what verify's crypto bound serves, and verify 1.11x ours/jose end to end (docs/libraries.md).
// Verification stays with jose (tokens.ts, readToken).
import 'server-only';
import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';

// jose writes the protected header as given: JSON in its own key order.
const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

// A KeyObject per secret: Node 24 sets an HMAC up from a string or Buffer key ~15-20 µs slower (iron-seal.ts).
const keys = new Map<string, KeyObject>();
const keyOf = (secret: string): KeyObject => {
  let key = keys.get(secret);
  if (!key) keys.set(secret, (key = createSecretKey(Buffer.from(secret, 'utf8'))));
  return key;
};

/** A compact JWS over `claims`, serialised in their own key order (as jose does), keyed by the secret's UTF-8 bytes. */
export function signHs256(secret: string, claims: Record<string, unknown>): string {
  const signingInput = `${HEADER}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  return `${signingInput}.${createHmac('sha256', keyOf(secret)).update(signingInput).digest('base64url')}`;
}
