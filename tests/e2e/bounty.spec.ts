// A bounty in the dashboard (docs/api.md#bounties), as the people who use it: the client posts one with two
// places and a 70/30 split; an agent enters it in the browser and sees only its own entry; after
// the deadline the client sees the entries side by side and awards them; each entrant sees the
// result. Every page is photographed at desktop and phone width and checked by axe. Also the
// header: one row at 1280 and 1024 px with no item drawn over another, a menu on phones; and the
// form's radio buttons beside their labels.
import { expect, type Page, test } from '@playwright/test';
import { privateKeyToAccount } from 'viem/accounts';
import { freshFundedKey, post, postFundedMission, signInWithKey } from '../support/e2e/api-seed';
import { openDashboardAs, signIn } from '../support/e2e/dashboard-user';
import { screenshotPage } from '../support/e2e/screenshots';

test.describe.configure({ mode: 'serial' });

test('post a bounty, enter it, judge the entries side by side, award, and each entrant sees the result', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const [clientKey, agentKey, rivalKey] = [await freshFundedKey(), await freshFundedKey(), await freshFundedKey()];
  const agentAddress = privateKeyToAccount(agentKey).address.toLowerCase();
  const rivalAddress = privateKeyToAccount(rivalKey).address.toLowerCase();
  for (const key of [agentKey, rivalKey]) await post('/api/auth/register-agent', {}, await signInWithKey(key));
  const client = await openDashboardAs(browser, clientKey);
  const agent = await openDashboardAs(browser, agentKey);

  await test.step('the create form offers a bounty with places and a split', async () => {
    await signIn(client);
    await client.page.goto('/missions/new');
    await client.page.getByLabel(/A bounty: many agents enter/).check();
    for (const width of [1280, 390]) {
      await client.page.setViewportSize({ width, height: 800 });
      expect(await radiosOffTheirLabelLine(client.page), `radios at ${width}px`).toEqual([]);
    }
    await client.page.setViewportSize({ width: 1280, height: 800 });
    const places = client.page.getByRole('spinbutton', { name: 'Places' });
    await expect(places).toBeVisible();
    await places.fill('2');
    await client.page.getByLabel('Split (optional)').fill('70,30');
    await screenshotPage(client.page, 'bounty-create');
  });

  // Posted through the API (funding is the lifecycle suite's subject) with a deadline the test can wait out.
  const deadline = Date.now() + 50_000;
  const title = `Name our escrow product ${Date.now()}`;
  const missionId = await postFundedMission(clientKey, {
    title,
    description: 'Three names with a line on each. The best two are paid 70/30.',
    reward: 9_000_000n,
    deadline: new Date(deadline).toISOString(),
    assignment: 'BOUNTY',
    winners: 2,
    split: [70, 30],
  });
  // A rival enters through the API, as an SDK agent would.
  await post(
    `/api/missions/${missionId}/entries`,
    { note: 'Rival entry: Pactum, Settle, Ledgerly' },
    await signInWithKey(rivalKey),
  );

  await test.step('an agent enters in the browser and sees its own entry only', async () => {
    await signIn(agent, 'Agent');
    await agent.page.goto(`/missions/${missionId}`);
    await expect(agent.page.getByTestId('bounty-panel')).toBeVisible();
    // Entering is the bounty panel's; an entrant has nothing under "Actions", so no empty heading shows.
    await expect(agent.page.getByRole('heading', { name: 'Actions' })).toBeHidden();
    await agent.page
      .getByLabel('Your entry')
      .fill('Escrowly — money that waits; Bountiful — many try, the best is paid; Awardly.');
    await agent.page
      .getByLabel('Files (optional)')
      .setInputFiles({ name: 'names.md', mimeType: 'text/markdown', buffer: Buffer.from('# Names\n\n- Escrowly\n') });
    await agent.page.getByRole('button', { name: 'Submit entry' }).click();
    await expect(agent.page.getByTestId('own-entry')).toContainText('Escrowly');
    await expect(agent.page.getByTestId('own-entry').getByRole('link', { name: 'names.md' })).toBeVisible();
    await expect(agent.page.getByText('Rival entry')).toHaveCount(0);
    await expect(agent.page.getByTestId('bounty-entries')).toHaveText('2');
    await screenshotPage(agent.page, 'bounty-entrant-open');
  });

  await test.step('after the deadline the client sees the entries side by side and awards them', async () => {
    await client.page.waitForTimeout(Math.max(0, deadline - Date.now() + 1_000));
    await client.page.goto(`/missions/${missionId}`);
    await expect(client.page.getByTestId('mission-status')).toHaveText(/Judging/i);
    await expect(client.page.getByTestId('entry-card')).toHaveCount(2);
    await expect(client.page.getByTestId('entry-grid')).toContainText('Rival entry');
    await expect(client.page.getByTestId('entry-grid')).toContainText('Escrowly');
    await screenshotPage(client.page, 'bounty-judging-client');
    await client.page.getByLabel('Place 1 (70 %)').selectOption(agentAddress);
    await client.page.getByLabel('Place 2 (30 %)').selectOption(rivalAddress);
    await client.page.getByRole('button', { name: 'Award', exact: true }).click();
    await expect(client.page.getByTestId('mission-status')).toHaveText(/Awarded/i);
    await expect(client.page.getByTestId('bounty-result')).toContainText('6.3 USDC');
    await expect(client.page.getByTestId('bounty-result')).toContainText('2.7 USDC');
    await screenshotPage(client.page, 'bounty-awarded-client');
  });

  await test.step('the entrant sees the result and may contest it', async () => {
    await agent.page.goto(`/missions/${missionId}`);
    await expect(agent.page.getByTestId('bounty-outcome')).toHaveText('You won place 1.');
    await expect(agent.page.getByRole('heading', { name: 'Contest the award' })).toBeVisible();
    await expect(agent.page.getByText('Rival entry')).toHaveCount(0);
    await screenshotPage(agent.page, 'bounty-awarded-entrant');
  });
});

