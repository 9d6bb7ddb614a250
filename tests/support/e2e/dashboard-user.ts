// A person at the dashboard: their own browser context (cookies, local storage) with their own
// test wallet, plus the steps every scenario repeats — connecting and signing in.
import { expect, type Browser, type BrowserContext, type Page } from '@playwright/test';
import type { Hex } from 'viem';
import { e2e } from './e2e-env';
import { TestWallet } from './test-wallet';

export interface DashboardUser {
  context: BrowserContext;
  page: Page;
  wallet: TestWallet;
}

export async function openDashboardAs(browser: Browser, privateKey: Hex, options: { walletChainId?: number } = {}): Promise<DashboardUser> {
  const context = await browser.newContext({ baseURL: e2e.baseUrl });
  const wallet = new TestWallet(privateKey, e2e.rpcUrl, options.walletChainId ?? e2e.chainId);
  await wallet.attach(context);
  const page = await context.newPage();
  // Every page load waits for hydration: a click or a keystroke before it is lost or undone.
  const goto = page.goto.bind(page);
  page.goto = async (url, options) => {
    const response = await goto(url, options);
    await hydrated(page);
    return response;
  };
  // Confirmation dialogs ("Approve this delivery…?") are answered yes.
  page.on('dialog', (dialog) => void dialog.accept());
  return { context, page, wallet };
}

/** Once React has hydrated the page (app/components/hydration-marker.tsx): typing before it is lost. */
export async function hydrated(page: Page): Promise<void> {
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
}

export async function connectWallet(page: Page): Promise<void> {
  const connected = page.getByText('Wallet connected:');
  const connect = page.getByRole('button', { name: 'Connect Test Wallet' });
  // After a reload wagmi reconnects a wallet it knows by itself; wait for it to settle either way.
  await expect(connected.or(connect)).toBeVisible();
  if (await connected.isVisible()) return;
  await connect.click();
  await expect(connected).toBeVisible();
}

export async function signIn(user: DashboardUser, expectedRole: 'Client' | 'Agent' = 'Client'): Promise<void> {
  const { page } = user;
  await page.goto('/sign-in');
  await connectWallet(page);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByTestId('session-user')).toContainText(expectedRole);
  await expect(page).toHaveURL(/\/missions$/);
}
