// Marketplace v2 in the dashboard (docs/api.md#applications), as the people who use it: an agent applies to a
// mission that assigns by choice, its client reads the application and assigns it, the two talk under the
// mission, the client rates the finished work, and the agent's public page and the leaderboard show the rating;
// the client's record shows on the mission page and the client's page. Also: what a visitor without any wallet
// is told. Each page is photographed at desktop and phone width and checked by axe.
import { expect, test } from '@playwright/test';
import { privateKeyToAccount } from 'viem/accounts';
import { freshFundedKey, post, postFundedMission, signInWithKey } from '../support/e2e/api-seed';
import { openAccountPage, openDashboardAs, signIn } from '../support/e2e/dashboard-user';
import { screenshotPage } from '../support/e2e/screenshots';

test.describe.configure({ mode: 'serial' });

test('apply, assign, talk, review — and the agent page and leaderboard show it', async ({ browser }) => {
  test.setTimeout(240_000);
  const [clientKey, agentKey] = [await freshFundedKey(), await freshFundedKey()];
  const title = `Write alt text for 40 images ${Date.now()}`;
  const missionId = await postFundedMission(clientKey, {
    title,
    description: 'Short, specific alt text for the product gallery.',
    reward: 12_000_000n,
    assignment: 'APPLICATION',
  });
  // The agent registers through the API, as an SDK user would; the rest happens in the browser.
  await post('/api/auth/register-agent', {}, await signInWithKey(agentKey));
  const agentAddress = privateKeyToAccount(agentKey).address.toLowerCase();
  const client = await openDashboardAs(browser, clientKey);
  const agent = await openDashboardAs(browser, agentKey);

  await test.step('the agent applies with a pitch instead of accepting', async () => {
    await signIn(agent, 'Agent');
    await agent.page.goto(`/missions/${missionId}`);
    await expect(agent.page.getByRole('button', { name: 'Accept mission' })).toHaveCount(0);
    await agent.page.getByLabel('Why you (your pitch)').fill('I write alt text for a museum catalogue every week.');
    await agent.page.getByRole('button', { name: 'Apply' }).click();
    await expect(agent.page.getByTestId('applied')).toBeVisible();
    await screenshotPage(agent.page, 'mission-applied');
  });

  await test.step('the client reads the application and assigns the agent', async () => {
    await signIn(client);
    await client.page.goto(`/missions/${missionId}`);
    const applications = client.page.getByTestId('applications');
    await expect(applications).toContainText('I write alt text for a museum catalogue every week.');
    await screenshotPage(client.page, 'mission-applications');
    await client.page.getByRole('button', { name: 'Assign this agent' }).click();
    await expect(client.page.getByTestId('mission-status')).toHaveText('Accepted');
  });

  await test.step('the parties talk under the mission', async () => {
    await agent.page.goto(`/missions/${missionId}`);
    await agent.page.getByLabel('Your question or answer').fill('Should the alt text mention colours?');
    await agent.page.getByRole('button', { name: 'Post' }).click();
    await expect(agent.page.getByTestId('comments')).toContainText('Should the alt text mention colours?');
    await client.page.reload();
    await expect(client.page.getByTestId('comments')).toContainText('Should the alt text mention colours?');
    await client.page.getByLabel('Your question or answer').fill('Yes, where it matters.');
    await client.page.getByRole('button', { name: 'Post' }).click();
    await expect(client.page.getByTestId('comments')).toContainText('Yes, where it matters.');
    await screenshotPage(client.page, 'mission-comments');
  });

  await test.step('delivered and approved, the client rates the agent', async () => {
    const agentToken = await signInWithKey(agentKey);
    await post(`/api/missions/${missionId}/submit`, { note: 'All 40 done.' }, agentToken);
    await post(`/api/missions/${missionId}/approve`, {}, await signInWithKey(clientKey));
    await client.page.reload();
    await expect(client.page.getByTestId('mission-status')).toHaveText('Completed');
    await client.page.getByLabel('Rating (1–5)').selectOption('4');
    await client.page.getByLabel('Comment (optional)').fill('Careful work.');
    await client.page.getByRole('button', { name: 'Send review' }).click();
    await expect(client.page.getByTestId('reviewed')).toContainText('4 of 5');
    await screenshotPage(client.page, 'mission-reviewed');
  });

  // docs/api.md#client-reviews: a review stays sealed, counted nowhere, until both sides have written.
  await test.step('the agent reviews the client, and both reviews open', async () => {
    await post(
      `/api/missions/${missionId}/review`,
      { rating: 5, comment: 'Clear brief.' },
      await signInWithKey(agentKey),
    );
  });

  await test.step("the agent's public page and the leaderboard show the rating", async () => {
    const page = client.page;
    await page.goto(`/agents/${agentAddress}`);
    await expect(page.getByTestId('agent-figures')).toContainText('4.00 of 5 (1 review)');
    await expect(page.getByTestId('agent-completed')).toContainText(title);
    await expect(page.getByTestId('agent-completed')).toContainText('Careful work.');
    await screenshotPage(page, 'agent-page');
    await page.goto('/leaderboard');
    await page.getByRole('link', { name: 'By rating' }).click();
    await expect(page).toHaveURL(/sort=rating/);
    await expect(page.getByTestId('leaderboard-page')).toContainText('4.00 (1)');
    await screenshotPage(page, 'leaderboard');
  });

  // docs/api.md#client-record: what an agent reads about whom it worked for, on the mission and the client's page.
  await test.step("the mission page's client line and the client's page show the record and the review", async () => {
    const page = agent.page;
    await page.goto(`/missions/${missionId}`);
    const line = page.getByTestId('client-stats');
    await expect(line).toContainText('1 of 1 completed · approves 100%');
    await line.getByRole('link', { name: 'Client' }).click();
    await expect(page).toHaveURL(`/clients/${privateKeyToAccount(clientKey).address.toLowerCase()}`);
    const figures = page.getByTestId('client-record');
    const expected: [string, string][] = [
      ['Funded', '1'],
      ['Completed', '1'],
      ['Approved', '1'],
      ['Approved by silence', '0'],
      ['Approval rate', '100%'],
      ['Cancelled after acceptance', '0'],
    ];
    for (const [label, value] of expected) {
      const figure = figures.locator('div', { has: page.locator('dt').getByText(label, { exact: true }) });
      await expect(figure.locator('dd')).toHaveText(value);
    }
    await expect(page.getByTestId('client-rating')).toHaveText('5.00 of 5 (1 review)');
    await expect(page.getByTestId('client-reviews')).toContainText('Clear brief.');
    await screenshotPage(page, 'client-page');
  });

  await client.context.close();
  await agent.context.close();
});

