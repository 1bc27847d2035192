import { ADMIN, request } from '../helpers/http.js';
import { expect, nav, signIn, test } from './fixtures.js';

test('the API page lists every route offline and tries one as the signed-in user', async ({ page, keystead }) => {
  await request(keystead.url, 'POST', '/api/v1/setup', { body: ADMIN });
  await signIn(page, ADMIN.email, ADMIN.password);
  await nav(page).filter({ hasText: /^API$/ }).click();
  await expect(page.getByRole('heading', { name: 'API' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'POST /v1/pay', exact: true })).toBeVisible();
  await page.getByLabel('Find a route').fill('/v1/wallets');
  await expect(page.getByRole('button', { name: 'POST /v1/pay', exact: true })).toHaveCount(0);
  await page.getByRole('button', { name: 'GET /v1/wallets', exact: true }).click();
  await expect(page.getByText('Roles: admin, manager, operator, viewer, api_user.').first()).toBeVisible();
  // The route's panel may still be opening when the button is first clicked: click again until the answer shows
  // (listWallets only reads, so a second call changes nothing).
  await expect(async () => {
    await page.getByRole('button', { name: 'Try it' }).first().click();
    await expect(page.getByTestId('api-answer-listWallets')).toContainText('"wallets": []', { timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  // Bad JSON is said plainly, not sent.
  await page.getByLabel('Input for listWallets (JSON)').fill('{ nope');
  await page.getByRole('button', { name: 'Try it' }).first().click();
  await expect(page.getByText(/The input is not JSON/)).toBeVisible();
});
