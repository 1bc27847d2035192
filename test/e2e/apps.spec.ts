import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { HTTPWalletJSON, MasterCertificate, PrivateKey, ProtoWallet, Utils, WalletClient } from '@bsv/sdk';
import { freePort } from '../helpers/free-port.js';
import { startHeadless } from '../helpers/headless.js';
import { ADMIN, request } from '../helpers/http.js';
import { expect, nav, SCREENSHOTS, signIn, test } from './fixtures.js';

const PASSWORD = 'role-password-1';

/** The organisation set up, with two wallets of the admin's; returns the admin's headers and the wallets' ids. */
async function setUp(url: string) {
  const s = await request(url, 'POST', '/api/v1/setup', { body: ADMIN });
  const admin = { authToken: s.body.data.authToken, serviceid: s.body.data.serviceId };
  const wallet = async (walletTitle: string) =>
    (await request(url, 'POST', '/v1/createWallet', { headers: admin, body: { walletTitle } })).body.data.walletID as string;
  return { admin, treasury: await wallet('Treasury'), payroll: await wallet('Payroll') };
}

test('apps: the listener is off; an app allowed before it calls, with its wallet; revoked with a confirmation; the default wallet; only admins and managers see it', async ({
  page,
  keystead,
}) => {
  const { admin } = await setUp(keystead.url);
  for (const role of ['manager', 'operator', 'viewer']) {
    await request(keystead.url, 'POST', '/api/v1/createUser', {
      headers: admin,
      body: { email: `${role}@acme.io`, password: PASSWORD, role },
    });
  }

  await signIn(page, ADMIN.email, ADMIN.password);
  await nav(page).filter({ hasText: /^Apps/ }).click();
  await expect(page.getByRole('heading', { name: 'Apps', level: 2 })).toBeVisible();
  // Headless without --brc100-listen: no app can call, and the view says how to let them.
  await expect(page.getByTestId('apps-listener-off')).toContainText('--brc100-listen 127.0.0.1:3321');
  await expect(page.getByText('No app has called yet.')).toBeVisible();
  await expect(page.getByTestId('apps-pending-count')).toHaveCount(0);

  // Allow an app before it calls: the API's message shows under the field; its answer is normalised.
  const form = page.getByRole('region', { name: 'Allow an app before it calls' });
  await form.getByLabel(/^App/).fill('https://app.example/path');
  await form.getByRole('button', { name: 'Allow app' }).click();
  await expect(form.getByText('Must be a host name, optionally with a port (example.com, localhost:8080).')).toBeVisible();
  await form.getByLabel(/^App/).fill('App.Example:8080');
  await form.getByRole('combobox', { name: 'Wallet that answers it' }).click();
  await page.getByRole('option', { name: 'Payroll' }).click();
  await form.getByRole('button', { name: 'Allow app' }).click();
  await expect(form.getByLabel(/^App/)).toHaveValue('');

  const allowed = page.getByRole('table', { name: 'Allowed apps' }).getByTestId('allowed-app');
  await expect(allowed).toHaveCount(1);
  await expect(allowed.first()).toContainText('app.example:8080');
  await expect(allowed.first().getByTestId('app-wallet')).toHaveText('Payroll');
  await expect(allowed.first()).toContainText('none yet');
  await expect(allowed.first()).toContainText(ADMIN.email);

  // A second one answered by the default wallet for apps, which the admin then names.
  await form.getByLabel(/^App/).fill('localhost:5173');
  await form.getByRole('button', { name: 'Allow app' }).click();
  const local = allowed.filter({ hasText: 'localhost:5173' });
  await expect(local.getByTestId('app-wallet')).toHaveText('Default wallet for apps (organisation default)');
  const defaults = page.getByRole('region', { name: 'Default wallet for apps' });
  await defaults.getByRole('combobox', { name: 'Answers apps allowed without a wallet of their own' }).click();
  await page.getByRole('option', { name: 'Treasury' }).click();
  await defaults.getByRole('button', { name: 'Save default' }).click();
  await expect(local.getByTestId('app-wallet')).toHaveText('Default wallet for apps (Treasury)');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'apps.png'), fullPage: true });

  // Revoke asks first; Cancel keeps it allowed.
  await allowed.filter({ hasText: 'app.example:8080' }).getByRole('button', { name: 'Revoke app.example:8080' }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke app.example:8080?' });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(allowed).toHaveCount(2);
  await allowed.filter({ hasText: 'app.example:8080' }).getByRole('button', { name: 'Revoke app.example:8080' }).click();
  await confirm.getByRole('button', { name: 'Revoke app' }).click();
  await expect(confirm).toBeHidden();
  await expect(allowed).toHaveCount(1);
  const refused = page.getByRole('table', { name: 'Denied and revoked apps' }).getByTestId('refused-app');
  await expect(refused).toHaveCount(1);
  await expect(refused.first()).toContainText('app.example:8080');
  await expect(refused.first().getByTestId('app-state')).toHaveText('revoked');

  // Allowed again, with its wallet still chosen.
  await refused.first().getByRole('button', { name: 'Allow app.example:8080 again' }).click();
  const again = page.getByRole('dialog', { name: 'Allow app.example:8080' });
  await expect(again.getByRole('combobox', { name: 'Wallet that answers it' })).toHaveValue('Payroll');
  await again.getByRole('button', { name: 'Allow app' }).click();
  await expect(again).toBeHidden();
  await expect(allowed).toHaveCount(2);
  await expect(refused).toHaveCount(0);

  // A manager decides about apps too but sees the default wallet without changing it; operators and viewers have no Apps view.
  await page.getByRole('button', { name: 'Log out' }).click();
  await signIn(page, 'manager@acme.io', PASSWORD);
  await nav(page).filter({ hasText: /^Apps/ }).click();
  await expect(page.getByTestId('apps-default-wallet')).toContainText('answered by');
  await expect(page.getByRole('button', { name: 'Save default' })).toHaveCount(0);
  await expect(page.getByRole('table', { name: 'Allowed apps' }).getByTestId('allowed-app')).toHaveCount(2);
  for (const role of ['operator', 'viewer']) {
    await page.getByRole('button', { name: 'Log out' }).click();
    await signIn(page, `${role}@acme.io`, PASSWORD);
    await expect(nav(page).filter({ hasText: 'Overview' })).toBeVisible();
    await expect(nav(page).filter({ hasText: /^Apps/ })).toHaveCount(0);
  }
});

