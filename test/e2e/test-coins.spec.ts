import { ADMIN, request } from '../helpers/http.js';
import { expect, nav, signIn, test } from './fixtures.js';

test('on the local chain an empty wallet offers test coins where a new user looks: Wallets and Receive', async ({ page, keystead }) => {
  const s = await request(keystead.url, 'POST', '/api/v1/setup', { body: ADMIN });
  const auth = { authToken: s.body.data.authToken, serviceid: s.body.data.serviceId };
  await request(keystead.url, 'POST', '/v1/createWallet', { body: { walletTitle: 'Treasury' }, headers: auth });
  await signIn(page, ADMIN.email, ADMIN.password);

  // Wallets: every wallet is empty, so the first one's test coins are offered, from the Network page's faucet.
  await nav(page).filter({ hasText: 'Wallets' }).click();
  const offer = page.getByTestId('test-coins');
  await expect(offer).toContainText('“Treasury” is empty');
  await offer.getByRole('button', { name: 'Get test coins' }).click();
  await expect(page.getByText(/^100,000 sat of test coins sent to “Treasury”/)).toBeVisible();
  await expect(page.getByTestId('balance-Treasury')).toHaveText('0.001 BSV');
  await expect(offer).toBeHidden();

  // Receive opens on the wallet the user has (no "default" wallet is made behind their back): it has coins, so no offer.
  await request(keystead.url, 'POST', '/v1/createWallet', { body: { walletTitle: 'Ops' }, headers: auth });
  await nav(page).filter({ hasText: 'Receive' }).click();
  await expect(page.getByRole('combobox', { name: 'Wallet', exact: true })).toHaveValue(/^Treasury/);
  await expect(page.getByRole('table', { name: 'Available addresses' })).toBeVisible();
  await expect(offer).toBeHidden();
  // An empty wallet picked there: the same offer, for it.
  await page.getByRole('combobox', { name: 'Wallet', exact: true }).click();
  await page.getByRole('option', { name: /^Ops/ }).click();
  await expect(offer).toContainText('“Ops” is empty');
  await offer.getByRole('button', { name: 'Get test coins' }).click();
  await expect(page.getByText(/^100,000 sat of test coins sent to “Ops”/)).toBeVisible();
  await expect(offer).toBeHidden();
  const listed = await request(keystead.url, 'GET', '/v1/wallets', { headers: auth });
  expect(listed.body.data.wallets.map((w: { walletTitle: string }) => w.walletTitle).sort()).toEqual(['Ops', 'Treasury']);

  // The faucet is the local chain's: an operator (who may not use it) is offered nothing.
  await request(keystead.url, 'POST', '/api/v1/createUser', {
    headers: auth,
    body: { email: 'operator@acme.io', password: 'role-password-1', role: 'operator' },
  });
  await page.getByRole('button', { name: 'Log out' }).click();
  await signIn(page, 'operator@acme.io', 'role-password-1');
  await nav(page).filter({ hasText: 'Receive' }).click();
  await expect(page.getByRole('table', { name: 'Available addresses' })).toBeVisible();
  await expect(offer).toBeHidden();
});

test('a form’s API error names its fields as the form labels them, never the API’s field names', async ({ page, keystead }) => {
  const s = await request(keystead.url, 'POST', '/api/v1/setup', { body: ADMIN });
  const auth = { authToken: s.body.data.authToken, serviceid: s.body.data.serviceId };
  await signIn(page, ADMIN.email, ADMIN.password);
  await nav(page).filter({ hasText: 'Profile' }).click();
  await page.getByLabel(/^Current password/).fill(ADMIN.password);
  await page.getByLabel(/^New password/).fill('short');
  await page.getByLabel(/^Confirm new password/).fill('short');
  await page.getByRole('button', { name: 'Change password' }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'New password' });
  await expect(alert).toHaveText('New password: must be at least 10 characters, with a letter and a digit or symbol.');

  // The recovery phrase's password check: the form labels it "Your account password".
  await request(keystead.url, 'POST', '/v1/createWallet', { body: { walletTitle: 'Treasury' }, headers: auth });
  await nav(page).filter({ hasText: 'Wallets' }).click();
  await page.getByRole('button', { name: 'Back up' }).click();
  await page.getByRole('button', { name: 'Show recovery phrase' }).click();
  await expect(page.getByRole('dialog').getByRole('alert')).toHaveText('Your account password: is required.');
});
