import assert from 'node:assert/strict';
import { it } from 'node:test';
import { PrivateKey } from '@bsv/sdk';
import type { ChainProvider } from '../../main/chain/types.js';
import { headerFromWoc, maxTargetAt } from '../../main/chain/network/woc-header.js';
import {
  booksUnspent,
  chainUnspent,
  forkedOrg as org,
  fundedPayer,
  historyRow,
  spendFrom,
  type ForkedOrg,
} from '../helpers/forkable-chain.js';
import { meta } from '../helpers/engine.js';
import { ADMIN } from '../helpers/http.js';

/**
 * Hostile review of 28 Nov (b): today's reorganisation following, fee counting, own-action and
 * internalizeAction changes. A test marked todo asserts the safe behaviour of an open finding.
 */

/**
 * A provider that, while `lying()`, forgets every transaction (status, hex, history, coins, proofs, spends),
 * refuses every broadcast and names a new tip; with `relabel`, it also answers each height with the block below
 * it, roots and headers alike, so that each header it serves links to the one it serves below (a genuine
 * header relabelled with another height passes every check one header can have).
 */
function forgetfulLiar(p: ChainProvider, lying: () => boolean, o: { relabel: boolean; tipHash: string }): ChainProvider {
  const at = (h: number) => (o.relabel && lying() ? h - 1 : h);
  return {
    ...p,
    getMerkleRoot: async (h) => p.getMerkleRoot(at(h)),
    getBlockHeader: async (h) => p.getBlockHeader(at(h)),
    getTip: async () => {
      const t = await p.getTip();
      return lying() ? { height: t.height + 1, hash: o.tipHash } : t;
    },
    getHistory: async (a) => (lying() ? [] : p.getHistory(a)),
    getTxStatus: async (t) =>
      lying() ? { txid: t, state: 'unknown', blockHeight: null, blockHash: null, merklePath: null } : p.getTxStatus(t),
    getTransactionHex: async (t) => (lying() ? null : p.getTransactionHex(t)),
    getMerkleProof: async (t, h) => (lying() || !p.getMerkleProof ? null : p.getMerkleProof(t, h)),
    getUtxos: async (a) => (lying() ? [] : p.getUtxos(a)),
    getSpentBy: async (t, v) => (lying() || !p.getSpentBy ? null : p.getSpentBy(t, v)),
    broadcast: async (h) =>
      lying() ? { status: 'rejected', txid: null, reason: 'missing-inputs', message: 'missing inputs' } : p.broadcast(h),
  };
}

/** The main network's genesis header as WhatsOnChain answers it: real, public, difficulty 1. */
const GENESIS = {
  hash: '000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f',
  version: 1,
  merkleroot: '4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b',
  time: 1231006505,
  nonce: 2083236893,
  bits: '1d00ffff',
  previousblockhash: '0000000000000000000000000000000000000000000000000000000000000000',
};

// ---------------------------------------------------------------------------------------------------------
// Finding 1: a reorganisation is "proved" by any genuine header relabelled with the booked height.
// ---------------------------------------------------------------------------------------------------------

// A header names no height of its own (F1a/F1b of the review showed a genuine header relabelled with another
// height passes every check a single header can have): the books believe a replaced block only when the chain's
// headers link it down to the headers they kept (main/engine/sync/reorganisations.ts), which F1c–F1e attack.

it("F1c: a provider that answers a booked height with another real block's root, then stops naming the payment, does not undo a mined payment", async () => {
  let lie = false;
  const o = await org((fc) => forgetfulLiar(fc.polled(), () => lie, { relabel: true, tipHash: 'ab'.repeat(32) }));
  try {
    const { payer, funding } = await fundedPayer(o);
    const paid = await spendFrom(o.fc.node, payer, funding, o.address, 40_000);
    o.fc.node.mineBlocks(1);
    await o.rescan();
    const height = o.fc.node.tip().height;
    assert.equal((await historyRow(o, paid))?.height, height, 'booked into its block');
    assert.equal(booksUnspent(o.store), 40_000);

    lie = true;
    await o.rescan();
    const row = await historyRow(o, paid);
    // A mined payment stays dated and booked: no header chaining to the books' blocks replaced its block.
    assert.deepEqual(
      { height: row?.height, undone: row?.failureReason ?? null, unspent: booksUnspent(o.store) },
      { height, undone: null, unspent: 40_000 },
    );
  } finally {
    o.close();
  }
});

