import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { LockingScript, P2PKH, PrivateKey, Transaction, Utils } from '@bsv/sdk';
import type { LocalNode } from '../../main/chain/local/local-node.js';
import type { Credentials } from '../../main/engine/context.js';
import type { Engine } from '../../main/engine/engine.js';
import type { Store } from '../../main/store/database.js';
import { bsv21Json, ordP2pkhScript } from '../../main/chain/ordinal-envelope.js';
import { rejectsWith } from '../helpers/assert-domain-error.js';
import { meta, testEngine } from '../helpers/engine.js';
import { ADMIN } from '../helpers/http.js';

/** BSV-21 deploy, send with change, validity and money safety, in one engine over the local node. */
describe('ordinals: BSV-21 on the local chain (one engine)', () => {
  let engine: Engine;
  let node: LocalNode;
  let store: Store;
  let admin: Credentials;
  const run = <T>(p: Promise<{ output: T }>) => p.then((r) => r.output);
  const wallet = async (title: string, sats: number[]) => {
    const w = await run(engine.execute('createWallet', { walletTitle: title }, admin, meta));
    for (const s of sats) await run(engine.execute('faucet', { walletId: w.walletID, satoshis: s }, admin, meta));
    return w.walletID;
  };
  const addressOf = async (walletId: string) => (await run(engine.execute('walletAddress', { walletId }, admin, meta))).address;

  beforeEach(async () => {
    ({ engine, node, store } = testEngine());
    const s = (await engine.execute('setup', ADMIN, {}, meta)).output;
    admin = { authToken: s.authToken, serviceId: s.serviceId };
  });

  it('deploys, sends with change, counts only valid outputs, and never pays fees with a 1-satoshi output', async () => {
    const a = await wallet('A', [50_000, 1]);
    const b = await wallet('B', [20_000]);
    const deployed = await run(engine.execute('deployBsv21', { walletId: a, sym: 'GEM', amt: '1000000', dec: 2 }, admin, meta));
    assert.match(deployed.tokenId, /^[0-9a-f]{64}_0$/);
    const la = await run(engine.execute('listOrdinals', { walletId: a }, admin, meta));
    assert.deepEqual(
      la.tokens.map((t) => [t.id, t.sym, t.dec, t.amount, t.validity]),
      [[deployed.tokenId, 'GEM', 2, '1000000', 'valid']],
    );
    assert.equal(la.inscriptions[0].contentType, 'application/bsv-20');
    // The inscribed output is the wallet's ordinal, never one of its coins.
    assert.deepEqual(store.db.prepare("SELECT count(*) AS n FROM utxos WHERE script LIKE '%036f7264%'").get(), { n: 0 });
    assert.deepEqual(store.db.prepare('SELECT count(*) AS n FROM ordinal_outputs').get(), { n: 1 });
    assert.equal(la.source, 'local');

    const sent = await run(
      engine.execute('sendBsv21', { walletId: a, tokenId: deployed.tokenId, to: await addressOf(b), amount: '250000' }, admin, meta),
    );
    assert.equal(sent.change, '750000');
    const lb = await run(engine.execute('listOrdinals', { walletId: b }, admin, meta));
    assert.deepEqual(
      lb.tokens.map((t) => [t.sym, t.amount, t.validity]),
      [['GEM', '250000', 'valid']],
    );
    const la2 = await run(engine.execute('listOrdinals', { walletId: a }, admin, meta));
    assert.deepEqual(
      la2.tokens.map((t) => [t.amount, t.validity, t.outputs]),
      [['750000', 'valid', 1]],
    );
    // History: the token moved, its symbol and direction, beside the BSV fee.
    const ha = (await run(engine.execute('history', { walletId: a }, admin, meta))).history.find((h) => h.txid === sent.txid)!;
    assert.deepEqual(ha.tokens, [
      { id: deployed.tokenId, protocol: 'BSV-21', symbol: 'GEM', amount: 250_000, direction: 'out', proven: true },
    ]);
    assert.equal(ha.fee, sent.fee);
    const hb = (await run(engine.execute('history', { walletId: b }, admin, meta))).history.find((h) => h.txid === sent.txid)!;
    assert.deepEqual(
      [hb.direction, hb.tokens],
      ['in', [{ id: deployed.tokenId, protocol: 'BSV-21', symbol: 'GEM', amount: 250_000, direction: 'in', proven: true }]],
    );
    // B sends part back.
    await run(engine.execute('sendBsv21', { walletId: b, tokenId: deployed.tokenId, to: await addressOf(a), amount: '1000' }, admin, meta));
    node.mine();
    const lb2 = await run(engine.execute('listOrdinals', { walletId: b }, admin, meta));
    assert.equal(lb2.tokens[0].amount, '249000');
    const la3 = await run(engine.execute('listOrdinals', { walletId: a }, admin, meta));
    assert.equal(la3.tokens[0].amount, '751000');
    await rejectsWith(
      engine.execute('sendBsv21', { walletId: b, tokenId: deployed.tokenId, to: await addressOf(a), amount: '249001' }, admin, meta),
      'INSUFFICIENT_FUNDS',
    );

    // A forged transfer: an outside key inscribes a transfer of the token to B with no token input.
    const outside = PrivateKey.fromRandom();
    const f = await run(engine.execute('faucet', { address: outside.toAddress(), satoshis: 5_000 }, admin, meta));
    const fundTx = Transaction.fromHex(node.txHex(f.txid)!);
    const fv = fundTx.outputs.findIndex((o) => o.lockingScript.toHex() === new P2PKH().lock(outside.toAddress()).toHex());
    const forged = new Transaction();
    forged.addInput({ sourceTransaction: fundTx, sourceOutputIndex: fv, unlockingScriptTemplate: new P2PKH().unlock(outside) });
    const bPkh = Utils.toHex(Utils.fromBase58Check(await addressOf(b)).data as number[]);
    forged.addOutput({
      lockingScript: LockingScript.fromHex(
        ordP2pkhScript(bPkh, 'application/bsv-20', bsv21Json({ op: 'transfer', id: deployed.tokenId, amt: '5000000' })),
      ),
      satoshis: 1,
    });
    forged.addOutput({ lockingScript: new P2PKH().lock(outside.toAddress()), change: true });
    await forged.fee(200);
    await forged.sign();
    const r = await node.accept(forged.toHex());
    assert.ok(r);
    const lb3 = await run(engine.execute('listOrdinals', { walletId: b }, admin, meta));
    const gem = lb3.tokens.find((t) => t.id === deployed.tokenId)!;
    assert.deepEqual([gem.amount, gem.invalidAmount, gem.validity], ['249000', '5000000', 'valid']);
    const forgedRow = lb3.inscriptions.find((i) => i.txid === forged.id('hex'))!;
    assert.equal(forgedRow.bsv21?.validity, 'invalid');
    // The wallet's balance lists the token beside its BSV, valid outputs only.
    const bal = await run(engine.execute('balance', { walletId: b }, admin, meta));
    assert.deepEqual(
      bal.coins.filter((c) => c.protocol === 'BSV-21'),
      [{ protocol: 'BSV-21', tokenId: deployed.tokenId, symbol: 'GEM', decimals: 2, amount: 249_000, proven: true }],
    );

    // A's lone satoshi (a plain P2PKH coin: it may carry an ordinal) paid no fee in any of this.
    const oneSat = store.db.prepare('SELECT spent_by AS spentBy, status FROM utxos WHERE satoshis = 1').all();
    assert.deepEqual(oneSat, [{ spentBy: null, status: 'available' }]);
  });
});
