// The authorize page is no open redirector (docs/api.md#oauth-21): on our trusted host, a link that fails
// a check must not bounce the browser to whatever URI a client registered. The page is rendered as
// Next renders it — the answer lib/oauth/authorization-view.ts decides, drawn by its screen — and
// its consent POST is called with a real Request.
import { isRedirectError } from 'next/dist/client/components/redirect-error';
import { getURLFromRedirectError } from 'next/dist/client/components/redirect';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import { AuthorizationScreen } from '@/app/(site)/oauth/authorize/authorization-screen';
import { DELETE as revokeGrantRoute } from '@/app/api/grants/[id]/route';
import { GET as grantsRoute } from '@/app/api/grants/route';
import { config } from '@/lib/config';
import { getDb } from '@/lib/db/client';
import { getKv } from '@/lib/kv';
import { viewAuthorization } from '@/lib/oauth/authorization-view';
import { issuerOf } from '@/lib/oauth/metadata';
import { call } from '../support/http';
import { BOOKKEEPING, useTestEnvironment } from '../support/environment';
import {
  authorizeParams,
  connect,
  ORIGIN,
  pkce,
  postConsent,
  REDIRECT_URI,
  registerClient,
  requester,
  type User,
} from '../support/oauth';
import { signIn } from '../support/wallets';

useTestEnvironment({ ...BOOKKEEPING, WRITE_RATE_LIMIT_PER_MINUTE: '100000' });

/** The page for `params`, as `user` (or nobody) sees it: its HTML, or where Next would redirect. */
async function openPage(
  params: Record<string, string>,
  user?: User,
): Promise<{ html?: string; redirectedTo?: string }> {
  const view = await viewAuthorization(
    await getDb(),
    getKv(),
    issuerOf(config()),
    params,
    user?.user.id,
    new Date(),
    requester(),
  );
  try {
    return { html: renderToStaticMarkup(AuthorizationScreen({ view, here: '/oauth/authorize', hidden: params })) };
  } catch (error) {
    if (isRedirectError(error)) return { redirectedTo: getURLFromRedirectError(error) };
    throw error;
  }
}

/** Nothing on the page moves the browser by itself. */
function expectNoAutomaticNavigation(html: string) {
  expect(html).not.toMatch(/<meta/i);
  expect(html).not.toMatch(/<script/i);
  expect(html).not.toMatch(/http-equiv|refresh|window\.location|location\.href/i);
}

const hrefOf = (html: string, testId: string) => {
  const href = new RegExp(`<a href="([^"]*)"[^>]*data-testid="${testId}"`).exec(html)?.[1];
  return href === undefined ? undefined : href.replaceAll('&amp;', '&');
};

const BAD_REQUESTS: [string, Record<string, string>, string][] = [
  ['a plain PKCE method', { code_challenge_method: 'plain' }, 'invalid_request'],
  ['an implicit response type', { response_type: 'token' }, 'unsupported_response_type'],
  ['an unknown scope', { scope: 'everything' }, 'invalid_scope'],
  ['another resource', { resource: 'https://evil.example/api/mcp' }, 'invalid_target'],
];

describe('an error before the person approves', () => {
  test.each(BAD_REQUESTS)(
    'error: %s is shown on our page with the redirect host and a plain link back, never redirected',
    async (_, extra, code) => {
      const client = await registerClient();
      const params = authorizeParams(client.client_id, pkce().challenge, extra);
      for (const user of [undefined, await signIn()]) {
        const { html, redirectedTo } = await openPage(params, user);
        expect(redirectedTo).toBeUndefined();
        expectNoAutomaticNavigation(html!);
        expect(html).toContain('data-testid="redirect-host">127.0.0.1:9<');
        const back = new URL(hrefOf(html!, 'back-to-app')!);
        expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
        expect(Object.fromEntries(back.searchParams)).toMatchObject({
          error: code,
          state: 'st-123',
          iss: 'https://app.example.com',
        });
      }
    },
  );

  test(
    'behavior: for a client this user approved before, the same error is sent back to it; ' + 'disconnected, it is not',
    async () => {
      const { user, client } = await connect();
      const params = authorizeParams(client.client_id, pkce().challenge, { code_challenge_method: 'plain' });
      const { redirectedTo } = await openPage(params, user);
      expect(new URL(redirectedTo!).searchParams.get('error')).toBe('invalid_request');
      expect((await openPage(params, await signIn())).redirectedTo).toBeUndefined();

      const [grant] = (await call(grantsRoute, { token: user.token })).body.items;
      expect(
        (
          await call(revokeGrantRoute, {
            method: 'DELETE',
            cookie: user.cookie,
            headers: { origin: ORIGIN },
            params: { id: grant.id },
          })
        ).status,
      ).toBe(200);
      expect((await openPage(params, user)).redirectedTo).toBeUndefined();
    },
  );

  test('error: an unknown client or an unregistered redirect URI is refused with no link anywhere', async () => {
    const client = await registerClient();
    for (const params of [
      authorizeParams('tmc_unknown', pkce().challenge),
      authorizeParams(client.client_id, pkce().challenge, { redirect_uri: 'https://evil.example/steal' }),
    ]) {
      const { html } = await openPage(params, await signIn());
      expectNoAutomaticNavigation(html!);
      expect(html).not.toContain('<a ');
      expect(html).not.toContain('evil.example');
    }
  });

  test(
    'error: the consent POST with such an error is 400 for a client never approved, and 303 ' + 'back once approved',
    async () => {
      const user: User = await signIn();
      const client = await registerClient();
      const params = authorizeParams(client.client_id, pkce().challenge, { code_challenge_method: 'plain' });
      const refused = await postConsent(user, { ...params, form_token: 'x'.repeat(32), decision: 'approve' });
      expect(refused.status).toBe(400);
      expect(refused.headers.get('location')).toBeNull();

      const { user: connected, client: known } = await connect();
      const again = authorizeParams(known.client_id, pkce().challenge, { code_challenge_method: 'plain' });
      const answer = await postConsent(connected, { ...again, form_token: 'x'.repeat(32), decision: 'approve' });
      expect(answer.status).toBe(303);
      const location = new URL(answer.headers.get('location')!);
      expect(location.searchParams.get('error')).toBe('invalid_request');
      expect(location.searchParams.get('code')).toBeNull();
    },
  );
});

describe('the consent page', () => {
  test(
    'behavior: a dynamically registered client is marked unverified, with its full redirect ' + 'origin shown',
    async () => {
      const redirect = 'https://claude.example.com:8443/oauth/cb';
      const client = await registerClient({ client_name: 'Claude', redirect_uris: [redirect] });
      const { html } = await openPage(
        authorizeParams(client.client_id, pkce().challenge, { redirect_uri: redirect }),
        await signIn(),
      );
      expect(html).toContain('data-testid="unverified"');
      expect(html).toContain('Unverified app');
      expect(html).toContain('data-testid="redirect-origin">https://claude.example.com:8443<');
      expect(html).toContain('data-testid="client-name">Claude<');
      expect(html).toContain('name="form_token"');
    },
  );

  test("behavior: a native app's private-use scheme is shown whole, since it has no host", async () => {
    const redirect = 'com.example.agent:/callback';
    const client = await registerClient({ redirect_uris: [redirect] });
    const { html } = await openPage(
      authorizeParams(client.client_id, pkce().challenge, { redirect_uri: redirect }),
      await signIn(),
    );
    expect(html).toContain(`data-testid="redirect-origin">${redirect}<`);
  });
});