// ---------------------------------------------------------------------------------------------------------
// Finding 2: one tip answer far ahead forgets every proven root; a real reorganisation is then never followed.
// ---------------------------------------------------------------------------------------------------------

it('F2: one answer of an absurd tip height does not make the books forget the blocks they proved (a later reorganisation is still followed)', async () => {
  let farTip = false;
  const o = await org((fc) => {
    const p = fc.polled();
    return {
      ...p,
      getTip: async () => (farTip ? { height: 2_000_000_000, hash: 'cd'.repeat(32) } : p.getTip()),
    };
  });
  try {
    const { payer, funding } = await fundedPayer(o);
    const other = o.fc.fork(0);
    const paid = await spendFrom(o.fc.nodes[0], payer, funding, o.address, 40_000);
    o.fc.nodes[0].mineBlocks(1);
    await o.rescan();
    assert.equal(booksUnspent(o.store), 40_000);

    // One scan sees a tip two billion blocks up: every root below it minus 100 is dropped.
    farTip = true;
    await o.rescan();
    farTip = false;

    // Now a genuine reorganisation: the payer's coin is spent elsewhere in the winning branch.
    await spendFrom(o.fc.nodes[other], payer, funding, PrivateKey.fromRandom().toAddress(), 90_000);
    o.fc.nodes[other].mineBlocks(2);
    o.fc.current = other;
    await o.rescan();
    assert.equal(booksUnspent(o.store), await chainUnspent(o.store, o.chain), 'the books hold what the chain holds');
    assert.equal((await historyRow(o, paid))?.height, null, 'no block holds it');
  } finally {
    o.close();
  }
});

// ---------------------------------------------------------------------------------------------------------
// Attacks refused.
// ---------------------------------------------------------------------------------------------------------

it('refused: a provider that merely stops naming a mined payment (every root still stands) undoes nothing', async () => {
  let lie = false;
  const o = await org((fc) => forgetfulLiar(fc.polled(), () => lie, { relabel: false, tipHash: 'ef'.repeat(32) }));
  try {
    const { payer, funding } = await fundedPayer(o);
    const paid = await spendFrom(o.fc.node, payer, funding, o.address, 40_000);
    o.fc.node.mineBlocks(1);
    await o.rescan();
    const height = o.fc.node.tip().height;
    lie = true;
    await o.rescan();
    assert.equal((await historyRow(o, paid))?.height, height);
    assert.equal(booksUnspent(o.store), 40_000);
  } finally {
    o.close();
  }
});

it('refused: a relabelled header whose own fields do not hash to the hash it names is refused', () => {
  assert.throws(() => headerFromWoc({ ...GENESIS, height: 5, nonce: 1 }, 5, maxTargetAt('mainnet', 5)));
});

it("refused: a header below the main network's difficulty floor at a recent height is refused (genesis at 800,000)", () => {
  assert.throws(() => headerFromWoc({ ...GENESIS, height: 800_000 }, 800_000, maxTargetAt('mainnet', 800_000)));
});

