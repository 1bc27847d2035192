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
  await page.getByRole('combobox', { name: 'Wallet' }).click();
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
