// docs/api.md#milestones on the mission page: a funded milestone mission, its first milestone delivered; the client
// signs in, sees the milestones with nothing released, approves the one at hand with the usual button, and the
// bar shows the part released while the next milestone is at hand. And settling in part
// (docs/api.md#settlement-offers): the client rejects the agent's offer, accepts the next one, and the page says
// how the mission was settled.
import { expect, test } from '@playwright/test';
import { freshFundedKey, post, postFundedMission, signInWithKey } from '../support/e2e/api-seed';
import { openDashboardAs, signIn } from '../support/e2e/dashboard-user';
import { screenshotPage } from '../support/e2e/screenshots';

const USDC = 1_000_000n;

test('the client approves a milestone and the bar shows what was released', async ({ browser }) => {
  test.setTimeout(180_000);
  const [clientKey, agentKey] = [await freshFundedKey(), await freshFundedKey()];
  await post('/api/auth/register-agent', {}, await signInWithKey(agentKey));
  const agent = await signInWithKey(agentKey);
  const id = await postFundedMission(clientKey, {
    title: `Build a landing page ${Date.now()}`,
    description: 'Design first, then the code.',
    reward: 8n * USDC,
    milestones: [
      { title: 'Design mockups', amount: (2n * USDC).toString() },
      { title: 'Working page', amount: (6n * USDC).toString(), criteria: 'Deployed and responsive' },
    ],
  });
  await post(`/api/missions/${id}/accept`, {}, agent);
  await post(`/api/missions/${id}/submit`, { milestone: 1, note: 'Mockups attached.' }, agent);

  const client = await openDashboardAs(browser, clientKey);
  await signIn(client);
  const { page } = client;
  await page.goto(`/missions/${id}`);
  const panel = page.getByRole('region', { name: 'Milestones' });
  await expect(panel).toContainText('Design mockups');
  await expect(panel).toContainText('Waiting for review');
  await expect(panel.getByRole('progressbar')).toHaveAttribute('value', '0');
  await page.getByRole('button', { name: 'Approve and pay' }).click();
  await expect(panel).toContainText('Approved and released');
  await expect(panel.getByRole('progressbar')).toHaveAttribute('value', '25');
  await expect(panel).toContainText('Milestone 2 is at hand');
  await screenshotPage(page, 'mission-milestones');
  await client.context.close();
});

test("the client rejects the agent's offer to settle in part, accepts the next, and sees it settled", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const [clientKey, agentKey] = [await freshFundedKey(), await freshFundedKey()];
  await post('/api/auth/register-agent', {}, await signInWithKey(agentKey));
  const agent = await signInWithKey(agentKey);
  const id = await postFundedMission(clientKey, {
    title: `Translate a manual ${Date.now()}`,
    description: 'Forty pages into French.',
    reward: 8n * USDC,
  });
  await post(`/api/missions/${id}/accept`, {}, agent);
  await post(`/api/missions/${id}/submit`, { note: 'Thirty of forty pages.' }, agent);
  const offer = (agentAmount: bigint, note: string) =>
    post(`/api/missions/${id}/settlement-offers`, { agentAmount: agentAmount.toString(), note }, agent);
  await offer(7n * USDC, 'Most of it is done.');

  const client = await openDashboardAs(browser, clientKey);
  await signIn(client);
  const { page } = client;
  await page.goto(`/missions/${id}`);
  const panel = page.getByTestId('settlement-panel');
  await expect(panel.getByTestId('settlement-offer')).toContainText('The agent offers: 7000000 to the agent');
  await expect(panel.getByTestId('settlement-offer')).toContainText('1000000 back to the client');
  await panel.getByRole('button', { name: 'Reject' }).click();
  await expect(panel).toContainText('No offer is pending.');

  await offer(6n * USDC, 'Thirty pages of forty: three quarters.');
  await page.reload();
  await expect(panel.getByTestId('settlement-offer')).toContainText('6000000 to the agent');
  await panel.getByRole('button', { name: 'Accept' }).click();
  const settled = page.getByTestId('settlement');
  await expect(settled).toContainText('By agreement of both parties');
  await expect(settled).toContainText('6000000 to the agent (before the fee), 2000000 back to the client');
  await expect(page.getByTestId('mission-status')).toHaveText('Completed');
  await client.context.close();
});
