import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { p2pkhAddressOf } from '../../main/chain/script.js';
import type { Credentials } from '../../main/engine/context.js';
import { meta, testEngine, type TestEngine } from '../helpers/engine.js';
import { ADMIN } from '../helpers/http.js';

/**
 * Any payment to an invoice's address pays the invoice, so nobody but its payer may ever have been given
 * that address: not a donor shown Receive's address, not a P2P payer handed a destination, not a swept key,
 * not the payer of an earlier invoice that expired.
 */
describe('an invoice’s address was never handed to anyone else', () => {
  let t: TestEngine;
  let admin: Credentials;
  let shop: string;
  const run = <T>(p: Promise<{ output: T }>) => p.then((r) => r.output);
  const invoice = (satoshis: number, minutes = 60) =>
    run(t.engine.execute('createInvoice', { walletID: shop, satoshis, expiresInMinutes: minutes }, admin, meta));
  const state = (invoiceId: string) => run(t.engine.execute('paymentRequest', { invoiceId }, {}, { clientId: '10.1.1.1' }));

  beforeEach(async () => {
    t = testEngine();
    const s = (await t.engine.execute('setup', ADMIN, {}, meta)).output;
    admin = { authToken: s.authToken, serviceId: s.serviceId };
    const created = { walletTitle: 'Shop', paymail: 'shop', paymailActivate: true };
    shop = (await run(t.engine.execute('createWallet', created, admin, meta))).walletID;
  });
  afterEach(() => t.engine.close());

  it('not an address Receive showed: a donation to it pays no invoice', async () => {
    const shown = (await run(t.engine.execute('walletAddress', { walletId: shop }, admin, meta))).address;
    const listed = (await run(t.engine.execute('walletAddresses', { walletId: shop }, admin, meta))).addresses;
    const inv = await invoice(50_000);
    assert.ok(![shown, ...listed].includes(inv.address), `${inv.address} was shown by Receive`);
    await t.node.faucet(shown, 60_000);
    assert.equal((await state(inv.invoiceId)).state, 'open', 'the donation pays no invoice');
    await t.node.faucet(inv.address, 50_000);
    assert.equal((await state(inv.invoiceId)).state, 'paid', 'a control: its own payment does');
  });

  it('not a P2P destination handed out, however many were asked for', async () => {
    const handed = new Set<string>();
    for (let i = 0; i < 25; i++) {
      t.clock.now += 1_000;
      handed.add(p2pkhAddressOf(t.engine.paymailHost.p2pDestination('shop@acme.test', { satoshis: 1_000 }).outputs[0].script)!);
    }
    for (let i = 0; i < 5; i++) assert.ok(!handed.has((await invoice(30_000)).address), 'a handed-out destination');
  });

  it('not the address of an earlier invoice, paid, expired or cancelled', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 30; i++) {
      const inv = await invoice(10_000 + i, 1);
      assert.ok(!seen.has(inv.address), `invoice ${i + 1} reuses ${inv.address}`);
      seen.add(inv.address);
      if (i % 3 === 0) await run(t.engine.execute('cancelInvoice', { invoiceId: inv.invoiceId }, admin, meta));
      t.clock.now += 2 * 60_000; // the others expire unpaid
    }
  });
});
