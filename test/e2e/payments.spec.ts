import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ADMIN, request } from '../helpers/http.js';
import { expect, nav, SCREENSHOTS, signIn, test } from './fixtures.js';

test('send to a paymail: resolve, review, confirm, see the txid, balances and history', async ({ page, keystead }) => {
  const s = await request(keystead.url, 'POST', '/api/v1/setup', { body: ADMIN });
  const auth = { authToken: s.body.data.authToken };
  const from = (await request(keystead.url, 'POST', '/v1/createWallet', { body: { walletTitle: 'Treasury' }, headers: auth })).body.data
    .walletID;
  await request(keystead.url, 'POST', '/v1/createWallet', {
    body: { walletTitle: 'Petty cash', paymail: 'petty', paymailActivate: true },
    headers: auth,
  });
  await request(keystead.url, 'POST', '/chain/faucet', { body: { walletId: from, satoshis: 100_000 }, headers: auth });

  await signIn(page, ADMIN.email, ADMIN.password);
  await nav(page).filter({ hasText: 'Send' }).click();
  await page.getByLabel(/^Pay to/).fill('payto:petty@localhost?amount=15000&purpose=Lunch');
  await page.getByRole('combobox', { name: 'From wallet' }).click();
  await page.getByRole('option', { name: /^Treasury/ }).click();
  await page.getByRole('button', { name: 'Review payment' }).click();
  const review = page.getByTestId('payment-review');
  // The review is for exactly what will be sent: who (paymail and address, not script hex), how much in
  // BSV, satoshis and money, the fee, the paying wallet and what it holds after.
  await expect(page.getByTestId('review-recipient')).toContainText('petty@localhost');
  await expect(page.getByTestId('review-recipient')).toContainText(/1[1-9A-HJ-NP-Za-km-z]{25,34}/);
  await expect(review).not.toContainText('76a914');
  await expect(page.getByTestId('review-amount')).toContainText('0.00015 BSV');
  await expect(page.getByTestId('review-amount')).toContainText('15,000 sat');
  await expect(page.getByTestId('review-amount')).toContainText('$0.0060');
  await expect(page.getByTestId('review-fee')).toContainText(/\d+ sat, paid by this wallet/);
  await expect(page.getByTestId('review-wallet')).toContainText('Treasury');
  await expect(page.getByTestId('review-wallet')).toContainText(/Available 0\.001 BSV → 0\.00084\d* BSV after this payment/);
  await expect(review).toContainText('Lunch');
  await expect(review).toContainText('paymail P2P');

  // Editing after the review drops it: Confirm could otherwise send the old amount.
  await page.getByLabel(/^Pay to/).fill('payto:petty@localhost?amount=16000&purpose=Lunch');
  await expect(review).toBeHidden();
  await page.getByRole('button', { name: 'Review payment' }).click();
  await expect(page.getByTestId('review-amount')).toContainText('16,000 sat');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'send-review.png'), fullPage: true });
  // A double click pays once: one review, one idempotency key.
  await page.getByRole('button', { name: 'Confirm and send' }).dblclick();
  await expect(page.getByTestId('payment-sent')).toContainText('delivered to the receiver');
  const txid = (await page.getByTestId('copy-field-txid').textContent())!;
  expect(txid).toMatch(/^[0-9a-f]{64}$/);
  await page.screenshot({ path: path.join(SCREENSHOTS, 'send.png'), fullPage: true });

  await nav(page).filter({ hasText: 'Wallets' }).click();
  await expect(page.getByTestId('balance-Petty cash')).toHaveText('0.00016 BSV');
  await nav(page).filter({ hasText: 'History' }).click();
  await page.getByRole('combobox', { name: 'Wallet', exact: true }).click();
  await page.getByRole('option', { name: /^Petty cash/ }).click();
  const table = page.getByRole('table', { name: 'History' });
  await expect(table).toContainText('Lunch');
  await expect(table).toContainText('0.00016');
  await expect(table.getByRole('row')).toHaveCount(2, { timeout: 10_000 }); // the header and one payment: paid once
  await expect(page.getByTestId(`state-${txid.slice(0, 8)}`)).toHaveText('pending');
  await expect(table).toContainText('in the mempool');
  await request(keystead.url, 'POST', '/chain/mine', { body: {}, headers: auth });
  await expect(page.getByTestId(`state-${txid.slice(0, 8)}`)).toHaveText('confirmed', { timeout: 10_000 });
  await expect(table).toContainText('1 confirmation');

  // Filters narrow the rows; CSV export of the date range holds the payment, amounts in satoshis.
  await page.getByRole('combobox', { name: 'State' }).click();
  await page.getByRole('option', { name: 'pending' }).click();
  await expect(table.getByRole('row')).toHaveCount(1); // the header only: the payment is confirmed
  await page.getByRole('combobox', { name: 'State' }).click();
  await page.getByRole('option', { name: 'all' }).click();
  await expect(table.getByRole('row')).toHaveCount(2);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const csv = readFileSync(await (await download).path(), 'utf8');
  expect(csv.split('\r\n')[0]).toBe(
    'time,txid,direction,amount_satoshis,fee_satoshis,fee_paid_by,counterparty,memo,state,confirmations,token_id,token_symbol,token_amount',
  );
  expect(csv).toContain(`,${txid},`);
  // A plain payment moved no tokens: its token columns are empty.
  expect(csv).toContain(',Lunch,confirmed,1,,,');

  // Not enough money is said in plain words before Confirm, and Confirm cannot be pressed.
  await nav(page).filter({ hasText: 'Send' }).click();
  await page.getByLabel(/^Pay to/).fill('petty@localhost');
  await page.getByLabel(/^Amount/).fill('0.05');
  await page.getByRole('combobox', { name: 'From wallet' }).click();
  await page.getByRole('option', { name: /^Treasury/ }).click();
  await page.getByRole('button', { name: 'Review payment' }).click();
  await page.screenshot({ path: path.join(SCREENSHOTS, 'send-insufficient.png'), fullPage: true });
  await expect(page.getByTestId('review-problem')).toContainText(
    /"Treasury" has 0\.000\d+ BSV available; this payment needs 0\.05\d* BSV including the network fee/,
  );
  await expect(page.getByRole('button', { name: 'Confirm and send' })).toBeDisabled();

  // A bad URI is explained, not sent.
  await nav(page).filter({ hasText: 'Send' }).click();
  await page.getByLabel(/^Pay to/).fill('mailto:someone@example.com');
  await page.getByRole('button', { name: 'Review payment' }).click();
  // Said under the field it is about, which is marked invalid (and given the keyboard back).
  await expect(page.getByText(/"mailto:" scheme is not supported/)).toBeVisible();
  await expect(page.getByLabel(/^Pay to/)).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel(/^Pay to/)).toBeFocused();
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
