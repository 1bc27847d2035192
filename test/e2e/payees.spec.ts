import path from 'node:path';
import { ADMIN, request } from '../helpers/http.js';
import { expect, nav, SCREENSHOTS, signIn, test } from './fixtures.js';

test('payee book: add a payee, see it listed with its usable-from time, pick it in Send', async ({ page, keystead }) => {
  const s = await request(keystead.url, 'POST', '/api/v1/setup', { body: ADMIN });
  const auth = { authToken: s.body.data.authToken, serviceid: s.body.data.serviceId };

  await signIn(page, ADMIN.email, ADMIN.password);
  await nav(page).filter({ hasText: 'Payee book' }).click();
  await expect(page.getByRole('heading', { name: 'Payee book' })).toBeVisible();
  await expect(page.getByText('No payees yet.')).toBeVisible();

  await page.getByRole('button', { name: 'Add payee' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a payee' });
  await dialog.getByLabel(/^Name/).fill('Alice Ltd');
  await dialog.getByLabel(/^Destination/).fill('not a destination');
  await dialog.getByRole('button', { name: 'Add payee' }).click();
  await expect(dialog.getByText(/is not a paymail \(alias@domain\), a P2PKH address or an identity key/)).toBeVisible();
  await dialog.getByLabel(/^Destination/).fill('Alice@Example.com');
  await dialog.getByLabel(/^Note/).fill('monthly invoice');
  await dialog.getByRole('button', { name: 'Add payee' }).click();
  await expect(dialog).toBeHidden();

  const rows = page.getByTestId('payee-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Alice Ltd');
  await expect(rows.first()).toContainText('Paymail');
  await expect(rows.first()).toContainText('alice@example.com');
  // The time shown is the payee's usableFrom (24 hours after it was added), in the viewer's locale.
  const listed = await request(keystead.url, 'GET', '/api/v1/payees', { headers: auth });
  const usableFrom = listed.body.data.payees[0].usableFrom as string;
  const shown = await page.evaluate((iso) => new Date(iso).toLocaleString(), usableFrom);
  await expect(rows.first().getByTestId('payee-usable')).toHaveText(`usable from ${shown}`);
  await page.screenshot({ path: path.join(SCREENSHOTS, 'payees.png'), fullPage: true });

  // With no cooling-off, the next payee is usable at once; the one before keeps its time.
  await page.getByLabel(/^Cooling-off period/).fill('0');
  await page.getByRole('button', { name: 'Save period' }).click();
  await expect(page.getByText(/after the cooling-off period \(0 hours\)/)).toBeVisible();
  await page.getByRole('button', { name: 'Add payee' }).click();
  await dialog.getByLabel(/^Name/).fill('Bob');
  await dialog.getByLabel(/^Destination/).fill('bob@example.com');
  await dialog.getByRole('button', { name: 'Add payee' }).click();
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1).getByTestId('payee-usable')).toHaveText('usable now');
  await expect(rows.first().getByTestId('payee-usable')).toHaveText(`usable from ${shown}`);

  // Send offers the book's payees and fills the destination.
  await nav(page).filter({ hasText: 'Send' }).click();
  await page.getByRole('combobox', { name: 'Pick a payee' }).click();
  await page.getByRole('option', { name: /^Bob · bob@example\.com$/ }).click();
  await expect(page.getByLabel(/^Pay to/)).toHaveValue('bob@example.com');
});
