import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { Hash, LockingScript, MerklePath, P2PKH, PrivateKey, ProtoWallet, SatoshisPerKilobyte, Transaction, Utils } from '@bsv/sdk';
import { LocalNode } from '../../main/chain/local/local-node.js';
import { LocalProvider } from '../../main/chain/local/local-provider.js';
import type { ChainProvider, TxStatus } from '../../main/chain/types.js';
import { createEngine, type Engine } from '../../main/engine/engine.js';
import { provenHeight } from '../../main/engine/sync/proven-height.js';
import { p2pkhAddressOf } from '../../main/chain/script.js';
import { openStore } from '../../main/store/database.js';
import { meta, testEngine } from '../helpers/engine.js';
import { rejectsWith } from '../helpers/assert-domain-error.js';
import { contractScript } from '../../main/engine/tokens/schema.js';
import { KST20 } from '../../main/engine/token-templates/kst.js';
import { ADMIN } from '../helpers/http.js';
import { tempDir } from '../helpers/tmp.js';

/**
 * An indexer that lies about the chain (WhatsOnChain on the network): it cannot date a transaction it
 * invented into a block. A height is believed only with a merkle path to the header at that height; without
 * one the transaction is kept as unconfirmed, where the books can still undo it.
 */

/** A transaction paying `address` from an output that does not exist. */
const invented = (address: string, satoshis: number) =>
  new Transaction(
    1,
    [{ sourceTXID: 'ee'.repeat(32), sourceOutputIndex: 7, unlockingScript: LockingScript.fromHex('51'), sequence: 0xffffffff }],
    [{ lockingScript: new P2PKH().lock(address), satoshis }],
    0,
  );

const config = { version: 'test', network: 'local', sessionTtlMs: 3600_000, paymailDomain: 'acme.test', broadcastWindowMs: 30_000 };

