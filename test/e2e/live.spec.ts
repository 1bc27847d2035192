import { ADMIN, request } from '../helpers/http.js';
import { expect, nav, signIn, test } from './fixtures.js';
import { settled, watchRpc } from './settled.js';

test('balances and history move live from the event stream, without polling; signing out elsewhere ends the session here', async ({
  page,
  keystead,
}) => {
  const s = await request(keystead.url, 'POST', '/api/v1/setup', { body: ADMIN });
  await request(keystead.url, 'POST', '/v1/createWallet', {
    body: { walletTitle: 'Treasury' },
    headers: { authToken: s.body.data.authToken },
  });
  // The page's clock is the test's: it runs as usual until the test moves it on.
  await page.clock.install();
  const rpc = watchRpc(page);
  await signIn(page, ADMIN.email, ADMIN.password);
  await nav(page).filter({ hasText: 'Wallets' }).click();
  await expect(page.getByTestId('balance-Treasury')).toHaveText('0 BSV');
  await settled(page, rpc, 'the Wallets view');

  // Idle, the page asks the server nothing: it waits for the stream. Ten minutes of the page's time pass at
  // once, firing every timer it set; a poll every few seconds would have asked a hundred times.
  const idleFrom = rpc.asked.length;
  await page.clock.runFor('10:00');
  await settled(page, rpc, 'the page after ten idle minutes');
  expect(rpc.asked.slice(idleFrom)).toEqual([]);

  const token = (await page.evaluate(() => sessionStorage.getItem('keystead.authToken')))!;
  const wallets = await request(keystead.url, 'GET', '/v1/wallets', { headers: { authToken: token } });
  const treasury = wallets.body.data.wallets.find((w: { walletTitle: string }) => w.walletTitle === 'Treasury').walletID;
  const funded = await request(keystead.url, 'POST', '/chain/faucet', {
    body: { walletId: treasury, satoshis: 30_000 },
    headers: { authToken: token },
  });
  expect(funded.status).toBe(200);
  await expect(page.getByText('Received 0.0003 BSV in Treasury.')).toBeVisible();
  await expect(page.getByTestId('balance-Treasury')).toHaveText('0.0003 BSV');

  // History: pending, then confirmed once a block holds it, on screen without a reload.
  await nav(page).filter({ hasText: 'History' }).click();
  await page.getByRole('combobox', { name: 'Wallet', exact: true }).click();
  await page.getByRole('option', { name: /^Treasury/ }).click();
  const table = page.getByRole('table', { name: 'History' });
  await expect(table).toContainText('pending');
  await request(keystead.url, 'POST', '/chain/mine', { body: {}, headers: { authToken: token } });
  await expect(table).toContainText('confirmed');
  await expect(table).toContainText('1 confirmation');

  // Signed out from a script: the stream ends and the app returns to the sign-in screen.
  await request(keystead.url, 'POST', '/api/v1/logout', { headers: { authToken: token }, body: {} });
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
});
