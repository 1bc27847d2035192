import { base32Decode, totp } from '../../main/engine/auth/totp.js';
import { ADMIN, request } from '../helpers/http.js';
import { expect, nav, signIn, test } from './fixtures.js';

const SAM = { email: 'sam@acme.io', password: 'sam-password-1' };
/** What the authenticator app would show `steps` steps from now (each user spends the current and next step at most). */
const codeAt = (secret: string, steps = 0) => totp(base32Decode(secret), Date.now() + steps * 30_000);

test('a user turns on two-step sign-in, signs in with a code, turns it off; an admin resets it', async ({ page, keystead }) => {
  const setup = await request(keystead.url, 'POST', '/api/v1/setup', { body: ADMIN });
  const admin = { authToken: setup.body.data.authToken, serviceid: setup.body.data.serviceId };
  await request(keystead.url, 'POST', '/api/v1/createUser', { body: { ...SAM, role: 'operator' }, headers: admin });

  /** Profile → Two-step sign-in → turn on, confirm with the app's current code; returns the secret and recovery codes. */
  async function enrol() {
    await nav(page).filter({ hasText: 'Profile' }).click();
    const section = page.getByTestId('two-step');
    await expect(section.getByText('Off', { exact: true })).toBeVisible();
    await section.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
    await expect(section.getByTestId('qr-code')).toBeVisible();
    const secret = (await section.getByTestId('copy-field-secret').textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await section.getByLabel('Code from the app').fill(codeAt(secret));
    await section.getByRole('button', { name: 'Confirm' }).click();
    const dialog = page.getByRole('dialog', { name: 'Your recovery codes' });
    await expect(dialog).toContainText('cannot show them again');
    const codes = (await dialog.getByTestId('revealed-secret').textContent())!.trim().split(/\s+/);
    expect(codes).toHaveLength(10);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(section.getByText('On', { exact: true })).toBeVisible();
    await expect(section).toContainText('10 unused recovery code(s) left');
    return { secret, codes };
  }

  await signIn(page, SAM.email, SAM.password);
  const first = await enrol();

  // Sign-in now asks for the code after the password.
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.getByLabel('E-mail').fill(SAM.email);
  await page.getByLabel(/^Password/).fill(SAM.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  const code = page.getByTestId('login-otp');
  await expect(code).toBeVisible();
  await code.fill('000000' === codeAt(first.secret) ? '111111' : '000000');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert')).toContainText('not correct');
  await code.fill(codeAt(first.secret, 1));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByTestId('signed-in-as')).toHaveText(SAM.email);

  // Turning it off takes a code (here a recovery code).
  await nav(page).filter({ hasText: 'Profile' }).click();
  const section = page.getByTestId('two-step');
  await section.getByLabel(/^Code to turn it off/).fill(first.codes[0]);
  await section.getByRole('button', { name: 'Turn off' }).click();
  await expect(section.getByText('Off', { exact: true })).toBeVisible();

  // On again (a new secret), then lost: the admin resets it.
  await enrol();
  await page.getByRole('button', { name: 'Log out' }).click();
  await signIn(page, ADMIN.email, ADMIN.password);
  await nav(page).filter({ hasText: 'Users' }).click();
  const row = page.getByTestId(`user-row-${SAM.email}`);
  await expect(row).toContainText('On');
  await row.getByRole('button', { name: 'Reset two-step sign-in' }).click();
  const confirm = page.getByRole('dialog', { name: 'Reset two-step sign-in' });
  await confirm.getByRole('button', { name: 'Reset two-step sign-in' }).click();
  await expect(confirm).toBeHidden();
  await expect(row).toContainText('Off');
  await expect(row.getByRole('button', { name: 'Reset two-step sign-in' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Log out' }).click();
  await signIn(page, SAM.email, SAM.password);
});
