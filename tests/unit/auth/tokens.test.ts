// Access tokens as issueToken signs them (with jose): the header and claims docs/api.md#session-tokens names, and
// jose's jwtVerify (with readToken's options) accepts what issueToken signs.
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { describe, expect, test } from 'vitest';
import { TOKEN_AUDIENCE, TOKEN_ISSUER, issueToken, readToken } from '@/lib/auth/tokens';
import type { Config } from '@/lib/config';

const cfg = { jwtSecret: 's3cr3t-'.repeat(6), jwtTtlSeconds: 3600, appOrigins: ['https://app.example.com'] } as Config;
const user = {
  id: '0b1e3c8e-6d0a-4c4e-9a39-3f1f4c0e8a11',
  walletAddress: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
  role: 'AGENT' as const,
};
// readToken's options, word for word: the API's audience, or one of the two resources' (docs/api.md#audience).
const audience = [TOKEN_AUDIENCE, 'https://app.example.com/api/mcp', 'https://app.example.com/api'];
const verifyOptions = {
  algorithms: ['HS256'],
  issuer: TOKEN_ISSUER,
  audience,
  requiredClaims: ['exp', 'iat', 'jti', 'sub'],
};

describe('issueToken', () => {
  test('default: an HS256 JWT with the user, issuer, audience, times and a fresh jti', async () => {
    const now = new Date('2026-11-22T10:00:00.400Z');
    const token = await issueToken(cfg, user, now);
    const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    expect(decodeProtectedHeader(token)).toStrictEqual({ alg: 'HS256', typ: 'JWT' });
    const iat = Math.floor(now.getTime() / 1000);
    expect(payload).toStrictEqual({
      addr: user.walletAddress,
      role: 'AGENT',
      sub: user.id,
      iss: TOKEN_ISSUER,
      aud: TOKEN_AUDIENCE,
      iat,
      exp: iat + 3600,
      jti: expect.any(String),
    });
    expect(payload.jti).not.toBe(
      JSON.parse(Buffer.from((await issueToken(cfg, user, now)).split('.')[1]!, 'base64url').toString()).jti,
    );
  });

  test("behavior: jose verifies it with readToken's options, and readToken reads its claims", async () => {
    const token = await issueToken(cfg, user);
    const { payload, protectedHeader } = await jwtVerify(token, new TextEncoder().encode(cfg.jwtSecret), verifyOptions);
    expect(protectedHeader).toStrictEqual({ alg: 'HS256', typ: 'JWT' });
    expect(payload).toMatchObject({
      sub: user.id,
      addr: user.walletAddress,
      role: 'AGENT',
      iss: TOKEN_ISSUER,
      aud: TOKEN_AUDIENCE,
    });
    expect(payload.exp! - payload.iat!).toBe(cfg.jwtTtlSeconds);
    expect(await readToken(cfg, token)).toMatchObject({ sub: user.id, role: 'AGENT', jti: payload.jti });
  });

  test("behavior: an OAuth access token's audience is its resource, and readToken reads it", async () => {
    const resource = 'https://app.example.com/api/mcp';
    const token = await issueToken(cfg, user, new Date(), {
      grantId: '5b8f2c1a-3d4e-4f60-8a71-92b3c4d5e6f7',
      scope: 'missions:read',
      resource,
    });
    expect((await jwtVerify(token, new TextEncoder().encode(cfg.jwtSecret), verifyOptions)).payload.aud).toBe(resource);
    expect(await readToken(cfg, token)).toMatchObject({ aud: resource, scope: 'missions:read' });
  });

  test('error: a token for another audience is refused', async () => {
    const token = await issueToken(cfg, user, new Date(), {
      grantId: '5b8f2c1a-3d4e-4f60-8a71-92b3c4d5e6f7',
      scope: 'missions:read',
      resource: 'https://evil.example/api',
    });
    await expect(readToken(cfg, token)).rejects.toThrow('Invalid or expired token');
  });

  test('error: jose refuses it under another secret', async () => {
    const token = await issueToken(cfg, user);
    await expect(jwtVerify(token, new TextEncoder().encode('x'.repeat(32)), verifyOptions)).rejects.toThrow();
  });
});
