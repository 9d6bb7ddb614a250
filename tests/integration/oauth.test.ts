// OAuth 2.1 for remote agents (docs/api.md#tokens) through the real endpoints: discovery, dynamic
// registration and its abuse, the authorization code with PKCE and consent CSRF, refresh rotation
// and reuse, and revocation — each refusal a clear 4xx that creates nothing.
import { count, eq } from 'drizzle-orm';
import { describe, expect, test, vi } from 'vitest';
import { GET as me } from '@/app/api/auth/me/route';
import { POST as sweepRoute } from '@/app/api/cron/sweep/route';
import { DELETE as revokeGrantRoute } from '@/app/api/grants/[id]/route';
import { GET as grantsRoute } from '@/app/api/grants/route';
import { POST as mcpRoute } from '@/app/api/mcp/route';
import { GET as serverMetadata } from '@/app/api/oauth/metadata/authorization-server/route';
import { GET as resourceMetadata } from '@/app/api/oauth/metadata/protected-resource/route';
import { POST as registerRoute } from '@/app/api/oauth/register/route';
import { POST as revokeRoute } from '@/app/api/oauth/revoke/route';
import { POST as tokenRoute } from '@/app/api/oauth/token/route';
import { MAX_CONSENT_FORMS } from '@/lib/oauth/authorization';
import { REFRESH_RETRY_GRACE_MS } from '@/lib/oauth/token-exchange';
import { getDb } from '@/lib/db/client';
import { grants, oauthClients } from '@/lib/db/schema';
import { call } from '../support/http';
import { BOOKKEEPING, useTestEnvironment } from '../support/environment';
import {
  approve,
  authorizeParams,
  callForm,
  connect,
  consentFormToken,
  exchange,
  ORIGIN,
  pkce,
  postConsent,
  REDIRECT_URI,
  registerClient,
} from '../support/oauth';
import { signIn } from '../support/wallets';

useTestEnvironment({ ...BOOKKEEPING, OAUTH_REGISTRATIONS_PER_HOUR: '5', WRITE_RATE_LIMIT_PER_MINUTE: '100000' });

const ISSUER = 'https://app.example.com';
const clientCount = async () => (await (await getDb()).select({ n: count() }).from(oauthClients))[0]!.n;
const grantCount = async (userId: string) =>
  (await (await getDb()).select({ n: count() }).from(grants).where(eq(grants.userId, userId)))[0]!.n;

describe('discovery', () => {
  test('default: the authorization server metadata names our endpoints, S256 only', async () => {
    const { status, body } = await call(serverMetadata);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      issuer: ISSUER,
      authorization_endpoint: `${ISSUER}/oauth/authorize`,
      token_endpoint: `${ISSUER}/api/oauth/token`,
      registration_endpoint: `${ISSUER}/api/oauth/register`,
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      scopes_supported: ['missions:read', 'missions:work', 'missions:post', 'earnings:claim', 'webhooks'],
    });
  });

  test('default: the protected resource is /api/mcp, authorized by this server', async () => {
    expect((await call(resourceMetadata)).body).toMatchObject({
      resource: `${ISSUER}/api/mcp`,
      authorization_servers: [ISSUER],
    });
  });

  test('behavior: /api/mcp without a token is 401 naming the resource metadata (RFC 9728)', async () => {
    const answer = await call(mcpRoute, { body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    expect(answer.status).toBe(401);
    // docs/api.md#least-privilege: it also says which scopes to ask for, the least an agent needs.
    expect(answer.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${ISSUER}/.well-known/oauth-protected-resource/api/mcp", ` +
        `scope="missions:read missions:work"`,
    );
  });

  test('error: a token in the query string is refused, not used', async () => {
    const { tokens } = await connect();
    const answer = await call(me, { path: `/api/auth/me?access_token=${tokens.access_token}` });
    expect(answer).toMatchObject({ status: 400, body: { error: expect.stringContaining('query string') } });
  });
});

