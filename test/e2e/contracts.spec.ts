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

  await page.getByLabel('sCrypt source').fill('contract Broken {\n  int x\n  public function f(int a) { require(a == nope); }\n}\n');
  await page.getByRole('button', { name: 'Compile' }).click();
  await expect(page.getByTestId('compile-errors')).toContainText('P2PKH.scrypt:3:3: expected');
});
