// A standing allowance from the dashboard (docs/api.md#standing-allowance): a wallet holding USDC and no
// ETH opens /account/allowance, chooses its caps and signs twice — the USDC permit and the mandate
// naming the relayer — and the page shows the mandate in force, the permit's remaining allowance and
// today's use, read from the chain; Revoke is one more signature, and the mandate is gone. The wallet
// never sends a transaction: the relayer does.
import { expect, test } from '@playwright/test';
import { createPublicClient, http, type Address } from 'viem';
import { generatePrivateKey } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { ANVIL_KEYS } from '../../lib/chain/anvil-node';
import { mintRewardToken } from '../support/e2e/chain';
import { connectWallet, openDashboardAs, signIn } from '../support/e2e/dashboard-user';
import { e2e } from '../support/e2e/e2e-env';
import { screenshotPage } from '../support/e2e/screenshots';

const USDC = 1_000_000n;

test('a wallet signs a standing allowance on the allowance page, sees it in force, and revokes it', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const chain = createPublicClient({ chain: foundry, transport: http(e2e.rpcUrl) });
  const client = await openDashboardAs(browser, generatePrivateKey());
  const address = client.wallet.address as Address;
  await mintRewardToken(ANVIL_KEYS[1], address, 100n * USDC);
  const page = client.page;

  await test.step('the page says there is none yet', async () => {
    await signIn(client);
    await page.goto('/account/allowance');
    await expect(page.getByTestId('no-mandate')).toBeVisible({ timeout: 30_000 });
  });

  await test.step('two signatures set it, and the page shows it from the chain', async () => {
    await connectWallet(page);
    await page.getByLabel(/^In all, at most/).fill('60');
    await page.getByLabel(/^Per mission, at most/).fill('20');
    await page.getByLabel(/^Per day, at most/).fill('40');
    await page.getByLabel('Valid for (days)').fill('30');
    await page.getByRole('button', { name: 'Sign and set' }).click();
    await expect(page.getByTestId('allowance-done')).toHaveText('Your standing allowance is set.', { timeout: 60_000 });
    await expect(page.getByTestId('per-mission')).toHaveText('20 USDC');
    await expect(page.getByTestId('per-day')).toHaveText('40 USDC');
    await expect(page.getByTestId('remaining-allowance')).toHaveText('60 USDC');
    await expect(page.getByTestId('funded-today')).toHaveText('0 USDC');
    expect(client.wallet.typedDataSigned).toBe(2);
    await screenshotPage(page, 'standing-allowance');
  });

  await test.step('Revoke is one more signature, and the mandate is gone', async () => {
    await page.getByRole('button', { name: 'Revoke' }).click();
    await expect(page.getByTestId('allowance-done')).toHaveText('Your standing allowance is revoked.', {
      timeout: 60_000,
    });
    await expect(page.getByTestId('no-mandate')).toBeVisible();
    expect(client.wallet.typedDataSigned).toBe(3);
    // The wallet sent nothing itself and holds no ETH.
    expect(await chain.getTransactionCount({ address })).toBe(0);
  });

  await client.context.close();
});
