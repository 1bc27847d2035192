import path from 'node:path';
import { P2PKH, PrivateKey } from '@bsv/sdk';
import type { Page } from '@playwright/test';
import { ADMIN, request } from '../helpers/http.js';
import { expect, nav, SCREENSHOTS, signIn, test } from './fixtures.js';

const PASSWORD = 'role-password-1';
const LONG_TITLE = 'Treasury for the northern region operating expenses 2026';

/** The tables in the view that reach past the view's right edge (by how many pixels), and the page itself if it scrolls sideways. */
async function overflowing(page: Page) {
  return page.evaluate(() => {
    const main = document.querySelector('main')!;
    const right = main.getBoundingClientRect().right - parseFloat(getComputedStyle(main).paddingRight);
    const over = [...main.querySelectorAll('table')]
      .map((t) => ({ table: t.getAttribute('aria-label') ?? '(unnamed)', by: Math.ceil(t.getBoundingClientRect().right - right) }))
      .filter((t) => t.by > 1);
    const page = document.documentElement.scrollWidth - document.documentElement.clientWidth;
    return page > 0 ? [...over, { table: 'the page', by: page }] : over;
  });
}

/** Every button (and link-button) in the table is wholly inside the window. */
async function buttonsInside(page: Page, table: string) {
  const boxes = await page
    .getByRole('table', { name: table })
    .getByRole('button')
    .evaluateAll((els) =>
      els.map((e) => ({ name: e.textContent, right: e.getBoundingClientRect().right, w: e.getBoundingClientRect().width })),
    );
  expect(boxes.length).toBeGreaterThan(0);
  for (const b of boxes) {
    expect(b.w, `${b.name} is shown`).toBeGreaterThan(0);
    expect(b.right, `${b.name} is inside the window`).toBeLessThanOrEqual(800);
  }
}

test.use({ viewport: { width: 800, height: 600 } });

test('at 800×600 the main tables fit the window: none scrolls sideways; amounts, long ids and action buttons stay readable', async ({
  page,
  keystead,
}) => {
  const s = await request(keystead.url, 'POST', '/api/v1/setup', { body: ADMIN });
  const admin = { authToken: s.body.data.authToken, serviceid: s.body.data.serviceId };
  for (const role of ['manager', 'operator']) {
    await request(keystead.url, 'POST', '/api/v1/createUser', {
      headers: admin,
      body: {
        email: `${role}.with.a.long.address@acme-holdings.example.com`,
        password: PASSWORD,
        role,
        firstName: 'Grace',
        lastName: 'Hopper',
        title: 'Head of treasury operations',
      },
    });
  }
  const walletId = (await request(keystead.url, 'POST', '/v1/createWallet', { headers: admin, body: { walletTitle: LONG_TITLE } })).body
    .data.walletID;
  await request(keystead.url, 'POST', '/chain/faucet', { headers: admin, body: { walletId, satoshis: 500_000 } });
  const script = new P2PKH().lock(PrivateKey.fromRandom().toAddress()).toHex();
  const paid = await request(keystead.url, 'POST', '/v1/pay', {
    headers: { ...admin, walletID: walletId },
    body: { outputs: [{ script, satoshis: 12_345 }], memo: 'Office rent for November, paid early this month' },
  });
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  // A payment the manager must approve (the admin's, over the policy's amount).
  await request(keystead.url, 'POST', '/api/v1/policies', {
    headers: admin,
    body: {
      document: {
        rules: [{ when: { amountOver: { satoshis: 10_000 } }, action: 'approve', approvals: { count: 1, roles: ['manager'] } }],
        default: { action: 'allow' },
      },
    },
  });
  const waiting = await request(keystead.url, 'POST', '/v1/pay', {
    headers: { ...admin, walletID: walletId },
    body: { outputs: [{ script, satoshis: 20_000 }] },
  });
  expect(waiting.status, JSON.stringify(waiting.body)).toBe(202);

  await signIn(page, ADMIN.email, ADMIN.password);

  await nav(page).filter({ hasText: 'Wallets' }).click();
  await expect(page.getByTestId(`balance-${LONG_TITLE}`)).toBeVisible();
  expect(await overflowing(page)).toEqual([]);
  await expect(page.getByTestId(`balance-${LONG_TITLE}`)).toBeInViewport();
  await buttonsInside(page, 'Wallets');
  // The wallet's id is cut, its whole text on hover.
  await expect(page.getByTestId(`wallet-row-${LONG_TITLE}`).getByTitle(walletId)).toBeVisible();
  await page.screenshot({ path: path.join(SCREENSHOTS, 'narrow-wallets.png') });

  await nav(page).filter({ hasText: 'History' }).click();
  await page.getByRole('combobox', { name: 'Wallet', exact: true }).click();
  await page.getByRole('option', { name: LONG_TITLE }).click();
  const history = page.getByRole('table', { name: 'History' });
  await expect(history.getByRole('row')).toHaveCount(3);
  expect(await overflowing(page)).toEqual([]);
  // The payment's amount (with its fee) is whole and on screen.
  await expect(history.getByText(/^-0\.00012\d* BSV$/)).toBeInViewport();
  await buttonsInside(page, 'History');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'narrow-history.png') });

  await nav(page).filter({ hasText: 'Users' }).click();
  await expect(page.getByRole('table', { name: 'Users' }).getByRole('row')).toHaveCount(4);
  expect(await overflowing(page)).toEqual([]);
  await buttonsInside(page, 'Users');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'narrow-users.png') });

  await nav(page).filter({ hasText: 'Audit' }).click();
  await expect(page.getByRole('table', { name: 'Audit log' }).getByRole('row').nth(5)).toBeVisible();
  await page.screenshot({ path: path.join(SCREENSHOTS, 'narrow-audit.png'), fullPage: true });
  expect(await overflowing(page)).toEqual([]);

  await page.getByRole('button', { name: 'Log out' }).click();
  await signIn(page, 'manager.with.a.long.address@acme-holdings.example.com', PASSWORD);
  await nav(page).filter({ hasText: 'Approvals' }).click();
  const card = page.getByTestId('approval-card');
  await expect(card.getByTestId('approval-amount')).toContainText('0.0002 BSV');
  expect(await overflowing(page)).toEqual([]);
  // Below the fold at this height, but whole once scrolled to: never cut off at the side.
  await card.getByRole('button', { name: 'Approve' }).scrollIntoViewIfNeeded();
  await expect(card.getByRole('button', { name: 'Approve' })).toBeInViewport({ ratio: 1 });
  await expect(card.getByRole('button', { name: 'Reject' })).toBeInViewport({ ratio: 1 });
  await page.screenshot({ path: path.join(SCREENSHOTS, 'narrow-approvals.png'), fullPage: true });
});

