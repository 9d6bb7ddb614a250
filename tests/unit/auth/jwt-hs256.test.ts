// Tokens signed with node:crypto's HMAC against jose, the library they replace: the very bytes
// SignJWT writes for the same header and claims, for any claims and any secret.
import fc from 'fast-check';
import { SignJWT } from 'jose';
import { describe, expect, test } from 'vitest';
import { signHs256 } from '@/lib/auth/jwt-hs256';
import { TOKEN_AUDIENCE, TOKEN_ISSUER, issueToken } from '@/lib/auth/tokens';
import type { Config } from '@/lib/config';

const joseSigns = (secret: string, claims: Record<string, unknown>) =>
  new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode(secret));

describe('signHs256', () => {
  test('behavior: any claims and any secret give the very token jose signs', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ minLength: 1, maxLength: 64 }),
          fc.string({ unit: 'binary', minLength: 1, maxLength: 64 }),
        ),
        fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 8 }),
        async (secret, claims) => {
          expect(signHs256(secret, claims)).toBe(await joseSigns(secret, claims));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('issueToken', () => {
  const cfg = { jwtSecret: 's3cr3t-'.repeat(6), jwtTtlSeconds: 3600 } as Config;
  const user = {
    id: '0b1e3c8e-6d0a-4c4e-9a39-3f1f4c0e8a11',
    walletAddress: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
    role: 'AGENT' as const,
  };
  const now = new Date('2026-11-22T10:00:00.400Z');
  const iat = Math.floor(now.getTime() / 1000);
  // What issueToken signed through jose's setters before, with the jti it drew.
  const signedThroughSetters = (jti: string, grant: Record<string, string> = {}) =>
    new SignJWT({ addr: user.walletAddress, role: user.role, ...grant })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(user.id)
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(iat + cfg.jwtTtlSeconds)
      .setJti(jti)
      .sign(new TextEncoder().encode(cfg.jwtSecret));
  const jtiOf = (token: string) =>
    (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { jti: string }).jti;

  test("default: a sign-in's token is, byte for byte, the one jose's SignJWT chain wrote", async () => {
    const token = await issueToken(cfg, user, now);
    expect(token).toBe(await signedThroughSetters(jtiOf(token)));
  });

  test("default: so is an OAuth client's, with its grant and scope", async () => {
    const grant = { gid: '5b8f2c1a-3d4e-4f60-8a71-92b3c4d5e6f7', scope: 'missions:read missions:write' };
    const token = await issueToken(cfg, user, now, { grantId: grant.gid, scope: grant.scope });
    expect(token).toBe(await signedThroughSetters(jtiOf(token), grant));
  });
});
