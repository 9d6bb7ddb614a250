// Signing in with a wallet, and the three ways it goes wrong that people must understand: the
// wallet on another network, a refused signature, an expired nonce.
import { expect, test, type Page } from '@playwright/test';
import { generatePrivateKey } from 'viem/accounts';
import { ANVIL_KEYS } from '../../lib/chain/anvil-node';
import { connectWallet, openDashboardAs } from '../support/e2e/dashboard-user';
import { screenshotPage } from '../support/e2e/screenshots';

test('signing in and out works with the keyboard alone', async ({ browser }) => {
  const user = await openDashboardAs(browser, ANVIL_KEYS[3]);
  const { page } = user;
  await page.goto('/sign-in');
  await expect(page.getByRole('heading', { name: 'Sign in with your wallet' })).toBeVisible();
  await screenshotPage(page, 'sign-in');
  await tabTo(page, 'Connect Test Wallet');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Wallet connected:')).toBeVisible();
  await tabTo(page, 'Sign in');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('session-user')).toContainText('Client');
  await tabTo(page, 'Sign out');
  await page.keyboard.press('Enter');
  // The header offers signing in again (the home page's own "Sign in" may appear beside it).
  await expect(page.getByTestId('header-bar').getByRole('link', { name: 'Sign in' })).toBeVisible();
  expect((await user.page.request.get('/api/auth/me')).status()).toBe(401);
  await user.context.close();
});

test('a wallet on the wrong network is told so and offered a switch', async ({ browser }) => {
  const user = await openDashboardAs(browser, ANVIL_KEYS[4], { walletChainId: 1 });
  const { page } = user;
  await page.goto('/sign-in');
  await connectWallet(page);
  const notice = page.getByTestId('wrong-network');
  await expect(notice).toContainText('Wrong network');
  await expect(notice).toContainText('chain id 1');
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeDisabled();
  await screenshotPage(page, 'sign-in-wrong-network');
  await notice.getByRole('button', { name: /Switch to/ }).click();
  await expect(notice).toBeHidden();
  expect(user.wallet.chainId).toBe(31337);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByTestId('session-user')).toContainText('Client');
  await user.context.close();
});

test('a refused signature is explained and signing in again works', async ({ browser }) => {
  const user = await openDashboardAs(browser, ANVIL_KEYS[5]);
  const { page } = user;
  await page.goto('/sign-in');
  await connectWallet(page);
  user.wallet.refuseNext('personal_sign');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  const problem = page.getByTestId('sign-in-problem');
  await expect(problem).toContainText('Signature declined');
  await expect(problem).toContainText('Nothing was signed');
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
  await screenshotPage(page, 'sign-in-refused');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByTestId('session-user')).toContainText('Client');
  await user.context.close();
});

test('an expired nonce asks for a fresh sign-in', async ({ browser }) => {
  const user = await openDashboardAs(browser, ANVIL_KEYS[6]);
  const { page } = user;
  await page.goto('/sign-in');
  await connectWallet(page);
  // The verify answer of a nonce that outlived its 5 minutes (docs/api.md#sign-in).
  await page.route(
    '**/api/auth/verify',
    (route) => route.fulfill({ status: 401, json: { error: 'Nonce expired or unknown' } }),
    { times: 1 },
  );
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByTestId('sign-in-problem')).toContainText('Sign-in request expired');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByTestId('session-user')).toContainText('Client');
  await user.context.close();
});

/** Presses Tab until the focused element is the button named (at most 30 times). */
async function tabTo(page: Page, name: string): Promise<void> {
  for (let i = 0; i < 30; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(
      () => `${document.activeElement?.tagName}:${document.activeElement?.textContent?.trim()}`,
    );
    if (focused === `BUTTON:${name}`) return;
  }
  throw new Error(`${name} is not reachable with the Tab key`);
}

// docs/api.md#origins: `next=` leads only to a path of this site, however it is spelled.
test('after signing in, next= is followed only to a path of this site', async ({ browser }) => {
  const user = await openDashboardAs(browser, generatePrivateKey());
  const { page } = user;
  const origin = new URL(page.url() === 'about:blank' ? (await page.goto('/'), page.url()) : page.url()).origin;
  for (const [next, landing] of [
    ['/%09/evil.com', '/missions'],
    ['//evil.com', '/missions'],
    ['https://evil.com', '/missions'],
    ['/earnings', '/earnings'],
  ] as const) {
    await page.goto(`/sign-in?next=${next}`);
    await connectWallet(page);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname === landing, { timeout: 15_000 });
    expect(new URL(page.url()).origin, next).toBe(origin);
    // Signed out from the page itself, so the browser sends its Origin as a real logout would.
    expect(await page.evaluate(async () => (await fetch('/api/auth/logout', { method: 'POST' })).status)).toBe(200);
  }
  await user.context.close();
});