describe('a lying indexer cannot date a transaction into a block', () => {
  const dataDir = tempDir();
  const node = LocalNode.open({ dataDir, password: 'pw' });
  const local = new LocalProvider(node, () => null);
  const engines: Engine[] = [];
  after(() => engines.forEach((e) => e.close()));
  const fund = async (address: string, satoshis: number): Promise<string> => {
    const r = await node.faucet(address, satoshis);
    assert.equal(r.status, 'accepted');
    return r.txid!;
  };

  /** An organisation with one wallet, made over the honest node in `orgDir`, then closed: its books are opened again over a liar. */
  const orgOnHonestNode = async (orgDir: string, walletTitle: string) => {
    const honest = createEngine({ store: openStore({ dataDir: orgDir, password: 'pw' }), chain: local, config });
    const s = (await honest.execute('setup', ADMIN, {}, meta)).output;
    const who = { authToken: s.authToken, serviceId: s.serviceId };
    const walletId = (await honest.execute('createWallet', { walletTitle }, who, meta)).output.walletID;
    const address = (await honest.execute('walletAddress', { walletId }, who, meta)).output.address;
    honest.close();
    return { who, walletId, address };
  };

  /** A new organisation over `chain` (polled) with a wallet and an open invoice for `satoshis`. */
  const shopWithInvoice = async (chain: ChainProvider, satoshis: number) => {
    const engine = createEngine({ store: openStore({ dataDir: tempDir(), password: 'pw' }), chain, config, syncIntervalMs: 0 });
    engines.push(engine);
    const s = (await engine.execute('setup', ADMIN, {}, meta)).output;
    const who = { authToken: s.authToken, serviceId: s.serviceId };
    const walletId = (await engine.execute('createWallet', { walletTitle: 'Shop' }, who, meta)).output.walletID;
    const invoice = (await engine.execute('createInvoice', { walletID: walletId, satoshis }, who, meta)).output;
    return { engine, who, walletId, invoice };
  };

  /** A stranger's payment of `satoshis` to `address` from a faucet coin, signed and sent nowhere. */
  const signedPayment = async (address: string, satoshis: number): Promise<Transaction> => {
    const payer = PrivateKey.fromRandom();
    const funding = await fund(payer.toAddress(), satoshis + 20_000);
    const tx = new Transaction();
    tx.addInput({
      sourceTransaction: Transaction.fromHex((await local.getTransactionHex(funding))!),
      sourceOutputIndex: 0,
      unlockingScriptTemplate: new P2PKH().unlock(payer),
    });
    tx.addOutput({ lockingScript: new P2PKH().lock(address), satoshis });
    tx.addOutput({ lockingScript: new P2PKH().lock(payer.toAddress()), change: true });
    await tx.fee(new SatoshisPerKilobyte(1));
    await tx.sign();
    return tx;
  };

  it('proves a mined transaction by its path to the header, and refuses every other path', async () => {
    const address = '1BoatSLRHtKNngkdXEeobR76b53LETtpyT';
    const txid = await fund(address, 5_000);
    node.mineBlocks(1);
    const status = node.txStatus(txid);
    assert.equal(status.state, 'mined');
    const height = status.blockHeight!;
    assert.equal(await provenHeight(local, txid, height), height, 'the real path proves it');
    const fake = invented(address, 1_000_000_000).id('hex');
    const other = await fund(address, 6_000);
    node.mineBlocks(1);
    const otherPath = node.txStatus(other).merklePath!;
    const lies: [string, Partial<ChainProvider>, string, number][] = [
      [
        'no path from anyone',
        { getTxStatus: async (t) => ({ txid: t, state: 'mined', blockHeight: height, blockHash: null, merklePath: null }) },
        fake,
        height,
      ],
      [
        'a path of another transaction',
        { getTxStatus: async (t) => ({ ...node.txStatus(other), txid: t }) },
        fake,
        node.txStatus(other).blockHeight!,
      ],
      ['a real path, another height claimed', {}, txid, height + 1],
      [
        'a path that is not hex',
        { getTxStatus: async (t) => ({ txid: t, state: 'mined', blockHeight: height, blockHash: null, merklePath: 'zz' }) },
        fake,
        height,
      ],
      [
        'a path whose root is no header’s',
        {
          getTxStatus: async (t) => ({
            txid: t,
            state: 'mined',
            blockHeight: height,
            blockHash: null,
            merklePath: new MerklePath(height, [
              [
                { offset: 0, hash: t, txid: true },
                { offset: 1, hash: 'ab'.repeat(32) },
              ],
            ]).toHex(),
          }),
        },
        fake,
        height,
      ],
      [
        'an indexer proof of another transaction',
        {
          getTxStatus: async (t) => ({ txid: t, state: 'unknown', blockHeight: null, blockHash: null, merklePath: null }),
          getMerkleProof: async () => otherPath,
        },
        fake,
        height + 1,
      ],
      ['no block at that height', { getMerkleRoot: async () => null }, txid, height],
      ['a header that fails to load', { getMerkleRoot: async () => Promise.reject(new Error('down')) }, txid, height],
      ['another block’s root at that height', { getMerkleRoot: async (h: number) => local.getMerkleRoot(h - 1) }, txid, height],
    ];
    for (const [what, lie, t, h] of lies) {
      const chain = Object.assign(Object.create(local) as ChainProvider, lie);
      assert.equal(await provenHeight(chain, t, h), null, what);
    }
    // An indexer's proof alone proves a transaction ARC never saw.
    const indexerOnly = Object.assign(Object.create(local) as ChainProvider, {
      getTxStatus: async (t: string): Promise<TxStatus> => ({
        txid: t,
        state: 'unknown',
        blockHeight: null,
        blockHash: null,
        merklePath: null,
      }),
      getMerkleProof: async (t: string) => node.txStatus(t).merklePath,
    });
    assert.equal(await provenHeight(indexerOnly, txid, height), height);
  });

  it('books no invented transaction the index dates into a block; a real one as mined', async () => {
    // A wallet made on the honest node, then the books are opened again over an indexer that lies.
    const { who, walletId, address } = await orgOnHonestNode(dataDir, 'Treasury');
    const real = await fund(address, 25_000);
    node.mineBlocks(1);
    const realHeight = node.txStatus(real).blockHeight!;
    const fake = invented(address, 1_000_000_000);
    const fakeId = fake.id('hex');
    // The indexer lies; the broadcaster (ARC: here the honest node) does not know the invented transaction.
    const liar: ChainProvider = Object.assign(Object.create(local) as ChainProvider, {
      events: undefined,
      getHistory: async (a: string) => [...(await local.getHistory(a)), ...(a === address ? [{ txid: fakeId, height: realHeight }] : [])],
      getTransactionHex: async (t: string) => (t === fakeId ? fake.toHex() : local.getTransactionHex(t)),
    });
    const engine = createEngine({ store: openStore({ dataDir, password: 'pw' }), chain: liar, config, syncIntervalMs: 0 });
    engines.push(engine);
    await engine.ready;
    const history = (await engine.execute('history', { walletId }, who, meta)).output.history;
    const row = (t: string) => history.find((e) => e.txid === t);
    assert.ok(row(real), JSON.stringify(history));
    assert.equal(row(real)!.confirmations > 0, true, 'the real payment is mined');
    assert.equal(row(fakeId), undefined, 'the invented one is not dated into the block, nor booked unconfirmed');
  });

  it('books an unconfirmed transaction the index names only once a node of the network accepted it', async () => {
    // An organisation with an open invoice, made on the honest node; its books are then opened over a lying indexer.
    const orgDir = tempDir();
    const honest = createEngine({ store: openStore({ dataDir: orgDir, password: 'pw' }), chain: local, config });
    const s = (await honest.execute('setup', ADMIN, {}, meta)).output;
    const who = { authToken: s.authToken, serviceId: s.serviceId };
    const walletId = (await honest.execute('createWallet', { walletTitle: 'Shop' }, who, meta)).output.walletID;
    const invoice = (await honest.execute('createInvoice', { walletID: walletId, satoshis: 40_000 }, who, meta)).output;
    honest.close();
    // A real payment of the invoice, signed but sent nowhere yet, and two invented ones.
    const pay = await signedPayment(invoice.address, 40_000);
    const realId = pay.id('hex');
    const invented1 = invented(invoice.address, 40_000);
    const invented2 = invented(invoice.address, 40_001);
    const broadcasts: string[] = [];
    const lyingIndex = (named: Transaction[], status: (t: string) => Promise<TxStatus>): ChainProvider =>
      Object.assign(Object.create(local) as ChainProvider, {
        events: undefined,
        getHistory: async (a: string) => [
          ...(await local.getHistory(a)),
          ...(a === invoice.address ? named.map((t) => ({ txid: t.id('hex'), height: null })) : []),
        ],
        getTransactionHex: async (t: string) => named.find((n) => n.id('hex') === t)?.toHex() ?? local.getTransactionHex(t),
        getTxStatus: status,
        broadcast: async (hex: string) => {
          broadcasts.push(Transaction.fromHex(hex).id('hex'));
          return local.broadcast(hex);
        },
      });
    const invoiceState = async (engine: Engine) =>
      (await engine.execute('listInvoices', {}, who, meta)).output.invoices.find((i) => i.invoiceId === invoice.invoiceId)!;
    const booked = async (engine: Engine) => (await engine.execute('history', { walletId }, who, meta)).output.history.map((h) => h.txid);
    const open = async (chain: ChainProvider) => {
      const engine = createEngine({ store: openStore({ dataDir: orgDir, password: 'pw' }), chain, config, syncIntervalMs: 0 });
      await engine.ready;
      return engine;
    };

    // ARC does not know them (the honest node's status), or says it only stored one: neither is vouched for.
    // Each is sent to ARC to be judged, which refuses both (their inputs do not exist).
    const stored = new Set([invented2.id('hex')]);
    let engine = await open(
      lyingIndex([invented1, invented2], async (t) =>
        stored.has(t)
          ? { txid: t, state: 'mempool', blockHeight: null, blockHash: null, merklePath: null, seenOnNetwork: false }
          : local.getTxStatus(t),
      ),
    );
    assert.deepEqual(await booked(engine), [], 'nothing invented is booked');
    assert.equal((await invoiceState(engine)).state, 'open', 'nor pays the invoice');
    assert.deepEqual(broadcasts.sort(), [invented1.id('hex'), invented2.id('hex')].sort(), 'each was sent to ARC to be judged');
    engine.close();

    // The real payment, which ARC did not know either: sent to it, a node accepts it, and only then is it booked.
    engine = await open(lyingIndex([invented1, pay], (t) => local.getTxStatus(t)));
    assert.deepEqual(await booked(engine), [realId]);
    assert.equal(node.txStatus(realId).state, 'mempool', 'the node took it when it was sent to be judged');
    const paid = await invoiceState(engine);
    assert.deepEqual([paid.state, paid.paidTxid], ['paid', realId]);
    engine.close();
  });

  it('never sends on the indexer’s word what spends outputs the books hold: a coin, a token, an inscription, an app’s', async () => {
    const orgDir = tempDir();
    const { who, walletId, address } = await orgOnHonestNode(orgDir, 'Holder');
    const coin = await fund(address, 30_000);
    node.mineBlocks(1);
    // Outputs the books hold besides coins, as issuing, an inscription and an app's action would leave them
    // (their transactions need not exist: only that the books hold them matters to what is sent).
    const [tokenTx, ordinalTx, appTx] = ['a1', 'a2', 'a3'].map((b) => b.repeat(32));
    const db = openStore({ dataDir: orgDir, password: 'pw' });
    const row = (db.db.prepare('SELECT wallet_row FROM addresses WHERE address = ?').get(address) as { wallet_row: number }).wallet_row;
    const script = new P2PKH().lock(address).toHex();
    db.db
      .prepare(
        "INSERT INTO token_utxos (txid, vout, token_id, protocol, wallet_row, address, satoshis, script, created_at) VALUES (?, 0, 'tok', 'KST-20', ?, ?, 1, ?, 0)",
      )
      .run(tokenTx, row, address, script);
    db.db
      .prepare(
        "INSERT INTO ordinal_outputs (txid, vout, wallet_row, address, satoshis, script, content_type, content_size, validity, created_at) VALUES (?, 0, ?, ?, 1, ?, 'text/plain', 1, 'none', 0)",
      )
      .run(ordinalTx, row, address, script);
    db.db
      .prepare(
        "INSERT INTO app_outputs (wallet_row, basket, txid, vout, satoshis, script, originator, created_at) VALUES (?, 'b', ?, 0, 1000, ?, 'app.example', 0)",
      )
      .run(row, appTx, script);
    db.close();
    // Each spends one of them (as a transaction we signed and kept would) and pays the wallet's address.
    const spending = (txid: string, vout: number) =>
      new Transaction(
        1,
        [{ sourceTXID: txid, sourceOutputIndex: vout, unlockingScript: LockingScript.fromHex('51'), sequence: 0xffffffff }],
        [{ lockingScript: new P2PKH().lock(address), satoshis: 500 }],
        0,
      );
    const ours = [spending(coin, 0), spending(tokenTx, 0), spending(ordinalTx, 0), spending(appTx, 0)];
    const stranger = invented(address, 500); // a control: what spends nothing of ours is sent to be judged
    const named = [...ours, stranger];
    const sent: string[] = [];
    const liar: ChainProvider = Object.assign(Object.create(local) as ChainProvider, {
      events: undefined,
      getHistory: async (a: string) => [
        ...(await local.getHistory(a)),
        ...(a === address ? named.map((t) => ({ txid: t.id('hex'), height: null })) : []),
      ],
      getTransactionHex: async (t: string) => named.find((n) => n.id('hex') === t)?.toHex() ?? local.getTransactionHex(t),
      broadcast: async (hex: string) => {
        sent.push(Transaction.fromHex(hex).id('hex'));
        return local.broadcast(hex);
      },
    });
    const engine = createEngine({ store: openStore({ dataDir: orgDir, password: 'pw' }), chain: liar, config, syncIntervalMs: 0 });
    engines.push(engine);
    await engine.ready;
    assert.deepEqual(sent, [stranger.id('hex')], 'only the stranger’s transaction was sent to be judged');
    const history = (await engine.execute('history', { walletId }, who, meta)).output.history.map((h) => h.txid);
    assert.deepEqual(history, [coin], 'nothing the indexer named is booked');
  });

  it('dates an app payment internalized over BRC-100 into a block only with its merkle path, not on ARC’s word', async () => {
    // ARC says the payment is mined in the newest block, with no path; the node has it in its mempool only.
    const claimed = new Set<string>();
    const lyingArc: ChainProvider = Object.assign(Object.create(local) as ChainProvider, {
      getTxStatus: async (t: string): Promise<TxStatus> =>
        claimed.has(t)
          ? { txid: t, state: 'mined', blockHeight: node.tip().height, blockHash: null, merklePath: null, seenOnNetwork: true }
          : local.getTxStatus(t),
    });
    const engine = createEngine({ store: openStore({ dataDir: tempDir(), password: 'pw' }), chain: lyingArc, config });
    engines.push(engine);
    const s = (await engine.execute('setup', ADMIN, {}, meta)).output;
    const who = { authToken: s.authToken, serviceId: s.serviceId };
    const walletId = (await engine.execute('createWallet', { walletTitle: 'Apps' }, who, meta)).output.walletID;
    await engine.execute('decideApp', { originator: 'app.example', allow: true, walletId }, who, meta);
    const app = (method: string, args: object) => engine.brc100.call('app.example', method, args, '127.0.0.1');
    const { publicKey: identity } = (await app('getPublicKey', { identityKey: true })) as { publicKey: string };
    // A BRC-29 payment to the wallet from a mined coin, sent to the node, and internalized by the app.
    const sender = PrivateKey.fromRandom();
    const funding = await fund(sender.toAddress(), 20_000);
    node.mineBlocks(1);
    const source = Transaction.fromHex((await local.getTransactionHex(funding))!);
    source.merklePath = MerklePath.fromHex(node.txStatus(funding).merklePath!);
    const keyID = 'cHJlZml4 c3VmZml4';
    const { publicKey } = await new ProtoWallet(sender).getPublicKey({ protocolID: [2, '3241645161d8'], keyID, counterparty: identity });
    const tx = new Transaction();
    tx.addInput({ sourceTransaction: source, sourceOutputIndex: 0, unlockingScriptTemplate: new P2PKH().unlock(sender) });
    tx.addOutput({ lockingScript: new P2PKH().lock(Hash.hash160(Utils.toArray(publicKey, 'hex'))), satoshis: 5_000 });
    tx.addOutput({ lockingScript: new P2PKH().lock(sender.toAddress()), change: true });
    await tx.fee(new SatoshisPerKilobyte(1));
    await tx.sign();
    const txid = tx.id('hex');
    assert.equal((await local.broadcast(tx.toHex())).status, 'accepted');
    claimed.add(txid);
    const remittance = { derivationPrefix: 'cHJlZml4', derivationSuffix: 'c3VmZml4', senderIdentityKey: sender.toPublicKey().toString() };
    const r = await app('internalizeAction', {
      tx: tx.toAtomicBEEF(),
      outputs: [{ outputIndex: 0, protocol: 'wallet payment', paymentRemittance: remittance }],
      description: 'an app payment',
    });
    assert.deepEqual(r, { accepted: true });
    const row = (await engine.execute('history', { walletId }, who, meta)).output.history.find((e) => e.txid === txid);
    assert.ok(row, 'the payment is booked');
    assert.deepEqual([row.confirmations, row.amount], [0, 5_000], 'as unconfirmed: no block is proven to hold it');
  });

  it('an honest broadcaster whose status lags its "accepted" by a moment: the payment is booked within the call', async () => {
    const asked = new Map<string, number>();
    const laggingArc: ChainProvider = Object.assign(Object.create(local) as ChainProvider, {
      events: undefined,
      // The first status answer after the broadcast still says "stored"; the next, that a node took it.
      getTxStatus: async (t: string): Promise<TxStatus> => {
        const n = (asked.get(t) ?? 0) + 1;
        asked.set(t, n);
        const s = await local.getTxStatus(t);
        return n === 1 && s.state === 'mempool' ? { ...s, seenOnNetwork: false } : s;
      },
    });
    const { engine, who, invoice } = await shopWithInvoice(laggingArc, 3_000);
    const tx = await signedPayment(invoice.address, 3_000);
    const paid = (await engine.execute('payInvoice', { invoiceId: invoice.invoiceId, transaction: tx.toHex() }, who, meta)).output;
    assert.deepEqual([paid.state, paid.seenByChain], ['paid', true]);
    assert.equal(asked.get(tx.id('hex')), 2, 'asked again after the first "stored"');
  });

  it('a paymail payment ARC only stored is booked once a node takes it, with its sender’s note', async () => {
    // ARC answers "accepted" and only stores the transaction (its status says so) until it passes it on.
    const stored = new Map<string, string>();
    const storingArc: ChainProvider = Object.assign(Object.create(local) as ChainProvider, {
      events: undefined,
      broadcast: async (hex: string) => {
        const txid = Transaction.fromHex(hex).id('hex');
        stored.set(txid, hex);
        return { status: 'accepted' as const, txid, alreadyKnown: false };
      },
      getTxStatus: async (t: string): Promise<TxStatus> =>
        stored.has(t) && node.txStatus(t).state === 'unknown'
          ? { txid: t, state: 'mempool', blockHeight: null, blockHash: null, merklePath: null, seenOnNetwork: false }
          : local.getTxStatus(t),
    });
    const orgDir = tempDir();
    const open = async () => {
      const engine = createEngine({ store: openStore({ dataDir: orgDir, password: 'pw' }), chain: storingArc, config, syncIntervalMs: 0 });
      engines.push(engine);
      await engine.ready;
      return engine;
    };
    let engine = await open();
    const s = (await engine.execute('setup', ADMIN, {}, meta)).output;
    const who = { authToken: s.authToken, serviceId: s.serviceId };
    const created = { walletTitle: 'Till', paymail: 'till', paymailActivate: true };
    const walletId = (await engine.execute('createWallet', created, who, meta)).output.walletID;
    const dest = engine.paymailHost.p2pDestination('till@acme.test', { satoshis: 6_000 });
    const pay = await signedPayment(p2pkhAddressOf(dest.outputs[0].script)!, 6_000);
    const txid = pay.id('hex');
    const note = { note: 'Order 17', sender: 'alice@elsewhere.test' };
    await engine.paymailHost.receiveTransaction('till@acme.test', { hex: pay.toHex(), reference: dest.reference, metadata: note });
    const history = async () => (await engine.execute('history', { walletId }, who, meta)).output.history;
    assert.deepEqual(await history(), [], 'no node has it yet: not booked');
    engine.close();
    // ARC passes it on; the next scan books it, with what the sender wrote.
    assert.equal(node.submit(stored.get(txid)!).status, 'accepted');
    engine = await open();
    const row = (await history()).find((h) => h.txid === txid);
    assert.ok(row, 'booked by the scan');
    assert.deepEqual([row.amount, row.memo, row.counterparty], [6_000, 'Order 17', 'alice@elsewhere.test (unverified)']);
  });

  it('a broadcaster that says "accepted" for what no node took pays no invoice and books nothing', async () => {
    // ARC answers "accepted" for anything and passes none of it on; its status route is honest.
    const told: string[] = [];
    const lyingArc: ChainProvider = Object.assign(Object.create(local) as ChainProvider, {
      events: undefined,
      broadcast: async (hex: string) => {
        const txid = Transaction.fromHex(hex).id('hex');
        told.push(txid);
        return { status: 'accepted' as const, txid, alreadyKnown: false };
      },
    });
    const { engine, who, walletId, invoice } = await shopWithInvoice(lyingArc, 40_000);
    // BIP-270: a "payer" hands over an invented transaction that pays the invoice in full.
    const fake = invented(invoice.address, 40_000);
    const paid = (await engine.execute('payInvoice', { invoiceId: invoice.invoiceId, transaction: fake.toHex() }, who, meta)).output;
    assert.deepEqual(told, [fake.id('hex')], 'it was sent');
    assert.deepEqual([paid.state, paid.seenByChain], ['open', false], 'no node took it: the invoice stays open');
    const listed = (await engine.execute('listInvoices', {}, who, meta)).output.invoices.find((i) => i.invoiceId === invoice.invoiceId)!;
    assert.deepEqual([listed.state, listed.paidTxid], ['open', null]);
    assert.deepEqual((await engine.execute('history', { walletId }, who, meta)).output.history, [], 'nothing is booked');
  });
});

