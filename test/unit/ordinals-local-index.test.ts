import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LockingScript, Transaction, UnlockingScript } from '@bsv/sdk';
import { ordP2pkhScript } from '../../main/chain/ordinal-envelope.js';
import { LocalOrdinalsIndex } from '../../main/engine/ordinals/local-index.js';
import type { Bsv21Proof } from '../../main/store/repos/ordinals.js';

/** The local BSV-21 index over a chain the test writes (transactions need not be signed: only their bytes are read). */
const PKH = '22'.repeat(20);
const silent = { info() {}, warn() {}, error() {}, debug() {}, child: () => silent } as never;

function chain() {
  const txs = new Map<string, string>();
  let fetches = 0;
  const provider = {
    getTransactionHex: async (txid: string) => {
      fetches++;
      return txs.get(txid) ?? null;
    },
    getHistory: async () => [],
  };
  const proofs = new Map<string, Bsv21Proof>();
  const repo = {
    proof: (txid: string, vout: number) => proofs.get(`${txid}_${vout}`) ?? null,
    putProof: (txid: string, vout: number, p: Bsv21Proof) => void proofs.set(`${txid}_${vout}`, p),
  };
  /** A transaction spending `inputs` into 1-satoshi inscribed outputs (each a JSON op, or null for a plain output). */
  const tx = (inputs: [string, number][], outputs: (object | null)[]) => {
    const t = new Transaction();
    for (const [txid, vout] of inputs)
      t.addInput({ sourceTXID: txid, sourceOutputIndex: vout, unlockingScript: new UnlockingScript(), sequence: 0xffffffff });
    if (!inputs.length)
      t.addInput({
        sourceTXID: 'ff'.repeat(32),
        sourceOutputIndex: txs.size,
        unlockingScript: new UnlockingScript(),
        sequence: 0xffffffff,
      });
    for (const o of outputs)
      t.addOutput({
        lockingScript: LockingScript.fromHex(
          o ? ordP2pkhScript(PKH, 'application/bsv-20', Buffer.from(JSON.stringify(o))) : `76a914${PKH}88ac`,
        ),
        satoshis: 1,
      });
    const id = t.id('hex');
    txs.set(id, t.toHex());
    return id;
  };
  return { provider, repo, tx, fetches: () => fetches, proofs };
}

describe('ordinals: the local BSV-21 index', () => {
  it('proves transfers back to the deploy+mint, and refuses a transaction creating more than it spends', async () => {
    const c = chain();
    const index = new LocalOrdinalsIndex({ chain: c.provider, repo: c.repo, logger: silent, now: () => 0 });
    const deploy = c.tx([], [{ p: 'bsv-20', op: 'deploy+mint', amt: '1000', sym: 'GEM' }]);
    const id = `${deploy}_0`;
    const split = c.tx(
      [[deploy, 0]],
      [
        { p: 'bsv-20', op: 'transfer', id, amt: '600' },
        { p: 'bsv-20', op: 'transfer', id, amt: '400' },
      ],
    );
    assert.deepEqual(await index.bsv21Output(split, 1), { id, op: 'transfer', amt: 400n, valid: true });
    const greedy = c.tx([[split, 0]], [{ p: 'bsv-20', op: 'transfer', id, amt: '601' }]);
    assert.equal((await index.bsv21Output(greedy, 0))?.valid, false, 'more out than in: every output of the token invalid');
    const burned = c.tx(
      [[split, 1]],
      [
        { p: 'bsv-20', op: 'transfer', id, amt: '100' },
        { p: 'bsv-20', op: 'burn', id, amt: '300' },
      ],
    );
    assert.equal((await index.bsv21Output(burned, 0))?.valid, true, 'a burn and a transfer within what was spent');
    // Spending a burn output gives nothing; spending an invalid output gives nothing.
    assert.equal((await index.bsv21Output(c.tx([[burned, 1]], [{ p: 'bsv-20', op: 'transfer', id, amt: '1' }]), 0))?.valid, false);
    assert.equal((await index.bsv21Output(c.tx([[greedy, 0]], [{ p: 'bsv-20', op: 'transfer', id, amt: '1' }]), 0))?.valid, false);
    // Another token's deploy does not fund this one; a plain output carries nothing.
    const other = c.tx([], [{ p: 'bsv-20', op: 'deploy+mint', amt: '5000' }]);
    assert.equal((await index.bsv21Output(c.tx([[other, 0]], [{ p: 'bsv-20', op: 'transfer', id, amt: '1' }]), 0))?.valid, false);
    assert.equal(await index.bsv21Output(c.tx([[split, 0]], [null]), 0), null);
    assert.deepEqual(await index.bsv21Token(id), { id, sym: 'GEM', dec: 0, amt: 1000n, icon: null });
    assert.equal(await index.bsv21Token(split + '_0'), null);
  });

  it('a walk longer than its budget stays pending, and the next calls continue from what was proven', async () => {
    const c = chain();
    const deploy = c.tx([], [{ p: 'bsv-20', op: 'deploy+mint', amt: '10' }]);
    const id = `${deploy}_0`;
    let at = deploy;
    for (let i = 0; i < 30; i++) at = c.tx([[at, 0]], [{ p: 'bsv-20', op: 'transfer', id, amt: '10' }]);
    const index = new LocalOrdinalsIndex({ chain: c.provider, repo: c.repo, logger: silent, now: () => 0, maxTransactions: 8 });
    assert.equal((await index.bsv21Output(at, 0))?.valid, null);
    let verdict: boolean | null | undefined = null;
    for (let call = 0; call < 20 && verdict === null; call++) verdict = (await index.bsv21Output(at, 0))?.valid;
    assert.equal(verdict, true);
    assert.ok(c.proofs.size >= 30, 'every output on the way is remembered');
  });
});
