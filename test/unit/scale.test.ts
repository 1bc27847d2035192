import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { P2PKH, PrivateKey, SatoshisPerKilobyte, Transaction } from '@bsv/sdk';
import { meta, testEngine } from '../helpers/engine.js';
import { ADMIN } from '../helpers/http.js';

/** Correctness where organisations live: a wallet of 100,000 coins pays with valid coins and its books stay right. */
describe('a wallet holding 100,000 coins', () => {
  it('pays from candidates without reading every coin, spends coins the chain has, and books the change', async () => {
    const t = testEngine();
    const { engine, node } = t;
    const s = (await engine.execute('setup', ADMIN, {}, meta)).output;
    const admin = { authToken: s.authToken, serviceId: s.serviceId };
    const w = (await engine.execute('createWallet', { walletTitle: 'Big' }, admin, meta)).output.walletID;
    const address = (await engine.execute('walletAddress', { walletId: w }, admin, meta)).output.address;
    const funder = PrivateKey.fromRandom();
    const COUNT = 100_000;
    for (let done = 0; done < COUNT; done += 1000) {
      const f = await node.faucet(funder.toAddress(), 3_100_000);
      const parent = Transaction.fromHex(node.txHex(f.txid!)!);
      const fan = new Transaction();
      fan.addInput({
        sourceTransaction: parent,
        sourceOutputIndex: parent.outputs.findIndex((o) => o.satoshis === 3_100_000),
        unlockingScriptTemplate: new P2PKH().unlock(funder),
      });
      // Values vary, so the smallest coin that covers a payment is a real choice.
      for (let i = 0; i < 1000; i++) fan.addOutput({ lockingScript: new P2PKH().lock(address), satoshis: 1_000 + ((done + i) % 2_000) });
      fan.addOutput({ lockingScript: new P2PKH().lock(funder.toAddress()), change: true });
      await fan.fee(new SatoshisPerKilobyte(1));
      await fan.sign();
      const r = node.submit(fan.toHex());
      assert.equal(r.status, 'accepted', JSON.stringify(r));
    }
    node.mine();
    const balance = async () => {
      const b = (await engine.execute('listWallets', {}, admin, meta)).output.wallets.find((x) => x.walletID === w)!.balance;
      return b.confirmed + b.unconfirmed;
    };
    const before = await balance();
    const to = PrivateKey.fromRandom().toAddress();
    // One coin covers 2,500 (the smallest that does, 2,500 + fee); 600,000 needs hundreds of the largest coins.
    const small = (
      await engine.execute('pay', { outputs: [{ script: new P2PKH().lock(to).toHex(), satoshis: 2_500 }], walletId: w }, admin, meta)
    ).output;
    // 150,000 needs about fifty of the largest: more than the first candidates hold, fewer than the second.
    const mid = (
      await engine.execute('pay', { outputs: [{ script: new P2PKH().lock(to).toHex(), satoshis: 150_000 }], walletId: w }, admin, meta)
    ).output;
    const large = (
      await engine.execute('pay', { outputs: [{ script: new P2PKH().lock(to).toHex(), satoshis: 600_000 }], walletId: w }, admin, meta)
    ).output;
    for (const p of [small, mid, large]) assert.equal(node.txStatus(p.txid).state, 'mempool', 'the chain took it');
    const spent = Transaction.fromHex(node.txHex(small.txid)!);
    assert.equal(spent.inputs.length, 1);
    const midInputs = Transaction.fromHex(node.txHex(mid.txid)!).inputs.length;
    assert.ok(midInputs > 24 && midInputs <= 60, `the largest coins paid 150,000 (${midInputs} inputs)`);
    assert.equal(
      await balance(),
      before - 2_500 - small.fee - 150_000 - mid.fee - 600_000 - large.fee,
      'the books moved by exactly what left',
    );
    assert.deepEqual(
      node
        .utxos(to)
        .map((u) => u.satoshis)
        .sort((a, b) => a - b),
      [2_500, 150_000, 600_000],
    );
    engine.close();
  });
});
