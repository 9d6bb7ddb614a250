// The release limit set on the consent page (docs/api.md#confirmations): the person types what the app
// may release without asking, in whole reward tokens (read with the token's own decimals); the grant the
// token exchange makes holds it in base units, and Connected apps lists it. A malformed amount is 400 and
// approves nothing.
import { describe, expect, test } from 'vitest';
import { GET as grantsList } from '@/app/api/grants/route';
import { call } from '../support/http';
import { BOOKKEEPING, setEnv, useTestEnvironment } from '../support/environment';
import { deployTestContract, newDeployer } from '../support/test-contracts';
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

const { contracts } = useTestEnvironment({ ...BOOKKEEPING, WRITE_RATE_LIMIT_PER_MINUTE: '100000' });

async function consent(releaseLimit: string | undefined, extra: Record<string, string> = {}) {
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
    ...extra,
  });
  return { user, client, verifier, answer };
}

async function limitAfterExchange(releaseLimit: string | undefined, extra: Record<string, string> = {}) {
  const { user, client, verifier, answer } = await consent(releaseLimit, extra);
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
  return listed.body.items[0] as {
    releaseLimit: string;
    releasedLast24h: string;
    fundingLimit: string;
    fundedLast24h: string;
  };
}

describe('release limit on the consent page', () => {
  test('default: 25 USDC typed is 25000000 base units on the grant', async () => {
    expect(await limitAfterExchange('25')).toMatchObject({ releaseLimit: '25000000', releasedLast24h: '0' });
  });

  test('behavior: the funding limit typed beside it is the grant’s fundingLimit (standing allowance)', async () => {
    expect(await limitAfterExchange('25', { funding_limit: '50' })).toMatchObject({
      releaseLimit: '25000000',
      fundingLimit: '50000000',
      fundedLast24h: '0',
    });
    // Left out, it funds nothing at once.
    expect(await limitAfterExchange('25')).toMatchObject({ fundingLimit: '0' });
  });

  test('behavior: a malformed funding limit is 400 naming its field', async () => {
    const { answer } = await consent('25', { funding_limit: 'lots' });
    expect(answer.status).toBe(400);
    expect(answer.body.details).toEqual([expect.stringMatching(/^funding_limit: /)]);
  });

  test('behavior: left out, the grant releases nothing without asking', async () => {
    expect((await limitAfterExchange(undefined)).releaseLimit).toBe('0');
  });

  test('behavior: grouped thousands are read too', async () => {
    expect((await limitAfterExchange('1,000.5')).releaseLimit).toBe('1000500000');
  });

  test("behavior: read with the reward token's own decimals (an 18-decimal token here), never assumed", async () => {
    setEnv({ REWARD_TOKEN_ADDRESS: await deployTestContract(await newDeployer(), 'ReentrantToken') });
    try {
      expect((await limitAfterExchange('1.5')).releaseLimit).toBe('1500000000000000000');
      expect((await limitAfterExchange('0.000000000000000001')).releaseLimit).toBe('1');
    } finally {
      setEnv({ REWARD_TOKEN_ADDRESS: contracts.rewardToken });
    }
  });

  test('error: while the token cannot tell its decimals a limit is 503, not a guess; 0 still is 0', async () => {
    setEnv({ REWARD_TOKEN_ADDRESS: '0x00000000000000000000000000000000000000ad' });
    try {
      const { answer } = await consent('25');
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('5');
      expect((await limitAfterExchange('0.00')).releaseLimit).toBe('0');
    } finally {
      setEnv({ REWARD_TOKEN_ADDRESS: contracts.rewardToken });
    }
  });

  test('error: a malformed amount is 400', async () => {
    for (const bad of ['-1', '1e9', '0.0000001', 'ten', '1,00', '1'.repeat(31)]) {
      const { answer } = await consent(bad);
      expect(answer.status, bad).toBe(400);
      expect(answer.body.details).toEqual([expect.stringMatching(/^release_limit: /)]);
    }
  });
});
