import path from 'node:path';
import { LockingScript, P2PKH, PrivateKey, SatoshisPerKilobyte, Transaction, Utils } from '@bsv/sdk';
import { ordP2pkhScript } from '../../main/chain/ordinal-envelope.js';
import { ADMIN, request } from '../helpers/http.js';
import type { Headless } from '../helpers/headless.js';
import { expect, nav, SCREENSHOTS, signIn, test } from './fixtures.js';

/** An organisation with a funded wallet "Treasury"; the admin's API credentials. */
async function treasury(keystead: Headless) {
  const s = await request(keystead.url, 'POST', '/api/v1/setup', { body: ADMIN });
  const auth = { authToken: s.body.data.authToken as string, serviceid: s.body.data.serviceId as string };
  const walletID = (await request(keystead.url, 'POST', '/v1/createWallet', { body: { walletTitle: 'Treasury' }, headers: auth })).body.data
    .walletID as string;
  await request(keystead.url, 'POST', '/chain/faucet', { body: { walletId: walletID, satoshis: 500_000 }, headers: auth });
  return { auth, walletID };
}

async function openTokens(page: import('@playwright/test').Page, tab: string) {
  await signIn(page, ADMIN.email, ADMIN.password);
  await nav(page).filter({ hasText: 'Tokens' }).click();
  await page.getByRole('combobox', { name: 'Wallet', exact: true }).click();
  await page.getByRole('option', { name: /Treasury/ }).click();
  await page.getByRole('tab', { name: tab }).click();
}

test('swaps: offer tokens for BSV, see the offer listed, inspect its hex, withdraw it', async ({ page, keystead }) => {
  const { auth, walletID } = await treasury(keystead);
  const issued = await request(keystead.url, 'POST', '/v1/issue', {
    body: { name: 'Acme Points', protocolId: 'KST-20', symbol: 'PTS', tokenSupply: 1000, satsPerToken: 1 },
    headers: { ...auth, walletID },
  });
  expect(issued.status, JSON.stringify(issued.body)).toBe(200);
  await openTokens(page, 'Swaps');

  await page.getByRole('combobox', { name: 'Token to offer' }).click();
  await page.getByRole('option', { name: /PTS/ }).click();
  await page.getByRole('textbox', { name: 'BSV wanted' }).fill('0.0001');
  await page.getByRole('button', { name: 'Make offer' }).click();
  const made = page.getByTestId('offer-made');
  await expect(made).toContainText('Offers 1,000 PTS for 0.0001 BSV (10,000 sat)');
  const hex = await made.getByRole('textbox', { name: 'Offer hex' }).inputValue();
  expect(hex).toMatch(/^([0-9a-f]{2})+$/);

  const mine = page.getByRole('table', { name: 'My offers' });
  await expect(mine.getByRole('row', { name: /1,000 PTS/ })).toContainText('open');

  const take = page.getByRole('form', { name: 'Take an offer' });
  await take.getByRole('textbox', { name: 'Offer hex' }).fill(hex);
  await take.getByRole('button', { name: 'Inspect' }).click();
  const inspection = page.getByTestId('offer-inspection');
  await expect(inspection.getByRole('row', { name: /You give/ })).toContainText('0.0001 BSV (10,000 sat)');
  await expect(inspection.getByRole('row', { name: /You get/ })).toContainText('1,000 PTS');
  await expect(inspection.getByRole('row', { name: /Network fee/ })).toContainText(/\d+ sat/);
  await page.screenshot({ path: path.join(SCREENSHOTS, 'token-swaps.png'), fullPage: true });

  await mine.getByRole('button', { name: 'Withdraw' }).click();
  await page.getByRole('dialog', { name: 'Withdraw this offer?' }).getByRole('button', { name: 'Withdraw offer' }).click();
  await expect(mine.getByRole('row', { name: /1,000 PTS/ })).toContainText('withdrawn');
  await expect(mine.getByRole('button', { name: 'Withdraw' })).toHaveCount(0);
});

