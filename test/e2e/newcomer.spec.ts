import path from 'node:path';
import type { Page } from '@playwright/test';
import { ADMIN, request } from '../helpers/http.js';
import { expect, nav, SCREENSHOTS, test } from './fixtures.js';
import { settled, watchRpc } from './settled.js';

/** The label of the focused control (its <label>, aria-label or text), to follow where the keyboard is. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const e = document.activeElement as HTMLInputElement | null;
    if (!e || e === document.body) return '(nothing)';
    return (e.labels?.[0]?.textContent ?? e.getAttribute('aria-label') ?? e.textContent ?? '').replace(/\s*\*$/, '').trim();
  });

test('a new admin’s first steps: errors under their fields with the keyboard on them, a checklist, and coins in the wallet they made', async ({
  page,
  keystead,
}) => {
  // First run, submitted empty: each problem under its field, said once (no alert repeating one of them), and the keyboard on the first.
  await page.goto('/');
  await page.getByRole('button', { name: 'Create organisation' }).click();
  await expect(page.getByLabel(/^Organisation/)).toHaveAttribute('aria-invalid', 'true');
  // The organisation and the e-mail (an empty e-mail is required, not "not a valid e-mail address").
  await expect(page.getByText('Is required.')).toHaveCount(2);
  await expect(page.getByText(/^Must be at least 10 characters/)).toHaveCount(1);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.getByLabel(/^Organisation/)).toBeFocused();

  // Only the password is wrong: the keyboard goes to it (a PasswordInput), not to the page.
  await page.getByLabel(/^Organisation/).fill(ADMIN.organisation);
  await page.getByLabel('E-mail').fill(ADMIN.email);
  await page.getByLabel(/^Password/).fill('short');
  await page.getByLabel('Confirm password').fill('short');
  await page.getByRole('button', { name: 'Create organisation' }).click();
  await expect(page.getByText(/^Must be at least 10 characters/)).toHaveCount(1);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect.poll(() => focused(page)).toBe('Password');
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(ADMIN.password);
  await page.getByLabel('Confirm password').fill(ADMIN.password);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('signed-in-as')).toHaveText(ADMIN.email);

  // The overview's first steps, one per line, numbered.
  const steps = page.getByTestId('getting-started').getByRole('listitem');
  await expect(steps).toHaveCount(3);
  await expect(steps.nth(0)).toContainText('Create a wallet in Wallets (New wallet).');
  await expect(steps.nth(1)).toContainText('Back up its recovery phrase');
  await expect(steps.nth(2)).toContainText('Get test coins');

  // Wallets, empty: it says what to do.
  await nav(page).filter({ hasText: 'Wallets' }).click();
  await expect(page.getByText('No wallets yet. Create your first with New wallet')).toBeVisible();
  await page.getByRole('button', { name: 'New wallet' }).click();
  const dialog = page.getByRole('dialog', { name: 'New wallet' });
  // The dialog's × has a name.
  await expect(dialog.getByRole('button', { name: 'Close' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Create wallet' }).click();
  await expect(dialog.getByText('Is required.')).toBeVisible();
  // After the refusal the keyboard is on the field at fault, inside the dialog, so typing fixes it.
  await expect(dialog.getByLabel(/^Title/)).toBeFocused();
  await page.keyboard.type('Treasury');
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('wallet-row-Treasury')).toBeVisible();
  // The notification can be dismissed by a named button.
  const created = page.locator('.mantine-Notification-root').filter({ hasText: 'Wallet “Treasury” created' });
  await created.getByRole('button', { name: 'Dismiss' }).click();
  await expect(created).toBeHidden();

  // Step 1 is ticked; the rest remain.
  await nav(page).filter({ hasText: 'Overview' }).click();
  await expect(steps.nth(0)).toContainText('Done: you have a wallet (Wallets).');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'newcomer-getting-started.png') });

  // No view makes the user another wallet behind their back (asked with no wallet, the engine makes a "default" one).
  const rpc = watchRpc(page);
  const token = await page.evaluate(() => sessionStorage.getItem('keystead.authToken'));
  const titles = async () =>
    (await request(keystead.url, 'GET', '/v1/wallets', { headers: { authToken: token! } })).body.data.wallets.map(
      (w: { walletTitle: string }) => w.walletTitle,
    );
  for (const label of await nav(page).allTextContents()) {
    await nav(page)
      .filter({ hasText: new RegExp(`^${label}$`) })
      .click();
    await expect(page.getByRole('heading', { level: 2 }).first()).toBeVisible();
    await settled(page, rpc, `the ${label} view`);
    expect(await titles(), `after ${label}`).toEqual(['Treasury']);
  }
  for (const tab of ['Holdings', 'Issue', 'Swaps', 'Ordinals']) {
    await nav(page).filter({ hasText: 'Tokens' }).click();
    await page.getByRole('tab', { name: tab }).click();
    await settled(page, rpc, `the Tokens view's ${tab} tab`);
    expect(await titles(), `after Tokens → ${tab}`).toEqual(['Treasury']);
  }

  // Receive opens on the wallet just made, and makes no other: the test coins go where the user expects.
  await nav(page).filter({ hasText: 'Receive' }).click();
  await expect(page.getByRole('combobox', { name: 'Wallet', exact: true })).toHaveValue(/^Treasury/);
  await expect(page.getByTestId('test-coins')).toContainText('“Treasury” is empty');
  await page.getByTestId('test-coins').getByRole('button', { name: 'Get test coins' }).click();
  await expect(page.getByText(/^100,000 sat of test coins sent to “Treasury”/)).toBeVisible();
  expect(await titles()).toEqual(['Treasury']);

  // With coins, the checklist has done its work.
  await nav(page).filter({ hasText: 'Overview' }).click();
  await expect(page.getByTestId('your-balance')).toContainText('0.001 BSV');
  await expect(page.getByTestId('getting-started')).toHaveCount(0);

  // The one payment waiting in the local mempool is "1 transaction".
  await nav(page).filter({ hasText: 'Network' }).click();
  await expect(page.getByTestId('mempool-size').locator('..')).toHaveText('1 transaction');

  // Send, from the funded wallet: an amount missing is said under Amount, and the keyboard goes there.
  await nav(page).filter({ hasText: 'Send' }).click();
  await expect(page.getByRole('combobox', { name: 'From wallet' })).toHaveValue(/^Treasury/);
  await page.getByLabel(/^Pay to/).fill('1BoatSLRHtKNngkdXEeobR76b53LETtpyT');
  await page.getByRole('button', { name: 'Review payment' }).click();
  const amount = page.getByRole('textbox', { name: /^Amount/ });
  await expect(amount).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText(/^Say how many satoshis to send to 1BoatSLRHtKNngkdXEeobR76b53LETtpyT/)).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(amount).toBeFocused();
  await page.keyboard.type('0.0002');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Confirm and send' })).toBeEnabled();

  // A payment URI with its own amount and a different one typed: the conflict is said under Amount too.
  await page.getByLabel(/^Pay to/).fill('bitcoin:1BoatSLRHtKNngkdXEeobR76b53LETtpyT?sv&amount=0.00005');
  await page.getByRole('button', { name: 'Review payment' }).click();
  await expect(amount).toHaveAttribute('aria-invalid', 'true');
  await expect(
    page.getByText(/^The URI asks for 5000 satoshis and the request says 20000; send one amount, or the same in both\.$/),
  ).toBeVisible();
  await amount.fill('');
  await page.getByRole('button', { name: 'Review payment' }).click();
  await expect(page.getByRole('button', { name: 'Confirm and send' })).toBeEnabled();
  await expect(amount).not.toHaveAttribute('aria-invalid', 'true');
});

test('the keyboard’s first stop skips the header and the menu’s links to the view; the policy’s default is headed once', async ({
  page,
  keystead,
}) => {
  await request(keystead.url, 'POST', '/api/v1/setup', { body: ADMIN });
  await page.goto('/');
  await page.getByLabel('E-mail').fill(ADMIN.email);
  await page.getByLabel(/^Password/).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await nav(page).filter({ hasText: 'Payment policy' }).click();
  const card = page.getByTestId('policy-default');
  await expect(card.getByRole('heading', { name: 'When no rule matches (the default)' })).toBeVisible();
  await expect(card.getByText(/^Otherwise/)).toHaveCount(1);

  // From the top of the page: the first Tab shows "Skip to the view"; Enter, then Tab, is in the view, past 20 links.
  const skip = page.getByRole('button', { name: 'Skip to the view' });
  await expect(skip).not.toBeInViewport();
  await page.reload();
  await expect(card.getByRole('heading', { name: 'When no rule matches (the default)' })).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport({ ratio: 1 });
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => !!document.activeElement?.closest('main'))).toBe(true);
  expect(await page.evaluate(() => !!document.activeElement?.closest('nav, header'))).toBe(false);
  await expect(skip).not.toBeInViewport();
});
