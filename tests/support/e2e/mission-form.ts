// Filling in "Post a mission" the way a person does, and posting it: the form creates the mission,
// then its funding page funds it with one signature (docs/api.md#post-and-pay).
import { expect, type Page } from '@playwright/test';
import { connectWallet } from './dashboard-user';

export interface MissionInput {
  title: string;
  description: string;
  reward: string;
  category?: string;
  tags?: string;
  attachment?: { name: string; mimeType: string; buffer: Buffer };
  /** docs/api.md#criteria: each added with "Add a criterion". */
  criteria?: string[];
}

/** Posts from /missions/new and answers the new mission's path. */
export async function postMission(page: Page, input: MissionInput): Promise<string> {
  if (!page.url().endsWith('/missions/new')) await page.goto('/missions/new');
  await page.getByLabel('Title').fill(input.title);
  await page.getByLabel('Description').fill(input.description);
  await page.getByLabel(/^Reward/).fill(input.reward);
  if (input.category) await page.getByLabel('Category (optional)').fill(input.category);
  if (input.tags) await page.getByLabel('Tags (optional)').fill(input.tags);
  if (input.attachment) {
    await page.getByLabel('Attachments (optional)').setInputFiles(input.attachment);
    await expect(page.getByText(`${input.attachment.name} (`)).toBeVisible();
  }
  for (const [index, text] of (input.criteria ?? []).entries()) {
    await page.getByRole('button', { name: 'Add a criterion' }).click();
    await page.getByLabel(`Criterion ${index + 1}`, { exact: true }).fill(text);
  }
  await page.getByRole('button', { name: 'Post and fund mission' }).click();
  await fundOnFundingPage(page);
  await expect(page.getByRole('heading', { name: input.title })).toBeVisible();
  return new URL(page.url()).pathname;
}

/** On a mission's funding page: connect, press "Fund" (one signature), and wait for the mission page. */
export async function fundOnFundingPage(page: Page): Promise<void> {
  await expect(page).toHaveURL(/\/missions\/[0-9a-f-]{36}\/fund$/, { timeout: 60_000 });
  await expect(page.getByTestId('funding-terms')).toBeVisible();
  await connectWallet(page);
  await page.getByRole('button', { name: /^Fund \d/ }).click();
  await expect(page).toHaveURL(/\/missions\/[0-9a-f-]{36}$/, { timeout: 60_000 });
}

export async function escrowTaskIdOnPage(page: Page): Promise<number> {
  const text = await page.getByText(/Escrow task #\d+/).textContent();
  return Number(/#(\d+)/.exec(text ?? '')![1]);
}