test('a visitor without a wallet is told what to install', async ({ browser }) => {
  // A browser with no wallet extension: no window.ethereum, no EIP-6963 announcement.
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const page = await context.newPage();
  await page.goto('/sign-in');
  const notice = page.getByTestId('no-wallet');
  await expect(notice).toContainText('No browser wallet found');
  await expect(notice.getByRole('link', { name: 'MetaMask' })).toBeVisible();
  await screenshotPage(page, 'sign-in-no-wallet');
  await context.close();
});

test('a user adds a webhook endpoint, sees its secret once, its deliveries, and removes it', async ({ browser }) => {
  const user = await openDashboardAs(browser, await freshFundedKey());
  await signIn(user);
  const { page } = user;
  await openAccountPage(page, 'Webhooks');
  await page.getByLabel('HTTPS URL').fill('https://hooks.example.com/taskmarket');
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(page.getByTestId('webhook-secret')).toContainText('whsec_');
  await expect(page.getByTestId('webhook-endpoints')).toContainText('https://hooks.example.com/taskmarket');
  await expect(page.getByTestId('webhook-endpoints')).toContainText('No deliveries yet.');
  await screenshotPage(page, 'webhooks');
  await page.reload();
  await expect(page.getByTestId('webhook-secret')).toHaveCount(0);
  await page.getByRole('button', { name: 'Remove endpoint' }).click();
  await expect(page.getByText('No endpoints yet.')).toBeVisible();
  await user.context.close();
});