describe('a lying indexer cannot teach the books a token', () => {
  it('learns a token’s schema from a looked-up lineage only when a node vouches for its issue', async () => {
    const key = PrivateKey.fromRandom();
    const holderPkh = Utils.toHex(Utils.fromBase58Check(key.toAddress()).data as number[]);
    const issuer = PrivateKey.fromRandom();
    const redemption = Utils.toHex(Utils.fromBase58Check(issuer.toAddress()).data as number[]);
    // An issue for a token id anyone can name (the redemption key hash and a symbol), with a schema of the
    // liar's choosing (50 satoshis a token), spending an invented contract output: none of it on any chain.
    const schema = {
      name: 'Gold',
      protocolId: 'KST-20',
      symbol: 'GLD',
      description: '',
      image: '',
      totalSupply: 100,
      decimals: 0,
      satsPerToken: 50,
      properties: {},
      tokenId: redemption,
    };
    const contract = new Transaction(
      1,
      [{ sourceTXID: 'ee'.repeat(32), sourceOutputIndex: 0, unlockingScript: LockingScript.fromHex('51'), sequence: 0xffffffff }],
      [{ lockingScript: LockingScript.fromHex(contractScript(redemption, schema)), satoshis: 5_000 }],
      0,
    );
    const issue = new Transaction(
      1,
      [{ sourceTXID: contract.id('hex'), sourceOutputIndex: 0, unlockingScript: LockingScript.fromHex('51'), sequence: 0xffffffff }],
      [
        {
          lockingScript: LockingScript.fromHex(KST20.lock({ owner: holderPkh, redemption, symbol: 'GLD', data: [], splittable: true })),
          satoshis: 5_000,
        },
      ],
      0,
    );
    const invented = new Map([contract, issue].map((t) => [t.id('hex'), t]));
    // Whether the broadcaster vouches for the invented issue (a control: then the schema is learnt).
    let arcVouches = false;
    const t = testEngine({
      chain: (local) =>
        Object.assign(Object.create(local) as ChainProvider, {
          getTxStatus: async (txid: string): Promise<TxStatus> =>
            arcVouches && invented.has(txid)
              ? { txid, state: 'mempool', blockHeight: null, blockHash: null, merklePath: null, seenOnNetwork: true }
              : local.getTxStatus(txid),
          getHeldScripts: async (address: string, limit: number) => [
            ...(await local.getHeldScripts!(address, limit)),
            ...(address === key.toAddress()
              ? [{ txid: issue.id('hex'), vout: 0, satoshis: 5_000, script: issue.outputs[0].lockingScript.toHex(), height: null }]
              : []),
          ],
          getTransactionHex: async (txid: string) => invented.get(txid)?.toHex() ?? local.getTransactionHex(txid),
        }),
    });
    after(() => t.engine.close());
    const s = (await t.engine.execute('setup', ADMIN, {}, meta)).output;
    const who = { authToken: s.authToken, serviceId: s.serviceId };
    const tokenId = `${redemption}-GLD`;
    const lookup = async () => (await t.engine.execute('lookup', { privateKey: key.toWif(), compact: 'false' }, who, meta)).output.coins;
    const listed = (coins: Awaited<ReturnType<typeof lookup>>) => coins.filter((c) => JSON.stringify(c).includes(tokenId));
    // The lookup traces the invented lineage to its issue (what it shows is the liar's), but keeps nothing of it.
    assert.equal(listed(await lookup()).length, 1, 'the lineage was traced to its issue');
    await rejectsWith(t.engine.execute('tokenDetails', { id: tokenId }, who, meta), 'NOT_FOUND');
    const known = (await t.engine.execute('listTokens', {}, who, meta)).output.tokens.map((k) => k.tokenId);
    assert.ok(!known.includes(tokenId), 'the invented schema is not kept');
    // Once the broadcaster says a node took the issue, the same lookup learns the token (the proofs were not kept).
    arcVouches = true;
    assert.equal(listed(await lookup()).length, 1);
    const details = (await t.engine.execute('tokenDetails', { id: tokenId }, who, meta)).output;
    assert.equal(JSON.stringify(details).includes('"satsPerToken":50'), true, JSON.stringify(details).slice(0, 300));
  });
});
