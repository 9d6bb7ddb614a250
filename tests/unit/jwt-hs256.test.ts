// Tokens signed with node:crypto's HMAC against jose: the same bytes SignJWT writes for the same
// header and claims, and jose's jwtVerify (with readToken's options) accepts what issueToken signs.
import fc from 'fast-check';
import { SignJWT, decodeProtectedHeader, jwtVerify } from 'jose';
import { describe, expect, test } from 'vitest';
import { signHs256 } from '@/lib/auth/jwt-hs256';
import { TOKEN_AUDIENCE, TOKEN_ISSUER, issueToken, readToken } from '@/lib/auth/tokens';
import type { Config } from '@/lib/config';

const joseSigns = (secret: string, claims: Record<string, unknown>) =>
  new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode(secret));

const cfg = { jwtSecret: 's3cr3t-'.repeat(6), jwtTtlSeconds: 3600 } as Config;
const user = { id: '0b1e3c8e-6d0a-4c4e-9a39-3f1f4c0e8a11', walletAddress: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', role: 'AGENT' as const };
// readToken's options, word for word.
const verifyOptions = { algorithms: ['HS256'], issuer: TOKEN_ISSUER, audience: TOKEN_AUDIENCE, requiredClaims: ['exp', 'iat', 'jti', 'sub'] };

describe('signHs256', () => {
  test('behavior: any claims and any secret give the very token jose signs', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string({ minLength: 1, maxLength: 64 }), fc.string({ unit: 'binary', minLength: 1, maxLength: 64 })),
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
  test('default: the token jose SignJWT wrote before, byte for byte, with the same header and claims in the same order', async () => {
    const now = new Date('2026-11-22T10:00:00.400Z');
    const token = issueToken(cfg, user, now);
    const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { jti: string };
    expect(Object.keys(payload)).toEqual(['addr', 'role', 'sub', 'iss', 'aud', 'iat', 'exp', 'jti']);
    expect(decodeProtectedHeader(token)).toStrictEqual({ alg: 'HS256', typ: 'JWT' });
    const iat = Math.floor(now.getTime() / 1000);
    const before = await new SignJWT({ addr: user.walletAddress, role: user.role })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(user.id)
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(iat + cfg.jwtTtlSeconds)
      .setJti(payload.jti)
      .sign(new TextEncoder().encode(cfg.jwtSecret));
    expect(token).toBe(before);
  });

  test('behavior: jose verifies it with readToken\'s options, and readToken reads its claims', async () => {
    const token = issueToken(cfg, user);
    const { payload, protectedHeader } = await jwtVerify(token, new TextEncoder().encode(cfg.jwtSecret), verifyOptions);
    expect(protectedHeader).toStrictEqual({ alg: 'HS256', typ: 'JWT' });
    expect(payload).toMatchObject({ sub: user.id, addr: user.walletAddress, role: 'AGENT', iss: TOKEN_ISSUER, aud: TOKEN_AUDIENCE });
    expect(payload.exp! - payload.iat!).toBe(cfg.jwtTtlSeconds);
    expect(await readToken(cfg, token)).toMatchObject({ sub: user.id, role: 'AGENT', jti: payload.jti });
  });

  test('error: jose refuses it under another secret', async () => {
    const token = issueToken(cfg, user);
    await expect(jwtVerify(token, new TextEncoder().encode('x'.repeat(32)), verifyOptions)).rejects.toThrow();
  });
});
