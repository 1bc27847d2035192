import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { WalletErr } from '../../main/engine/apps/werr.js';
import { internalizeArgs, listActionsArgs, listOutputsArgs, relinquishOutputArgs } from '../../main/engine/apps/outputs/list-args.js';
import { appBasket } from '../../main/engine/apps/outputs/baskets.js';
import { openStore, type Store } from '../../main/store/database.js';
import { createAppOutputQueryRepo, type AppOutputQueryRepo } from '../../main/store/repos/app-output-queries.js';
import { tempDir } from '../helpers/tmp.js';

/** Refused as the reference refuses: WERR_INVALID_PARAMETER naming the parameter. */
const invalid = (parameter: string) => (e: unknown) => {
  assert.ok(e instanceof WalletErr, String(e));
  assert.equal(e.name, 'WERR_INVALID_PARAMETER');
  assert.equal(e.code, 6);
  assert.equal(e.parameter, parameter);
  assert.match(e.message, new RegExp(`^The ${parameter} parameter must be `));
  return true;
};

const TXID = 'ab'.repeat(32);
const KEY = '02' + 'cd'.repeat(32);

describe('BRC-100 list arguments, checked as @bsv/sdk validationHelpers check them', () => {
  it('listActions: defaults, identifiers trimmed and lower-cased, limit 1 to 10,000, offset 0 or more', () => {
    assert.deepEqual(listActionsArgs({ labels: [' Orders ', 'orders', 'X'] }), {
      labels: ['orders', 'x'],
      labelQueryMode: 'any',
      includeLabels: false,
      includeInputs: false,
      includeInputSourceLockingScripts: false,
      includeInputUnlockingScripts: false,
      includeOutputs: false,
      includeOutputLockingScripts: false,
      limit: 10,
      offset: 0,
    });
    assert.equal(listActionsArgs({ labels: [], limit: 10_000, labelQueryMode: 'all' }).limit, 10_000);
    assert.throws(() => listActionsArgs({ labels: [], limit: 10_001 }), invalid('limit'));
    assert.throws(() => listActionsArgs({ labels: [], limit: 0 }), invalid('limit'));
    assert.throws(() => listActionsArgs({ labels: [], limit: 1.5 }), invalid('limit'));
    assert.throws(() => listActionsArgs({ labels: [], offset: -1 }), invalid('offset'));
    assert.throws(() => listActionsArgs({ labels: ['  '] }), invalid('label'));
    assert.throws(() => listActionsArgs({ labels: ['x'.repeat(301)] }), invalid('label'));
    assert.throws(() => listActionsArgs({ labels: 'orders' }), invalid('labels'));
    assert.throws(() => listActionsArgs({ labelQueryMode: 'none' }), invalid('labelQueryMode'));
    assert.throws(() => listActionsArgs({ includeOutputs: 'yes' }), invalid('includeOutputs'));
  });

  it('listOutputs: a basket is required, include is one of two, a negative offset counts from the newest', () => {
    const a = listOutputsArgs({ basket: ' Tokens', tags: ['Red'], include: 'locking scripts', offset: -1 });
    assert.equal(a.basket, 'tokens');
    assert.deepEqual(a.tags, ['red']);
    assert.equal(a.includeLockingScripts, true);
    assert.equal(a.includeTransactions, false);
    assert.equal(a.offset, -1);
    assert.equal(listOutputsArgs({ basket: 'b', include: 'entire transactions' }).includeTransactions, true);
    assert.throws(() => listOutputsArgs({}), invalid('basket'));
    assert.throws(() => listOutputsArgs({ basket: '' }), invalid('basket'));
    assert.throws(() => listOutputsArgs({ basket: 'b', include: 'everything' }), invalid('include'));
    assert.throws(() => listOutputsArgs({ basket: 'b', tagQueryMode: 'some' }), invalid('tagQueryMode'));
    assert.throws(() => listOutputsArgs({ basket: 'b', tags: [7] }), invalid('tag'));
  });

  it('relinquishOutput: an outpoint txid.vout', () => {
    assert.deepEqual(relinquishOutputArgs({ basket: 'B', output: `${TXID.toUpperCase()}.3` }), { basket: 'b', txid: TXID, vout: 3 });
    for (const output of [TXID, `${TXID}.x`, `${TXID}.-1`, 'zz.1', `${TXID}.1.2`, 7])
      assert.throws(() => relinquishOutputArgs({ basket: 'b', output }), invalid('output'));
  });

  it('internalizeAction: bytes, a description of 5 to 2000 bytes, outputs named once with their remittance', () => {
    const pay = { derivationPrefix: 'cHJlZml4', derivationSuffix: 'c3VmZml4', senderIdentityKey: KEY.toUpperCase().replace('0X', '0x') };
    const ok = internalizeArgs({
      tx: [1, 1, 1, 1, 0],
      description: 'a payment',
      labels: ['In'],
      outputs: [
        { outputIndex: 0, protocol: 'wallet payment', paymentRemittance: pay },
        { outputIndex: 1, protocol: 'basket insertion', insertionRemittance: { basket: 'Tokens', tags: ['A'], customInstructions: 'ci' } },
      ],
    });
    assert.deepEqual(ok.labels, ['in']);
    assert.deepEqual(ok.outputs[0], { outputIndex: 0, protocol: 'wallet payment', paymentRemittance: { ...pay, senderIdentityKey: KEY } });
    assert.deepEqual(ok.outputs[1], {
      outputIndex: 1,
      protocol: 'basket insertion',
      insertionRemittance: { basket: 'tokens', tags: ['a'], customInstructions: 'ci' },
    });
    const base = {
      tx: [1, 1, 1, 1],
      description: 'a payment',
      outputs: [{ outputIndex: 0, protocol: 'wallet payment', paymentRemittance: pay }],
    };
    assert.throws(() => internalizeArgs({ ...base, tx: 'beef' }), invalid('tx'));
    assert.throws(() => internalizeArgs({ ...base, tx: [1, 256, 1, 1] }), invalid('tx'));
    assert.throws(() => internalizeArgs({ ...base, description: 'pay' }), invalid('description'));
    assert.throws(() => internalizeArgs({ ...base, outputs: [] }), invalid('outputs'));
    const many = Array.from({ length: 101 }, (_, outputIndex) => ({ ...base.outputs[0], outputIndex }));
    assert.throws(() => internalizeArgs({ ...base, outputs: many }), invalid('outputs'));
    assert.equal(internalizeArgs({ ...base, outputs: many.slice(0, 100) }).outputs.length, 100);
    assert.throws(() => internalizeArgs({ ...base, outputs: [{ ...base.outputs[0], outputIndex: -1 }] }), invalid('outputIndex'));
    assert.throws(() => internalizeArgs({ ...base, outputs: [base.outputs[0], base.outputs[0]] }), invalid('outputIndex'));
    assert.throws(() => internalizeArgs({ ...base, outputs: [{ ...base.outputs[0], protocol: 'gift' }] }), invalid('protocol'));
    assert.throws(
      () => internalizeArgs({ ...base, outputs: [{ outputIndex: 0, protocol: 'wallet payment' }] }),
      invalid('paymentRemittance'),
    );
    const bad = (p: object) =>
      internalizeArgs({ ...base, outputs: [{ outputIndex: 0, protocol: 'wallet payment', paymentRemittance: { ...pay, ...p } }] });
    assert.throws(() => bad({ senderIdentityKey: 'ab' }), invalid('senderIdentityKey'));
    assert.throws(() => bad({ derivationPrefix: 'not base64!' }), invalid('derivationPrefix'));
    assert.throws(() => bad({ derivationSuffix: '' }), invalid('derivationSuffix'));
    assert.throws(
      () => internalizeArgs({ ...base, outputs: [{ outputIndex: 0, protocol: 'basket insertion', insertionRemittance: { basket: ' ' } }] }),
      invalid('basket'),
    );
  });

  it("refuses the wallet's own baskets to apps", () => {
    assert.equal(appBasket('tokens'), 'tokens');
    for (const b of ['default', 'admin', 'admin stuff'])
      assert.throws(
        () => appBasket(b),
        (e: unknown) => e instanceof WalletErr && e.name === 'WERR_UNAUTHORIZED',
      );
  });
});

