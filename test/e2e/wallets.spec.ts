import path from 'node:path';
import { Utils } from '@bsv/sdk';
import { ADMIN, request } from '../helpers/http.js';
import { oracleAddress } from '../helpers/bip32-oracle.js';
import { expect, nav, SCREENSHOTS, signIn, test } from './fixtures.js';

test('create a wallet with a paymail, then see its receive address, QR code and paymail', async ({ page, keystead }) => {
  await request(keystead.url, 'POST', '/api/v1/setup', { body: ADMIN });
  await signIn(page, ADMIN.email, ADMIN.password);
  await nav(page).filter({ hasText: 'Wallets' }).click();
  await expect(page.getByText('No wallets yet.')).toBeVisible();

  await page.getByRole('button', { name: 'New wallet' }).click();
  const dialog = page.getByRole('dialog', { name: 'New wallet' });
  await dialog.getByLabel(/^Title/).fill('Treasury');
  await dialog.getByLabel('Paymail alias').fill('Bad Alias!');
  await dialog.getByRole('button', { name: 'Create wallet' }).click();
  await expect(dialog.getByText(/^The alias/)).toBeVisible();
  await expect(dialog.getByLabel('Paymail alias')).toHaveAttribute('aria-invalid', 'true');
  await dialog.getByLabel('Paymail alias').fill('treasury');
  await dialog.getByRole('button', { name: 'Create wallet' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByTestId('wallet-row-Treasury');
  await expect(row).toContainText('treasury@localhost');
  await expect(row).toContainText('standard');

  await row.getByRole('link', { name: 'Receive' }).click();
  await expect(page.getByRole('heading', { name: 'Receive' })).toBeVisible();
  await expect(page.getByRole('img', { name: /^QR code of 1/ })).toBeVisible();
  const address = (await page.getByTestId('copy-field-address').textContent())!;
  const { prefix, data } = Utils.fromBase58Check(address);
  expect((prefix as number[])[0]).toBe(0);
  expect((data as number[]).length).toBe(20);
  await expect(page.getByTestId('copy-field-paymail')).toHaveText('treasury@localhost');
  await expect(page.getByRole('img', { name: 'QR code of treasury@localhost' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Available addresses' }).getByRole('row')).toHaveCount(20);

  // The UI shows what the API says is next.
  const token = await page.evaluate(() => sessionStorage.getItem('keystead.authToken'));
  const wallets = await request(keystead.url, 'GET', '/v1/wallets', { headers: { authToken: token! } });
  const walletID = wallets.body.data.wallets[0].walletID;
  const api = await request(keystead.url, 'GET', '/v1/address', { headers: { authToken: token!, walletID } });
  expect(api.body.data.address).toBe(address);
  await page.screenshot({ path: path.join(SCREENSHOTS, 'receive.png'), fullPage: true });
});

test('import a wallet from a recovery phrase and back it up again', async ({ page, keystead }) => {
  const phrase = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
  await request(keystead.url, 'POST', '/api/v1/setup', { body: ADMIN });
  await signIn(page, ADMIN.email, ADMIN.password);
  await nav(page).filter({ hasText: 'Wallets' }).click();
  await page.getByRole('button', { name: 'New wallet' }).click();
  const dialog = page.getByRole('dialog', { name: 'New wallet' });
  await dialog.getByLabel(/^Title/).fill('Restored');
  await dialog.getByLabel('Import from a recovery phrase').check();
  await dialog.getByRole('textbox', { name: 'Recovery phrase' }).fill(phrase);
  await dialog.getByRole('button', { name: 'Create wallet' }).click();
  await expect(page.getByTestId('wallet-row-Restored')).toBeVisible();

  await page.getByTestId('wallet-row-Restored').getByRole('button', { name: 'Back up' }).click();
  const backup = page.getByRole('dialog', { name: /Back up/ });
  await backup.getByLabel(/Your account password/).fill('wrong-pass-1');
  await backup.getByRole('button', { name: 'Show recovery phrase' }).click();
  await expect(backup.getByRole('alert')).toContainText('account password is not correct');
  await backup.getByLabel(/Your account password/).fill(ADMIN.password);
  await backup.getByRole('button', { name: 'Show recovery phrase' }).click();
  await expect(page.getByTestId('revealed-secret')).toHaveText(phrase);
  await expect(page.getByTestId('signed-in-as')).toHaveText(ADMIN.email); // a wrong password did not sign us out
});

test('import a phrase from another wallet: Find funds shows where its coins are, and the wallet uses that path', async ({
  page,
  keystead,
}) => {
  const phrase = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
  const s = await request(keystead.url, 'POST', '/api/v1/setup', { body: ADMIN });
  await request(keystead.url, 'POST', '/chain/faucet', {
    body: { address: oracleAddress(phrase, "m/44'/0'/0'/0/2"), satoshis: 42_000 },
    headers: { authToken: s.body.data.authToken },
  });
  await signIn(page, ADMIN.email, ADMIN.password);
  await nav(page).filter({ hasText: 'Wallets' }).click();
  await page.getByRole('button', { name: 'New wallet' }).click();
  const dialog = page.getByRole('dialog', { name: 'New wallet' });
  await dialog.getByLabel(/^Title/).fill('From Centbee');
  await dialog.getByLabel('Import from a recovery phrase').check();
  await dialog.getByRole('textbox', { name: 'Recovery phrase' }).fill(phrase);
  await dialog.getByRole('button', { name: 'Find funds' }).click();
  const found = dialog.getByTestId("path-m/44'/0'/0'");
  await expect(found).toContainText('0.00042');
  await expect(dialog.getByTestId("path-m/44'/236'/0'")).toContainText('0');
  await expect(found.getByRole('radio')).toBeChecked();
  await dialog.getByRole('button', { name: 'Create wallet' }).click();
  await expect(page.getByText("imported on m/44'/0'/0'")).toBeVisible();
  await expect(page.getByTestId('balance-From Centbee')).toHaveText('0.00042 BSV');
});

test('import a phrase whose coins lie past 20 unused addresses: a wider look finds them', async ({ page, keystead }) => {
  const phrase = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
  const s = await request(keystead.url, 'POST', '/api/v1/setup', { body: ADMIN });
  // As a shop's 30th invoice would be paid: nothing on addresses 0–29.
  await request(keystead.url, 'POST', '/chain/faucet', {
    body: { address: oracleAddress(phrase, "m/44'/236'/0'/0/30"), satoshis: 31_000 },
    headers: { authToken: s.body.data.authToken },
  });
  await signIn(page, ADMIN.email, ADMIN.password);
  await nav(page).filter({ hasText: 'Wallets' }).click();
  await page.getByRole('button', { name: 'New wallet' }).click();
  const dialog = page.getByRole('dialog', { name: 'New wallet' });
  await dialog.getByLabel(/^Title/).fill('Shop till');
  await dialog.getByLabel('Import from a recovery phrase').check();
  await dialog.getByRole('textbox', { name: 'Recovery phrase' }).fill(phrase);
  await dialog.getByRole('button', { name: 'Find funds' }).click();
  await expect(dialog.getByTestId("path-m/44'/236'/0'")).toContainText('0');
  await expect(dialog.getByTestId("path-m/44'/236'/0'")).not.toContainText('0.00031');
  await dialog.getByLabel('Unused addresses to look past').fill('40');
  await dialog.getByRole('button', { name: 'Find funds' }).click();
  await expect(dialog.getByTestId("path-m/44'/236'/0'")).toContainText('0.00031');
  await dialog.getByRole('button', { name: 'Create wallet' }).click();
  await expect(page.getByTestId('balance-Shop till')).toHaveText('0.00031 BSV');
});

test('import a BRC-100 root key: the wallet backs up as that key', async ({ page, keystead }) => {
  const rootKey = '8f2a55949038a9610f50fb23b5883af3b4ecb3c3bb792cbcefbd1542c692be63';
  await request(keystead.url, 'POST', '/api/v1/setup', { body: ADMIN });
  await signIn(page, ADMIN.email, ADMIN.password);
  await nav(page).filter({ hasText: 'Wallets' }).click();
  await page.getByRole('button', { name: 'New wallet' }).click();
  const dialog = page.getByRole('dialog', { name: 'New wallet' });
  await dialog.getByLabel(/^Title/).fill('From BRC-100');
  await dialog.getByLabel('Import a BRC-100 root key').check();
  const keyInput = dialog.getByLabel(/^Root private key/);
  await expect(keyInput).toHaveAttribute('type', 'password');
  await keyInput.fill('not-a-key');
  await dialog.getByRole('button', { name: 'Create wallet' }).click();
  await expect(dialog.getByText(/must be a private key/i)).toBeVisible();
  await keyInput.fill(rootKey);
  await dialog.getByRole('button', { name: 'Create wallet' }).click();
  await expect(page.getByTestId('wallet-row-From BRC-100')).toBeVisible();

  await page.getByTestId('wallet-row-From BRC-100').getByRole('button', { name: 'Back up' }).click();
  const backup = page.getByRole('dialog', { name: /Back up/ });
  await backup.getByLabel(/Your account password/).fill(ADMIN.password);
  await backup.getByRole('button', { name: 'Show recovery phrase' }).click();
  await expect(page.getByTestId('revealed-secret')).toHaveText(rootKey);
  await expect(backup.getByText(/Anyone with this key controls the wallet/)).toBeVisible();
});
