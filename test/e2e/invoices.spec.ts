import path from 'node:path';
import { ADMIN, request } from '../helpers/http.js';
import { expect, nav, SCREENSHOTS, signIn, test } from './fixtures.js';

test('invoices: create one for a wallet, show its URI and QR code, see it paid, cancel another', async ({ page, keystead }) => {
  const s = await request(keystead.url, 'POST', '/api/v1/setup', { body: ADMIN });
  const auth = { authToken: s.body.data.authToken };
  await request(keystead.url, 'POST', '/v1/createWallet', { body: { walletTitle: 'Shop' }, headers: auth });

  await signIn(page, ADMIN.email, ADMIN.password);
  await nav(page).filter({ hasText: 'Invoices' }).click();
  await page.getByRole('combobox', { name: 'Pay into wallet' }).click();
  await page.getByRole('option', { name: /^Shop/ }).click();
  await page.getByLabel(/^Amount \(BSV\)/).fill('0.0002');
  await page.getByLabel(/^Memo/).fill('Two coffees');
  await page.getByRole('button', { name: 'Create invoice' }).click();

  const card = page.getByTestId('invoice-card');
  await expect(card).toContainText('0.0002 BSV');
  await expect(card).toContainText('Two coffees');
  await expect(card.getByTestId('invoice-state')).toHaveText('open');
  await expect(card.getByTestId('qr-code')).toBeVisible();
  const uri = (await page.getByTestId('copy-field-payment-uri').textContent())!;
  expect(uri).toMatch(/^bitcoin:1[1-9A-HJ-NP-Za-km-z]{25,34}\?sv&amount=0\.0002&label=Two%20coffees$/);
  const invoiceId = (await page.getByTestId('copy-field-invoice-id').textContent())!;
  const rows = page.getByTestId('invoice-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first().getByTestId('invoice-state')).toHaveText('open');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'invoices.png'), fullPage: true });

  // A payment to its address, from anywhere: the list says paid, without a reload.
  const address = uri.slice('bitcoin:'.length).split('?')[0];
  await request(keystead.url, 'POST', '/chain/faucet', { body: { address, satoshis: 20_000 }, headers: auth });
  await expect(rows.first().getByTestId('invoice-state')).toHaveText('paid', { timeout: 10_000 });
  const read = await request(keystead.url, 'GET', `/v1/payment-request/${invoiceId}`);
  expect(read.body.data.state).toBe('paid');

  // Another, cancelled from the list.
  await page.getByLabel(/^Amount \(BSV\)/).fill('0.001');
  await page.getByRole('button', { name: 'Create invoice' }).click();
  await expect(rows).toHaveCount(2);
  await rows.first().getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: 'Cancel invoice' }).click();
  await expect(rows.first().getByTestId('invoice-state')).toHaveText('cancelled');
  await expect(rows.nth(1).getByTestId('invoice-state')).toHaveText('paid');
});