it('refused: our payment in flight, spending a received coin whose block the chain replaced (double-spent there): both undone, the books end where the chain is', async () => {
  const o = await org();
  try {
    const { payer, funding } = await fundedPayer(o);
    const other = o.fc.fork(0);
    const received = await spendFrom(o.fc.nodes[0], payer, funding, o.address, 40_000);
    o.fc.nodes[0].mineBlocks(1);
    await o.rescan();
    assert.equal(booksUnspent(o.store), 40_000);

    // Our payment spending the received coin, unconfirmed, when the chain switches to a branch where the payer
    // spent the same coin elsewhere.
    const to = PrivateKey.fromRandom().toAddress();
    const { P2PKH } = await import('@bsv/sdk');
    const pay = await o.engine.execute(
      'pay',
      { walletId: o.walletId, outputs: [{ script: new P2PKH().lock(to).toHex(), satoshis: 10_000 }] },
      o.who,
      meta,
    );
    await spendFrom(o.fc.nodes[other], payer, funding, PrivateKey.fromRandom().toAddress(), 90_000);
    o.fc.nodes[other].mineBlocks(3);
    o.fc.current = other;
    await o.rescan();
    await o.rescan();

    assert.equal(booksUnspent(o.store), await chainUnspent(o.store, o.chain), 'the books hold what the chain holds');
    assert.equal(booksUnspent(o.store), 0, 'no phantom change');
    assert.ok((await historyRow(o, received))?.failureReason, 'the received payment undone');
    const ours = await historyRow(o, pay.output.txid);
    assert.ok(ours === undefined || ours.failureReason, 'our payment undone with it');
    assert.equal((await o.chain.getHistory(to)).length, 0, 'the payee was not paid on the chain that won');
  } finally {
    o.close();
  }
});

async function invoiceOf(o: ForkedOrg, invoiceId: string) {
  return (await o.engine.execute('listInvoices', {}, o.who, meta)).output.invoices.find((i) => i.invoiceId === invoiceId)!;
}

it('refused: an invoice paid by a payment whose block the chain replaced, double-spent in the winning branch, is open again (not paid)', async () => {
  const o = await org();
  try {
    const { payer, funding } = await fundedPayer(o);
    const other = o.fc.fork(0);
    const invoice = (await o.engine.execute('createInvoice', { walletID: o.walletId, satoshis: 40_000 }, o.who, meta)).output;
    const paid = await spendFrom(o.fc.nodes[0], payer, funding, invoice.address, 40_000);
    o.fc.nodes[0].mineBlocks(1);
    await o.rescan();
    assert.deepEqual([(await invoiceOf(o, invoice.invoiceId)).state, (await invoiceOf(o, invoice.invoiceId)).paidTxid], ['paid', paid]);

    await spendFrom(o.fc.nodes[other], payer, funding, PrivateKey.fromRandom().toAddress(), 90_000);
    o.fc.nodes[other].mineBlocks(2);
    o.fc.current = other;
    await o.rescan();
    const after = await invoiceOf(o, invoice.invoiceId);
    assert.notEqual(after.state, 'paid');
    assert.equal(after.paidTxid, null);
  } finally {
    o.close();
  }
});

it('F1d: under the relabelled-header lie, an invoice paid in a block stays paid (the provider cannot reopen it for free)', async () => {
  let lie = false;
  const o = await org((fc) => forgetfulLiar(fc.polled(), () => lie, { relabel: true, tipHash: '12'.repeat(32) }));
  try {
    const { payer, funding } = await fundedPayer(o);
    const invoice = (await o.engine.execute('createInvoice', { walletID: o.walletId, satoshis: 40_000 }, o.who, meta)).output;
    const paid = await spendFrom(o.fc.node, payer, funding, invoice.address, 40_000);
    o.fc.node.mineBlocks(1);
    await o.rescan();
    assert.equal((await invoiceOf(o, invoice.invoiceId)).paidTxid, paid);
    lie = true;
    await o.rescan();
    const after = await invoiceOf(o, invoice.invoiceId);
    assert.deepEqual([after.state, after.paidTxid], ['paid', paid]);
  } finally {
    o.close();
  }
});

// ---------------------------------------------------------------------------------------------------------
// Finding 3: an approved BSV move is carried out at whatever fee the chain's policy says then, not the reviewed one.
// ---------------------------------------------------------------------------------------------------------

