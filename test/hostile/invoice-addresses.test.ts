import assert from 'node:assert/strict';
import { Mnemonic } from '@bsv/sdk';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { LocalNode } from '../../main/chain/local/local-node.js';
import { LocalProvider } from '../../main/chain/local/local-provider.js';
import { p2pkhAddressOf } from '../../main/chain/script.js';
import type { ChainProvider } from '../../main/chain/types.js';
import type { Credentials } from '../../main/engine/context.js';
import { createEngine } from '../../main/engine/engine.js';
import { openStore } from '../../main/store/database.js';
import { meta, testEngine, type TestEngine } from '../helpers/engine.js';
import { ADMIN } from '../helpers/http.js';
import { tempDir } from '../helpers/tmp.js';

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

/**
 * On the network the books learn of payments by scanning (no node pushes them), and an invoice's address may
 * lie past the gap limit (every address within it was handed out). The scan must still look there: an
 * invoice paid while Keystead was closed is found when it opens.
 */
describe('an invoice past the gap limit is found by the scan', () => {
  it('paid while closed, booked and marked paid on the next start', async () => {
    const dataDir = tempDir();
    const node = LocalNode.open({ dataDir, password: 'pw' });
    // Polled, as on the network: the node's announcements do not reach the books.
    const polled: ChainProvider = Object.assign(Object.create(new LocalProvider(node, () => null)) as ChainProvider, { events: undefined });
    const config = { version: 'test', network: 'local', sessionTtlMs: 3600_000, paymailDomain: 'acme.test', broadcastWindowMs: 30_000 };
    const open = async () => {
      const engine = createEngine({ store: openStore({ dataDir, password: 'pw' }), chain: polled, config, syncIntervalMs: 0 });
      await engine.ready;
      return engine;
    };
    let engine = await open();
    try {
      const s = (await engine.execute('setup', ADMIN, {}, meta)).output;
      const who = { authToken: s.authToken, serviceId: s.serviceId };
      const walletID = (await engine.execute('createWallet', { walletTitle: 'Shop' }, who, meta)).output.walletID;
      const invoices = [];
      for (let i = 0; i < 26; i++)
        invoices.push((await engine.execute('createInvoice', { walletID, satoshis: 1_000 + i, expiresInMinutes: 600 }, who, meta)).output);
      const last = invoices.at(-1)!;
      engine.close();
      const paid = await node.faucet(last.address, last.satoshis);
      assert.equal(paid.status, 'accepted');
      engine = await open();
      const state = (await engine.execute('paymentRequest', { invoiceId: last.invoiceId }, {}, meta)).output.state;
      assert.equal(state, 'paid', 'the 26th invoice, past the gap, is paid');
      const history = (await engine.execute('history', { walletId: walletID }, who, meta)).output.history;
      assert.equal(history.find((h) => h.txid === paid.txid)?.amount, last.satoshis, 'its coin is on the books');
    } finally {
      engine.close();
      node.close();
    }
  });
});

/**
 * Restored elsewhere from its phrase, a wallet is scanned only to BIP44's gap: a payment to an invoice's
 * address past it is found when the import asks for a wider gap (gapLimit), as the README tells.
 */
describe('a restore finds invoices past the gap when asked for a wider one', () => {
  it('not with the standard gap of 20; with gapLimit 40, the payment and its coin', async () => {
    const shop = testEngine();
    const phrase = Mnemonic.fromRandom().toString();
    const elsewhere = createEngine({
      store: openStore({ dataDir: tempDir(), password: 'pw' }),
      chain: new LocalProvider(shop.node, () => null),
      config: { version: 'test', network: 'local', sessionTtlMs: 3600_000, paymailDomain: 'other.test', broadcastWindowMs: 30_000 },
    });
    try {
      const signIn = async (e: typeof elsewhere) => {
        const s = (await e.execute('setup', ADMIN, {}, meta)).output;
        return { authToken: s.authToken, serviceId: s.serviceId };
      };
      const who = await signIn(shop.engine);
      const walletID = (await shop.engine.execute('createWallet', { walletTitle: 'Shop', mnemonicPhrase: phrase }, who, meta)).output
        .walletID;
      let last = null;
      for (let i = 0; i < 26; i++)
        last = (await shop.engine.execute('createInvoice', { walletID, satoshis: 2_000, expiresInMinutes: 600 }, who, meta)).output;
      assert.equal((await shop.node.faucet(last!.address, 2_000)).status, 'accepted');

      const other = await signIn(elsewhere);
      const restore = async (title: string, gapLimit?: number) => {
        const input = { walletTitle: title, mnemonicPhrase: phrase, derivationPath: "m/44'/236'/0'", ...(gapLimit ? { gapLimit } : {}) };
        const id = (await elsewhere.execute('createWallet', input, other, meta)).output.walletID;
        return (await elsewhere.execute('history', { walletId: id }, other, meta)).output.history.length;
      };
      assert.equal(await restore('Standard gap'), 0, 'BIP44 gap of 20: not found (why the README says to widen it)');
      assert.equal(await restore('Wider gap', 40), 1, 'gapLimit 40: found');
      const scanned = (await elsewhere.execute('scanRecoveryPhrase', { mnemonicPhrase: phrase, gapLimit: 40 }, other, meta)).output;
      assert.equal(scanned.paths.find((p) => p.derivationPath === "m/44'/236'/0'")?.satoshis, 2_000, 'the phrase scan with the same gap');
      await assert.rejects(
        elsewhere.execute('createWallet', { walletTitle: 'x', mnemonicPhrase: phrase, gapLimit: 5 }, other, meta),
        /at least 20/,
      );
    } finally {
      elsewhere.close();
      shop.engine.close();
    }
  });
});
