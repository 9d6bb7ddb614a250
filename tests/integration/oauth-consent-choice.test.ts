// The person chooses (docs/api.md#choosing-scopes), re-authorizing extends the standing grant
// (docs/api.md#re-authorizing-extends-the-grant), and a loopback redirect URI matches on any port
// (docs/api.md#loopback-redirects): the consent page rendered as Next renders it, its POST and the token endpoint
// called with real Requests.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import { AuthorizationScreen } from '@/app/(site)/oauth/authorize/authorization-screen';
import { GET as grantsRoute } from '@/app/api/grants/route';
import { GET as meRoute } from '@/app/api/auth/me/route';
import { config } from '@/lib/config';
import { getDb } from '@/lib/db/client';
import { getKv } from '@/lib/kv';
import { viewAuthorization } from '@/lib/oauth/authorization-view';
import { issuerOf } from '@/lib/oauth/metadata';
import { call } from '../support/http';
import { BOOKKEEPING, useTestEnvironment } from '../support/environment';
import {
  approve,
  authorizeParams,
  connect,
  consentView,
  exchange,
  pkce,
  postConsent,
  REDIRECT_URI,
  registerClient,
  requester,
  type User,
} from '../support/oauth';
import { signIn } from '../support/wallets';

useTestEnvironment({ ...BOOKKEEPING, WRITE_RATE_LIMIT_PER_MINUTE: '100000' });

const ALL_THREE = 'missions:read missions:work earnings:claim';

async function tokensFor(location: URL, verifier: string, clientId: string, redirectUri = REDIRECT_URI) {
  const code = location.searchParams.get('code')!;
  return exchange({
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    redirect_uri: redirectUri,
    client_id: clientId,
  });
}

const grantsOf = async (user: User) =>
  (await call(grantsRoute, { token: user.token })).body.items as { id: string; scopes: string[] }[];

describe('the person chooses the scopes', () => {
  test(
    'behavior: the page shows each requested scope as a checked checkbox named scope, and ' +
      'carries no scope of its own',
    async () => {
      const client = await registerClient();
      const params = authorizeParams(client.client_id, pkce().challenge, { scope: 'missions:read missions:post' });
      const view = await viewAuthorization(
        await getDb(),
        getKv(),
        issuerOf(config()),
        params,
        (await signIn()).user.id,
        new Date(),
        requester(),
      );
      const html = renderToStaticMarkup(AuthorizationScreen({ view, here: '/oauth/authorize', hidden: params }));
      const boxes = [...html.matchAll(/<input type="checkbox"[^>]*>/g)].map(([input]) => {
        expect(input).toMatch(/ name="scope"/);
        expect(input).toMatch(/ checked=""/);
        return /value="([^"]+)"/.exec(input)?.[1];
      });
      expect(boxes).toEqual(['missions:read', 'missions:post']);
      expect(html).not.toMatch(/type="hidden" name="scope"/);
    },
  );

  test('behavior: the grant and the token response hold exactly the scopes left checked', async () => {
    const user = await signIn();
    const client = await registerClient();
    const { verifier, challenge } = pkce();
    const location = await approve(
      user,
      authorizeParams(client.client_id, challenge, { scope: ALL_THREE }),
      'missions:read earnings:claim',
    );
    const tokens = await tokensFor(location, verifier, client.client_id);
    expect(tokens.status).toBe(200);
    expect(tokens.body.scope).toBe('missions:read earnings:claim');
    expect((await grantsOf(user)).map((g) => g.scopes)).toEqual([['missions:read', 'earnings:claim']]);
  });

  test('error: no scope checked, or one that was not asked for, is 400 and leaves the form usable', async () => {
    const user = await signIn();
    const client = await registerClient();
    const params = authorizeParams(client.client_id, pkce().challenge, { scope: 'missions:read missions:work' });
    const { formToken } = await consentView(user, params);
    for (const scope of ['', 'missions:post', 'missions:read webhooks', 'everything']) {
      const refused = await postConsent(user, { ...params, scope, form_token: formToken, decision: 'approve' });
      expect(refused.status, scope).toBe(400);
      expect(refused.headers.get('location')).toBeNull();
    }
    expect(await grantsOf(user)).toEqual([]);
    const answer = await postConsent(user, {
      ...params,
      scope: 'missions:work',
      form_token: formToken,
      decision: 'approve',
    });
    expect(answer.status).toBe(303);
    expect(new URL(answer.headers.get('location')!).searchParams.get('code')).toBeTruthy();
  });

  test('behavior: deny needs no scope checked', async () => {
    const user = await signIn();
    const client = await registerClient();
    const params = authorizeParams(client.client_id, pkce().challenge);
    const { formToken } = await consentView(user, params);
    const answer = await postConsent(user, { ...params, scope: '', form_token: formToken, decision: 'deny' });
    expect(new URL(answer.headers.get('location')!).searchParams.get('error')).toBe('access_denied');
  });
});

