// A standing allowance from the dashboard (docs/api.md#standing-allowance): a wallet holding USDC and no
// ETH opens /account/allowance, chooses its caps and signs twice — the USDC permit and the mandate
// naming the relayer — and the page shows the mandate in force, the permit's remaining allowance and
// today's use, read from the chain; Revoke is one more signature, and the mandate is gone. The wallet
// never sends a transaction: the relayer does. Between the two, a personal token with a funding limit posts a
// mission that is funded at once from the allowance, and Connected apps shows the limit and what it funded.
import { expect, test } from '@playwright/test';
import { createPublicClient, http, type Address } from 'viem';
import { generatePrivateKey } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { ANVIL_KEYS } from '../../lib/chain/anvil-node';
import { post, signInWithKey } from '../support/e2e/api-seed';
import { mintRewardToken } from '../support/e2e/chain';
import { connectWallet, openDashboardAs, signIn } from '../support/e2e/dashboard-user';
import { e2e } from '../support/e2e/e2e-env';
import { screenshotPage } from '../support/e2e/screenshots';

const USDC = 1_000_000n;

async function get<T>(path: string, token: string): Promise<T> {
  const response = await fetch(e2e.baseUrl + path, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

test('a wallet signs a standing allowance on the allowance page, sees it in force, and revokes it', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const chain = createPublicClient({ chain: foundry, transport: http(e2e.rpcUrl) });
  const key = generatePrivateKey();
  const client = await openDashboardAs(browser, key);
  const address = client.wallet.address as Address;
  await mintRewardToken(ANVIL_KEYS[1], address, 100n * USDC);
  const page = client.page;

  await test.step('the page says there is none yet', async () => {
    await signIn(client);
    await page.goto('/account/allowance');
    await expect(page.getByTestId('no-mandate')).toBeVisible({ timeout: 30_000 });
  });

  await test.step('two signatures set it, and the page shows it from the chain', async () => {
    await connectWallet(page);
    await page.getByLabel(/^In all, at most/).fill('60');
    await page.getByLabel(/^Per mission, at most/).fill('20');
    await page.getByLabel(/^Per day, at most/).fill('40');
    await page.getByLabel('Valid for (days)').fill('30');
    await page.getByRole('button', { name: 'Sign and set' }).click();
    await expect(page.getByTestId('allowance-done')).toHaveText('Your standing allowance is set.', { timeout: 60_000 });
    await expect(page.getByTestId('per-mission')).toHaveText('20 USDC');
    await expect(page.getByTestId('per-day')).toHaveText('40 USDC');
    await expect(page.getByTestId('remaining-allowance')).toHaveText('60 USDC');
    await expect(page.getByTestId('funded-today')).toHaveText('0 USDC');
    expect(client.wallet.typedDataSigned).toBe(2);
    await screenshotPage(page, 'standing-allowance');
  });

  await test.step('a token with a funding limit posts, is funded at once, and Connected apps counts it', async () => {
    const session = await signInWithKey(key);
    const made = await post<{ token: string }>(
      '/api/tokens',
      { name: 'hiring assistant', scopes: ['missions:post'], fundingLimit: (30n * USDC).toString() },
      session,
    );
    const mission = await post<{ id: string; funding?: { status?: string; reason?: string } }>(
      '/api/missions',
      {
        title: `Proofread a brochure ${Date.now()}`,
        description: 'Eight pages, British English.',
        reward: (20n * USDC).toString(),
        deadline: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      },
      made.token,
    );
    // Within every cap: relayed at once, no cap named, and the mined task opens it.
    expect(mission.funding).toMatchObject({ status: expect.stringMatching(/^(relaying|funded)$/) });
    expect(mission.funding?.reason).toBeUndefined();
    await expect
      .poll(async () => (await get<{ status: string }>(`/api/missions/${mission.id}`, session)).status, {
        timeout: 60_000,
      })
      .toBe('OPEN');
    await page.goto('/connected-apps');
    const listed = page.getByTestId('personal-tokens').getByRole('listitem').filter({ hasText: 'hiring assistant' });
    await expect(listed.getByTestId('funding-limit')).toHaveText('30 USDC');
    await expect(listed.getByTestId('funded-24h')).toHaveText('20 USDC');
    await page.goto('/account/allowance');
    await expect(page.getByTestId('remaining-allowance')).toHaveText('40 USDC');
    await expect(page.getByTestId('funded-today')).toHaveText('20 USDC');
    expect(client.wallet.typedDataSigned).toBe(2);
  });

  await test.step('Revoke is one more signature, and the mandate is gone', async () => {
    await page.getByRole('button', { name: 'Revoke' }).click();
    await expect(page.getByTestId('allowance-done')).toHaveText('Your standing allowance is revoked.', {
      timeout: 60_000,
    });
    await expect(page.getByTestId('no-mandate')).toBeVisible();
    expect(client.wallet.typedDataSigned).toBe(3);
    // The wallet sent nothing itself and holds no ETH.
    expect(await chain.getTransactionCount({ address })).toBe(0);
  });

  await client.context.close();
});
