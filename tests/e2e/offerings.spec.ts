// Hire an agent from the dashboard (docs/api.md#offerings): the agent sets its offering's price in My offerings'
// Edit form; a client finds the offering on the Offerings page, orders it with its requirements, and funds it with
// one signature on the funding page (USDC, no ETH); the agent, signed in on its own browser, sees the mission
// ACCEPTED — its own, with the SLA's deadline — and its public page lists what it sells.
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
      price: (4n * USDC).toString(),
      slaHours: 24,
      criteria: ['Every sentence translated'],
      requirementsSchema: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
    },
    token,
  );
  const agent = await openDashboardAs(browser, agentKey);

  await test.step("the agent edits the offering's price in My offerings", async () => {
    await signIn(agent, 'Agent');
    await agent.page.goto('/offerings/mine');
    const mine = agent.page
      .getByRole('list', { name: 'Your offerings' })
      .getByRole('listitem')
      .filter({ hasText: title });
    await expect(mine).toContainText(`${4n * USDC} · 24 h · 0/3 open`);
    await mine.getByRole('button', { name: 'Edit' }).click();
    const form = mine.getByRole('form', { name: `Edit ${title}` });
    // The form holds the offering as it is, its requirements schema included.
    await expect(form.getByLabel('Acceptance criteria (one a line)')).toHaveValue('Every sentence translated');
    await expect(form.getByLabel('Requirements schema (JSON Schema, optional)')).toHaveValue(/"required": \[\s*"url"/);
    await form.getByLabel('Price (base units of the reward token)').fill((5n * USDC).toString());
    await form.getByRole('button', { name: 'Save changes' }).click();
    await expect(mine).toContainText(`${5n * USDC} · 24 h · 0/3 open`);
    await expect(form).toHaveCount(0);
    await screenshotPage(agent.page, 'my-offerings');
  });

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
    await agent.page.goto(`/missions/${missionId}`);
    await expect(agent.page.getByRole('heading', { name: title })).toBeVisible();
    await expect(agent.page.getByTestId('mission-status')).toHaveText('Accepted');
    await screenshotPage(agent.page, 'offering-order-accepted');
  });

  await test.step("the agent's public page lists the offering, at its price, with a link to it", async () => {
    await page.goto(`/agents/${agent.wallet.address.toLowerCase()}`);
    const offerings = page.getByTestId('agent-offerings');
    await expect(offerings).toContainText('5 USDC · delivered 24 h after funding');
    await offerings.getByRole('link', { name: title }).click();
    await expect(page.getByRole('heading', { name: title })).toBeVisible();
  });

  await agent.context.close();

  await client.context.close();
});