it('F3: an approved payment does not pay a network fee above the fee its approvers reviewed (ARC raised its rate between request and approval)', async () => {
  const { testEngine } = await import('../helpers/engine.js');
  const rate = { satoshis: 1, bytes: 1000 };
  const t = testEngine({
    chain: (local) =>
      new Proxy(local, {
        get: (target, key) =>
          key === 'getFeePolicy'
            ? async () => ({ ...(await target.getFeePolicy()), ...rate })
            : typeof (target as any)[key] === 'function'
              ? (target as any)[key].bind(target)
              : (target as any)[key],
      }),
  });
  try {
    const s = (await t.engine.execute('setup', ADMIN, {}, meta)).output;
    const admin = { authToken: s.authToken, serviceId: s.serviceId };
    const exec = (op: string, input: object, as: object = admin) =>
      t.engine.execute(op as never, input, as as never, meta).then((r) => r.output as any);
    const person = async (email: string, role: string) => {
      await exec('createUser', { email, password: 'pass-word-123', role, firstName: 'A', lastName: 'B', title: 'T' });
      const login = (await t.engine.execute('login', { email, password: 'pass-word-123' }, {}, meta)).output as any;
      return { authToken: login.token ?? login.authToken, serviceId: s.serviceId };
    };
    const operator = await person('olga@acme.io', 'Operator');
    const manager = await person('mia@acme.io', 'Manager');
    const w = await exec('createWallet', { walletTitle: 'Vault' }, operator);
    const { address } = await exec('walletAddress', { walletId: w.walletID }, operator);
    await exec('faucet', { address, satoshis: 1_000_000 });
    await exec('proposePolicy', {
      document: {
        rules: [{ when: { amountOver: { satoshis: 5_000 } }, action: 'approve', approvals: { count: 1, roles: ['manager'] } }],
        default: { action: 'allow' },
      },
    });
    const to = new (await import('@bsv/sdk')).P2PKH().lock(PrivateKey.fromRandom().toAddress()).toHex();
    const err = await exec('pay', { walletId: w.walletID, outputs: [{ script: to, satoshis: 9_000 }] }, operator).then(
      () => assert.fail('expected approval to be required'),
      (e: any) => e,
    );
    assert.equal(err.code, 'APPROVAL_REQUIRED');
    const id = err.details.approvalId as string;
    const reviewedFee = (await exec('getApproval', { approvalId: id }, manager)).review.fee as number;
    assert.ok(reviewedFee >= 0 && reviewedFee < 10, `reviewed fee ${reviewedFee}`);

    // ARC's policy now says 1 satoshi a byte (the most readMiningFee lets through).
    rate.bytes = 1;
    const before = booksUnspent(t.store);
    const voted = await exec('approvePayment', { approvalId: id }, manager).catch((e: any) => e);
    const after = booksUnspent(t.store);
    const paidFee = before - after - 9_000;
    const refused = voted instanceof Error && /APPROVAL_MISMATCH|fee/i.test(String((voted as any).code) + voted.message);
    assert.ok(refused || paidFee <= reviewedFee, `paid a fee of ${paidFee} satoshis; the approvers reviewed ${reviewedFee}`);
  } finally {
    t.engine.close();
    t.node.close();
  }
});

// ---------------------------------------------------------------------------------------------------------
// Apps sharing a wallet.
// ---------------------------------------------------------------------------------------------------------

async function twoAppsOneWallet() {
  const { testEngine } = await import('../helpers/engine.js');
  const { P2PKH } = await import('@bsv/sdk');
  const t = testEngine();
  const s = (await t.engine.execute('setup', ADMIN, {}, meta)).output;
  const admin = { authToken: s.authToken, serviceId: s.serviceId };
  const exec = (op: string, input: object) => t.engine.execute(op as never, input, admin as never, meta).then((r) => r.output as any);
  t.engine.brc100.setWait(50);
  const walletId = (await exec('createWallet', { walletTitle: 'Shared by apps' })).walletID as string;
  await exec('faucet', { walletId, satoshis: 200_000 });
  for (const originator of ['shop.example', 'rival.example']) {
    await exec('decideApp', { originator, allow: true, walletId });
    await exec('setAppSpendingLimit', { originator, limit: { satoshis: 1_000_000 } });
  }
  const app = (originator: string) => (method: string, args: object) =>
    t.engine.brc100.call(originator, method, args, '127.0.0.1') as Promise<any>;
  const payee = new P2PKH().lock(PrivateKey.fromRandom().toAddress()).toHex();
  return { t, exec, walletId, shop: app('shop.example'), rival: app('rival.example'), payee };
}