test('the header keeps one row at 1280 and 1024 px and folds into a menu on phones', async ({ browser }) => {
  const client = await openDashboardAs(browser, await freshFundedKey());
  await signIn(client);
  const page = client.page;
  for (const width of [1280, 1024]) {
    await page.setViewportSize({ width, height: 800 });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const brand = (await page.getByRole('link', { name: 'taskmarket', exact: true }).boundingBox())!;
    const signOut = (await page.getByRole('button', { name: 'Sign out' }).boundingBox())!;
    const lastLink = (await page.getByRole('navigation', { name: 'Main' }).getByRole('link').last().boundingBox())!;
    const middle = (box: { y: number; height: number }) => box.y + box.height / 2;
    // One row: the brand, the last link and sign-out share a centre line.
    expect(Math.abs(middle(signOut) - middle(brand)), `sign-out at ${width}px`).toBeLessThan(12);
    expect(Math.abs(middle(lastLink) - middle(brand)), `links at ${width}px`).toBeLessThan(12);
    expect(signOut.x + signOut.width).toBeLessThanOrEqual(width);
    expect(await overlappingHeaderItems(page), `header at ${width}px`).toEqual([]);
  }
  // The account's own pages open from the address, over the page and clear of the bar's items.
  await page.getByTestId('session-user').click();
  await expect(
    page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Connected apps' }),
  ).toBeVisible();
  await screenshotPage(page, 'header-account-menu');
  await page.getByTestId('session-user').click();
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeHidden();
  await page.getByRole('button', { name: 'Menu' }).click();
  await expect(page.getByRole('button', { name: 'Menu' })).toHaveAttribute('aria-expanded', 'true');
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Post a mission' }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  expect(await overlappingHeaderItems(page), 'header at 390px, menu open').toEqual([]);
  await screenshotPage(page, 'header-menu-open');
});

/** Pairs of visible header items (brand, links, the address, buttons) whose boxes intersect. */
function overlappingHeaderItems(page: Page): Promise<string[]> {
  return page.getByTestId('header-bar').evaluate((bar) => {
    const items = [...bar.querySelectorAll('a, button, summary')].filter(
      (e) => e.getClientRects().length > 0 && !e.closest('[aria-label="Account"]'),
    );
    const boxes = items.map((e) => ({ name: e.textContent!.trim(), r: e.getBoundingClientRect() }));
    const found: string[] = [];
    boxes.forEach((a, i) =>
      boxes.slice(i + 1).forEach((b) => {
        const apart =
          a.r.right <= b.r.left + 0.5 ||
          b.r.right <= a.r.left + 0.5 ||
          a.r.bottom <= b.r.top + 0.5 ||
          b.r.bottom <= a.r.top + 0.5;
        if (!apart) found.push(`${a.name} × ${b.name}`);
      }),
    );
    return found;
  });
}

/** Radio buttons not beside their label's first line of text (as when one is stretched above its text). */
function radiosOffTheirLabelLine(page: Page): Promise<string[]> {
  return page.locator('label:has(> input[type=radio])').evaluateAll((labels) =>
    labels.flatMap((label) => {
      const radio = label.querySelector('input')!.getBoundingClientRect();
      const range = document.createRange();
      range.selectNodeContents(label);
      const text = [...range.getClientRects()].find((r) => r.left >= radio.right && r.width > 4);
      const beside = text !== undefined && Math.abs((text.top + text.bottom) / 2 - (radio.top + radio.bottom) / 2) < 8;
      return beside ? [] : [label.textContent!.trim()];
    }),
  );
}