describe('re-authorizing extends the grant', () => {
  test(
    'behavior: approving more for a connected client adds to its one grant; the new tokens ' + 'carry all it holds',
    async () => {
      const { user, client, tokens: first } = await connect('missions:read');
      const [before] = await grantsOf(user);
      const { verifier, challenge } = pkce();
      // The step-up asks for what it holds plus what it needs; the person unticks the old one: nothing is taken away.
      const location = await approve(
        user,
        authorizeParams(client.client_id, challenge, { scope: 'missions:read missions:post' }),
        'missions:post',
      );
      const second = await tokensFor(location, verifier, client.client_id);
      expect(second.status).toBe(200);
      expect(second.body.scope).toBe('missions:read missions:post');
      const after = await grantsOf(user);
      expect(after).toHaveLength(1);
      expect(after[0]).toMatchObject({ id: before!.id, scopes: ['missions:read', 'missions:post'] });
      // The earlier tokens are of the same grant and still work; its refresh now yields the extended scopes.
      expect((await call(meRoute, { token: first.access_token })).status).toBe(200);
      const refreshed = await exchange({
        grant_type: 'refresh_token',
        refresh_token: first.refresh_token,
        client_id: client.client_id,
      });
      expect(refreshed.body.scope).toBe('missions:read missions:post');
    },
  );

  test('behavior: another client gets a grant of its own', async () => {
    const { user } = await connect('missions:read');
    const other = await registerClient();
    const { verifier, challenge } = pkce();
    const location = await approve(user, authorizeParams(other.client_id, challenge, { scope: 'missions:work' }));
    expect((await tokensFor(location, verifier, other.client_id)).body.scope).toBe('missions:work');
    const grants = await grantsOf(user);
    expect(grants).toHaveLength(2);
    expect(grants.map((g) => g.scopes).sort()).toEqual([['missions:read'], ['missions:work']]);
  });
});

describe('loopback redirect URIs', () => {
  const loopbackClient = (uri: string) => registerClient({ redirect_uris: [uri] });

  test.each([
    ['http://127.0.0.1/callback', 'http://127.0.0.1:53682/callback'],
    ['http://127.0.0.1:9/callback', 'http://127.0.0.1:40001/callback'],
    ['http://[::1]/cb?x=1', 'http://[::1]:8080/cb?x=1'],
    ['http://localhost/oauth', 'http://localhost:3334/oauth'],
  ])(
    'behavior: registered %s matches %s (RFC 8252 §7.3), and the code is exchanged with it',
    async (registered, asked) => {
      const user = await signIn();
      const client = await loopbackClient(registered);
      const { verifier, challenge } = pkce();
      const location = await approve(user, authorizeParams(client.client_id, challenge, { redirect_uri: asked }));
      expect(`${location.origin}${location.pathname}${location.search}`.startsWith(asked.split('?')[0]!)).toBe(true);
      expect((await tokensFor(location, verifier, client.client_id, asked)).status).toBe(200);
    },
  );

  test.each([
    ['http://127.0.0.1/callback', 'http://localhost:5000/callback'],
    ['http://127.0.0.1/callback', 'http://127.0.0.1:5000/callback/more'],
    ['http://127.0.0.1/callback', 'http://127.0.0.1:5000@evil.example/callback'],
    ['http://127.0.0.1/callback', 'http://127.0.0.1:99999/callback'],
    ['http://127.0.0.1/callback', 'https://127.0.0.1:5000/callback'],
    ['https://agent.example/cb', 'https://agent.example:8443/cb'],
  ])('error: registered %s does not match %s', async (registered, asked) => {
    const client = await loopbackClient(registered);
    const view = await viewAuthorization(
      await getDb(),
      getKv(),
      issuerOf(config()),
      authorizeParams(client.client_id, pkce().challenge, { redirect_uri: asked }),
      (await signIn()).user.id,
      new Date(),
      requester(),
    );
    expect(view.kind).toBe('refused');
  });
});