describe('app-output-queries: listActions and listOutputs filters and paging over migration 21', () => {
  let store: Store;
  let q: AppOutputQueryRepo;

  beforeEach(() => {
    store = openStore({ dataDir: tempDir(), password: 'pw' });
    // The rows' wallet is not the subject here: no wallet row is made for them.
    store.db.pragma('foreign_keys = OFF');
    q = createAppOutputQueryRepo(store.db);
  });
  afterEach(() => store.close());

  const action = (walletRow: number, n: number, labels: string[]) => {
    const id = q.insertInternalized({
      walletRow,
      originator: 'shop.example',
      reference: `ref-${walletRow}-${n}`,
      txid: n.toString(16).padStart(64, '0'),
      status: 'completed',
      satoshis: n,
      description: `action ${n}`,
      version: 1,
      lockTime: 0,
      rawTx: Buffer.alloc(0),
      now: n,
    });
    q.addLabels(id, labels);
    return id;
  };

  it('filters actions by any or all labels, pages oldest first, and keeps wallets apart', () => {
    action(1, 1, ['a']);
    action(1, 2, ['a', 'b']);
    action(1, 3, ['b']);
    action(2, 4, ['a', 'b']);
    const sats = (r: { actions: { satoshis: number }[] }) => r.actions.map((a) => a.satoshis);
    assert.deepEqual(sats(q.listActions(1, { values: [], mode: 'any' }, 10, 0)), [1, 2, 3]);
    assert.deepEqual(sats(q.listActions(1, { values: ['a', 'b'], mode: 'any' }, 10, 0)), [1, 2, 3]);
    const all = q.listActions(1, { values: ['a', 'b'], mode: 'all' }, 10, 0);
    assert.equal(all.total, 1);
    assert.deepEqual(sats(all), [2]);
    const page = q.listActions(1, { values: ['b'], mode: 'any' }, 1, 1);
    assert.equal(page.total, 2);
    assert.deepEqual(sats(page), [3]);
    assert.equal(q.listActions(1, { values: ['c'], mode: 'any' }, 10, 0).total, 0);
    assert.deepEqual([...q.labelsOf([page.actions[0].id])], [[page.actions[0].id, ['b']]]);
  });

  it('lists a basket by tags, newest first for a negative offset, and leaves relinquished outputs out', () => {
    const put = (vout: number, tags: string[], basket = 'tokens') =>
      q.insertOutput(
        {
          walletRow: 1,
          basket,
          txid: TXID,
          vout,
          satoshis: vout,
          script: '51',
          description: null,
          customInstructions: null,
          actionId: null,
          originator: 'x',
          now: vout,
        },
        tags,
      );
    assert.equal(put(0, ['red', 'small']), true);
    put(1, ['red']);
    put(2, ['blue']);
    put(3, ['red'], 'other');
    assert.equal(put(0, ['again']), false, 'an outpoint is in one basket once');
    const vouts = (r: { outputs: { vout: number }[] }) => r.outputs.map((o) => o.vout);
    assert.deepEqual(vouts(q.listOutputs(1, 'tokens', { values: [], mode: 'any' }, 10, 0)), [0, 1, 2]);
    assert.deepEqual(vouts(q.listOutputs(1, 'tokens', { values: ['red'], mode: 'any' }, 10, 0)), [0, 1]);
    assert.deepEqual(vouts(q.listOutputs(1, 'tokens', { values: ['red', 'small'], mode: 'all' }, 10, 0)), [0]);
    assert.deepEqual(vouts(q.listOutputs(1, 'tokens', { values: [], mode: 'any' }, 2, -1)), [2, 1]);
    assert.deepEqual(vouts(q.listOutputs(1, 'tokens', { values: [], mode: 'any' }, 1, 1)), [1]);
    assert.equal(q.relinquish(1, 'other', TXID, 1), false, 'only from the basket it is in');
    assert.equal(q.relinquish(1, 'tokens', TXID, 1), true);
    assert.equal(q.relinquish(1, 'tokens', TXID, 1), false);
    const left = q.listOutputs(1, 'tokens', { values: ['red'], mode: 'any' }, 10, 0);
    assert.equal(left.total, 1);
    assert.deepEqual(vouts(left), [0]);
    assert.deepEqual([...q.tagsOf([left.outputs[0].id])], [[left.outputs[0].id, ['red', 'small']]]);
  });
});
