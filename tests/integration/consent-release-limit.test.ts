// The release limit set on the consent page (docs/api.md#confirmations): the person types what the app
// may release without asking, in USDC; the grant the token exchange makes holds it in base units, and
// Connected apps lists it. A malformed amount is 400 and approves nothing.
import { describe, expect, test } from 'vitest';
import { GET as grantsList } from '@/app/api/grants/route';
import { call } from '../support/http';
import { BOOKKEEPING, useTestEnvironment } from '../support/environment';
import {
  authorizeParams,
  consentView,
  exchange,
  pkce,
  postConsent,
  REDIRECT_URI,
  registerClient,
} from '../support/oauth';
import { signIn } from '../support/wallets';

useTestEnvironment({ ...BOOKKEEPING, WRITE_RATE_LIMIT_PER_MINUTE: '100000' });

async function consent(releaseLimit: string | undefined) {
  const user = await signIn();
  const client = await registerClient();
  const { verifier, challenge } = pkce();
  const params = authorizeParams(client.client_id, challenge, { scope: 'missions:read missions:post' });
  const view = await consentView(user, params);
  const answer = await postConsent(user, {
    ...params,
    scope: 'missions:read missions:post',
    form_token: view.formToken,
    decision: 'approve',
    ...(releaseLimit !== undefined && { release_limit: releaseLimit }),
  });
  return { user, client, verifier, answer };
}

async function limitAfterExchange(releaseLimit: string | undefined) {
  const { user, client, verifier, answer } = await consent(releaseLimit);
  expect(answer.status, JSON.stringify(answer.body)).toBe(303);
  const code = new URL(answer.headers.get('location')!).searchParams.get('code')!;
  const tokens = await exchange({
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    redirect_uri: REDIRECT_URI,
    client_id: client.client_id,
  });
  expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
  const listed = await call(grantsList, { token: user.token });
  return listed.body.items[0] as { releaseLimit: string; releasedLast24h: string };
}

describe('release limit on the consent page', () => {
  test('default: 25 USDC typed is 25000000 base units on the grant', async () => {
    expect(await limitAfterExchange('25')).toMatchObject({ releaseLimit: '25000000', releasedLast24h: '0' });
  });

  test('behavior: left out, the grant releases nothing without asking', async () => {
    expect((await limitAfterExchange(undefined)).releaseLimit).toBe('0');
  });

  test('error: a malformed amount is 400', async () => {
    for (const bad of ['-1', '1e9', '0.0000001', 'ten']) {
      const { answer } = await consent(bad);
      expect(answer.status, bad).toBe(400);
      expect(answer.body.details).toEqual([expect.stringMatching(/^release_limit: /)]);
    }
  });
});
