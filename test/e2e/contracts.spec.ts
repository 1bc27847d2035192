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

test('transpile Solidity in the Contracts view, see unsupported constructs where they are, compile the sCrypt', async ({
  page,
  keystead,
}) => {
  await request(keystead.url, 'POST', '/api/v1/setup', { body: ADMIN });
  await signIn(page, ADMIN.email, ADMIN.password);
  await nav(page).filter({ hasText: 'Contracts' }).click();
  await page.getByRole('tab', { name: 'Solidity' }).click();
  await page.getByRole('button', { name: 'Transpile' }).click();
  const result = page.getByTestId('transpile-result');
  await expect(result.getByLabel('Transpiled sCrypt')).toContainText('HashedMap<PubKeyHash, int> balances;');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'contracts-solidity.png'), fullPage: true });

  // Into the sCrypt tab, where it compiles.
  await result.getByRole('button', { name: 'Open in the sCrypt editor' }).click();
  await expect(page.getByRole('tab', { name: 'sCrypt' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('textbox', { name: 'File name' }).first()).toHaveValue('TokenLedger.scrypt');
  await expect(page.getByLabel('sCrypt source')).toContainText('contract TokenLedger');
  await page.getByRole('button', { name: 'Compile' }).click();
  await expect(page.getByTestId('compile-result')).toContainText('TokenLedger');

  // An unsupported construct: reported at its line and column, drawn in the editor, no sCrypt without force.
  await page.getByRole('tab', { name: 'Solidity' }).click();
  const editor = page.getByLabel('Solidity source');
  await editor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText('contract Clock {\n  uint t;\n  function tick() public { t = block.timestamp; }\n}\n');
  await page.getByRole('button', { name: 'Transpile' }).click();
  const logs = page.getByTestId('transpile-logs');
  await expect(logs).toContainText('TokenLedger.sol:3:32: error: unsupported expression: `block.timestamp`');
  await expect(page.locator('.cm-lintRange-error').first()).toHaveText('block');
  await expect(result).toHaveCount(0);
  await page.getByRole('switch', { name: 'Keep the sCrypt despite errors' }).check({ force: true });
  await page.getByRole('button', { name: 'Transpile' }).click();
  await expect(result.getByLabel('Transpiled sCrypt')).toContainText('contract Clock');
});