describe('dynamic client registration', () => {
  test('default: a public client is registered without a secret', async () => {
    const client = await registerClient();
    expect(client).toMatchObject({
      client_id: expect.stringMatching(/^tmc_/),
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: 'none',
      client_name: 'Test Agent',
    });
    expect(client.client_secret).toBeUndefined();
  });

  test.each([
    ['http://evil.example/cb', 'http is allowed only for loopback'],
    ['javascript:alert(1)', 'javascript'],
    ['https://app.example/cb#fragment', 'fragment'],
    ['data:text/html,hi', 'data'],
    ['file:///etc/passwd', 'file:'],
    ['not a url', 'URL'],
  ])('error: redirect URI %s is refused and nothing is registered', async (uri, why) => {
    const before = await clientCount();
    const answer = await call(registerRoute, {
      body: { client_name: 'x', redirect_uris: [uri], token_endpoint_auth_method: 'none' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      error: 'invalid_redirect_uri',
      error_description: expect.stringContaining(why),
    });
    expect(await clientCount()).toBe(before);
  });

  test('error: grant types other than the code flow are refused', async () => {
    const answer = await call(registerRoute, {
      body: { redirect_uris: [REDIRECT_URI], grant_types: ['client_credentials'] },
    });
    expect(answer).toMatchObject({ status: 400, body: { error: 'invalid_client_metadata' } });
  });

  test.each([
    ['a right-to-left override', 'Claude\u202Etxt.exe'],
    ['a left-to-right isolate', 'Claude\u2066'],
    ['a zero-width space', 'Cla\u200Bude'],
    ['a zero-width joiner', 'Cla\u200Dude'],
    ['a zero-width no-break space', 'Cla\uFEFFude'],
    ['a control character', 'Claude\u0007'],
  ])('error: a client_name with %s is refused and nothing is registered', async (_, name) => {
    const before = await clientCount();
    const answer = await call(registerRoute, {
      body: { client_name: name, redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' },
    });
    expect(answer).toMatchObject({
      status: 400,
      body: { error: 'invalid_client_metadata', error_description: expect.stringContaining('client_name') },
    });
    expect(await clientCount()).toBe(before);
  });

  test('behavior: registrations from one IP are limited, and the refused one creates nothing', async () => {
    const ip = '10.200.0.1';
    const body = { client_name: 'flood', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' };
    for (let i = 0; i < 5; i += 1) expect((await call(registerRoute, { body, ip })).status).toBe(201);
    const before = await clientCount();
    const refused = await call(registerRoute, { body, ip });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await clientCount()).toBe(before);
  });

  test('behavior: the sweep deletes registrations unused for 30 days, and only those', async () => {
    const stale = await registerClient();
    const fresh = await registerClient();
    const db = await getDb();
    await db
      .update(oauthClients)
      .set({ lastUsedAt: new Date(Date.now() - 31 * 86_400_000) })
      .where(eq(oauthClients.id, stale.client_id));
    const swept = await call(sweepRoute, {
      method: 'POST',
      headers: { authorization: `Bearer ${process.env.CRON_SECRET}` },
    });
    expect(swept.status).toBe(200);
    expect(swept.body.oauthClients.deleted).toBeGreaterThanOrEqual(1);
    const left = await db.select({ id: oauthClients.id }).from(oauthClients);
    expect(left.map((c) => c.id)).toContain(fresh.client_id);
    expect(left.map((c) => c.id)).not.toContain(stale.client_id);
  });

  test('behavior: a confidential client must present its secret at the token endpoint', async () => {
    const client = await registerClient({ token_endpoint_auth_method: 'client_secret_basic' });
    expect(client.client_secret).toMatch(/^tms_/);
    const user = await signIn();
    const { verifier, challenge } = pkce();
    const code = (await approve(user, authorizeParams(client.client_id, challenge))).searchParams.get('code')!;
    const fields = { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REDIRECT_URI };
    const wrong = await exchange(fields, {
      headers: { authorization: `Basic ${Buffer.from(`${client.client_id}:tms_wrong`).toString('base64')}` },
    });
    expect(wrong).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
  });

  test.each([
    ['a stray percent in the secret', (id: string) => `${id}:tms_%zz`],
    ['a stray percent in the id', () => 'tmc_%E0%A4%A:secret'],
    ['no colon', (id: string) => id],
    ['an empty id', () => ':secret'],
  ])('error: malformed Basic credentials (%s) are 401 invalid_client, on token and revoke', async (_, credentials) => {
    const client = await registerClient({ token_endpoint_auth_method: 'client_secret_basic' });
    const authorization = `Basic ${Buffer.from(credentials(client.client_id)).toString('base64')}`;
    const token = await exchange(
      { grant_type: 'authorization_code', code: 'x'.repeat(43), code_verifier: pkce().verifier },
      { headers: { authorization } },
    );
    expect(token).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    expect(token.headers.get('www-authenticate')).toMatch(/^Basic /);
    const revoked = await callForm(revokeRoute, { token: 'tmr_x' }, { headers: { authorization } });
    expect(revoked).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
  });

  test(
    'behavior: Basic credentials are form-encoded (RFC 6749 §2.3.1) and the scheme is ' + 'case-insensitive',
    async () => {
      const client = await registerClient({ token_endpoint_auth_method: 'client_secret_basic' });
      const user = await signIn();
      const { verifier, challenge } = pkce();
      const code = (await approve(user, authorizeParams(client.client_id, challenge))).searchParams.get('code')!;
      const encoded = `${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret!)}`;
      const answer = await exchange(
        { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REDIRECT_URI },
        { headers: { authorization: `basic ${Buffer.from(encoded).toString('base64')}` } },
      );
      expect(answer.status).toBe(200);
    },
  );
});

describe('authorization code with PKCE', () => {
  test('default: approve → code → tokens that act for the user within their scopes', async () => {
    const { user, tokens } = await connect('missions:read');
    expect(tokens).toMatchObject({
      token_type: 'Bearer',
      scope: 'missions:read',
      refresh_token: expect.stringMatching(/^tmr_/),
    });
    expect(await call(me, { token: tokens.access_token })).toMatchObject({
      status: 200,
      body: { user: { id: user.user.id } },
    });
    const listed = await call(grantsRoute, { token: user.token });
    expect(listed.body.items).toEqual([
      expect.objectContaining({ kind: 'oauth', name: 'Test Agent', scopes: ['missions:read'] }),
    ]);
  });

  test('behavior: the redirect carries state and iss (RFC 9207)', async () => {
    const user = await signIn();
    const client = await registerClient();
    const location = await approve(user, authorizeParams(client.client_id, pkce().challenge));
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
    expect(location.searchParams.get('state')).toBe('st-123');
    expect(location.searchParams.get('iss')).toBe(ISSUER);
  });

  test('behavior: deny sends access_denied back with the state, and grants nothing', async () => {
    const user = await signIn();
    const client = await registerClient();
    const params = authorizeParams(client.client_id, pkce().challenge);
    const answer = await postConsent(user, {
      ...params,
      form_token: await consentFormToken(user, params),
      decision: 'deny',
    });
    const location = new URL(answer.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('st-123');
    expect(location.searchParams.get('code')).toBeNull();
    expect(await grantCount(user.user.id)).toBe(0);
  });

  test('error: an unknown client or an unregistered redirect URI is answered here, never redirected to', async () => {
    const user = await signIn();
    const client = await registerClient();
    for (const params of [
      authorizeParams('tmc_unknown', pkce().challenge),
      authorizeParams(client.client_id, pkce().challenge, { redirect_uri: 'https://evil.example/steal' }),
      authorizeParams(client.client_id, pkce().challenge, { redirect_uri: `${REDIRECT_URI}/../evil` }),
    ]) {
      const answer = await postConsent(user, { ...params, form_token: 'x'.repeat(32), decision: 'approve' });
      expect(answer.status).toBe(400);
      expect(answer.headers.get('location')).toBeNull();
    }
  });

  test('error: PKCE is required and S256 only; the error goes back to a client the user approved before', async () => {
    const { user, client } = await connect();
    for (const extra of [{ code_challenge: '' }, { code_challenge_method: 'plain' }] as Record<string, string>[]) {
      const params = authorizeParams(client.client_id, pkce().challenge, extra);
      const answer = await postConsent(user, { ...params, form_token: 'x'.repeat(32), decision: 'approve' });
      expect(answer.status).toBe(303);
      const location = new URL(answer.headers.get('location')!);
      expect(location.searchParams.get('error')).toBe('invalid_request');
      expect(location.searchParams.get('code')).toBeNull();
    }
  });

  test(
    'error: consent CSRF — a foreign Origin, a missing, reused or mismatched form token, or ' + 'another user',
    async () => {
      const user = await signIn();
      const other = await signIn();
      const client = await registerClient();
      const params = authorizeParams(client.client_id, pkce().challenge);
      const formToken = await consentFormToken(user, params);
      expect(
        (
          await postConsent(
            user,
            { ...params, form_token: formToken, decision: 'approve' },
            { origin: 'https://evil.example' },
          )
        ).status,
      ).toBe(403);
      expect((await postConsent(user, { ...params, decision: 'approve' })).status).toBe(403);
      // A scope the page did not offer is refused (docs/api.md#choosing-scopes), and the form stays usable.
      const widened = { ...params, scope: 'missions:read missions:post' };
      const offeredFor = await consentFormToken(user, params);
      expect((await postConsent(user, { ...widened, form_token: offeredFor, decision: 'approve' })).status).toBe(400);
      expect(
        (await postConsent(other, { ...params, form_token: await consentFormToken(user, params), decision: 'approve' }))
          .status,
      ).toBe(403);
      expect((await postConsent(user, { ...params, form_token: formToken, decision: 'approve' })).status).toBe(303);
      expect((await postConsent(user, { ...params, form_token: formToken, decision: 'approve' })).status).toBe(403);
      expect(await grantCount(other.user.id)).toBe(0);
    },
  );

  test('behavior: past 50 open consent forms the oldest is evicted, never the newest refused', async () => {
    const user = await signIn();
    const client = await registerClient();
    const params = authorizeParams(client.client_id, pkce().challenge);
    const tokens: string[] = [];
    for (let i = 0; i < MAX_CONSENT_FORMS + 1; i += 1) tokens.push(await consentFormToken(user, params));
    expect((await postConsent(user, { ...params, form_token: tokens[0]!, decision: 'approve' })).status).toBe(403);
    expect(
      (await postConsent(user, { ...params, form_token: tokens[MAX_CONSENT_FORMS]!, decision: 'approve' })).status,
    ).toBe(303);
    expect((await postConsent(user, { ...params, form_token: tokens[1]!, decision: 'approve' })).status).toBe(303);
  });

  test('error: a wrong verifier fails and uses up the code', async () => {
    const user = await signIn();
    const client = await registerClient();
    const { verifier, challenge } = pkce();
    const code = (await approve(user, authorizeParams(client.client_id, challenge))).searchParams.get('code')!;
    const base = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, client_id: client.client_id };
    expect(await exchange({ ...base, code_verifier: pkce().verifier })).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    expect(await exchange({ ...base, code_verifier: verifier })).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    expect(await grantCount(user.user.id)).toBe(0);
  });

  test('error: a replayed code is refused and revokes what the first use granted', async () => {
    const user = await signIn();
    const client = await registerClient();
    const { verifier, challenge } = pkce();
    const code = (await approve(user, authorizeParams(client.client_id, challenge))).searchParams.get('code')!;
    const fields = {
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: REDIRECT_URI,
      client_id: client.client_id,
    };
    const first = await exchange(fields);
    expect(first.status).toBe(200);
    expect(await exchange(fields)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await call(me, { token: first.body.access_token })).status).toBe(401);
  });

  test('error: a code is bound to its client and its redirect URI', async () => {
    const user = await signIn();
    const client = await registerClient();
    const thief = await registerClient();
    const { verifier, challenge } = pkce();
    const code = (await approve(user, authorizeParams(client.client_id, challenge))).searchParams.get('code')!;
    expect(
      await exchange({
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        redirect_uri: REDIRECT_URI,
        client_id: thief.client_id,
      }),
    ).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const second = (await approve(user, authorizeParams(client.client_id, challenge))).searchParams.get('code')!;
    expect(
      await exchange({
        grant_type: 'authorization_code',
        code: second,
        code_verifier: verifier,
        redirect_uri: 'http://127.0.0.1:9/other',
        client_id: client.client_id,
      }),
    ).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  test('behavior: the code names no user — 32 random bytes, nothing derived from who approved', async () => {
    const user = await signIn();
    const client = await registerClient();
    const { verifier, challenge } = pkce();
    const code = (await approve(user, authorizeParams(client.client_id, challenge))).searchParams.get('code')!;
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(code).not.toContain(user.user.id);
    // The user is still the one who approved: the exchange finds them server-side.
    const answer = await exchange({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: REDIRECT_URI,
      client_id: client.client_id,
    });
    expect((await call(me, { token: answer.body.access_token })).body.user.id).toBe(user.user.id);
  });

  test('error: redirect_uri is required at the token endpoint when the authorization request had one', async () => {
    const user = await signIn();
    const client = await registerClient();
    const { verifier, challenge } = pkce();
    const code = (await approve(user, authorizeParams(client.client_id, challenge))).searchParams.get('code')!;
    const missing = await exchange({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      client_id: client.client_id,
    });
    expect(missing).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', error_description: expect.stringContaining('redirect_uri') },
    });
    expect(await grantCount(user.user.id)).toBe(0);
  });

  test(
    'behavior: redirect_uri may be left out at the token endpoint when the authorization ' + 'request left it out too',
    async () => {
      const user = await signIn();
      const client = await registerClient();
      const { verifier, challenge } = pkce();
      const { redirect_uri: _, ...params } = authorizeParams(client.client_id, challenge);
      const code = (await approve(user, params)).searchParams.get('code')!;
      expect(
        (
          await exchange({
            grant_type: 'authorization_code',
            code,
            code_verifier: verifier,
            client_id: client.client_id,
          })
        ).status,
      ).toBe(200);
    },
  );

  test('error: an unknown grant type, a repeated parameter and a JSON body are refused', async () => {
    expect(await exchange({ grant_type: 'password', username: 'a', password: 'b' })).toMatchObject({
      status: 400,
      body: { error: 'unsupported_grant_type' },
    });
    const repeated = await call(tokenRoute, {
      method: 'POST',
      body: 'grant_type=refresh_token&refresh_token=a&refresh_token=b',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(repeated).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', error_description: 'refresh_token given more than once' },
    });
    const json = await call(tokenRoute, { body: { grant_type: 'refresh_token', refresh_token: 'x' } });
    expect(json.status).toBe(415);
  });

  test('behavior: a code expires 60 seconds after it was issued', async () => {
    const user = await signIn();
    const client = await registerClient();
    const issue = async () => {
      const { verifier, challenge } = pkce();
      const code = (await approve(user, authorizeParams(client.client_id, challenge))).searchParams.get('code')!;
      return {
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        redirect_uri: REDIRECT_URI,
        client_id: client.client_id,
      };
    };
    const [young, old] = [await issue(), await issue()];
    // The server's clock moves on (Date only: the KV's own TTL is the other half of the rule, real time).
    const issuedBy = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: issuedBy + 59_000 });
    try {
      expect((await exchange(young)).status).toBe(200);
      vi.setSystemTime(issuedBy + 60_000 + 1_000);
      expect(await exchange(old)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('refresh tokens', () => {
  const refresh = (clientId: string, refreshToken: string, extra: Record<string, string> = {}) =>
    exchange({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId, ...extra });

  test('default: a refresh rotates both tokens; reusing the old one revokes the grant (OAuth 2.1 §4.3.1)', async () => {
    const { client, tokens } = await connect();
    const rotated = await refresh(client.client_id, tokens.refresh_token);
    expect(rotated.status).toBe(200);
    expect(rotated.body.refresh_token).not.toBe(tokens.refresh_token);
    expect((await call(me, { token: rotated.body.access_token })).status).toBe(200);
    // Past the grace that tells a client's own concurrent retry from a copy in other hands.
    await new Promise((resolve) => setTimeout(resolve, REFRESH_RETRY_GRACE_MS + 100));
    expect(await refresh(client.client_id, tokens.refresh_token)).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    expect((await call(me, { token: rotated.body.access_token })).status).toBe(401);
    expect(await refresh(client.client_id, rotated.body.refresh_token)).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
  });

  test('behavior: of two concurrent refreshes with one token, one wins', async () => {
    const { client, tokens } = await connect();
    const answers = await Promise.all([
      refresh(client.client_id, tokens.refresh_token),
      refresh(client.client_id, tokens.refresh_token),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    // The winner's tokens stand: a concurrent retry is not taken for theft.
    const winner = answers.find((a) => a.status === 200)!;
    expect((await call(me, { token: winner.body.access_token })).status).toBe(200);
  });

  test('behavior: a refresh may narrow the scopes, never widen them', async () => {
    const { client, tokens } = await connect('missions:read missions:work');
    const narrowed = await refresh(client.client_id, tokens.refresh_token, { scope: 'missions:read' });
    expect(narrowed).toMatchObject({ status: 200, body: { scope: 'missions:read' } });
    expect(
      await refresh(client.client_id, narrowed.body.refresh_token, { scope: 'missions:read webhooks' }),
    ).toMatchObject({
      status: 400,
      body: { error: 'invalid_scope' },
    });
  });

  test('error: another client cannot use the refresh token, nor use it up for its own client', async () => {
    const { client, tokens } = await connect();
    const other = await registerClient();
    expect(await refresh(other.client_id, tokens.refresh_token)).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    // Past the retry grace too: the other client's attempt consumed nothing, so this is no reuse.
    await new Promise((resolve) => setTimeout(resolve, REFRESH_RETRY_GRACE_MS + 100));
    const own = await refresh(client.client_id, tokens.refresh_token);
    expect(own.status).toBe(200);
    expect((await call(me, { token: own.body.access_token })).status).toBe(200);
  });
});

describe('revocation', () => {
  test('default: disconnecting in Connected apps refuses the access and refresh tokens at once', async () => {
    const { user, client, tokens } = await connect();
    const [grant] = (await call(grantsRoute, { token: user.token })).body.items;
    const revoked = await call(revokeGrantRoute, {
      method: 'DELETE',
      cookie: user.cookie,
      headers: { origin: ORIGIN },
      params: { id: grant.id },
    });
    expect(revoked.status).toBe(200);
    expect((await call(me, { token: tokens.access_token })).status).toBe(401);
    expect(
      await exchange({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: client.client_id }),
    ).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    expect((await call(grantsRoute, { token: user.token })).body.items).toEqual([]);
  });

  test('error: another user cannot revoke my grant; a delegated token cannot revoke grants', async () => {
    const { user, tokens } = await connect();
    const [grant] = (await call(grantsRoute, { token: user.token })).body.items;
    const stranger = await signIn();
    expect(
      (await call(revokeGrantRoute, { method: 'DELETE', token: stranger.token, params: { id: grant.id } })).status,
    ).toBe(404);
    expect(
      (await call(revokeGrantRoute, { method: 'DELETE', token: tokens.access_token, params: { id: grant.id } })).status,
    ).toBe(403);
    expect((await call(me, { token: tokens.access_token })).status).toBe(200);
  });

  test('behavior: the client revokes its own refresh token (RFC 7009), ending the grant', async () => {
    const { client, tokens } = await connect();
    expect((await callForm(revokeRoute, { token: tokens.refresh_token, client_id: client.client_id })).status).toBe(
      200,
    );
    expect((await call(me, { token: tokens.access_token })).status).toBe(401);
    expect((await callForm(revokeRoute, { token: 'tmr_unknown', client_id: client.client_id })).status).toBe(200);
  });
});
