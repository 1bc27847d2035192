import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { P2PKH, PrivateKey } from '@bsv/sdk';
import type { Credentials } from '../../main/engine/context.js';
import type { Engine } from '../../main/engine/engine.js';
import type { LocalNode } from '../../main/chain/local/local-node.js';
import type { Store } from '../../main/store/database.js';
import { plainCoins, selectCoins } from '../../main/engine/payments/coin-select.js';
import { meta, testEngine } from '../helpers/engine.js';
import { ADMIN } from '../helpers/http.js';

/**
 * Money safety for 1Sat Ordinals (issue 30 §3): ordinals are sat-tracked, so any 1-satoshi output may carry an
 * inscription or a token even when its script is a plain P2PKH. No payment may spend one as plain satoshis.
 */
const POLICY = { satoshis: 1, bytes: 1000, dustLimit: 1 };
const ADDR = PrivateKey.fromRandom().toAddress();

describe('ordinals: coin selection leaves 1-satoshi outputs out', () => {
  const out = [{ satoshis: 500, script: new P2PKH().lock(ADDR).toHex() }];
  it('never picks a 1-satoshi coin, even when the fee is paid elsewhere', () => {
    const coins = [
      { txid: 'a', vout: 0, satoshis: 1 },
      { txid: 'b', vout: 0, satoshis: 499 },
      { txid: 'c', vout: 0, satoshis: 1 },
    ];
    const r = selectCoins(coins, [{ satoshis: 500, script: out[0].script }], POLICY, { feePaidElsewhere: true });
    assert.equal(r.ok, false, 'the two 1-sat coins would have covered it');
    assert.deepEqual(
      plainCoins(coins).map((c) => c.txid),
      ['b'],
    );
    assert.deepEqual(plainCoins(coins, { includeOneSat: true }).length, 3, 'only when asked');
  });
});

describe('ordinals: payments never spend a 1-satoshi output (local node)', () => {
  let engine: Engine;
  let node: LocalNode;
  let store: Store;
  let admin: Credentials;
  const run = <T>(p: Promise<{ output: T }>) => p.then((r) => r.output);

  beforeEach(async () => {
    ({ engine, node, store } = testEngine());
    const s = (await engine.execute('setup', ADMIN, {}, meta)).output;
    admin = { authToken: s.authToken, serviceId: s.serviceId };
  });

  it("the fee manager's 1-satoshi coin is not used to pay a fee", async () => {
    const fm = await run(engine.execute('feeManagerInit', {}, admin, meta));
    await run(engine.execute('faucet', { address: fm.address, satoshis: 1 }, admin, meta));
    await run(engine.execute('faucet', { address: fm.address, satoshis: 20_000 }, admin, meta));
    const w = await run(engine.execute('createWallet', { walletTitle: 'Ops' }, admin, meta));
    await run(engine.execute('faucet', { walletId: w.walletID, satoshis: 10_000 }, admin, meta));
    const paid = await run(
      engine.execute('pay', { outputs: [{ script: new P2PKH().lock(ADDR).toHex(), satoshis: 5_000 }], walletId: w.walletID }, admin, meta),
    );
    assert.equal(paid.feePaidBy, 'feeManager');
    const oneSat = node.utxos(fm.address).filter((u) => u.satoshis === 1);
    assert.equal(oneSat.length, 1, "the fee manager's 1-satoshi output is still unspent");
    void store;
  });

  it("a wallet's 1-satoshi coin is not spent by a payment that needs every other coin", async () => {
    const w = await run(engine.execute('createWallet', { walletTitle: 'Ops' }, admin, meta));
    await run(engine.execute('faucet', { walletId: w.walletID, satoshis: 1 }, admin, meta));
    await run(engine.execute('faucet', { walletId: w.walletID, satoshis: 3_000 }, admin, meta));
    const paid = await run(
      engine.execute('pay', { outputs: [{ script: new P2PKH().lock(ADDR).toHex(), satoshis: 2_000 }], walletId: w.walletID }, admin, meta),
    );
    assert.ok(paid.txid);
    const rows = store.db.prepare('SELECT satoshis, spent_by FROM utxos WHERE satoshis = 1').all() as { spent_by: string | null }[];
    assert.equal(rows.length, 1);
    assert.equal(rows[0].spent_by, null);
  });
});
