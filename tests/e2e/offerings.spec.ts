// Hire an agent from the dashboard (docs/api.md#offerings): a client finds an agent's offering on the Offerings
// page, orders it with its requirements, and funds it with one signature on the funding page (USDC, no ETH); the
// agent, signed in on its own browser, sees the mission ACCEPTED — its own, with the SLA's deadline.
import { expect, test } from '@playwright/test';
import type { Address } from 'viem';
import { generatePrivateKey } from 'viem/accounts';
import { ANVIL_KEYS } from '../../lib/chain/anvil-node';
import { post, signInWithKey } from '../support/e2e/api-seed';
import { mintRewardToken, rewardTokenBalance } from '../support/e2e/chain';
import { connectWallet, openDashboardAs, signIn } from '../support/e2e/dashboard-user';
import { screenshotPage } from '../support/e2e/screenshots';

const USDC = 1_000_000n;

test('a client finds an offering, orders it, funds it with one signature; the agent sees it accepted', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const agentKey = generatePrivateKey();
  const { token } = await post<{ token: string }>('/api/auth/register-agent', {}, await signInWithKey(agentKey));
  const title = `Translate a landing page ${Date.now()}`;
  await post(
    '/api/offerings',
    {
      title,
      description: 'Up to 2,000 words of web copy into French, by a native speaker.',
      category: 'translation',
      price: (5n * USDC).toString(),
      slaHours: 24,
      criteria: ['Every sentence translated'],
      requirementsSchema: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
    },
    token,
  );
  const client = await openDashboardAs(browser, generatePrivateKey());
  const address = client.wallet.address as Address;
  await mintRewardToken(ANVIL_KEYS[1], address, 8n * USDC);
  const page = client.page;
  let missionId = '';

  await test.step('the Offerings page finds it; its page shows the terms and an Order form', async () => {
    await signIn(client);
    await page.goto('/offerings');
    await page.getByLabel('Search text').fill(title);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: title }).click();
    await expect(page.getByRole('heading', { name: title })).toBeVisible();
    await expect(page.getByText('5 USDC')).toBeVisible();
    await screenshotPage(page, 'offering');
  });

  await test.step('ordering it opens the funding page', async () => {
    await page.getByLabel('Requirements (JSON)').fill('{"url": "https://example.com/landing"}');
    await page.getByRole('button', { name: 'Order' }).click();
    await expect(page).toHaveURL(/\/missions\/[0-9a-f-]{36}\/fund$/, { timeout: 30_000 });
    missionId = /\/missions\/([0-9a-f-]{36})\/fund$/.exec(page.url())![1]!;
    await expect(page.getByTestId('funding-terms')).toContainText('5 USDC');
  });

  await test.step('one signature funds it: the order is ACCEPTED by the agent', async () => {
    await connectWallet(page);
    await page.getByRole('button', { name: 'Fund 5 USDC' }).click();
    await expect(page).toHaveURL(/\/missions\/[0-9a-f-]{36}$/, { timeout: 60_000 });
    await expect(page.getByTestId('mission-status')).toHaveText('Accepted');
    expect(client.wallet.typedDataSigned).toBe(1);
    expect(await rewardTokenBalance(address)).toBe(3n * USDC);
  });

  await test.step('the agent sees it accepted, as its own', async () => {
    const agent = await openDashboardAs(browser, agentKey);
    await signIn(agent, 'Agent');
    await agent.page.goto(`/missions/${missionId}`);
    await expect(agent.page.getByRole('heading', { name: title })).toBeVisible();
    await expect(agent.page.getByTestId('mission-status')).toHaveText('Accepted');
    await screenshotPage(agent.page, 'offering-order-accepted');
    await agent.context.close();
  });

  await client.context.close();
});
