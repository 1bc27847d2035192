import { ADMIN, request } from '../helpers/http.js';
import { PrivateKey } from '@bsv/sdk';
import { expect, nav, signIn, test } from './fixtures.js';

test("an admin resets another user's forgotten password: the temporary one is shown once and works", async ({ page, keystead }) => {
  const s = await request(keystead.url, 'POST', '/api/v1/setup', { body: ADMIN });
  const admin = { authToken: s.body.data.authToken, serviceid: s.body.data.serviceId };
  await request(keystead.url, 'POST', '/api/v1/createUser', {
    body: { email: 'forgetful@acme.io', password: 'forgotten-pass-1', role: 'operator' },
    headers: admin,
  });
  await signIn(page, ADMIN.email, ADMIN.password);
  await nav(page).filter({ hasText: 'Users' }).click();
  const row = page.getByTestId('user-row-forgetful@acme.io');
  await row.getByRole('button', { name: 'Reset password' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reset the password of forgetful@acme.io' });
  await dialog.getByRole('button', { name: 'Reset password' }).click();
  const temporary = (await dialog.getByTestId('revealed-secret').textContent())!.trim();
  expect(temporary.length).toBeGreaterThanOrEqual(20);
  await dialog.getByRole('button', { name: 'Done' }).click();
  const old = await request(keystead.url, 'POST', '/v1/auth', { body: { email: 'forgetful@acme.io', password: 'forgotten-pass-1' } });
  expect(old.status).toBe(401);
  const fresh = await request(keystead.url, 'POST', '/v1/auth', { body: { email: 'forgetful@acme.io', password: temporary } });
  expect(fresh.status).toBe(200);
  await expect(page.getByTestId(`user-row-${ADMIN.email}`).getByRole('button', { name: 'Reset password' })).toHaveCount(0);
});

test("a wallet's paymail is renamed and turned off and on from Wallets", async ({ page, keystead }) => {
  await request(keystead.url, 'POST', '/api/v1/setup', { body: ADMIN });
  await signIn(page, ADMIN.email, ADMIN.password);
  await nav(page).filter({ hasText: 'Wallets' }).click();
  await page.getByRole('button', { name: 'New wallet' }).click();
  const create = page.getByRole('dialog', { name: 'New wallet' });
  await create.getByLabel('Title').fill('Shop');
  await create.getByRole('button', { name: 'Create wallet' }).click();
  const row = page.getByTestId('wallet-row-Shop');
  await expect(row).toContainText(/\d+@localhost/, { timeout: 10_000 });

  await row.getByRole('button', { name: 'Paymail of Shop' }).click();
  const dialog = page.getByRole('dialog', { name: 'Paymail of “Shop”' });
  await dialog.getByLabel('Alias').fill('shop');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(row).toContainText('shop@localhost');
  await expect(row).not.toContainText('inactive');

  await row.getByRole('button', { name: 'Paymail of Shop' }).click();
  await dialog.getByLabel('Active (receives payments)').click();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(row).toContainText('shop@localhost (inactive)');
  expect((await request(keystead.url, 'GET', '/api/bsvalias/id/shop@localhost')).status).toBe(404);
});

test('a looked-up key with funds is swept into a wallet; text is written on chain from Write data', async ({ page, keystead }) => {
  const s = await request(keystead.url, 'POST', '/api/v1/setup', { body: ADMIN });
  const admin = { authToken: s.body.data.authToken };
  const wallet = (await request(keystead.url, 'POST', '/v1/createWallet', { body: { walletTitle: 'Vault' }, headers: admin })).body.data
    .walletID;
  const key = PrivateKey.fromRandom();
  expect(
    (await request(keystead.url, 'POST', '/chain/faucet', { body: { address: key.toAddress(), satoshis: 90_000 }, headers: admin })).status,
  ).toBe(200);
  await signIn(page, ADMIN.email, ADMIN.password);
  await nav(page).filter({ hasText: 'Lookup' }).click();
  await page.getByLabel('Private key').fill(key.toWif());
  await page.getByRole('button', { name: 'Look up' }).click();
  await page.getByRole('combobox', { name: 'Move to wallet' }).click();
  await page.getByRole('option', { name: /Vault/ }).click();
  await page.getByRole('button', { name: 'Move these funds to wallet…' }).click();
  await expect(page.getByTestId('sweep-result')).toContainText('received');
  const balance = await request(keystead.url, 'GET', '/v1/balance', { headers: { ...admin, walletID: wallet } });
  expect(balance.body.data.coins[0].balance).toBeGreaterThan(89_000);

  await nav(page).filter({ hasText: 'Write data' }).click();
  await page.getByRole('combobox', { name: 'From wallet' }).click();
  await page.getByRole('option', { name: /Vault/ }).click();
  await page.getByRole('textbox', { name: 'Text' }).fill('minutes of the board, 26 November');
  await page.getByRole('button', { name: 'Write on chain' }).click();
  await expect(page.getByTestId('data-result')).toContainText(/[0-9a-f]{64}/);
  const history = await request(keystead.url, 'GET', '/v1/history', { headers: { ...admin, walletID: wallet } });
  expect(history.body.data.histories[0].type).toBe('debit');
});