test('at 800×600 the payee book, invoices, apps and tokens tables fit the window too: what they leave out is said in another cell', async ({
  page,
  keystead,
}) => {
  const s = await request(keystead.url, 'POST', '/api/v1/setup', { body: ADMIN });
  const admin = { authToken: s.body.data.authToken, serviceid: s.body.data.serviceId };
  const walletId = (
    await request(keystead.url, 'POST', '/v1/createWallet', { headers: admin, body: { walletTitle: LONG_TITLE, paymail: 'treasury' } })
  ).body.data.walletID;
  await request(keystead.url, 'POST', '/chain/faucet', { headers: admin, body: { walletId, satoshis: 500_000 } });
  const NOTE = 'Monthly facilities invoice, paid on the first working day';
  for (const body of [
    {
      name: 'Northern Region Facilities Management Services Ltd',
      destination: 'facilities.northern.region@supplier-company.example.com',
      note: NOTE,
    },
    { name: 'Alice', destination: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT' },
  ]) {
    const added = await request(keystead.url, 'POST', '/api/v1/payees', { headers: admin, body });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
  }
  const MEMO = 'Consulting services for October 2026, project Northern Lights';
  for (const body of [{ satoshis: 12_345, memo: MEMO }, { satoshis: 500 }]) {
    const made = await request(keystead.url, 'POST', '/v1/invoice', { headers: { ...admin, walletID: walletId }, body });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
  }
  const APP = 'very-long-application-name.notes.example.com:8443';
  await request(keystead.url, 'POST', '/api/v1/apps/decide', { headers: admin, body: { originator: APP, allow: true, walletId } });
  await request(keystead.url, 'POST', '/api/v1/apps/decide', { headers: admin, body: { originator: 'refused.example', allow: false } });
  const certificateType = Buffer.from(Array.from({ length: 32 }, (_, i) => i + 3)).toString('base64');
  const granted = await request(keystead.url, 'POST', '/api/v1/apps/permissions', {
    headers: admin,
    body: { originator: APP, kind: 'certificate', certificateType },
  });
  expect(granted.status, JSON.stringify(granted.body)).toBe(200);
  const issued = await request(keystead.url, 'POST', '/v1/issue', {
    headers: { ...admin, walletID: walletId },
    body: { name: 'Acme Loyalty Points Northern', protocolId: 'KST-20', symbol: 'PTS', tokenSupply: 1000, satsPerToken: 1 },
  });
  expect(issued.status, JSON.stringify(issued.body)).toBe(200);

  await signIn(page, ADMIN.email, ADMIN.password);

  await nav(page).filter({ hasText: 'Payee book' }).click();
  const payees = page.getByRole('table', { name: 'Payees' });
  await expect(payees.getByTestId('payee-row')).toHaveCount(2);
  expect(await overflowing(page)).toEqual([]);
  await buttonsInside(page, 'Payees');
  // The kind and the note, whose columns give way, are said under the name.
  await expect(payees.getByText(`Paymail · ${NOTE}`)).toBeVisible();
  await expect(payees.getByRole('columnheader', { name: 'Note' })).toBeHidden();
  await page.screenshot({ path: path.join(SCREENSHOTS, 'narrow-payees.png'), fullPage: true });

  await nav(page).filter({ hasText: 'Invoices' }).click();
  const invoices = page.getByRole('table', { name: 'Invoices' });
  await expect(invoices.getByTestId('invoice-row')).toHaveCount(2);
  expect(await overflowing(page)).toEqual([]);
  await buttonsInside(page, 'Invoices');
  await expect(invoices.getByText(new RegExp(`^${LONG_TITLE} · ${MEMO} · expires `))).toBeVisible();
  // Below the fold at this height, but whole once scrolled to: never cut off at the side.
  await invoices.getByText('0.00012345 BSV').scrollIntoViewIfNeeded();
  await expect(invoices.getByText('0.00012345 BSV')).toBeInViewport({ ratio: 1 });
  await page.screenshot({ path: path.join(SCREENSHOTS, 'narrow-invoices.png'), fullPage: true });

  await nav(page).filter({ hasText: /^Apps/ }).click();
  await expect(page.getByRole('table', { name: 'Allowed apps' }).getByTestId('allowed-app')).toHaveCount(1);
  await expect(page.getByRole('table', { name: 'App permissions' }).getByTestId('app-permission')).toHaveCount(1);
  await expect(page.getByRole('table', { name: 'Spending authorisations' }).getByTestId('app-spending')).toHaveCount(1);
  expect(await overflowing(page)).toEqual([]);
  for (const table of ['Allowed apps', 'Denied and revoked apps', 'App permissions', 'Spending authorisations']) {
    await buttonsInside(page, table);
  }
  await expect(
    page.getByRole('table', { name: 'Allowed apps' }).getByText(/^0 calls · last call none yet · allowed by ada@acme\.io/),
  ).toBeVisible();
  await page.screenshot({ path: path.join(SCREENSHOTS, 'narrow-apps.png'), fullPage: true });

  await nav(page).filter({ hasText: 'Tokens' }).click();
  await page.getByRole('combobox', { name: 'Wallet', exact: true }).click();
  await page.getByRole('option', { name: new RegExp(`^${LONG_TITLE}`) }).click();
  const holdings = page.getByRole('table', { name: 'Token holdings' });
  await expect(page.getByTestId('held-PTS')).toHaveText('1,000');
  expect(await overflowing(page)).toEqual([]);
  await buttonsInside(page, 'Token holdings');
  // The protocol, whose column gives way, is shown under the token's name.
  await expect(holdings.getByText('KST-20', { exact: true }).filter({ visible: true })).toHaveCount(1);
  await expect(holdings.getByRole('columnheader', { name: 'Protocol' })).toBeHidden();
  await page.getByRole('tab', { name: 'Templates' }).click();
  await expect(page.getByRole('table', { name: 'Installed templates' })).toBeVisible();
  expect(await overflowing(page)).toEqual([]);
  await page.screenshot({ path: path.join(SCREENSHOTS, 'narrow-tokens.png'), fullPage: true });

  // Receive: the address's and the paymail's codes go above their text, and every address keeps its copy button on screen.
  await nav(page).filter({ hasText: 'Receive' }).click();
  await expect(page.getByRole('table', { name: 'Available addresses' }).getByRole('row').first()).toBeVisible();
  await expect(page.getByTestId('copy-field-paymail')).toHaveText('treasury@localhost');
  expect(await overflowing(page)).toEqual([]);
  await buttonsInside(page, 'Available addresses');
});
