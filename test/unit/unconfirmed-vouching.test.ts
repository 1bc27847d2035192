import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LockingScript, Transaction } from '@bsv/sdk';
import type { BroadcastResult, ChainProvider, TxStatus } from '../../main/chain/types.js';
import { UnconfirmedVouching } from '../../main/engine/sync/unconfirmed-vouching.js';

const tx = new Transaction(
  1,
  [{ sourceTXID: 'ee'.repeat(32), sourceOutputIndex: 0, unlockingScript: LockingScript.fromHex('51'), sequence: 0xffffffff }],
  [{ lockingScript: LockingScript.fromHex('51'), satoshis: 1_000 }],
  0,
);
const txid = tx.id('hex');

/** A broadcaster that counts what it is asked and answers as told. */
function arc(answer: { status: Partial<TxStatus>; broadcast?: BroadcastResult['status'] }) {
  const asked = { status: 0, broadcast: 0 };
  const chain = {
    getTxStatus: async (t: string): Promise<TxStatus> => {
      asked.status++;
      return { txid: t, state: 'unknown', blockHeight: null, blockHash: null, merklePath: null, ...answer.status };
    },
    broadcast: async (): Promise<BroadcastResult> => {
      asked.broadcast++;
      return { status: answer.broadcast ?? 'rejected', txid, reason: 'missing-inputs', message: 'Missing inputs' } as BroadcastResult;
    },
  } as unknown as ChainProvider;
  return { chain, asked };
}

const vouching = (chain: ChainProvider, clock = { now: 0 }) => new UnconfirmedVouching(chain, () => clock.now);

describe('unconfirmed transactions are vouched for by a node of the network', () => {
  it('believes a node’s acceptance, never a status that only says ARC holds the transaction', async () => {
    for (const state of ['mempool', 'mined'] as const)
      assert.equal(await vouching(arc({ status: { state, seenOnNetwork: true } }).chain).vouch(tx, txid, false), 'vouched', state);
    const notVouching: Partial<TxStatus>[] = [{ state: 'mempool' }, { state: 'mempool', seenOnNetwork: false }, { state: 'rejected' }, {}];
    for (const status of notVouching) {
      // ARC even answers that it accepted the transaction sent to it: still no node's word.
      assert.equal(await vouching(arc({ status, broadcast: 'accepted' }).chain).vouch(tx, txid, false), 'not-yet', JSON.stringify(status));
    }
    const down = { getTxStatus: () => Promise.reject(new Error('down')), broadcast: () => Promise.reject(new Error('down')) };
    assert.equal(
      await vouching(down as unknown as ChainProvider).vouch(tx, txid, false),
      'not-yet',
      'a failing broadcaster vouches for nothing',
    );
  });

  it('sends a transaction it does not know to be judged, unless it spends coins of ours', async () => {
    const a = arc({ status: {} });
    assert.equal(await vouching(a.chain).vouch(tx, txid, false), 'not-yet');
    assert.deepEqual(a.asked, { status: 1, broadcast: 1 }, 'sent once');
    const b = arc({ status: {} });
    assert.equal(await vouching(b.chain).vouch(tx, txid, true), 'not-yet');
    assert.deepEqual(b.asked, { status: 1, broadcast: 0 }, 'what spends our coins is never sent by the books');
  });

  it('asks again about a transaction not vouched for only after a wait that doubles, up to half an hour', async () => {
    const clock = { now: 0 };
    const a = arc({ status: {} });
    const v = vouching(a.chain, clock);
    const askedAt: number[] = [];
    for (clock.now = 0; clock.now <= 3 * 3600_000; clock.now += 10_000) {
      const before = a.asked.status;
      await v.vouch(tx, txid, false);
      if (a.asked.status > before) askedAt.push(clock.now);
    }
    const waits = askedAt.slice(1).map((t, i) => t - askedAt[i]);
    assert.deepEqual(waits.slice(0, 6), [30_000, 60_000, 120_000, 240_000, 480_000, 960_000]);
    assert.ok(waits.length > 7 && waits.slice(6).every((w) => w === 1_800_000), `${waits}`);
    assert.equal(a.asked.broadcast, askedAt.length, 'each ask also sends it again');
  });

  it('sends it in Extended Format when the indexer gives its parents, raw when it cannot', async () => {
    const parent = new Transaction(1, [], [{ lockingScript: LockingScript.fromHex('51'), satoshis: 2_000 }], 0);
    const child = new Transaction(
      1,
      [{ sourceTXID: parent.id('hex'), sourceOutputIndex: 0, unlockingScript: LockingScript.fromHex('51'), sequence: 0xffffffff }],
      [{ lockingScript: LockingScript.fromHex('51'), satoshis: 1_000 }],
      0,
    );
    const sent: string[] = [];
    const chainWith = (parents: Map<string, string>) =>
      ({
        ...arc({ status: {} }).chain,
        getTransactionHex: async (t: string) => parents.get(t) ?? null,
        broadcast: async (hex: string) => {
          sent.push(hex);
          return { status: 'rejected', txid: null, reason: 'missing-inputs', message: 'no' };
        },
      }) as unknown as ChainProvider;
    await vouching(chainWith(new Map([[parent.id('hex'), parent.toHex()]]))).vouch(child, child.id('hex'), false);
    await vouching(chainWith(new Map())).vouch(child, child.id('hex'), false);
    assert.equal(sent[0].slice(8, 20), '0000000000ef', 'Extended Format: the marker after the version');
    assert.equal(Transaction.fromHexEF(sent[0]).inputs[0].sourceTransaction?.id('hex'), parent.id('hex'));
    assert.equal(sent[1], child.toHex(), 'raw without its parent');
  });
});
