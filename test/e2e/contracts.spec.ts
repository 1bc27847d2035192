import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../helpers/headless.js';
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

test('compile a scrypt-ts source: open a .ts file, see the generated sCrypt and the artifact, TypeScript errors in place', async ({
  page,
  keystead,
}) => {
  // A scrypt-ts compile builds a TypeScript program first: seconds, more on a loaded machine.
  test.setTimeout(180_000);
  const compiled = { timeout: 60_000 };
  await request(keystead.url, 'POST', '/api/v1/setup', { body: ADMIN });
  await signIn(page, ADMIN.email, ADMIN.password);
  await nav(page).filter({ hasText: 'Contracts' }).click();
  const counter = readFileSync(path.join(ROOT, 'test', 'fixtures', 'scrypt-ts', 'Counter.ts'));
  await page.locator('input[type=file][accept*=".ts"]').setInputFiles({ name: 'Counter.ts', mimeType: 'text/plain', buffer: counter });
  await expect(page.getByRole('textbox', { name: 'File name' }).first()).toHaveValue('Counter.ts');
  const editor = page.getByLabel('scrypt-ts source');
  await expect(editor).toContainText('export class Counter extends SmartContract');
  await page.getByRole('button', { name: 'Compile' }).click();
  const result = page.getByTestId('compile-result');
  await expect(page.getByTestId('compile-asm')).not.toBeEmpty(compiled);
  await result.getByRole('tab', { name: 'Generated sCrypt' }).click();
  const generated = result.getByRole('textbox', { name: 'Generated sCrypt' });
  await expect(generated).toContainText('contract Counter {');
  // In view, so CodeMirror measures its lines for the screenshot (below the fold it draws the gutter by estimate).
  await generated.scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(SCREENSHOTS, 'contracts-scrypt-ts.png'), fullPage: true });
  for (const [button, name] of [
    ['Download artifact', 'Counter.json'],
    ['Download .scrypt', 'Counter.scrypt'],
    ['Download .transformer.json', 'Counter.transformer.json'],
  ]) {
    const download = page.waitForEvent('download');
    await result.getByRole('button', { name: button }).click();
    expect((await download).suggestedFilename()).toBe(name);
  }
  await result.getByRole('tab', { name: 'Artifact' }).click();
  await expect(page.getByTestId('compile-artifact')).toContainText('"contract": "Counter"');

  // A pasted source with a type error: reported at its TypeScript position and drawn in the editor.
  await editor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(
    "import { assert, method, SmartContract } from 'scrypt-ts';\n\nexport class Bad extends SmartContract {\n  @method()\n  public f(n: bigint) {\n    assert(n == 'one');\n  }\n}\n",
  );
  await page.getByRole('button', { name: 'Compile' }).click();
  await expect(page.getByTestId('compile-errors')).toContainText('Counter.ts:6:12: This comparison appears to be unintentional', compiled);
  await expect(page.locator('.cm-lintRange-error')).toHaveText('n');
  await expect(result).toHaveCount(0);
  // The language switch turns the file back into sCrypt (and the editor with it).
  await page.locator('.mantine-SegmentedControl-label', { hasText: /^sCrypt$/ }).click();
  await expect(page.getByRole('textbox', { name: 'File name' }).first()).toHaveValue('Counter.scrypt');
  await expect(page.getByLabel('sCrypt source')).toBeVisible();

  // A .ts file dropped on the editor opens as scrypt-ts (rather than CodeMirror inserting its text).
  const dropped = await page.evaluateHandle((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'Dropped.ts', { type: 'text/plain' }));
    return dt;
  }, counter.toString('utf8'));
  await page.getByTestId('source-drop').dispatchEvent('drop', { dataTransfer: dropped });
  await expect(page.getByRole('textbox', { name: 'File name' }).first()).toHaveValue('Dropped.ts');
  await expect(page.getByLabel('scrypt-ts source')).toHaveText(/^import \{ assert, hash256/);
});
