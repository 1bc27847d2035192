import { ADMIN, request } from '../helpers/http.js';
import path from 'node:path';
import { expect, nav, SCREENSHOTS, signIn, test } from './fixtures.js';

test('amounts follow one rule; the overview totals the money; a history row opens its inputs and outputs', async ({ page, keystead }) => {
  const s = await request(keystead.url, 'POST', '/api/v1/setup', { body: ADMIN });
  const auth = { authToken: s.body.data.authToken, serviceid: s.body.data.serviceId };
  const a = (await request(keystead.url, 'POST', '/v1/createWallet', { body: { walletTitle: 'Treasury' }, headers: auth })).body.data
    .walletID;
  const b = (await request(keystead.url, 'POST', '/v1/createWallet', { body: { walletTitle: 'Payroll' }, headers: auth })).body.data
    .walletID;
  await request(keystead.url, 'POST', '/chain/faucet', { body: { walletId: a, satoshis: 150_000 }, headers: auth });
  await request(keystead.url, 'POST', '/chain/faucet', { body: { walletId: b, satoshis: 50_000 }, headers: auth });
  await request(keystead.url, 'POST', '/chain/mine', { body: {}, headers: auth });
  await signIn(page, ADMIN.email, ADMIN.password);

  // Overview: the organisation's total, each wallet, the fee manager's state, recent activity.
  await expect(page.getByTestId('org-balance')).toHaveText('0.002 BSV');
  await expect(page.getByTestId('your-balance')).toHaveText('0.002 BSV');
  await expect(page.getByText('200,000 sat · $0.0800').first()).toBeVisible();
  await expect(page.getByText('not set up: payments pay their own fees')).toBeVisible();
  await expect(page.getByText('received · Treasury')).toBeVisible();
  await page.screenshot({ path: path.join(SCREENSHOTS, 'overview.png'), fullPage: true });

  // The currency is a setting: EUR at the rate table's rate.
  await request(keystead.url, 'POST', '/v1/rates', { body: { currency: 'EUR', rate: 50 }, headers: auth });
  await nav(page).filter({ hasText: 'Profile' }).click();
  await page.getByRole('combobox', { name: 'Currency' }).click();
  await page.getByRole('option', { name: 'EUR' }).click();
  await nav(page).filter({ hasText: 'Wallets' }).click();
  await expect(page.getByTestId('wallet-row-Treasury')).toContainText('150,000 sat · €0.0750');

  // Typing amounts: BSV or satoshis, converted exactly; half a satoshi is refused beside the field.
  await nav(page).filter({ hasText: 'Send' }).click();
  const amount = page.getByLabel('Amount (BSV)');
  await amount.fill('0.000000005');
  await expect(page.getByText(/not a whole number of satoshis/)).toBeVisible();
  await amount.fill('0.00012');
  await expect(page.getByText('12,000 satoshis · €0.0060')).toBeVisible();
  await page.locator('label').filter({ hasText: /^sat$/ }).click();
  await expect(page.getByLabel('Amount (satoshis)')).toHaveValue('12000');

  // Pay Payroll from Treasury, then open the payment from history: inputs, outputs, change.
  const to = (await request(keystead.url, 'GET', '/v1/address', { headers: { ...auth, walletID: b } })).body.data.address;
  await page.getByLabel(/^Pay to/).fill(to);
  await page.getByRole('combobox', { name: 'From wallet' }).click();
  await page.getByRole('option', { name: /^Treasury/ }).click();
  await page.getByRole('button', { name: 'Review payment' }).click();
  await page.getByRole('button', { name: 'Confirm and send' }).click();
  const txid = (await page.getByTestId('copy-field-txid').textContent())!;
  await nav(page).filter({ hasText: 'History' }).click();
  await page.getByRole('combobox', { name: 'Wallet', exact: true }).click();
  await page.getByRole('option', { name: /^Treasury/ }).click();
  const row = page.getByRole('row').filter({ hasText: txid.slice(0, 10) });
  await expect(row).toContainText('sent');
  await expect(row).toContainText('-0.00012');
  await expect(row).toContainText(/\d+ sat/);
  await row.getByRole('button', { name: `Details of transaction ${txid}` }).click();
  const detail = page.getByTestId('transaction-detail');
  await expect(detail.getByTestId('copy-field-txid')).toHaveText(txid);
  await expect(detail.getByRole('table', { name: 'Inputs' })).toContainText('this wallet');
  const outputs = detail.getByRole('table', { name: 'Outputs' });
  await expect(outputs).toContainText(to);
  await expect(outputs).toContainText('12,000 sat');
  await expect(outputs).toContainText('change');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'transaction-detail.png'), fullPage: true });
  await page.keyboard.press('Escape');
  await expect(detail).toBeHidden();

  // Deleting a wallet that holds coins asks in words, before anything is sent.
  await nav(page).filter({ hasText: 'Wallets' }).click();
  await page.getByTestId('wallet-row-Payroll').getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete wallet' });
  await expect(dialog).toContainText('This wallet still holds 0.00062 BSV. Delete it anyway?');
  await expect(dialog.getByRole('button', { name: 'Delete wallet' })).toBeDisabled();
  await expect(dialog).not.toContainText('force');
});