it("refused: app B cannot abort app A's held-back action by its reference (nor its txid)", async () => {
  const { t, shop, rival, payee } = await twoAppsOneWallet();
  try {
    const made = await shop('createAction', {
      description: 'an order, sent later',
      outputs: [{ lockingScript: payee, satoshis: 30_000, outputDescription: 'the supplier' }],
      options: { noSend: true, signAndProcess: true },
    });
    const ref = made.signableTransaction?.reference ?? made.txid;
    for (const reference of [made.txid, ref]) {
      const r = await rival('abortAction', { reference }).then(
        () => 'aborted',
        (e: { name?: string }) => e.name ?? 'refused',
      );
      assert.notEqual(r, 'aborted');
    }
    await shop('createAction', { description: 'send my order', options: { sendWith: [made.txid] } });
    assert.notEqual(t.node.txStatus(made.txid).state, 'unknown', 'the shop still sends its own action');
  } finally {
    t.engine.close();
    t.node.close();
  }
});

it("F4: app B internalizing app A's sent transaction does not write into A's action (labels, outputs)", async () => {
  const { t, exec, shop, rival, payee } = await twoAppsOneWallet();
  try {
    await exec('setAppPermission', { originator: 'rival.example', kind: 'basket', basket: 'loot', grant: true });
    const made = await shop('createAction', {
      description: 'an order',
      labels: ['order'],
      outputs: [{ lockingScript: payee, satoshis: 30_000, outputDescription: 'the supplier' }],
    });
    assert.ok(made.tx, 'AtomicBEEF of the sent action');
    const { Transaction } = await import('@bsv/sdk');
    const vout = Transaction.fromAtomicBEEF(made.tx).outputs.findIndex((o) => o.lockingScript.toHex() === payee);
    const r = await rival('internalizeAction', {
      tx: made.tx,
      description: 'not mine',
      labels: ['rival-was-here'],
      outputs: [{ outputIndex: vout, protocol: 'basket insertion', insertionRemittance: { basket: 'loot', tags: [] } }],
    }).then(
      () => 'accepted',
      (e: { name?: string; message?: string }) => `${e.name}: ${e.message}`,
    );
    const listed = await shop('listActions', { labels: ['order'], includeLabels: true, includeOutputs: true });
    const mine = listed.actions.find((a: { txid: string }) => a.txid === made.txid);
    assert.ok(mine, 'the shop lists its action');
    assert.deepEqual(
      { labels: mine.labels, loot: (mine.outputs ?? []).filter((o: { basket?: string }) => o.basket === 'loot').length },
      { labels: ['order'], loot: 0 },
      `the rival's internalize (${r}) wrote into the shop's action`,
    );
  } finally {
    t.engine.close();
    t.node.close();
  }
});

it('F1e: under the relabelled-header lie, our own mined payment is not given back (its coins do not become spendable again: no second payment)', async () => {
  let lie = false;
  const o = await org((fc) => forgetfulLiar(fc.polled(), () => lie, { relabel: true, tipHash: '34'.repeat(32) }));
  try {
    await o.fc.node.faucet(o.address, 100_000);
    o.fc.node.mineBlocks(1);
    await o.rescan();
    const { P2PKH } = await import('@bsv/sdk');
    const to = PrivateKey.fromRandom().toAddress();
    const pay = await o.engine.execute(
      'pay',
      { walletId: o.walletId, outputs: [{ script: new P2PKH().lock(to).toHex(), satoshis: 60_000 }] },
      o.who,
      meta,
    );
    o.fc.node.mineBlocks(1);
    await o.rescan();
    const mined = o.fc.node.tip().height;
    assert.equal((await historyRow(o, pay.output.txid))?.height, mined);
    const real = await chainUnspent(o.store, o.fc.polled());
    assert.equal(booksUnspent(o.store), real);

    lie = true;
    for (let i = 0; i < 3; i++) {
      o.clock.now += 60_000;
      await o.rescan();
    }
    assert.deepEqual(
      { height: (await historyRow(o, pay.output.txid))?.height, unspent: booksUnspent(o.store) },
      { height: mined, unspent: real },
      'the mined payment stays: its spent coin is not spendable again',
    );
  } finally {
    o.close();
  }
});

