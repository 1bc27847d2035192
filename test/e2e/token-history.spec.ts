import path from 'node:path';
import { ADMIN, request } from '../helpers/http.js';
import { expect, nav, SCREENSHOTS, signIn, test } from './fixtures.js';

test('History: a token transfer shows the tokens moved ("−5 KST"), the BSV fee and who paid it, and the counterparty', async ({
  page,
  keystead,
}) => {
  const s = await request(keystead.url, 'POST', '/api/v1/setup', { body: ADMIN });
  const auth = { authToken: s.body.data.authToken, serviceid: s.body.data.serviceId };
  const w = await request(keystead.url, 'POST', '/v1/createWallet', { body: { walletTitle: 'Treasury' }, headers: auth });
  const walletID = w.body.data.walletID as string;
  await request(keystead.url, 'POST', '/chain/faucet', { body: { walletId: walletID, satoshis: 300_000 }, headers: auth });
  const issued = await request(keystead.url, 'POST', '/api/v1/issue', {
    headers: { ...auth, walletID },
    body: { name: 'Keys', protocolId: 'KST-20', symbol: 'KST', tokenSupply: 100, satsPerToken: 1, decimals: 0 },
  });
  expect(issued.status).toBe(200);
  const to = '1BoatSLRHtKNngkdXEeobR76b53LETtpyT';
  const sent = await request(keystead.url, 'POST', '/v1/send', {
    headers: { ...auth, walletID },
    body: { dataArray: [{ to, amount: 5, tokenId: issued.body.data.tokenId }] },
  });
  expect(sent.status).toBe(200);
  const txid = sent.body.data.txIds[0] as string;

  await signIn(page, ADMIN.email, ADMIN.password);
  await nav(page).filter({ hasText: 'History' }).click();
  await page.getByRole('combobox', { name: 'Wallet', exact: true }).click();
  await page.getByRole('option', { name: /^Treasury/ }).click();
  const row = page.getByRole('row').filter({ has: page.getByTestId(`tokens-${txid.slice(0, 8)}`) });
  await expect(page.getByTestId(`tokens-${txid.slice(0, 8)}`)).toHaveText('\u22125 KST');
  await expect(row).toContainText('paid by this wallet');
  await expect(row).toContainText(to);
  await expect(page.getByTestId(`tokens-${issued.body.data.issueTxid.slice(0, 8)}`)).toHaveText('+100 KST');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'history-tokens.png'), fullPage: true });
});