test('swaps: an offer Keystead keeps is taken by its id from another wallet, its further payment shown before Confirm', async ({
  page,
  keystead,
}) => {
  const { auth, walletID } = await treasury(keystead);
  const issued = await request(keystead.url, 'POST', '/v1/issue', {
    body: { name: 'Acme Points', protocolId: 'KST-20', symbol: 'PTS', tokenSupply: 1000, satsPerToken: 1 },
    headers: { ...auth, walletID },
  });
  expect(issued.status, JSON.stringify(issued.body)).toBe(200);
  const ops = (await request(keystead.url, 'POST', '/v1/createWallet', { body: { walletTitle: 'Ops' }, headers: auth })).body.data
    .walletID as string;
  await request(keystead.url, 'POST', '/chain/faucet', { body: { walletId: ops, satoshis: 500_000 }, headers: auth });
  const outside = PrivateKey.fromRandom().toAddress();
  const made = await request(keystead.url, 'POST', '/v1/exchangeOffer', {
    body: {
      dataArray: [
        { tokenId: issued.body.data.tokenId, tokenAmount: 1000, type: 'BSV', amount: 0.0002, payment: [{ amount: 0.00001, to: outside }] },
      ],
    },
    headers: { ...auth, walletID },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  const offerId = made.body.data.offers[0].offerId as string;

  await signIn(page, ADMIN.email, ADMIN.password);
  await nav(page).filter({ hasText: 'Tokens' }).click();
  await page.getByRole('combobox', { name: 'Wallet', exact: true }).click();
  await page.getByRole('option', { name: /Ops/ }).click();
  await page.getByRole('tab', { name: 'Swaps' }).click();
  const take = page.getByRole('form', { name: 'Take an offer' });
  await take.getByText('Offer kept by Keystead').click();
  await take.getByRole('textbox', { name: 'Offer id' }).fill(offerId);
  await take.getByRole('button', { name: 'Inspect' }).click();
  const inspection = page.getByTestId('offer-inspection');
  await expect(inspection.getByRole('row', { name: /You give/ })).toContainText('0.0002 BSV (20,000 sat)');
  await expect(inspection.getByRole('row', { name: /You get/ })).toContainText('1,000 PTS');
  await expect(inspection.getByRole('row', { name: /Further payments/ })).toContainText(`1,000 sat to ${outside}`);
  await inspection.getByRole('button', { name: 'Take offer' }).click();
  const dialog = page.getByRole('dialog', { name: 'Take this offer?' });
  await expect(dialog).toContainText(`You also pay 1,000 sat to ${outside}`);
  await dialog.getByRole('button', { name: 'Confirm swap' }).click();
  await expect(page.getByTestId('swap-done')).toContainText('got 1,000 PTS');
});

test('BSV-21: deploy+mint from the Issue form, then see the balance with its validity', async ({ page, keystead }) => {
  await treasury(keystead);
  await openTokens(page, 'Issue');
  await page.getByText('BSV-21', { exact: true }).click();
  await page.getByRole('textbox', { name: 'Token symbol' }).fill('ORDX');
  await page.getByRole('textbox', { name: 'Total supply' }).fill('21000');
  await page.getByRole('textbox', { name: 'Decimal places' }).fill('2');
  await page.getByRole('button', { name: 'Deploy and mint' }).click();
  await expect(page.getByTestId('issued-bsv21')).toContainText('21,000.00 ORDX minted');
  await expect(page.getByTestId('issued-bsv21')).toContainText(/[0-9a-f]{64}_0/);

  await page.getByRole('tab', { name: 'Ordinals' }).click();
  await expect(page.getByTestId('bsv21-held-ORDX')).toHaveText('21,000.00');
  await expect(page.getByTestId('bsv21-validity-ORDX')).toHaveText('valid');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'bsv21-balances.png'), fullPage: true });
});