it('listActions marks an app action completed only with a proof: a status that says "mined" without one is not enough', async () => {
  const { testEngine } = await import('../helpers/engine.js');
  const { P2PKH } = await import('@bsv/sdk');
  let lie = false;
  const t = testEngine({
    chain: (local) =>
      Object.assign(Object.create(local) as ChainProvider, {
        getTxStatus: async (txid: string) =>
          lie ? { txid, state: 'mined', blockHeight: 1, blockHash: null, merklePath: null, seenOnNetwork: true } : local.getTxStatus(txid),
      }),
  });
  try {
    const s = (await t.engine.execute('setup', ADMIN, {}, meta)).output;
    const admin = { authToken: s.authToken, serviceId: s.serviceId };
    const exec = (op: string, input: object) => t.engine.execute(op as never, input, admin as never, meta).then((r) => r.output as any);
    t.engine.brc100.setWait(50);
    const walletId = (await exec('createWallet', { walletTitle: 'Shop' })).walletID as string;
    await exec('faucet', { walletId, satoshis: 100_000 });
    await exec('decideApp', { originator: 'shop.example', allow: true, walletId });
    await exec('setAppSpendingLimit', { originator: 'shop.example', limit: { satoshis: 1_000_000 } });
    const shop = (method: string, args: object) => t.engine.brc100.call('shop.example', method, args, '127.0.0.1') as Promise<any>;
    const payee = new P2PKH().lock(PrivateKey.fromRandom().toAddress()).toHex();
    const made = await shop('createAction', {
      description: 'an order',
      labels: ['order'],
      outputs: [{ lockingScript: payee, satoshis: 5_000, outputDescription: 'the supplier' }],
    });
    const statusOf = async () =>
      ((await shop('listActions', { labels: ['order'] })).actions as { txid: string; status: string }[]).find((a) => a.txid === made.txid)
        ?.status;
    assert.equal(await statusOf(), 'unproven');
    lie = true;
    assert.equal(await statusOf(), 'unproven', 'ARC saying "mined" with no merkle path completes nothing');
    lie = false;
    t.node.mineBlocks(1);
    assert.equal(await statusOf(), 'completed', 'a block proving it does');
  } finally {
    t.engine.close();
    t.node.close();
  }
});

it('a token transfer’s network fee counts in the BSV windows', async () => {
  const { testEngine } = await import('../helpers/engine.js');
  const t = testEngine();
  try {
    const s = (await t.engine.execute('setup', ADMIN, {}, meta)).output;
    const admin = { authToken: s.authToken, serviceId: s.serviceId };
    const exec = (op: string, input: object) => t.engine.execute(op as never, input, admin as never, meta).then((r) => r.output as any);
    const walletId = (await exec('createWallet', { walletTitle: 'Treasury' })).walletID as string;
    await exec('faucet', { walletId, satoshis: 100_000 });
    const gold = await exec('issueToken', {
      walletId,
      name: 'Gold',
      protocolId: 'KST-20',
      symbol: 'GOLD',
      tokenSupply: 1000,
      satsPerToken: 1,
    });
    const bsvCounted = () =>
      (
        t.store.db.prepare("SELECT coalesce(sum(amount), 0) AS n FROM value_moves WHERE asset = 'bsv' AND state <> 'released'").get() as {
          n: number;
        }
      ).n;
    const before = bsvCounted();
    const to = PrivateKey.fromRandom().toAddress();
    await exec('send', { walletId, dataArray: [{ to, amount: 400, tokenId: gold.tokenId }] });
    assert.ok(bsvCounted() - before > 0, 'the transfer’s fee counts as BSV');
  } finally {
    t.engine.close();
    t.node.close();
  }
});
