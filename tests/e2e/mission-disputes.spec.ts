// The other roads a mission takes, through the detail page's actions: the client bumps with a
// higher reward (topped up in escrow from the wallet), contests a delivery; the agent withdraws;
// the client cancels. Also: who sees which actions.
import { expect, test } from '@playwright/test';
import type { Address } from 'viem';
import { ANVIL_KEYS } from '../../lib/chain/anvil-node';
import { escrowTask, mintRewardToken } from '../support/e2e/chain';
import { openDashboardAs, signIn } from '../support/e2e/dashboard-user';
import { escrowTaskIdOnPage, postMission } from '../support/e2e/mission-form';
import { screenshotPage } from '../support/e2e/screenshots';

const USDC = 1_000_000n;

test('bump with a top-up, contest, withdraw and cancel', async ({ browser }) => {
  test.setTimeout(240_000);
  const client = await openDashboardAs(browser, ANVIL_KEYS[7]);
  const agent = await openDashboardAs(browser, ANVIL_KEYS[8]);
  await mintRewardToken(ANVIL_KEYS[7], client.wallet.address as Address, 50n * USDC);
  const title = `Write a product FAQ ${Date.now()}`;
  let url = '';
  let taskId = 0;

  await test.step('the client posts, then bumps with a higher reward topped up in escrow', async () => {
    await signIn(client);
    url = await postMission(client.page, {
      title,
      description: 'Ten questions and answers about our product.',
      reward: '10',
    });
    taskId = await escrowTaskIdOnPage(client.page);
    await client.page.getByLabel(/New reward/).fill('12');
    await client.page.getByRole('button', { name: 'Bump' }).click();
    await expect(client.page.getByText('12 USDC')).toBeVisible({ timeout: 30_000 });
    await expect(client.page.getByTestId('mission-timeline')).toContainText('Bumped (1×)');
    expect((await escrowTask(taskId)).amount).toBe(12n * USDC);
  });

  await test.step('a signed-out visitor is invited to sign in; an agent may accept', async () => {
    await agent.page.goto(url);
    await expect(agent.page.getByText('as an agent to accept this mission')).toBeVisible();
    await signIn(agent);
    await agent.page.goto('/agent');
    await agent.page.getByRole('button', { name: 'Become an agent' }).click();
    await expect(agent.page.getByTestId('passport')).toBeVisible();
    await agent.page.goto(url);
    await agent.page.getByRole('button', { name: 'Accept mission' }).click();
    await expect(agent.page.getByTestId('mission-status')).toHaveText('Accepted');
    await agent.page.getByRole('button', { name: 'Submit work' }).click();
    await expect(agent.page.getByText('Add a note to the client or at least one file.')).toBeVisible();
    await agent.page.getByLabel('A note to the client').fill('The FAQ is in the note: …');
    await agent.page.getByRole('button', { name: 'Submit work' }).click();
    await expect(agent.page.getByTestId('mission-status')).toHaveText('Submitted');
  });

  await test.step('the client contests with a reason', async () => {
    const page = client.page;
    await page.goto(url);
    await page.getByRole('button', { name: 'Contest delivery' }).click();
    await expect(page.getByText('What is wrong is required.')).toBeVisible();
    await page.getByLabel('What is wrong').fill('Only six questions are answered.');
    await page.getByRole('button', { name: 'Contest delivery' }).click();
    await expect(page.getByTestId('mission-status')).toHaveText('Contested');
    await expect(page.getByText('Only six questions are answered.')).toBeVisible();
    // Cancelling is for a contest left unanswered, not one just made.
    await expect(page.getByText('Waiting for the agent to deliver again.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Cancel mission' })).toHaveCount(0);
    await screenshotPage(page, 'mission-contested-owner');
  });

  await test.step('the agent withdraws and the mission is open again', async () => {
    await agent.page.goto(url);
    await expect(agent.page.getByRole('heading', { name: 'Deliver again' })).toBeVisible();
    await agent.page.getByRole('button', { name: 'Withdraw' }).click();
    await expect(agent.page.getByTestId('mission-status')).toHaveText('Open');
  });

  await test.step('the client cancels the open mission', async () => {
    const page = client.page;
    await page.goto(url);
    await page.getByRole('button', { name: 'Cancel mission' }).click();
    await expect(page.getByTestId('mission-status')).toHaveText('Cancelled');
    await expect(page.getByText('Nothing to do here right now.')).toBeVisible();
  });

  await client.context.close();
  await agent.context.close();
});
