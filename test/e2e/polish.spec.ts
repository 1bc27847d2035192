import { P2PKH, PrivateKey } from '@bsv/sdk';
import type { Locator, Page } from '@playwright/test';
import { ADMIN, request } from '../helpers/http.js';
import { expect, nav, signIn, test } from './fixtures.js';

/** The text of the elements a field is described by (its error, its description), as a screen reader reads them after its label. */
const describedText = (field: Locator) =>
  field.evaluate((e) =>
    (e.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent ?? `(no element #${id})`)
      .join(' | '),
  );

/** The heading (h1/h2) the keyboard is on, or what it is on instead. */
const focusedHeading = (page: Page) =>
  page.evaluate(() => {
    const e = document.activeElement;
    if (!e || e === document.body) return '(nothing)';
    return /^H[12]$/.test(e.tagName) ? `heading: ${e.textContent}` : `${e.tagName.toLowerCase()}: ${e.textContent?.slice(0, 40)}`;
  });

/** The fields (selects included) in the view whose text is wider than the field: cut off. */
const cutOff = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLInputElement>('main input:not([type="hidden"]):not([type="checkbox"]):not([type="radio"])')]
      .filter((i) => i.offsetParent !== null && i.value && i.scrollWidth > i.clientWidth + 1)
      .map((i) => `${i.labels?.[0]?.textContent ?? i.getAttribute('aria-label') ?? '?'}: ${i.value}`),
  );

/** How many pixels the named table scrolls sideways inside itself (0: it fits). */
const scrollsBy = (table: Locator) =>
  table.evaluate((t) => {
    for (let e = t.parentElement; e; e = e.parentElement) {
      if (/(auto|scroll)/.test(getComputedStyle(e).overflowX)) return e.scrollWidth - e.clientWidth;
    }
    return 0;
  });

async function setUp(url: string) {
  const s = await request(url, 'POST', '/api/v1/setup', { body: ADMIN });
  return { authToken: s.body.data.authToken, serviceid: s.body.data.serviceId };
}

