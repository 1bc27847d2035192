import path from 'node:path';
import { ADMIN, request } from '../helpers/http.js';
import { expect, nav, SCREENSHOTS, signIn, test } from './fixtures.js';

test('an admin creates a manager; the manager signs in and sees only what a manager may use', async ({ page, keystead }) => {
  await request(keystead.url, 'POST', '/api/v1/setup', { body: ADMIN });
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(nav(page)).toHaveText([
    'Overview',
    'Wallets',
    'Send',
    'Receive',
    'History',
    'Invoices',
    'Payee book',
    'Approvals',
    'Apps',
    'Payment policy',
    'Tokens',
    'Lookup',
    'Write data',
    'Fee manager',
    'Contracts',
    'Network',
    'Users',
    'Audit log',
    'API',
    'Profile',
  ]);

  await nav(page).filter({ hasText: 'Users' }).click();
  await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
  await page.getByRole('button', { name: 'New user' }).click();
  const dialog = page.getByRole('dialog', { name: 'New user' });
  await dialog.getByLabel('E-mail').fill('max@acme.io');
  await dialog.getByLabel('First name').fill('Max');
  await dialog.getByLabel('Job title').fill('Treasurer');
  await dialog.getByRole('combobox', { name: 'Role' }).click();
  await page.getByRole('option', { name: 'Manager' }).click();
  await dialog.getByLabel(/^Initial password/).fill('weak');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText(/^Must be at least 10 characters/)).toBeVisible();
  await expect(dialog.getByText(/^May .*run the fee manager and exchange rates.*May not manage users/)).toBeVisible();
  await dialog.getByLabel(/^Initial password/).fill('manager-pass-1');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByTestId('user-row-max@acme.io');
  await expect(row).toContainText('Manager');
  await expect(row).toContainText('Treasurer');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'users-admin.png'), fullPage: true });

  await nav(page).filter({ hasText: 'Audit log' }).click();
  await expect(page.getByRole('table', { name: 'Audit log' })).toContainText('createUser');

  await page.getByRole('button', { name: 'Log out' }).click();
  await signIn(page, 'max@acme.io', 'manager-pass-1');
  await expect(nav(page)).toHaveText([
    'Overview',
    'Wallets',
    'Send',
    'Receive',
    'History',
    'Invoices',
    'Payee book',
    'Approvals',
    'Apps',
    'Payment policy',
    'Tokens',
    'Lookup',
    'Write data',
    'Fee manager',
    'Contracts',
    'Network',
    'API',
    'Profile',
  ]);
  await expect(page.getByText('Manager', { exact: true }).first()).toBeVisible();
  await page.screenshot({ path: path.join(SCREENSHOTS, 'manager-navigation.png'), fullPage: true });

  // The hidden views are refused by the engine too, not just hidden: a manager's RPC call gets 403.
  const status = await page.evaluate(async () => {
    const token = sessionStorage.getItem('keystead.authToken');
    const r = await fetch('/rpc/listUsers', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: '{}',
    });
    return r.status;
  });
  expect(status).toBe(403);
});

test('a user creates an API key in their profile; it works once shown and stops when revoked', async ({ page, keystead }) => {
  const setup = await request(keystead.url, 'POST', '/api/v1/setup', { body: ADMIN });
  await signIn(page, ADMIN.email, ADMIN.password);
  await nav(page).filter({ hasText: 'Profile' }).click();
  await page.getByLabel('New key label').fill('nightly report');
  await page.getByRole('button', { name: 'Create API key' }).click();
  const key = (await page.getByTestId('revealed-secret').textContent())!.trim();
  expect(key).toMatch(/^ksk_/);
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).or(page.locator('.mantine-Modal-close')).first().click();
  await expect(page.getByRole('table', { name: 'API keys' })).toContainText('nightly report');

  const headers = { uid: setup.body.data.uid, apikey: key };
  expect((await request(keystead.url, 'GET', '/api/v1/me', { headers })).status).toBe(200);

  await page.getByRole('button', { name: 'Revoke' }).click();
  await page.getByRole('dialog', { name: 'Revoke API key' }).getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('You have no API keys.')).toBeVisible();
  expect((await request(keystead.url, 'GET', '/api/v1/me', { headers })).status).toBe(401);
});

test('changing the password in Profile revokes the API keys unless kept, and says which', async ({ page, keystead }) => {
  const s = await request(keystead.url, 'POST', '/api/v1/setup', { body: ADMIN });
  const key = await request(keystead.url, 'POST', '/api/v1/apiKeys', {
    body: { label: 'nightly-report' },
    headers: { authToken: s.body.data.authToken },
  });
  await signIn(page, ADMIN.email, ADMIN.password);
  await nav(page).filter({ hasText: 'Profile' }).click();
  await expect(page.getByRole('table', { name: 'API keys' })).toContainText('nightly-report');
  await page.getByLabel(/^Current password/).fill(ADMIN.password);
  await page.getByLabel(/^New password/).fill('brand-new-pass-5');
  await page.getByLabel(/^Confirm new password/).fill('brand-new-pass-5');
  await expect(page.getByLabel('Keep my API keys')).not.toBeChecked();
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(
    page.getByText(/Password changed\. \d+ other session\(s\) signed out\. 1 API key\(s\) revoked: nightly-report\./),
  ).toBeVisible();
  await expect(page.getByText('You have no API keys.')).toBeVisible();
  const me = await request(keystead.url, 'GET', '/api/v1/me', { headers: { uid: key.body.data.uid, apikey: key.body.data.apiKey } });
  expect(me.status).toBe(401);
});
