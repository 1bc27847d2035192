import path from 'node:path';
import { PrivateKey } from '@bsv/sdk';
import { ADMIN, request } from '../helpers/http.js';
import { expect, nav, SCREENSHOTS, signIn, test } from './fixtures.js';

const PASSWORD = 'role-password-1';

test('policies and approvals: an admin writes a rule, an operator’s payment waits, a manager approves and it is sent', async ({
  page,
  keystead,
}) => {
  const s = await request(keystead.url, 'POST', '/api/v1/setup', { body: ADMIN });
  const admin = { authToken: s.body.data.authToken, serviceid: s.body.data.serviceId };
  for (const role of ['manager', 'operator']) {
    await request(keystead.url, 'POST', '/api/v1/createUser', {
      headers: admin,
      body: { email: `${role}@acme.io`, password: PASSWORD, role },
    });
  }
  const op = (await request(keystead.url, 'POST', '/api/v1/login', { body: { email: 'operator@acme.io', password: PASSWORD } })).body.data;
  const operator = { authToken: op.authToken, serviceid: admin.serviceid };
  const walletId = (await request(keystead.url, 'POST', '/v1/createWallet', { headers: operator, body: { walletTitle: 'Ops' } })).body.data
    .walletID;
  const { address } = (await request(keystead.url, 'GET', '/v1/address', { headers: { ...operator, walletID: walletId } })).body.data;
  await request(keystead.url, 'POST', '/chain/faucet', { headers: admin, body: { address, satoshis: 100_000 } });

  // The admin writes "payments over 0.0001 BSV need 1 approval from managers"; its words read as it is typed.
  await signIn(page, ADMIN.email, ADMIN.password);
  await nav(page).filter({ hasText: 'Payment policy' }).click();
  await expect(page.getByTestId('policy-in-force')).toContainText('No policy written yet');
  await page.getByRole('button', { name: 'Add rule' }).click();
  await page.getByRole('checkbox', { name: 'Amount over' }).check();
  // A ticked condition that is not an amount is refused, never dropped (which would make the rule cover every payment).
  await page.getByLabel('Over', { exact: true }).fill('-5');
  await page.getByRole('button', { name: 'Save policy' }).click();
  await expect(page.getByTestId('policy-error')).toContainText('Rule 1: “Amount over” is not an amount');
  await expect(page.getByTestId('policy-in-force')).toContainText('No policy written yet');
  await page.getByLabel('Over', { exact: true }).fill('0.0001');
  await expect(page.getByTestId('rule-words')).toHaveText('Anyone: payments over 0.0001 BSV need 1 approval from managers');
  await page.getByRole('button', { name: 'Save policy' }).click();
  await expect(page.getByTestId('policy-in-force')).toContainText('Anyone: payments over 0.0001 BSV need 1 approval from managers');
  await expect(page.getByTestId('policy-in-force')).toContainText('Otherwise: payments are allowed');
  await expect(page.getByTestId('policy-versions')).toContainText('active');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'policies.png'), fullPage: true });
  await page.getByRole('button', { name: 'Log out' }).click();

  // The operator's review names the rule before Confirm; Confirm answers "awaiting approval", not an error.
  await signIn(page, 'operator@acme.io', PASSWORD);
  await nav(page).filter({ hasText: 'Send' }).click();
  const payee = PrivateKey.fromRandom().toAddress();
  // The payee is in the organisation's book: the approver's confirmation names it.
  await request(keystead.url, 'POST', '/api/v1/payees', { headers: admin, body: { name: 'Acme Supplies', destination: payee } });
  await page.getByLabel(/^Pay to/).fill(payee);
  await page.getByLabel(/^Amount \(BSV\)/).fill('0.0002');
  await page.getByRole('combobox', { name: 'From wallet' }).click();
  await page.getByRole('option', { name: /^Ops/ }).click();
  await page.getByRole('button', { name: 'Review payment' }).click();
  await expect(page.getByTestId('review-policy')).toContainText('This payment needs 1 approval');
  await page.getByRole('button', { name: 'Confirm and send' }).click();
  const awaiting = page.getByTestId('payment-awaiting-approval');
  await expect(awaiting).toContainText('Awaiting approval');
  const approvalId = (await page.getByTestId('awaiting-approval-id').textContent())!;
  expect(approvalId).toMatch(/^apr_/);
  await expect(awaiting.getByRole('link', { name: 'Approvals' })).toHaveAttribute('href', '#/approvals');
  // History shows the wallet's payment as awaiting approval, above its transactions, with a link to Approvals.
  await nav(page).filter({ hasText: 'History' }).click();
  await page.getByRole('combobox', { name: 'Wallet', exact: true }).click();
  await page.getByRole('option', { name: /^Ops/ }).click();
  const waiting = page.getByTestId('history-approvals').locator(`[data-approval-id="${approvalId}"]`);
  await expect(waiting.getByTestId('history-approval-state')).toHaveText('awaiting approval');
  await expect(waiting).toContainText('0.0002 BSV (20,000 sat)');
  await expect(waiting.getByRole('link', { name: 'Approvals' })).toHaveAttribute('href', '#/approvals');
  await page.getByRole('button', { name: 'Log out' }).click();

  // The manager sees a count in the navigation, the review, and approves: it is sent.
  await signIn(page, 'manager@acme.io', PASSWORD);
  await expect(page.getByTestId('approvals-count')).toHaveText('1');
  await nav(page).filter({ hasText: 'Approvals' }).click();
  const card = page.locator(`[data-approval-id="${approvalId}"]`);
  await expect(card.getByTestId('approval-amount')).toContainText('0.0002 BSV (20,000 sat)');
  await expect(card).toContainText('operator@acme.io');
  await expect(card.getByTestId('approval-rule')).toContainText('1 approval from managers');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'approvals.png'), fullPage: true });
  await expect(card.getByTestId('approval-wallet')).toHaveText('from wallet “Ops”');
  // Approving releases money: a confirmation names the amount, the payee and the wallet first, and Cancel sends nothing.
  await card.getByRole('button', { name: 'Approve' }).click();
  const confirm = page.getByRole('dialog', { name: 'Approve this payment?' });
  await expect(confirm.getByTestId('confirm-approval-amount')).toHaveText('0.0002 BSV (20,000 sat)');
  await expect(confirm.getByTestId('confirm-approval-payee')).toHaveText(`Acme Supplies (${payee})`);
  await expect(confirm.getByTestId('confirm-approval-wallet')).toHaveText(`“Ops” (${walletId})`);
  await expect(confirm.getByTestId('confirm-approval-initiator')).toHaveText('operator@acme.io');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  const still = await request(keystead.url, 'GET', `/api/v1/approvals/${approvalId}`, { headers: admin });
  expect([still.body.data.state, still.body.data.votes]).toEqual(['awaiting_approval', []]);
  await expect(page.getByTestId('approvals-count')).toHaveText('1');
  await card.getByRole('button', { name: 'Approve' }).click();
  await confirm.getByRole('button', { name: 'Approve and send' }).click();
  await expect(page.getByText('Approved: the payment was sent.')).toBeVisible();
  await expect(page.getByTestId('approvals-count')).toBeHidden();
  await page.getByText('All', { exact: true }).click();
  await expect(card.getByTestId('approval-state')).toHaveText('sent');
  await expect(card.getByTestId('approval-txid')).toHaveText(/^[0-9a-f]{64}$/);
});
