// Post and pay from a wallet that holds USDC and no ETH (docs/api.md#post-and-pay): the dashboard's
// form creates the mission AWAITING_FUNDING and opens its funding page, which shows the exact terms;
// one "Fund" press is one EIP-712 signature, the backend relays the escrow task and pays the gas,
// and the mission comes up OPEN with the reward in escrow — the wallet never sends a transaction.
// A wallet that prefers to can still fund the same task itself: approve + createTask, its own gas.
import { expect, test } from '@playwright/test';
import { createPublicClient, http, type Address } from 'viem';
import { generatePrivateKey } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { ANVIL_KEYS } from '../../lib/chain/anvil-node';
import { freshFundedKey } from '../support/e2e/api-seed';
import { escrowTask, mintRewardToken, rewardTokenBalance } from '../support/e2e/chain';
import { connectWallet, openDashboardAs, signIn } from '../support/e2e/dashboard-user';
import { e2e } from '../support/e2e/e2e-env';
import { escrowTaskIdOnPage } from '../support/e2e/mission-form';
import { screenshotPage } from '../support/e2e/screenshots';

const USDC = 1_000_000n;

test('a wallet with USDC and no ETH posts from the dashboard and funds with one signature', async ({ browser }) => {
  test.setTimeout(180_000);
  const chain = createPublicClient({ chain: foundry, transport: http(e2e.rpcUrl) });
  const client = await openDashboardAs(browser, generatePrivateKey());
  const address = client.wallet.address as Address;
  await mintRewardToken(ANVIL_KEYS[1], address, 30n * USDC);
  expect(await chain.getBalance({ address })).toBe(0n);
  const title = `Summarise three papers ${Date.now()}`;
  const page = client.page;

  await test.step('the form posts the mission and opens its funding page with the terms', async () => {
    await signIn(client);
    await page.goto('/missions/new');
    await page.getByLabel('Title').fill(title);
    await page.getByLabel('Description').fill('One paragraph on each of the three attached papers.');
    await page.getByLabel(/^Reward/).fill('12');
    await page.getByRole('button', { name: 'Post and fund mission' }).click();
    await expect(page).toHaveURL(/\/missions\/[0-9a-f-]{36}\/fund$/, { timeout: 30_000 });
    const terms = page.getByTestId('funding-terms');
    await expect(terms).toContainText(title);
    await expect(terms).toContainText('12 USDC');
    await expect(terms).toContainText(e2e.escrow);
    await expect(terms).toContainText('Review window');
    await screenshotPage(page, 'mission-funding');
  });

  await test.step('until funded the mission is not on the board', async () => {
    const missionId = /\/missions\/([0-9a-f-]{36})\/fund$/.exec(page.url())![1]!;
    const board = await fetch(`${e2e.baseUrl}/api/missions?q=${encodeURIComponent(title)}`).then(
      (r) => r.json() as Promise<{ items: { id: string }[] }>,
    );
    expect(board.items.map((m) => m.id)).not.toContain(missionId);
  });

  await test.step('one signature funds it and the mission opens', async () => {
    await connectWallet(page);
    await page.getByRole('button', { name: 'Fund 12 USDC' }).click();
    await expect(page).toHaveURL(/\/missions\/[0-9a-f-]{36}$/, { timeout: 60_000 });
    await expect(page.getByRole('heading', { name: title })).toBeVisible();
    await expect(page.getByTestId('mission-status')).toHaveText('Open');
    expect(client.wallet.typedDataSigned).toBe(1);
    const task = await escrowTask(await escrowTaskIdOnPage(page));
    expect(task.amount).toBe(12n * USDC);
    expect(task.client.toLowerCase()).toBe(address.toLowerCase());
    expect(await rewardTokenBalance(address)).toBe(18n * USDC);
    // No transaction of its own: the wallet still holds no ETH and has sent nothing.
    expect(await chain.getBalance({ address })).toBe(0n);
    expect(await chain.getTransactionCount({ address })).toBe(0);
    await screenshotPage(page, 'mission-funded-owner');
  });

  await client.context.close();
});

test('a wallet that prefers it funds the task itself: approve + createTask, then the mission opens', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const client = await openDashboardAs(browser, await freshFundedKey());
  const address = client.wallet.address as Address;
  await mintRewardToken(ANVIL_KEYS[1], address, 10n * USDC);
  const title = `Proofread a letter ${Date.now()}`;
  const page = client.page;
  await signIn(client);
  await page.goto('/missions/new');
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Description').fill('One page, British English.');
  await page.getByLabel(/^Reward/).fill('4');
  await page.getByRole('button', { name: 'Post and fund mission' }).click();
  await expect(page).toHaveURL(/\/missions\/[0-9a-f-]{36}\/fund$/, { timeout: 30_000 });
  await connectWallet(page);
  await page.getByRole('button', { name: 'I prefer to send the transactions from my wallet' }).click();
  await page.getByRole('button', { name: /^Fund from my wallet/ }).click();
  await expect(page).toHaveURL(/\/missions\/[0-9a-f-]{36}$/, { timeout: 60_000 });
  await expect(page.getByTestId('mission-status')).toHaveText('Open');
  expect(client.wallet.typedDataSigned).toBe(0);
  const task = await escrowTask(await escrowTaskIdOnPage(page));
  expect(task.amount).toBe(4n * USDC);
  expect(task.client.toLowerCase()).toBe(address.toLowerCase());
  expect(await rewardTokenBalance(address)).toBe(6n * USDC);
  await client.context.close();
});