test('ordinals: a text/html inscription is described and offered as a download, never rendered or run; text is text, SVG an image', async ({
  page,
  keystead,
}) => {
  const { auth, walletID } = await treasury(keystead);
  const address = (await request(keystead.url, 'GET', '/v1/address', { headers: { ...auth, walletID } })).body.data.address as string;
  // Someone outside the organisation inscribes hostile HTML onto a 1-satoshi output paying the wallet's address.
  const outsider = PrivateKey.fromRandom();
  const f = await request(keystead.url, 'POST', '/chain/faucet', {
    body: { address: outsider.toAddress(), satoshis: 20_000 },
    headers: auth,
  });
  expect(f.status, JSON.stringify(f.body)).toBe(200);
  const source = Transaction.fromHex(
    (await request(keystead.url, 'GET', `/chain/woc/v1/bsv/local/tx/${f.body.data.txid}/hex`)).body as string,
  );
  const html =
    '<iframe src="about:blank"></iframe><script>window.__inscriptionRan = true</script><img src=x onerror="window.__inscriptionRan=true">';
  const tx = new Transaction();
  tx.addInput({
    sourceTransaction: source,
    sourceOutputIndex: source.outputs.findIndex((o) => o.satoshis === 20_000),
    unlockingScriptTemplate: new P2PKH().unlock(outsider),
  });
  const pkh = Utils.toHex(Utils.fromBase58Check(address).data as number[]);
  const text = 'Hello <b>not bold</b>';
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><script>window.__inscriptionRan=true</script><rect width="8" height="8"/></svg>';
  for (const [type, body] of [
    ['text/html', html],
    ['text/plain', text],
    ['image/svg+xml', svg],
  ])
    tx.addOutput({ lockingScript: LockingScript.fromHex(ordP2pkhScript(pkh, type, Buffer.from(body, 'utf8'))), satoshis: 1 });
  tx.addOutput({ lockingScript: new P2PKH().lock(outsider.toAddress()), change: true });
  await tx.fee(new SatoshisPerKilobyte(100));
  await tx.sign();
  const sent = await request(keystead.url, 'POST', '/chain/arc/v1/tx', { body: { rawTx: tx.toHex() } });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  await request(keystead.url, 'POST', '/chain/mine', { body: {}, headers: auth });

  await openTokens(page, 'Ordinals');
  const inscriptions = page.getByRole('table', { name: 'Inscriptions' });
  await inscriptions
    .getByRole('row', { name: /text\/html/ })
    .getByRole('button', { name: 'View' })
    .click();
  const view = page.getByRole('dialog').getByTestId('inscription-view');
  await expect(view).toHaveAttribute('data-show-as', 'download');
  await expect(view).toContainText(`Content type text/html, ${html.length} bytes`);
  await expect(view.getByRole('button', { name: 'Download' })).toBeVisible();
  await expect(page.locator('iframe')).toHaveCount(0);
  await expect(page.locator('script:not([src])')).toHaveCount(0);
  await page.screenshot({ path: path.join(SCREENSHOTS, 'inscription-html.png'), fullPage: true });
  await page.keyboard.press('Escape');

  // Text is text (React escapes it); an SVG is only ever an <img> of a blob URL, where its script cannot run.
  await inscriptions
    .getByRole('row', { name: /text\/plain/ })
    .getByRole('button', { name: 'View' })
    .click();
  await expect(page.getByRole('dialog').getByTestId('inscription-text')).toHaveText(text);
  await page.keyboard.press('Escape');
  await inscriptions
    .getByRole('row', { name: /image\/svg\+xml/ })
    .getByRole('button', { name: 'View' })
    .click();
  await expect(page.getByRole('dialog').getByTestId('inscription-image')).toHaveAttribute('src', /^blob:/);
  await expect(page.locator('svg script')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __inscriptionRan?: boolean }).__inscriptionRan)).toBeUndefined();
});