test('a password field’s error is announced (aria-invalid, described by the error); an empty e-mail is said to be required', async ({
  page,
}) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Create organisation' }).click();
  const email = page.getByLabel('E-mail');
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  expect(await describedText(email)).toBe('Is required.');
  await expect(page.getByText('Is not a valid e-mail address.')).toHaveCount(0);

  await page.getByLabel(/^Organisation/).fill(ADMIN.organisation);
  await email.fill(ADMIN.email);
  const password = page.getByLabel(/^Password/);
  const confirm = page.getByLabel('Confirm password');
  // Two passwords that differ: said under the second as it is typed.
  await password.fill('short');
  await confirm.fill('other');
  await expect(confirm).toHaveAttribute('aria-invalid', 'true');
  expect(await describedText(confirm)).toBe('The two passwords differ.');
  // A password the API refuses: said under it, with its description (the rule) after the error.
  await confirm.fill('short');
  await expect(confirm).not.toHaveAttribute('aria-invalid', 'true');
  expect(await describedText(confirm)).toBe('');
  await page.getByRole('button', { name: 'Create organisation' }).click();
  await expect(password).toHaveAttribute('aria-invalid', 'true');
  expect(await describedText(password)).toMatch(/^Must be at least 10 characters.* \| at least 10 characters/);
  await expect(password).toBeFocused();
  await password.fill(ADMIN.password);
  await confirm.fill(ADMIN.password);
  await page.getByRole('button', { name: 'Create organisation' }).click();
  await expect(page.getByTestId('signed-in-as')).toHaveText(ADMIN.email);

  // Log in with nothing typed: each field says it is required, under it, and the password's error is announced.
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.getByRole('button', { name: 'Log in' }).click();
  const loginEmail = page.getByLabel('E-mail');
  await expect(loginEmail).toHaveAttribute('aria-invalid', 'true');
  expect(await describedText(loginEmail)).toBe('Is required.');
  await expect(loginEmail).toBeFocused();
  const loginPassword = page.getByLabel(/^Password/);
  await expect(loginPassword).toHaveAttribute('aria-invalid', 'true');
  expect(await describedText(loginPassword)).toMatch(/^Is required\.$|^Must be/);
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('a password field in a view announces its error too (a new user’s initial password)', async ({ page, keystead }) => {
  await setUp(keystead.url);
  await signIn(page, ADMIN.email, ADMIN.password);
  await nav(page).filter({ hasText: 'Users' }).click();
  await page.getByRole('button', { name: /^(New|Add) user/ }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('E-mail').fill('grace@acme.io');
  const password = dialog.getByLabel(/^Initial password/);
  await password.fill('short');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(password).toHaveAttribute('aria-invalid', 'true');
  expect(await describedText(password)).toMatch(/^Must be at least 10 characters/);
  await expect(password).toBeFocused();
});

test('Send: an amount the field rejects is said once, under the field; a wallet’s balance is said once; the menu takes the keyboard to the view’s heading', async ({
  page,
  keystead,
}) => {
  const admin = await setUp(keystead.url);
  await request(keystead.url, 'POST', '/v1/createWallet', { headers: admin, body: { walletTitle: 'Empty' } });
  const funded = (await request(keystead.url, 'POST', '/v1/createWallet', { headers: admin, body: { walletTitle: 'Treasury' } })).body.data
    .walletID;
  await request(keystead.url, 'POST', '/chain/faucet', { headers: admin, body: { walletId: funded, satoshis: 250_000 } });
  await signIn(page, ADMIN.email, ADMIN.password);

  // First load: the keyboard is left where it is (no heading takes it).
  await page.goto('/#/wallets');
  await expect(page.getByTestId('wallet-row-Empty')).toBeVisible();
  expect(await focusedHeading(page)).not.toMatch(/^heading/);

  // Wallets: an empty wallet's balance is said once ("0 sat" with no "0 sat confirmed" under it); a split is said when some is unconfirmed.
  const empty = page.getByTestId('wallet-row-Empty');
  await expect(empty).toContainText('0 sat');
  await expect(empty).not.toContainText('confirmed');
  await expect(page.getByTestId('wallet-row-Treasury')).toContainText('0 sat confirmed · 250,000 sat unconfirmed');

  // Each view chosen in the menu takes the keyboard to its heading.
  for (const label of await nav(page).allTextContents()) {
    await nav(page)
      .filter({ hasText: new RegExp(`^${label}$`) })
      .click();
    await expect.poll(() => focusedHeading(page), `the ${label} view`).toMatch(/^heading: /);
  }
  await nav(page).filter({ hasText: 'Wallets' }).click();
  await expect(page.getByRole('heading', { name: 'Wallets', level: 2 })).toBeFocused();
  // The view shown already, chosen again: its heading again.
  await page.getByRole('button', { name: 'New wallet' }).focus();
  await nav(page).filter({ hasText: 'Wallets' }).click();
  await expect(page.getByRole('heading', { name: 'Wallets', level: 2 })).toBeFocused();

  await nav(page).filter({ hasText: 'Send' }).click();
  await expect(page.getByRole('heading', { name: 'Send', level: 2 })).toBeFocused();
  await page.getByLabel(/^Pay to/).fill('1BoatSLRHtKNngkdXEeobR76b53LETtpyT');
  const amount = page.getByRole('textbox', { name: /^Amount/ });
  await amount.fill('abc');
  const said = await amount.evaluate((e) => document.getElementById(e.getAttribute('aria-describedby')!.split(' ')[0])!.textContent!);
  expect(said.length).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Review payment' }).click();
  await expect(amount).toBeFocused();
  await expect(amount).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText(said, { exact: true })).toHaveCount(1);
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test.describe('at 800×600', () => {
  test.use({ viewport: { width: 800, height: 600 } });

  test('the Apps view’s selects show their whole text; an app with no spending authorisation has no limit, not "0 sat" left', async ({
    page,
    keystead,
  }) => {
    const admin = await setUp(keystead.url);
    const walletId = (await request(keystead.url, 'POST', '/v1/createWallet', { headers: admin, body: { walletTitle: 'Treasury' } })).body
      .data.walletID;
    await request(keystead.url, 'POST', '/api/v1/apps/decide', {
      headers: admin,
      body: { originator: 'notes.example', allow: true, walletId },
    });
    await signIn(page, ADMIN.email, ADMIN.password);
    await nav(page).filter({ hasText: /^Apps/ }).click();
    await expect(page.getByRole('table', { name: 'Spending authorisations' }).getByTestId('app-spending')).toHaveCount(1);
    await expect(page.getByTestId('spending-left')).toHaveText('No limit set');
    await expect(page.getByRole('combobox', { name: 'Security level' })).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Wallet that answers it' })).toHaveValue(
      /^Default wallet for apps \(organisation default\)$/,
    );
    expect(await cutOff(page)).toEqual([]);
    // The longest security level, offered for privileged keys, is whole too.
    await page.getByRole('checkbox', { name: /^Privileged keys/ }).check();
    await page.getByRole('combobox', { name: 'Security level' }).click();
    await page.getByRole('option', { name: '0 (open for everyday keys)' }).click();
    await expect(page.getByRole('combobox', { name: 'Security level' })).toHaveValue('0 (open for everyday keys)');
    expect(await cutOff(page)).toEqual([]);
  });

  // 800×600 zoomed to 125 % (640 CSS pixels wide, the menu shown): the view is narrower than a scrolling table's 520 px.
  test('zoomed to 125 %, a transaction’s inputs and outputs, the fee manager’s outputs and a key’s coins fit the window: no table scrolls inside itself', async ({
    page,
    keystead,
  }) => {
    await page.setViewportSize({ width: 640, height: 480 });
    const admin = await setUp(keystead.url);
    const walletId = (await request(keystead.url, 'POST', '/v1/createWallet', { headers: admin, body: { walletTitle: 'Treasury' } })).body
      .data.walletID;
    await request(keystead.url, 'POST', '/chain/faucet', { headers: admin, body: { walletId, satoshis: 500_000 } });
    const to = PrivateKey.fromRandom().toAddress();
    const paid = await request(keystead.url, 'POST', '/v1/pay', {
      headers: { ...admin, walletID: walletId },
      body: { outputs: [{ script: new P2PKH().lock(to).toHex(), satoshis: 12_345 }] },
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const txid = paid.body.data.txid as string;
    const init = await request(keystead.url, 'GET', '/api/v1/initBeta', { headers: admin });
    expect(init.status, JSON.stringify(init.body)).toBe(200);
    const feeAddress = (await request(keystead.url, 'GET', '/api/v1/feeAddressBeta', { headers: admin })).body.data.addresses[0] as string;
    for (const satoshis of [20_000, 30_000]) {
      const sent = await request(keystead.url, 'POST', '/chain/faucet', { headers: admin, body: { address: feeAddress, satoshis } });
      expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    }
    const key = PrivateKey.fromRandom();
    await request(keystead.url, 'POST', '/chain/faucet', { headers: admin, body: { address: key.toAddress(), satoshis: 7_000 } });
    await request(keystead.url, 'POST', '/chain/mine', { headers: admin, body: {} });

    await signIn(page, ADMIN.email, ADMIN.password);
    await nav(page).filter({ hasText: 'History' }).click();
    await page.getByRole('button', { name: `Details of transaction ${txid}` }).click();
    const detail = page.getByTestId('transaction-detail');
    for (const name of ['Inputs', 'Outputs']) {
      const table = detail.getByRole('table', { name });
      await expect(table.getByRole('row').nth(1)).toBeVisible();
      expect(await scrollsBy(table), `${name} scrolls inside itself`).toBeLessThanOrEqual(1);
    }
    await expect(detail.getByRole('table', { name: 'Outputs' })).toContainText(to);
    await page.keyboard.press('Escape');

    await nav(page).filter({ hasText: 'Fee manager' }).click();
    const outputs = page.getByRole('table', { name: 'Fee manager outputs' });
    await expect(outputs.getByRole('row')).toHaveCount(3);
    expect(await scrollsBy(outputs)).toBeLessThanOrEqual(1);

    // A private key's coins, each output listed.
    await nav(page).filter({ hasText: 'Lookup' }).click();
    await page.getByLabel(/^Private key/).fill(key.toWif());
    await page.getByRole('switch', { name: /^Compact/ }).uncheck();
    await page.getByRole('button', { name: 'Look up' }).click();
    const coins = page.getByRole('table', { name: 'Coins' });
    await expect(coins).toContainText('7,000 sat');
    expect(await scrollsBy(coins)).toBeLessThanOrEqual(1);
  });
});
