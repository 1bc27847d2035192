import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LockingScript, P2PKH, PrivateKey, SatoshisPerKilobyte, Transaction } from '@bsv/sdk';
import { createEngine } from '../../main/engine/engine.js';
import { LocalProvider } from '../../main/chain/local/local-provider.js';
import { PaymailError } from '../../main/engine/paymail/host.js';
import { openStore } from '../../main/store/database.js';
import { p2pkhAddressOf } from '../../main/chain/script.js';
import { meta, testEngine } from '../helpers/engine.js';
import { ADMIN } from '../helpers/http.js';
import { tempDir } from '../helpers/tmp.js';

/**
 * Anyone who can reach the paymail host may ask for destinations. Asking many times must not push the
 * wallet past its gap limit: a wallet restored from its recovery phrase must find every payment made to
 * anything Keystead ever handed out.
 */
describe('paymail destinations asked for by strangers stay within the gap limit', () => {
  it('after 200 requests, payments to any destination handed out are all found by a restore from the phrase', async () => {
    const t = testEngine();
    const { engine, node } = t;
    const s = (await engine.execute('setup', ADMIN, {}, meta)).output;
    const admin = { authToken: s.authToken, serviceId: s.serviceId };
    const w = (await engine.execute('createWallet', { walletTitle: 'Shop', paymail: 'shop', paymailActivate: true }, admin, meta)).output;
    const handle = `shop@acme.test`;

    // A stranger floods the host (the clock moves so the rate limit lets them through).
    const handedOut = new Set<string>();
    for (let i = 0; i < 200; i++) {
      t.clock.now += 1_000;
      const dest =
        i % 2
          ? engine.paymailHost.p2pDestination(handle, { satoshis: 1_000 })
          : { outputs: [{ script: engine.paymailHost.basicDestination(handle, { senderHandle: 'x@y.z', dt: 'now' }).output }] };
      handedOut.add(p2pkhAddressOf(dest.outputs[0].script)!);
    }
    assert.ok(handedOut.size <= 20, `${handedOut.size} distinct addresses were handed out`);

    // Payers pay some of them: the last one handed out, and a few more.
    const paid = [...handedOut].slice(-5);
    for (const address of paid) await node.faucet(address, 7_000);
    // The gap then moves on: the next round of destinations is still within reach of a restore.
    for (let i = 0; i < 60; i++) {
      t.clock.now += 1_000;
      handedOut.add(p2pkhAddressOf(engine.paymailHost.p2pDestination(handle, { satoshis: 1_000 }).outputs[0].script)!);
    }
    const late = [...handedOut].slice(-3);
    for (const address of late) await node.faucet(address, 3_000);
    const total = paid.length * 7_000 + late.length * 3_000;
    const { mnemonic } = (await engine.execute('exportMnemonic', { walletId: w.walletID, password: ADMIN.password }, admin, meta)).output;

    // Another Keystead on the same chain restores the wallet from its phrase alone.
    const other = createEngine({
      store: openStore({ dataDir: tempDir(), password: 'restore-pw' }),
      chain: new LocalProvider(node, () => null),
      config: { version: 'test', network: 'local', sessionTtlMs: 3_600_000, paymailDomain: 'other.test', broadcastWindowMs: 30_000 },
    });
    const s2 = (await other.execute('setup', { ...ADMIN, email: 'restorer@acme.io' }, {}, meta)).output;
    const auth2 = { authToken: s2.authToken, serviceId: s2.serviceId };
    const restored = (await other.execute('createWallet', { walletTitle: 'Restored', mnemonicPhrase: mnemonic }, auth2, meta)).output;
    const listed = (await other.execute('listWallets', {}, auth2, meta)).output.wallets.find((x) => x.walletID === restored.walletID)!;
    assert.equal(listed.balance.confirmed + listed.balance.unconfirmed, total, 'every payment to a handed-out destination was found');
    other.close();
  });

  it('one transaction pays one reference, even when two references share an address', async () => {
    const t = testEngine();
    const s = (await t.engine.execute('setup', ADMIN, {}, meta)).output;
    await t.engine.execute(
      'createWallet',
      { walletTitle: 'Shop', paymail: 'shop', paymailActivate: true },
      { authToken: s.authToken, serviceId: s.serviceId },
      meta,
    );
    const host = t.engine.paymailHost;
    const first = host.p2pDestination('shop@acme.test', { satoshis: 5_000 });
    let shared = first;
    for (let i = 0; i < 25 && shared.reference === first.reference; i++) {
      t.clock.now += 1_000;
      const d = host.p2pDestination('shop@acme.test', { satoshis: 4_000 });
      if (d.outputs[0].script === first.outputs[0].script) shared = d;
    }
    assert.notEqual(shared.reference, first.reference, 'addresses are reused within the gap limit');
    const payer = PrivateKey.fromRandom();
    const funding = await t.node.faucet(payer.toAddress(), 20_000);
    assert.equal(funding.status, 'accepted');
    const fundingTx = Transaction.fromHex(t.node.txHex(funding.txid!)!);
    const tx = new Transaction();
    tx.addInput({
      sourceTransaction: fundingTx,
      sourceOutputIndex: fundingTx.outputs.findIndex((o) => o.lockingScript.toHex() === new P2PKH().lock(payer.toAddress()).toHex()),
      unlockingScriptTemplate: new P2PKH().unlock(payer),
    });
    tx.addOutput({ lockingScript: LockingScript.fromHex(first.outputs[0].script), satoshis: 5_000 });
    tx.addOutput({ lockingScript: new P2PKH().lock(payer.toAddress()), change: true });
    await tx.fee(new SatoshisPerKilobyte(1));
    await tx.sign();
    const paid = await host.receiveTransaction('shop@acme.test', { hex: tx.toHex(), reference: first.reference });
    assert.equal(paid.txid, tx.id('hex'));
    await assert.rejects(
      host.receiveTransaction('shop@acme.test', { hex: tx.toHex(), reference: shared.reference }),
      (e: PaymailError) => e.code === 'reference-used',
    );
  });

  it('rate-limits strangers per paymail', async () => {
    const { engine } = testEngine();
    const s = (await engine.execute('setup', ADMIN, {}, meta)).output;
    await engine.execute(
      'createWallet',
      { walletTitle: 'Shop', paymail: 'shop', paymailActivate: true },
      { authToken: s.authToken, serviceId: s.serviceId },
      meta,
    );
    let refused: unknown = null;
    for (let i = 0; i < 100 && !refused; i++) {
      try {
        engine.paymailHost.p2pDestination('shop@acme.test', { satoshis: 1_000 });
      } catch (err) {
        refused = err;
      }
    }
    assert.ok(refused instanceof PaymailError);
    assert.equal(refused.status, 429);
  });
});
