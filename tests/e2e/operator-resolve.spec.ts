// The operator's dispute desk (docs/api.md#operator-missions): a mission with criteria contested into
// DISPUTED on the local chain, the operator pastes ADMIN_TOKEN (kept in sessionStorage only), reads the
// self-check and the unmet lists side by side, records a verdict per criterion and resolves for the agent; and
// splits another (docs/api.md#split-verdicts), which escrow v5's settle pays out.
import { expect, test } from '@playwright/test';
import { privateKeyToAccount } from 'viem/accounts';
import { freshFundedKey, post, postFundedMission, signInWithKey } from '../support/e2e/api-seed';
import { expectNoAccessibilityViolations, radiosOffTheirLabelLine } from '../support/e2e/accessibility';
import { escrowTask } from '../support/e2e/chain';
import { e2e } from '../support/e2e/e2e-env';
import { screenshotPage } from '../support/e2e/screenshots';

const USDC = 1_000_000n;
const CRITERIA = ['Ten questions answered', 'Plain text, no HTML', 'Under 2,000 words'];

async function adminGet(id: string): Promise<Record<string, any>> {
  const response = await fetch(`${e2e.baseUrl}/api/admin/missions/${id}`, {
    headers: { authorization: `Bearer ${e2e.adminToken}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, any>;
}

/** A funded mission with CRITERIA, delivered and contested MAX_CONTESTS + 1 times (2 + 1): DISPUTED. */
async function disputedMission(): Promise<{ id: string; agent: string }> {
  const [clientKey, agentKey] = [await freshFundedKey(), await freshFundedKey()];
  await post('/api/auth/register-agent', {}, await signInWithKey(agentKey));
  const [client, agent] = [await signInWithKey(clientKey), await signInWithKey(agentKey)];
  const id = await postFundedMission(clientKey, {
    title: `Write a product FAQ ${Date.now()}`,
    description: 'Ten questions and answers about our product.',
    reward: 8n * USDC,
    criteria: CRITERIA,
  });
  await post(`/api/missions/${id}/accept`, {}, agent);
  const selfCheck = [
    { criterion: 1, met: true },
    { criterion: 2, met: true, note: 'Checked with a linter.' },
  ];
  await post(`/api/missions/${id}/submit`, { note: 'The FAQ, in the note.', selfCheck }, agent);
  for (let round = 1; round <= 3; round += 1) {
    const unmet = [{ criterion: 1, reason: `Round ${round}: only six questions.` }];
    await post(`/api/missions/${id}/contest`, { reason: `Still short, round ${round}.`, unmet }, client);
    if (round < 3) await post(`/api/missions/${id}/submit`, { note: `Again, round ${round}.`, selfCheck }, agent);
  }
  return { id, agent: privateKeyToAccount(agentKey).address.toLowerCase() };
}

test('the operator resolves a dispute with a verdict per criterion', async ({ browser }) => {
  test.setTimeout(180_000);
  const { id, agent } = await disputedMission();
  expect((await adminGet(id)).status).toBe('DISPUTED');
  const context = await browser.newContext({ baseURL: e2e.baseUrl });
  const page = await context.newPage();

  await test.step('a wrong token is refused and forgotten; the right one loads the mission', async () => {
    await page.goto(`/operator/missions/${id}`);
    await expect(page.getByText('never in a URL or a cookie')).toBeVisible();
    await page.getByLabel('ADMIN_TOKEN').fill('not-the-operator-token-0123456789abcdef');
    await page.getByRole('button', { name: 'Use token' }).click();
    await expect(page.getByText('The token was refused')).toBeVisible();
    await page.getByRole('button', { name: 'Forget the token' }).click();
    await page.getByLabel('ADMIN_TOKEN').fill(e2e.adminToken);
    await page.getByRole('button', { name: 'Use token' }).click();
    await expect(page.getByTestId('mission-status')).toHaveText('Disputed');
    // docs/api.md#operator-missions: the tab's sessionStorage holds it, no URL and no cookie does.
    expect(page.url()).not.toContain(e2e.adminToken);
    expect((await context.cookies()).filter((c) => c.value.includes(e2e.adminToken))).toEqual([]);
    expect(await page.evaluate(() => Object.values(sessionStorage))).toContain(e2e.adminToken);
  });

  await test.step("each criterion shows the agent's self-check beside the client's unmet reasons", async () => {
    const first = page.getByTestId('criterion-1');
    await expect(first).toContainText('Ten questions answered');
    await expect(first).toContainText('Met');
    for (const round of [1, 2, 3]) await expect(first).toContainText(`Round ${round}: only six questions.`);
    await expect(page.getByTestId('criterion-2')).toContainText('Checked with a linter.');
    await expect(page.getByTestId('criterion-3')).toContainText('Not said');
    await expect(page.getByTestId('mission-timeline')).toContainText('Delivery contested (round 3');
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 800 });
      expect(await radiosOffTheirLabelLine(page), `radios at ${width}px`).toEqual([]);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await expectNoAccessibilityViolations(page);
  });

  await test.step('verdicts and the outcome for the agent; the API shows them', async () => {
    const verdict = (n: number, choice: 'Met' | 'Not met') =>
      page.getByRole('group', { name: `Verdict on criterion ${n}` }).getByLabel(choice, { exact: true });
    await verdict(1, 'Not met').check();
    await verdict(2, 'Met').check();
    await verdict(3, 'Met').check();
    await page.getByLabel('For the agent: complete the mission and pay the agent').check();
    await page.getByLabel('Note to both parties (optional)').fill('Nine of ten is close enough.');
    await screenshotPage(page, 'operator-resolve');
    await page.getByRole('button', { name: 'Resolve the dispute' }).click();
    await expect(page.getByTestId('resolve-result')).toContainText('Completed');
    await expect(page.getByTestId('mission-status')).toHaveText('Completed');
    const mission = await adminGet(id);
    expect(mission).toMatchObject({
      status: 'COMPLETED',
      agent: { walletAddress: agent },
      verdicts: [
        { criterion: 1, met: false },
        { criterion: 2, met: true },
        { criterion: 3, met: true },
      ],
    });
    await expect(page.getByTestId('criterion-1')).toContainText('Not met');
  });

  await context.close();
});

test('the operator splits a dispute: part to the agent, the rest refunded, settled on-chain', async ({ browser }) => {
  test.setTimeout(180_000);
  const { id } = await disputedMission();
  const context = await browser.newContext({ baseURL: e2e.baseUrl });
  const page = await context.newPage();
  await page.goto(`/operator/missions/${id}`);
  await page.getByLabel('ADMIN_TOKEN').fill(e2e.adminToken);
  await page.getByRole('button', { name: 'Use token' }).click();
  await expect(page.getByTestId('mission-status')).toHaveText('Disputed');

  await page.getByLabel('Split: part to the agent').check();
  const amount = page.getByLabel('To the agent, in base units (1 to 7999999)');
  const resolveButton = page.getByRole('button', { name: 'Resolve the dispute' });
  // docs/api.md#split-verdicts: 1 to reward − 1; the whole reward is a verdict for the agent, not a split.
  await amount.fill(String(8n * USDC));
  await expect(amount).toHaveAttribute('aria-invalid', 'true');
  await expect(resolveButton).toBeDisabled();
  await amount.fill('4999999');
  await expect(page.getByTestId('resolve-split-hint')).toHaveText('The client gets 3000001 back.');
  await resolveButton.click();
  await expect(page.getByTestId('resolve-result')).toContainText('Completed');

  const mission = await adminGet(id);
  expect(mission).toMatchObject({
    status: 'COMPLETED',
    settlement: { by: 'operator', agentAmount: '4999999', refund: '3000001' },
  });
  // The escrow's settle closed the task: nothing left in it once the part and the refund were credited.
  await expect.poll(async () => (await escrowTask(mission.onChainTaskId)).state, { timeout: 30_000 }).toBe(2);
  expect((await escrowTask(mission.onChainTaskId)).amount).toBe(0n);
  await context.close();
});
