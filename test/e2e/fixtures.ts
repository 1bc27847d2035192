import { expect, test as base, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startHeadless, type Headless } from '../helpers/headless.js';

/** Each test gets its own headless Keystead (fresh encrypted data dir, free port) and a page pointed at it. */
export const test = base.extend<{ keystead: Headless }>({
  // Playwright reads a fixture's dependencies from this destructuring pattern; this one has none.
  // eslint-disable-next-line no-empty-pattern
  keystead: async ({}, use) => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'keystead-e2e-'));
    const host = await startHeadless({ dataDir, password: 'e2e-db-password', args: ['--mine-interval', '0'] });
    await use(host);
    await host.stop();
    rmSync(dataDir, { recursive: true, force: true });
  },
  baseURL: async ({ keystead }, use) => use(keystead.url),
});

export { expect };

export async function signIn(page: Page, email: string, password: string) {
  await page.goto('/');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByTestId('signed-in-as')).toHaveText(email);
}

export const nav = (page: Page) => page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link');

export const SCREENSHOTS = path.resolve(import.meta.dirname ?? __dirname, '..', 'output', 'screenshots');
