import { ADMIN, request } from '../helpers/http.js';
import { expect, nav, signIn, test } from './fixtures.js';
import { settled, watchRpc } from './settled.js';

/** Controls without a name a screen reader could read out (label, aria-label, aria-labelledby, or text). */
function unnamedControls(): string[] {
  const named = (el: HTMLElement) => {
    const labelled = el.getAttribute('aria-labelledby');
    if (labelled && labelled.split(/\s+/).some((id) => document.getElementById(id)?.textContent?.trim())) return true;
    if (el.getAttribute('aria-label')?.trim() || el.getAttribute('title')?.trim()) return true;
    if ((el as HTMLInputElement).labels?.length && [...(el as HTMLInputElement).labels!].some((l) => l.textContent?.trim())) return true;
    return el.tagName === 'BUTTON' || el.tagName === 'A' ? !!el.textContent?.trim() : false;
  };
  const visible = (el: HTMLElement) => el.offsetParent !== null || el.getClientRects().length > 0;
  return [...document.querySelectorAll<HTMLElement>('input:not([type=hidden]), textarea, select, button, a[href]')]
    .filter((el) => visible(el) && !named(el))
    .map((el) => el.outerHTML.slice(0, 120));
}

test('every view: each control has a name, and at 200 % zoom the page never scrolls sideways', async ({ page, keystead }) => {
  const s = await request(keystead.url, 'POST', '/api/v1/setup', { body: ADMIN });
  const auth = { authToken: s.body.data.authToken };
  const w = (
    await request(keystead.url, 'POST', '/v1/createWallet', {
      body: { walletTitle: 'Treasury with a long name', paymail: 'treasury' },
      headers: auth,
    })
  ).body.data.walletID;
  await request(keystead.url, 'POST', '/chain/faucet', { body: { walletId: w, satoshis: 123_456 }, headers: auth });
  // 640 × 400 CSS pixels is what a 1280 × 800 window shows at 200 % zoom.
  await page.setViewportSize({ width: 640, height: 400 });
  const rpc = watchRpc(page);
  await signIn(page, ADMIN.email, ADMIN.password);
  const labels = await nav(page).allTextContents();
  expect(labels.length).toBeGreaterThan(10);
  for (const label of labels) {
    const view = { label };
    await nav(page)
      .filter({ hasText: new RegExp(`^${label}$`) })
      .click();
    await expect(page.getByRole('heading', { level: 2 }).first()).toBeVisible();
    await settled(page, rpc, `the ${label} view`);
    expect(await page.evaluate(unnamedControls), `${view.label}: controls without a name`).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `${view.label} scrolls sideways by ${overflow}px at 200 % zoom`).toBeLessThanOrEqual(0);
  }
});

test('dialogs keep the keyboard inside them and give it back when closed', async ({ page, keystead }) => {
  await request(keystead.url, 'POST', '/api/v1/setup', { body: ADMIN });
  await signIn(page, ADMIN.email, ADMIN.password);
  await nav(page).filter({ hasText: 'Wallets' }).click();
  const opener = page.getByRole('button', { name: 'New wallet' });
  await opener.click();
  const dialog = page.getByRole('dialog', { name: 'New wallet' });
  await expect(dialog).toBeVisible();
  for (let i = 0; i < 25; i++) {
    await page.keyboard.press('Tab');
    expect(await dialog.evaluate((d) => d.contains(document.activeElement)), `Tab ${i + 1} left the dialog`).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
});
