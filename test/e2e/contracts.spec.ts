import path from 'node:path';
import { ADMIN, request } from '../helpers/http.js';
import { expect, nav, SCREENSHOTS, signIn, test } from './fixtures.js';

test('compile a contract in the Contracts view; errors show at their positions', async ({ page, keystead }) => {
  await request(keystead.url, 'POST', '/api/v1/setup', { body: ADMIN });
  await signIn(page, ADMIN.email, ADMIN.password);
  await nav(page).filter({ hasText: 'Contracts' }).click();
  await page.getByRole('button', { name: 'Compile' }).click();
  await expect(page.getByTestId('compile-asm')).toHaveText(/^\$pubKeyHash OP_1 OP_PICK OP_HASH160/);
  await page.screenshot({ path: path.join(SCREENSHOTS, 'contracts.png'), fullPage: true });
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download artifact' }).click();
  expect((await download).suggestedFilename()).toBe('P2PKH.json');

  // The editor is CodeMirror, not a textarea: replace its text the way a user would (select all, type).
  const editor = page.getByLabel('sCrypt source');
  await editor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText('contract Broken {\n  int x\n  public function f(int a) { require(a == nope); }\n}\n');
  await expect(editor).toContainText('require(a == nope)');
  await page.getByRole('button', { name: 'Compile' }).click();
  const errors = page.getByTestId('compile-errors');
  await expect(errors).toContainText('P2PKH.scrypt:3:3: expected');
  // The error is drawn in the editor too: underlined at 3:3 (the word `public`) and flagged in the gutter.
  await expect(page.locator('.cm-lintRange-error')).toHaveText('public');
  await expect(page.locator('.cm-lint-marker-error')).toBeVisible();
  // Clicking the message puts the cursor there.
  await editor.locator('.cm-line').first().click();
  await expect(page.locator('.cm-activeLine')).toHaveText('contract Broken {');
  await errors.getByText('P2PKH.scrypt:3:3').click();
  await expect(page.locator('.cm-activeLine')).toHaveText('  public function f(int a) { require(a == nope); }');
  await expect(editor).toBeFocused();
});
