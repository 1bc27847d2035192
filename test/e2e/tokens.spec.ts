import path from 'node:path';
import { ADMIN, request } from '../helpers/http.js';
import { expect, nav, SCREENSHOTS, signIn, test } from './fixtures.js';

test('tokens: issue a fungible token with progress, see it held, open its details, send part to an address; issue NFTs and see their gallery', async ({
  page,
  keystead,
}) => {
  const s = await request(keystead.url, 'POST', '/api/v1/setup', { body: ADMIN });
  const auth = { authToken: s.body.data.authToken, serviceid: s.body.data.serviceId };
  const w = await request(keystead.url, 'POST', '/v1/createWallet', { body: { walletTitle: 'Treasury' }, headers: auth });
  const walletID = w.body.data.walletID as string;
  await request(keystead.url, 'POST', '/chain/faucet', { body: { walletId: walletID, satoshis: 500_000 }, headers: auth });
  const other = await request(keystead.url, 'POST', '/v1/createWallet', { body: { walletTitle: 'Ops' }, headers: auth });
  const to = (await request(keystead.url, 'GET', '/v1/address', { headers: { ...auth, walletID: other.body.data.walletID } })).body.data
    .address as string;
  await signIn(page, ADMIN.email, ADMIN.password);

  await nav(page).filter({ hasText: 'Tokens' }).click();
  await page.getByRole('combobox', { name: 'Wallet', exact: true }).click();
  await page.getByRole('option', { name: /Treasury/ }).click();
  await page.getByRole('tab', { name: 'Issue' }).click();
  await page.getByLabel('Name').fill('Acme Points');
  await page.getByLabel('Symbol').fill('pts');
  await page.getByLabel('Supply (tokens)').fill('5000');
  await page.getByLabel('Image URL').fill('https://example.com/pts.png');
  await expect(page.getByTestId('image-preview')).toBeVisible();
  await page.getByLabel('Issuer organisation').fill('Acme Ltd');
  await page.getByRole('button', { name: 'Issue' }).click();
  await expect(page.getByTestId('issued')).toContainText(/[0-9a-f]{40}-PTS/);

  await page.getByRole('tab', { name: 'Holdings' }).click();
  await expect(page.getByTestId('held-PTS')).toHaveText('5,000');
  await page.getByRole('row', { name: /PTS/ }).getByRole('button', { name: 'Details' }).click();
  await expect(page.getByTestId('token-details')).toContainText('5,000 issued · 5,000 circulating');
  await expect(page.getByTestId('token-details')).toContainText('Acme Ltd');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'token-details.png'), fullPage: true });
  await page.keyboard.press('Escape');

  await page.getByRole('row', { name: /PTS/ }).getByRole('button', { name: 'Send' }).click();
  await page.getByRole('textbox', { name: 'To', exact: true }).fill(to);
  // More than is held is refused, never turned into "everything held".
  await page.getByRole('textbox', { name: 'Tokens' }).fill('9000');
  await page.getByRole('dialog').getByRole('button', { name: 'Review' }).click();
  await expect(page.getByRole('dialog').getByRole('alert')).toContainText('is more than that');
  await page.getByRole('textbox', { name: 'Tokens' }).fill('1200');
  await page.getByRole('dialog').getByRole('button', { name: 'Review' }).click();
  await expect(page.getByTestId('token-move-review')).toContainText(`Send 1,200 PTS to ${to}`);
  await page.getByRole('dialog').getByRole('button', { name: 'Confirm and send' }).click();
  await expect(page.getByTestId('held-PTS')).toHaveText('3,800');

  await page.getByRole('tab', { name: 'Issue' }).click();
  await page.getByText('NFT', { exact: true }).click();
  await page.getByLabel('Name').fill('Tickets');
  await page.getByLabel('Symbol').fill('TIX');
  await page.getByLabel('Number of NFTs').fill('2');
  await page.getByLabel('Data per serial').fill('Row A, seat 1\nRow A, seat 2');
  await page.getByRole('button', { name: 'Issue' }).click();
  await expect(page.getByTestId('issued')).toContainText('-TIX');
  await page.getByRole('tab', { name: 'Holdings' }).click();
  await expect(page.getByTestId('held-TIX')).toHaveText('2 (#1, #2)');
  await page.getByRole('row', { name: /TIX/ }).getByRole('button', { name: 'Details' }).click();
  await expect(page.getByTestId('nft-gallery')).toContainText('Row A, seat 2');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'nft-gallery.png'), fullPage: true });
});
