// The person chooses (docs/api.md#choosing-scopes), re-consent shows and sets what the standing grant holds
// (docs/api.md#re-authorizing), and a loopback redirect URI matches on any port
// (docs/api.md#loopback-redirects): the consent page rendered as Next renders it, its POST and the token endpoint
// called with real Requests.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import { AuthorizationScreen } from '@/app/(site)/oauth/authorize/authorization-screen';
import { PATCH as grantRoute } from '@/app/api/grants/[id]/route';
import { GET as grantsRoute } from '@/app/api/grants/route';
import { GET as webhooksRoute } from '@/app/api/webhooks/route';
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

describe('re-consent says what it does', () => {
  /** The consent page for the client, rendered as Next renders it: its scope boxes and the release limit field. */
  async function page(user: User, params: Record<string, string>) {
    const view = await consentView(user, params);
    const html = renderToStaticMarkup(AuthorizationScreen({ view, here: '/oauth/authorize', hidden: params }));
    const boxes = [...html.matchAll(/<label[^>]*><input type="checkbox"[^>]*value="([^"]+)"[^>]*\/>(.*?)<\/label>/g)];
    return {
      view,
      html,
      offered: boxes.map(([, scope]) => scope),
      granted: boxes.filter(([, , label]) => /data-testid="granted"/.test(label!)).map(([, scope]) => scope),
      releaseLimit: /name="release_limit"[^>]*value="([^"]*)"/.exec(html)?.[1],
    };
  }

  test(
    'behavior: the page shows what the grant holds as granted, offered beside what is asked, and the ' +
      'release limit it has',
    async () => {
      const { user, client } = await connect('missions:read webhooks');
      const [grant] = await grantsOf(user);
      const patched = await call(grantRoute, {
        method: 'PATCH',
        token: user.token,
        params: { id: grant!.id },
        body: { releaseLimit: '7500000' },
      });
      expect(patched.status).toBe(200);
      const shown = await page(user, authorizeParams(client.client_id, pkce().challenge, { scope: 'missions:post' }));
      expect(shown.offered).toEqual(['missions:read', 'missions:post', 'webhooks']);
      expect(shown.granted).toEqual(['missions:read', 'webhooks']);
      expect(shown.html).toContain('data-testid="granted-hint"');
      expect(shown.releaseLimit).toBe('7.5');
    },
  );

  test(
    'behavior: unticking a granted scope takes it from the grant — its tokens lose it at once, ' + 'and its refreshes',
    async () => {
      const { user, client, tokens: first } = await connect('missions:read webhooks');
      expect((await call(webhooksRoute, { token: first.access_token })).status).toBe(200);
      const { verifier, challenge } = pkce();
      const params = authorizeParams(client.client_id, challenge, { scope: 'missions:read missions:post' });
      const location = await approve(user, params, 'missions:read missions:post');
      // Taken at the consent POST already, not only once the client redeems its code.
      const refused = await call(webhooksRoute, { token: first.access_token });
      expect(refused).toMatchObject({ status: 403, body: { error: 'Token lacks the webhooks scope' } });
      expect((await call(meRoute, { token: first.access_token })).status).toBe(200);
      const second = await tokensFor(location, verifier, client.client_id);
      expect(second.body.scope).toBe('missions:read missions:post');
      const after = await grantsOf(user);
      expect(after).toHaveLength(1);
      expect(after[0]!.scopes).toEqual(['missions:read', 'missions:post']);
      const refreshed = await exchange({
        grant_type: 'refresh_token',
        refresh_token: first.refresh_token,
        client_id: client.client_id,
      });
      expect(refreshed.body.scope).toBe('missions:read missions:post');
    },
  );

  test('behavior: left ticked, what the grant held stays and the step-up adds to it', async () => {
    const { user, client, tokens: first } = await connect('missions:read');
    const [before] = await grantsOf(user);
    const { verifier, challenge } = pkce();
    // The step-up asks only for what it needs; the page still offers, ticked, what the grant holds.
    const location = await approve(user, authorizeParams(client.client_id, challenge, { scope: 'missions:post' }));
    const second = await tokensFor(location, verifier, client.client_id);
    expect(second.body.scope).toBe('missions:read missions:post');
    expect(await grantsOf(user)).toMatchObject([{ id: before!.id, scopes: ['missions:read', 'missions:post'] }]);
    expect((await call(meRoute, { token: first.access_token })).status).toBe(200);
  });

  test(
    'behavior: a step-up posting the pre-filled release limit keeps the grant limit, also one ' +
      'changed in Connected apps meanwhile',
    async () => {
      const { user, client } = await connect('missions:read');
      const [grant] = await grantsOf(user);
      const setLimit = (releaseLimit: string) =>
        call(grantRoute, { method: 'PATCH', token: user.token, params: { id: grant!.id }, body: { releaseLimit } });
      expect((await setLimit('5000000')).status).toBe(200);
      const limitNow = async () =>
        ((await call(grantsRoute, { token: user.token })).body.items[0] as { releaseLimit: string }).releaseLimit;

      for (const meanwhile of [undefined, '9000000']) {
        const { verifier, challenge } = pkce();
        const params = authorizeParams(client.client_id, challenge, { scope: 'missions:read missions:post' });
        const shown = await page(user, params);
        expect(shown.releaseLimit).toBe('5');
        if (meanwhile) expect((await setLimit(meanwhile)).status).toBe(200);
        const answer = await postConsent(user, {
          ...params,
          scope: 'missions:read missions:post',
          release_limit: shown.releaseLimit!,
          form_token: shown.view.formToken,
          decision: 'approve',
        });
        expect(answer.status).toBe(303);
        expect((await tokensFor(new URL(answer.headers.get('location')!), verifier, client.client_id)).status).toBe(
          200,
        );
        expect(await limitNow()).toBe(meanwhile ?? '5000000');
        if (meanwhile) expect((await setLimit('5000000')).status).toBe(200);
      }
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
