import { SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, test, vi } from 'vitest';
import { GET as me } from '@/app/api/auth/me/route';
import { POST as logout } from '@/app/api/auth/logout/route';
import { POST as registerAgent } from '@/app/api/auth/register-agent/route';
import { TOKEN_AUDIENCE, TOKEN_ISSUER } from '@/lib/auth/tokens';
import { call } from '../support/http';
import { useTestEnvironment } from '../support/environment';
import { signIn } from '../support/wallets';

useTestEnvironment();

const secret = () => new TextEncoder().encode(process.env.JWT_SECRET!);

async function forge(claims: Record<string, unknown>, { key = secret(), exp = '1h', alg = 'HS256' } = {}) {
  return new SignJWT(claims)
    .setProtectedHeader({ alg })
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(exp)
    .setJti(crypto.randomUUID())
    .sign(key);
}

describe('tokens and GET /api/auth/me', () => {
  test('default: the bearer token resolves to the user and no passport', async () => {
    const { token, user } = await signIn();
    expect(await call(me, { token })).toMatchObject({ status: 200, body: { user, passport: null } });
  });

  test('behavior: the session cookie resolves to the same user', async () => {
    const { cookie, user } = await signIn();
    expect(await call(me, { cookie })).toMatchObject({ status: 200, body: { user } });
  });

  test('error: no credentials is 401', async () => {
    expect(await call(me)).toMatchObject({ status: 401, body: { error: 'Authentication required' } });
  });

  test.each([
    ['garbage', 'Bearer garbage'],
    ['a wrong scheme', 'Basic dXNlcjpwYXNz'],
    ['an empty bearer', 'Bearer '],
  ])('error: %s in Authorization is 401', async (_name, authorization) => {
    const response = await call(me, { headers: { authorization } });
    expect(response.status).toBe(401);
    expect(Object.keys(response.body)).toEqual(['error']);
  });

  test('error: alg none, a foreign key, another algorithm, expiry, wrong audience are refused', async () => {
    const { user } = await signIn();
    const claims = { sub: user.id, addr: user.walletAddress, role: 'CLIENT' };
    const unsigned = new UnsecuredJWT(claims)
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime('1h')
      .setJti('x')
      .encode();
    const foreign = await forge(claims, { key: new TextEncoder().encode('y'.repeat(32)) });
    const hs512 = await forge(claims, {
      alg: 'HS512',
      key: new TextEncoder().encode(process.env.JWT_SECRET!.padEnd(64, 'z')),
    });
    const expired = await forge(claims, { exp: '-1s' });
    const wrongAudience = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(TOKEN_ISSUER)
      .setAudience('other')
      .setIssuedAt()
      .setExpirationTime('1h')
      .setJti('x')
      .sign(secret());
    for (const token of [unsigned, foreign, hs512, expired, wrongAudience]) {
      const response = await call(me, { headers: { authorization: `Bearer ${token}` } });
      expect(response, token).toMatchObject({ status: 401, body: { error: 'Invalid or expired token' } });
    }
    // The same claims, properly signed, pass: the refusals above are about the token, not the user.
    expect((await call(me, { token: await forge(claims) })).status).toBe(200);
  });

  test('error: a token that was accepted is refused once it expires', async () => {
    const { token } = await signIn();
    expect((await call(me, { token })).status).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 3_600_000);
      expect(await call(me, { token })).toMatchObject({ status: 401, body: { error: 'Invalid or expired token' } });
    } finally {
      vi.useRealTimers();
    }
  });

  test('error: a token without exp is refused', async () => {
    const { user } = await signIn();
    const token = await new SignJWT({ sub: user.id, addr: user.walletAddress, role: 'CLIENT' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setIssuedAt()
      .setJti('x')
      .sign(secret());
    expect((await call(me, { token })).status).toBe(401);
  });

  test('behavior: the role comes from the database, not from the token', async () => {
    const { token } = await signIn();
    expect((await call(registerAgent, { token, method: 'POST' })).status).toBe(200);
    // The old token still says CLIENT; the answer says AGENT.
    expect((await call(me, { token })).body.user.role).toBe('AGENT');
  });
});

describe('POST /api/auth/logout', () => {
  test('default: revokes the presented token and clears the cookie', async () => {
    const { token } = await signIn();
    const response = await call(logout, { token, method: 'POST' });
    expect(response).toMatchObject({ status: 200, body: { ok: true } });
    expect(response.headers.get('set-cookie')).toMatch(/taskmarket_session=; .*Max-Age=0/);
    expect(await call(me, { token })).toMatchObject({ status: 401, body: { error: 'Token revoked' } });
  });

  test('behavior: other sessions of the same user stay valid', async () => {
    const first = await signIn();
    const second = await signIn(first.wallet);
    await call(logout, { token: first.token, method: 'POST' });
    expect((await call(me, { token: second.token })).status).toBe(200);
  });

  // Found by the fuzz suite on Redis (FUZZ_SEED=1455279644): the revocation lives until the token's
  // own exp, and Redis refused that life as a PX (503 'kv unreachable'). Only JWT_SECRET signs such a token.
  test('behavior: a token whose exp is a billion years off is revoked too', async () => {
    const { user } = await signIn();
    const token = await forge({ addr: user.walletAddress, role: user.role, sub: user.id }, { exp: '1000000000y' });
    expect(await call(logout, { token, method: 'POST' })).toMatchObject({ status: 200, body: { ok: true } });
    expect(await call(me, { token })).toMatchObject({ status: 401, body: { error: 'Token revoked' } });
  });

  test('behavior: logging out through the cookie revokes it', async () => {
    const { cookie } = await signIn();
    expect(
      (await call(logout, { cookie, method: 'POST', headers: { origin: 'https://app.example.com' } })).status,
    ).toBe(200);
    expect((await call(me, { cookie })).status).toBe(401);
  });
});

describe('CSRF: cookie-authenticated writes', () => {
  test.each([
    ['no Origin', {}],
    ['a foreign Origin', { origin: 'https://evil.example.org' }],
    ['a look-alike Origin', { origin: 'https://evilapp.example.com' }],
    ['a wrong port', { origin: 'http://localhost:3001' }],
    ['a null Origin', { origin: 'null' }],
    // docs/api.md#origins: APP_ORIGINS match exactly; a subdomain of SIWE_DOMAIN is not an app origin.
    ['a subdomain of an allowed domain', { origin: 'https://pr-3.app.example.com' }],
  ])('error: %s is 403 and changes nothing', async (_name, headers) => {
    const { cookie, token } = await signIn();
    const response = await call(logout, { cookie, method: 'POST', headers });
    expect(response).toMatchObject({ status: 403, body: { error: 'Cross-site request refused' } });
    expect((await call(me, { token })).status).toBe(200);
  });

  test("behavior: the default app origins and the request's own origin pass", async () => {
    for (const origin of ['https://app.example.com', 'http://localhost:3000']) {
      const { cookie } = await signIn();
      expect((await call(logout, { cookie, method: 'POST', headers: { origin } })).status, origin).toBe(200);
    }
  });

  test('behavior: bearer-authenticated writes need no Origin', async () => {
    const { token } = await signIn();
    expect((await call(logout, { token, method: 'POST' })).status).toBe(200);
  });
});
