import path from 'node:path';
import { ADMIN, request } from '../helpers/http.js';
import { expect, nav, SCREENSHOTS, signIn, test } from './fixtures.js';

test('send to a paymail: resolve, review, confirm, see the txid, balances and history', async ({ page, keystead }) => {
  const s = await request(keystead.url, 'POST', '/api/v1/setup', { body: ADMIN });
  const auth = { authToken: s.body.data.authToken };
  const from = (await request(keystead.url, 'POST', '/v1/createWallet', { body: { walletTitle: 'Treasury' }, headers: auth })).body.data.walletID;
  await request(keystead.url, 'POST', '/v1/createWallet', { body: { walletTitle: 'Petty cash', paymail: 'petty', paymailActivate: true }, headers: auth });
  await request(keystead.url, 'POST', '/chain/faucet', { body: { walletId: from, satoshis: 100_000 }, headers: auth });

  await signIn(page, ADMIN.email, ADMIN.password);
  await nav(page).filter({ hasText: 'Send' }).click();
  await page.getByLabel(/^Pay to/).fill('payto:petty@localhost?amount=15000&purpose=Lunch');
  await page.getByRole('combobox', { name: 'From wallet' }).click();
  await page.getByRole('option', { name: /^Treasury/ }).click();
  await page.getByRole('button', { name: 'Review payment' }).click();
  const review = page.getByTestId('payment-review');
  await expect(review).toContainText('15,000 sat');
  await expect(review).toContainText('Lunch');
  await expect(review).toContainText('paymail P2P');
  await page.getByRole('button', { name: 'Confirm and send' }).click();
  await expect(page.getByTestId('payment-sent')).toContainText('delivered to the receiver');
  const txid = (await page.getByTestId('copy-field-txid').textContent())!;
  expect(txid).toMatch(/^[0-9a-f]{64}$/);
  await page.screenshot({ path: path.join(SCREENSHOTS, 'send.png'), fullPage: true });

  await nav(page).filter({ hasText: 'Wallets' }).click();
  await expect(page.getByTestId('balance-Petty cash')).toHaveText('0.00015');
  await nav(page).filter({ hasText: 'History' }).click();
  await page.getByRole('combobox', { name: 'Wallet' }).click();
  await page.getByRole('option', { name: /^Petty cash/ }).click();
  await expect(page.getByRole('table', { name: 'History' })).toContainText('Lunch');
  await expect(page.getByRole('table', { name: 'History' })).toContainText('0.00015');

  // A bad URI is explained, not sent.
  await nav(page).filter({ hasText: 'Send' }).click();
  await page.getByLabel(/^Pay to/).fill('mailto:someone@example.com');
  await page.getByRole('button', { name: 'Review payment' }).click();
  await expect(page.getByRole('alert')).toContainText('"mailto:" scheme is not supported');
});

test('the fee manager: initialise, see its address and low-balance warning', async ({ page, keystead }) => {
  await request(keystead.url, 'POST', '/api/v1/setup', { body: ADMIN });
  await signIn(page, ADMIN.email, ADMIN.password);
  await nav(page).filter({ hasText: 'Fee manager' }).click();
  await page.getByRole('button', { name: 'Initialise fee manager' }).click();
  await expect(page.getByTestId('fee-low-balance')).toBeVisible();
  await expect(page.getByTestId('qr-code')).toBeVisible();
  const address = (await page.getByTestId('copy-field-fee-address').textContent())!;
  const token = await page.evaluate(() => sessionStorage.getItem('keystead.authToken'));
  await request(keystead.url, 'POST', '/chain/faucet', { body: { address, satoshis: 50_000 }, headers: { authToken: token! } });
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.getByTestId('fee-balance')).toHaveText('0.0005 BSV');
  await expect(page.getByTestId('fee-low-balance')).toBeHidden();
});