test.describe('with the BRC-100 listener on', () => {
  let port = 0;
  // This instance listens for apps; the page and the app's WalletClient reach the same one.
  test.use({
    // eslint-disable-next-line no-empty-pattern
    keystead: async ({}, use) => {
      port = await freePort();
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'keystead-e2e-'));
      const host = await startHeadless({
        dataDir,
        password: 'e2e-db-password',
        args: ['--mine-interval', '0', '--brc100-listen', `127.0.0.1:${port}`],
      });
      await use(host);
      await host.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  });

  test("apps: a new app's first call waits, shows at once with a badge, and goes on when allowed with the chosen wallet; a denied one is refused", async ({
    page,
    keystead,
  }) => {
    const { admin, payroll } = await setUp(keystead.url);
    await signIn(page, ADMIN.email, ADMIN.password);
    await nav(page).filter({ hasText: /^Apps/ }).click();
    await expect(page.getByTestId('apps-listener')).toContainText(`http://127.0.0.1:${port}`);
    await expect(page.getByText('No app has called yet.')).toBeVisible();

    // A real client: @bsv/sdk's WalletClient over its JSON-over-HTTP substrate, as an app on this computer.
    const app = new WalletClient(new HTTPWalletJSON('app.example', `http://127.0.0.1:${port}`), 'app.example');
    const answer = app.getPublicKey({ identityKey: true });
    // Awaited below; if a step before fails, its refusal at the wait's deadline is not a second failure.
    answer.catch(() => undefined);

    // It appears without a reload, first, with a count in the navigation.
    const card = page.getByRole('region', { name: 'app.example' });
    await expect(card).toBeVisible();
    await expect(page.getByTestId('apps-pending-count')).toHaveText('1');
    await card.getByRole('combobox', { name: 'Wallet that answers it' }).click();
    await page.getByRole('option', { name: 'Payroll' }).click();
    await card.getByRole('button', { name: 'Allow' }).click();

    // Its waiting call goes on, answered by Payroll (the same key a second call gets), and it is listed as allowed.
    const { publicKey } = await answer;
    expect(publicKey).toMatch(/^0[23][0-9a-f]{64}$/);
    expect((await app.getPublicKey({ identityKey: true })).publicKey).toBe(publicKey);
    await expect(card).toHaveCount(0);
    await expect(page.getByTestId('apps-pending-count')).toHaveCount(0);
    const allowed = page.getByRole('table', { name: 'Allowed apps' }).getByTestId('allowed-app');
    await expect(allowed.first()).toContainText('app.example');
    await expect(allowed.first().getByTestId('app-wallet')).toHaveText('Payroll');
    const listed = await request(keystead.url, 'GET', '/api/v1/apps', { headers: admin });
    expect(listed.body.data.apps[0]).toMatchObject({ originator: 'app.example', state: 'allowed', walletId: payroll });

    // Another app is denied: its waiting call is refused, and it is listed as denied.
    const other = new WalletClient(new HTTPWalletJSON('other.example', `http://127.0.0.1:${port}`), 'other.example');
    const refusedCall = other.getPublicKey({ identityKey: true }).then(
      () => 'answered',
      () => 'refused',
    );
    const otherCard = page.getByRole('region', { name: 'other.example' });
    await otherCard.getByRole('button', { name: 'Deny' }).click();
    expect(await refusedCall).toBe('refused');
    const refused = page.getByRole('table', { name: 'Denied and revoked apps' }).getByTestId('refused-app');
    await expect(refused.filter({ hasText: 'other.example' }).getByTestId('app-state')).toHaveText('denied');
  });
  test("apps: an allowed app's use of a level-1 protocol waits as a permission request with a badge, and goes on when granted; the grant is revoked; a monthly spending authorisation is set", async ({
    page,
    keystead,
  }) => {
    const { admin, payroll } = await setUp(keystead.url);
    await request(keystead.url, 'POST', '/api/v1/apps/decide', {
      headers: admin,
      body: { originator: 'notes.example', allow: true, walletId: payroll },
    });
    await signIn(page, ADMIN.email, ADMIN.password);
    await nav(page).filter({ hasText: /^Apps/ }).click();
    const permissions = page.getByRole('region', { name: 'Permissions' });
    await expect(permissions.getByText('No permission is granted or denied yet.')).toBeVisible();

    const app = new WalletClient(new HTTPWalletJSON('notes.example', `http://127.0.0.1:${port}`), 'notes.example');
    const encrypted = app.encrypt({ protocolID: [1, 'private notes'], keyID: '1', plaintext: [1, 2, 3] });
    encrypted.catch(() => undefined);
    const asked = permissions.getByTestId('permission-request');
    await expect(asked).toContainText('notes.example asks for protocol [1, "private notes"]');
    await expect(page.getByTestId('permission-requests-count')).toHaveText('1');
    await asked.getByRole('button', { name: 'Grant' }).click();
    expect((await encrypted).ciphertext.length).toBeGreaterThan(3);
    await expect(asked).toHaveCount(0);
    const granted = page.getByRole('table', { name: 'App permissions' }).getByTestId('app-permission');
    await expect(granted.first().getByTestId('permission-state')).toHaveText('granted');
    await expect(granted.first()).toContainText(ADMIN.email);

    await granted
      .first()
      .getByRole('button', { name: /^Revoke protocol/ })
      .click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke permission' }).click();
    await expect(granted).toHaveCount(0);

    const spending = page.getByRole('table', { name: 'Spending authorisations' }).getByTestId('app-spending');
    await spending
      .filter({ hasText: 'notes.example' })
      .getByRole('button', { name: 'Set the spending authorisation of notes.example' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Monthly spending of notes.example' });
    await dialog.getByLabel('Satoshis a month').fill('5000');
    await dialog.getByRole('button', { name: 'Save authorisation' }).click();
    await expect(dialog).toBeHidden();
    await expect(spending.filter({ hasText: 'notes.example' }).getByTestId('spending-limit')).toHaveText('5,000 sat');
  });
  test('apps: the certificates a wallet holds are listed with their field names and the app that acquired them; an admin relinquishes one', async ({
    page,
    keystead,
  }) => {
    const { admin, payroll } = await setUp(keystead.url);
    await request(keystead.url, 'POST', '/api/v1/apps/decide', {
      headers: admin,
      body: { originator: 'id.example', allow: true, walletId: payroll },
    });
    const type = Utils.toBase64(Array.from({ length: 32 }, (_, i) => i + 3));
    await request(keystead.url, 'POST', '/api/v1/apps/permissions', {
      headers: admin,
      body: { originator: 'id.example', kind: 'certificate', certificateType: type },
    });
    const app = new WalletClient(new HTTPWalletJSON('id.example', `http://127.0.0.1:${port}`), 'id.example');
    const { publicKey } = await app.getPublicKey({ identityKey: true });
    const cert = await MasterCertificate.issueCertificateForSubject(
      new ProtoWallet(PrivateKey.fromRandom()),
      publicKey,
      { email: 'ada@acme.io', name: 'Ada' },
      type,
      async () => `${'00'.repeat(32)}.0`,
    );
    await app.acquireCertificate({
      acquisitionProtocol: 'direct',
      type,
      certifier: cert.certifier,
      serialNumber: cert.serialNumber,
      revocationOutpoint: cert.revocationOutpoint,
      signature: cert.signature!,
      fields: cert.fields,
      keyringRevealer: 'certifier',
      keyringForSubject: cert.masterKeyring,
    });

    await signIn(page, ADMIN.email, ADMIN.password);
    await nav(page).filter({ hasText: /^Apps/ }).click();
    const held = page.getByRole('table', { name: 'App certificates' }).getByTestId('app-certificate');
    await expect(held).toHaveCount(1);
    await expect(held.first()).toContainText('Payroll');
    await expect(held.first()).toContainText('id.example');
    await expect(held.first()).toContainText('email');
    await expect(held.first()).not.toContainText('ada@acme.io');
    // At 800×600 the table fits the view, its Relinquish button on screen: it never scrolls inside itself.
    await page.setViewportSize({ width: 800, height: 600 });
    const table = page.getByRole('table', { name: 'App certificates' });
    await expect
      .poll(() =>
        table.evaluate((t) => {
          for (let e = t.parentElement; e; e = e.parentElement)
            if (/(auto|scroll)/.test(getComputedStyle(e).overflowX)) return e.scrollWidth - e.clientWidth;
          return 0;
        }),
      )
      .toBeLessThanOrEqual(1);
    const relinquish = held.first().getByRole('button', { name: 'Relinquish' });
    expect((await relinquish.boundingBox())!.x + (await relinquish.boundingBox())!.width).toBeLessThanOrEqual(800);
    await page.setViewportSize({ width: 1280, height: 800 });
    await held.first().getByRole('button', { name: 'Relinquish' }).click();
    await page
      .getByRole('dialog', { name: 'Relinquish this certificate?' })
      .getByRole('button', { name: 'Relinquish certificate' })
      .click();
    await expect(held).toHaveCount(0);
    expect((await app.listCertificates({ certifiers: [], types: [] })).totalCertificates).toBe(0);
  });
});
