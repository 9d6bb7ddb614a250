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

export async function openDashboardAs(
  browser: Browser,
  privateKey: Hex,
  options: { walletChainId?: number } = {},
): Promise<DashboardUser> {
  const context = await browser.newContext({ baseURL: e2e.baseUrl });
  const wallet = new TestWallet(privateKey, e2e.rpcUrl, options.walletChainId ?? e2e.chainId);
  await wallet.attach(context);
  const page = await context.newPage();
  // E2E_CPU_THROTTLE=4 runs each page at a quarter of the CPU, as on a loaded CI machine: races
  // with hydration that a quiet machine hides show up (how the one below was found).
  if (process.env.E2E_CPU_THROTTLE) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: Number(process.env.E2E_CPU_THROTTLE) });
  }
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

/**
 * Once React has hydrated every control on the page: a value typed into a controlled field before
 * then is the DOM's alone, and the next render puts the state's empty value back. React tags each
 * element it has hydrated with a `__reactProps$…` key. A page's content streams into a Suspense
 * boundary (app/(site)/loading.tsx) and hydrates after the frame around it, so a mark set by the
 * frame comes too early; `goto` has waited for the load event, so the streamed content is all there.
 */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    [...document.querySelectorAll('#main :is(form, input, textarea, select, button)')].every((control) =>
      Object.keys(control).some((key) => key.startsWith('__reactProps$')),
    ),
  );
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

/** Opens one of the account's own pages (passport, webhooks, connected apps) from the menu under the wallet address. */
export async function openAccountPage(page: Page, name: string): Promise<void> {
  await page.getByTestId('session-user').click();
  await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name }).click();
}
