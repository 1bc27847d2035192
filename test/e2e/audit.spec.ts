import { test as base } from '@playwright/test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStore } from '../../main/store/database.js';
import { startHeadless, type Headless } from '../helpers/headless.js';
import { ADMIN, request } from '../helpers/http.js';
import { expect, nav, SCREENSHOTS, signIn } from './fixtures.js';

const PASSWORD = 'e2e-audit-db-password';

/** A headless Keystead whose data dir the test also opens (with the database key), to tamper with the audit log. */
const test = base.extend<{ keystead: Headless & { dataDir: string } }>({
  // eslint-disable-next-line no-empty-pattern
  keystead: async ({}, use) => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'keystead-e2e-audit-'));
    const host = await startHeadless({ dataDir, password: PASSWORD, args: ['--mine-interval', '0'] });
    await use(Object.assign(host, { dataDir }));
    await host.stop();
    rmSync(dataDir, { recursive: true, force: true });
  },
  baseURL: async ({ keystead }, use) => use(keystead.url),
});

test('an admin verifies the audit trail, sees the entry someone edited in the database, and exports it', async ({ page, keystead }) => {
  await request(keystead.url, 'POST', '/api/v1/setup', { body: ADMIN });
  await signIn(page, ADMIN.email, ADMIN.password);
  await nav(page).filter({ hasText: 'Audit log' }).click();
  await expect(page.getByRole('heading', { name: 'Tamper evidence' })).toBeVisible();

  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The audit trail holds' })).toBeVisible();

  const store = openStore({ dataDir: keystead.dataDir, password: PASSWORD });
  try {
    store.db.prepare("UPDATE audit_log SET action = 'logout' WHERE id = 1").run();
  } finally {
    store.close();
  }
  await page.getByRole('button', { name: 'Verify' }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'does not hold from entry 1' });
  await expect(alert).toBeVisible();
  await expect(alert).toContainText('hash of entry 1 does not match its content');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'audit-verify-mismatch.png'), fullPage: true });

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const csv = readFileSync(await (await downloading).path(), 'utf8');
  expect(csv.split('\r\n')[0]).toContain('prev_hash,hash');

  const anchor = page.getByRole('switch', { name: /Anchor checkpoints on chain/ });
  await expect(anchor).not.toBeChecked();
  await anchor.click({ force: true });
  await expect(anchor).toBeChecked();
});
