import path from 'node:path';
import { ADMIN, request } from '../helpers/http.js';
import { expect, nav, SCREENSHOTS, signIn, test } from './fixtures.js';

test('on the local network: get test coins for a wallet, mine, and see the balance confirm', async ({ page, keystead }) => {
  const s = await request(keystead.url, 'POST', '/api/v1/setup', { body: ADMIN });
  await request(keystead.url, 'POST', '/v1/createWallet', {
    body: { walletTitle: 'Treasury' },
    headers: { authToken: s.body.data.authToken },
  });
  await signIn(page, ADMIN.email, ADMIN.password);

  await nav(page).filter({ hasText: 'Network' }).click();
  await expect(page.getByTestId('network-name')).toHaveText('local');
  const height = Number(await page.getByTestId('tip-height').textContent());
  // Treasury, the only wallet, is picked already (never a default wallet the admin does not have).
  await expect(page.getByRole('combobox', { name: 'Into wallet' })).toHaveValue(/^Treasury/);
  await page.getByLabel('Amount (BSV)').fill('0.0025');
  await page.getByRole('button', { name: 'Get test coins' }).click();
  await expect(page.getByText(/250,000 sat sent to Treasury/)).toBeVisible();
  await expect(page.getByTestId('mempool-size')).toHaveText('1');
  await page.getByRole('button', { name: 'Mine block' }).click();
  await expect(page.getByTestId('tip-height')).toHaveText(String(height + 1));
  await expect(page.getByTestId('mempool-size')).toHaveText('0');
  await expect(page.getByRole('table', { name: 'Exchange rates' })).toContainText('USD');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'network.png'), fullPage: true });

  await nav(page).filter({ hasText: 'Wallets' }).click();
  await expect(page.getByTestId('balance-Treasury')).toHaveText('0.0025 BSV');
  // All of it confirmed: the amount is said once, with no "confirmed" split repeating it.
  await expect(page.getByTestId('wallet-row-Treasury')).toContainText('250,000 sat');
  await expect(page.getByTestId('wallet-row-Treasury')).not.toContainText('unconfirmed');
});
