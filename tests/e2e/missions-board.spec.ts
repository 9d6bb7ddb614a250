// The board's keyset paging and sorting, over more missions than fit on a page.
import { expect, test } from '@playwright/test';
import { ANVIL_KEYS } from '../../lib/chain/anvil-node';
import { seedFundedMissions } from '../support/e2e/api-seed';
import { e2e } from '../support/e2e/e2e-env';

test('the board pages forward and back and sorts by reward', async ({ page }) => {
  const tag = `paging-${Date.now()}`;
  await seedFundedMissions(ANVIL_KEYS[9], tag, 12);
  await page.goto(`${e2e.baseUrl}/missions?tag=${tag}&sort=reward`);
  const list = page.getByTestId('mission-list').getByRole('listitem');
  await expect(list).toHaveCount(10);
  await expect(list.first()).toContainText('Seeded mission 12 of 12');
  await expect(list.first()).toContainText('12 USDC');
  await expect(page.getByRole('button', { name: 'Previous page' })).toBeDisabled();
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(page.getByRole('heading', { name: 'Open missions, page 2' })).toBeVisible();
  await expect(list).toHaveCount(2);
  await expect(list.last()).toContainText('Seeded mission 1 of 12');
  await expect(page.getByRole('button', { name: 'Next page' })).toBeDisabled();
  await page.getByRole('button', { name: 'Previous page' }).click();
  await expect(list).toHaveCount(10);
  await page.getByLabel('Sort by').selectOption('created');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(/sort=created/);
  await expect(list.first()).toContainText('Seeded mission 12 of 12');
});
