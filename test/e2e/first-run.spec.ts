import path from 'node:path';
import { expect, SCREENSHOTS, test } from './fixtures.js';

test('first run through the UI ends logged in, and the session survives a logout/login', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // Console lines for the 400/401 this test provokes on purpose are expected; script errors are not.
  page.on('console', (m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource') && errors.push(m.text()));

  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Set up your organisation' })).toBeVisible();

  await page.getByLabel('Organisation').fill('Acme Ltd');
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByLabel('E-mail').fill('ada@acme.io');
  await page.getByLabel(/^Password/).fill('short');
  await page.getByLabel('Confirm password').fill('short');
  await page.getByRole('button', { name: 'Create organisation' }).click();
  // The problem is said under its field, in a sentence, without the API's field prefix.
  await expect(page.getByText(/^Must be at least 10 characters/)).toBeVisible();

  await page.getByLabel(/^Password/).fill('correct-horse-1');
  await page.getByLabel('Confirm password').fill('correct-horse-1');
  await page.getByRole('button', { name: 'Create organisation' }).click();

  await expect(page.getByTestId('org-name')).toHaveText('Acme Ltd');
  await expect(page.getByTestId('signed-in-as')).toHaveText('ada@acme.io');
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await expect(page.getByText('Admin', { exact: true }).first()).toBeVisible();
  // The first thing asked of a new organisation: a wallet, and its recovery phrase written down.
  await expect(page.getByTestId('getting-started')).toContainText('Back up its recovery phrase');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'first-run-logged-in.png'), fullPage: true });

  // A reload keeps the tab's session.
  await page.reload();
  await expect(page.getByTestId('org-name')).toHaveText('Acme Ltd');

  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
  await page.getByLabel('E-mail').fill('ada@acme.io');
  await page.getByLabel(/^Password/).fill('wrong-pass-1');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('alert')).toContainText('e-mail or password is not correct');
  await page.getByLabel(/^Password/).fill('correct-horse-1');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByTestId('signed-in-as')).toHaveText('ada@acme.io');

  expect(errors, 'no page errors').toEqual([]);
});

test('the UI is served with a CSP that blocks injected inline scripts', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Set up your organisation' })).toBeVisible();
  const blocked = await page.evaluate(
    () =>
      new Promise<boolean>((resolve) => {
        document.addEventListener('securitypolicyviolation', () => resolve(true), { once: true });
        const s = document.createElement('script');
        s.textContent = 'window.__injected = true';
        document.body.appendChild(s);
        setTimeout(() => resolve(false), 1000);
      }),
  );
  expect(blocked).toBe(true);
  expect(await page.evaluate(() => (window as unknown as { __injected?: boolean }).__injected)).toBeUndefined();
});
