// The whole marketplace through the dashboard, as two people with two wallets: a client posts a
// funded mission with an attachment; an agent registers, accepts and delivers; the client
// approves; the agent claims and sees the tokens arrive in the wallet. Every page visited is
// photographed at desktop and phone width.
import { expect, test, type Page } from '@playwright/test';
import type { Address } from 'viem';
import { ANVIL_KEYS } from '../../lib/chain/anvil-node';
import { escrowTask, mintRewardToken, rewardTokenBalance } from '../support/e2e/chain';
import { connectWallet, openAccountPage, openDashboardAs, signIn } from '../support/e2e/dashboard-user';
import { escrowTaskIdOnPage, postMission } from '../support/e2e/mission-form';
import { screenshotPage } from '../support/e2e/screenshots';

const TITLE = `Translate the onboarding guide ${Date.now()}`;
const CRITERIA = ['All three pages translated', 'The tone stays friendly'];
const USDC = 1_000_000n;

test.describe.configure({ mode: 'serial' });

test('a funded mission goes from posting to a claimed payout', async ({ browser }) => {
  test.setTimeout(240_000);
  const client = await openDashboardAs(browser, ANVIL_KEYS[1]);
  const agent = await openDashboardAs(browser, ANVIL_KEYS[2]);
  await mintRewardToken(ANVIL_KEYS[1], client.wallet.address as Address, 100n * USDC);
  let missionUrl = '';

  await test.step('the client signs in and sees validation messages on an empty form', async () => {
    await signIn(client);
    await client.page.getByRole('link', { name: 'Post a mission' }).first().click();
    await expect(client.page.getByRole('heading', { name: 'Post a mission' })).toBeVisible();
    await expect(client.page.getByText(/Up to 10 files, 10\.0 MB each\. Accepted: PNG/)).toBeVisible();
    await client.page.getByLabel('Title').fill('');
    await client.page.getByRole('button', { name: 'Post and fund mission' }).click();
    await expect(client.page.getByText('Give the mission a title.')).toBeVisible();
    await expect(client.page.getByText('Describe what needs to be done.')).toBeVisible();
    await expect(client.page.getByText('Enter an amount such as 25 or 12.50.')).toBeVisible();
    await screenshotPage(client.page, 'create-mission');
  });

  await test.step('the client posts the mission with an attachment and funds it with one signature', async () => {
    const page = client.page;
    missionUrl = await postMission(page, {
      title: TITLE,
      description: 'Translate our 3-page onboarding guide from English to French. Keep the tone friendly.',
      reward: '25',
      category: 'translation',
      tags: 'french, docs',
      attachment: {
        name: 'guide.md',
        mimeType: 'text/markdown',
        buffer: Buffer.from('# Onboarding\n\nWelcome aboard!\n'),
      },
      criteria: CRITERIA,
    });
    // docs/api.md#criteria: numbered in the order given, with their hash.
    await expect(page.getByTestId('mission-criteria').getByRole('listitem')).toHaveText(CRITERIA);
    await expect(page.getByTestId('criteria-hash')).toHaveText(/^0x[0-9a-f]{64}$/);
    await expect(page.getByTestId('mission-status')).toHaveText('Open');
    await expect(page.getByText('25 USDC')).toBeVisible();
    await expect(page.getByRole('link', { name: 'guide.md' })).toBeVisible();
    const task = await escrowTask(await escrowTaskIdOnPage(page));
    expect(task.amount).toBe(25n * USDC);
    expect(task.client.toLowerCase()).toBe(client.wallet.address.toLowerCase());
    expect(await rewardTokenBalance(client.wallet.address as Address)).toBe(75n * USDC);
    await screenshotPage(page, 'mission-open-owner');
  });

  await test.step('the board finds the mission by search and filters', async () => {
    const page = agent.page;
    await page.goto('/missions');
    await page.getByLabel('Search').fill('onboarding');
    await page.getByLabel(/Minimum reward/).fill('20');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page.getByTestId('mission-list').getByRole('link', { name: TITLE })).toBeVisible();
    await screenshotPage(page, 'missions-board');
    await page.getByLabel(/Minimum reward/).fill('26');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page.getByText('No missions match these filters.')).toBeVisible();
  });

  await test.step('another wallet signs in, becomes an agent and gets a passport', async () => {
    await signIn(agent);
    await openAccountPage(agent.page, 'Become an agent');
    await agent.page.getByRole('button', { name: 'Become an agent' }).click();
    const passport = agent.page.getByTestId('passport');
    await expect(passport).toContainText('Minted');
    await expect(agent.page.getByTestId('session-user')).toContainText('Agent');
    await screenshotPage(agent.page, 'agent-passport');
  });

  await test.step('the agent accepts and delivers with a file', async () => {
    const page = agent.page;
    await page.goto(missionUrl);
    await page.getByRole('button', { name: 'Accept mission' }).click();
    await expect(page.getByTestId('mission-status')).toHaveText('Accepted');
    await page.getByLabel('A note to the client').fill('Done: the French guide is attached.');
    await page.getByRole('checkbox', { name: `1. ${CRITERIA[0]} — met` }).check();
    await page.getByLabel('Note on criterion 1').fill('All three, proofread.');
    await page
      .getByLabel('Deliverables')
      .setInputFiles({ name: 'guide-fr.txt', mimeType: 'text/plain', buffer: Buffer.from('Bienvenue à bord !\n') });
    await page.getByRole('button', { name: 'Submit work' }).click();
    await expect(page.getByTestId('mission-status')).toHaveText('Submitted');
    await expect(page.getByRole('link', { name: 'guide-fr.txt' })).toBeVisible();
    await screenshotPage(page, 'mission-submitted-agent');
  });

  await test.step('the client approves the delivery', async () => {
    const page = client.page;
    await page.goto(missionUrl);
    await expect(page.getByText('Done: the French guide is attached.')).toBeVisible();
    await expect(page.getByTestId('self-check')).toContainText(`✓ 1. ${CRITERIA[0]} — All three, proofread.`);
    await expect(page.getByTestId('self-check')).toContainText(`✗ 2. ${CRITERIA[1]}`);
    await page.getByRole('button', { name: 'Approve and pay' }).click();
    await expect(page.getByTestId('mission-status')).toHaveText('Completed');
    await expect(page.getByTestId('mission-timeline')).toContainText('Completed and paid');
    await screenshotPage(page, 'mission-completed-owner');
    await page.getByRole('link', { name: 'Analytics' }).click();
    await expect(page.getByTestId('series-chart')).toBeVisible();
    await expect(page.getByTestId('analytics-figures')).toContainText('Missions posted');
    await screenshotPage(page, 'analytics');
  });

  await test.step('the agent claims and the tokens arrive in the wallet', async () => {
    const page = agent.page;
    const before = await rewardTokenBalance(agent.wallet.address as Address);
    await page.getByRole('link', { name: 'Earnings' }).click();
    await expect(page.getByTestId('earnings-pending')).toHaveText('25 USDC');
    await connectWallet(page);
    await expect(page.getByTestId('wallet-balance')).toHaveText(formatUsdc(before));
    await screenshotPage(page, 'earnings-before-claim');
    await page.getByRole('button', { name: 'Claim 25 USDC' }).click();
    await expect(page.getByTestId('claim-result')).toContainText(/Transaction: 0x[0-9a-f]{64}/);
    await expect(page.getByTestId('wallet-balance')).toHaveText(formatUsdc(before + 25n * USDC), { timeout: 30_000 });
    await expect(page.getByTestId('earnings-pending')).toHaveText('0 USDC');
    expect(await rewardTokenBalance(agent.wallet.address as Address)).toBe(before + 25n * USDC);
    await screenshotPage(page, 'earnings-after-claim');
  });

  await test.step('the home page shows the totals and the leaderboard', async () => {
    await home(client.page);
  });

  await client.context.close();
  await agent.context.close();
});

async function home(page: Page) {
  await page.goto('/');
  await expect(page.getByTestId('public-stats')).toContainText('Completed');
  await expect(page.getByTestId('leaderboard')).toBeVisible();
  await screenshotPage(page, 'home');
}

function formatUsdc(amount: bigint): string {
  const whole = amount / USDC;
  const frac = (amount % USDC).toString().padStart(6, '0').replace(/0+$/, '');
  return `${whole.toLocaleString('en-US')}${frac ? `.${frac}` : ''} USDC`;
}
