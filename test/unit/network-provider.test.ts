import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { classifyArc, reasonFromText } from '../../main/chain/network/classify.js';
import { httpRequest, HttpUnavailable } from '../../main/net/http.js';
import { NetworkProvider } from '../../main/chain/network/network-provider.js';
import { Hash, MerklePath, P2PKH, PrivateKey, Transaction, UnlockingScript, Utils } from '@bsv/sdk';
import { headerFromWoc, maxTargetAt, targetOf, UntrustedHeader } from '../../main/chain/network/woc-header.js';
import { blockHash } from '../../main/chain/block.js';

const AB = 'ab'.repeat(32);
const CD = 'cd'.repeat(32);

describe('ARC answers, classified honestly', () => {
  it('treats "missing inputs" as missing inputs, never as a double spend', () => {
    for (const text of ['Missing inputs', 'bad-txns-inputs-missingorspent', 'parent transaction not found'])
      assert.equal(reasonFromText(text), 'missing-inputs', text);
    assert.equal(reasonFromText('txn-mempool-conflict'), 'double-spend');
    assert.equal(reasonFromText('mandatory-script-verify-flag-failed (Signature must be zero)'), 'bad-signature');
    assert.equal(reasonFromText('min relay fee not met'), 'fee-too-low');
  });

  it('counts "already known" as success', () => {
    assert.deepEqual(classifyArc(200, { txid: AB, txStatus: 'SEEN_ON_NETWORK', extraInfo: 'Transaction already known' }, null), {
      status: 'accepted',
      txid: AB,
      alreadyKnown: true,
    });
    assert.deepEqual(classifyArc(409, { detail: 'txn-already-known', txid: AB }, null), {
      status: 'accepted',
      txid: AB,
      alreadyKnown: true,
    });
    assert.deepEqual(classifyArc(200, { txid: AB, txStatus: 'STORED' }, null), { status: 'accepted', txid: AB, alreadyKnown: false });
  });

  it('reads failures ARC sends as HTTP 200 and as 46x', () => {
    const ds = classifyArc(200, { txid: AB, txStatus: 'DOUBLE_SPEND_ATTEMPTED', competingTxs: [CD], reason: 'double-spend' }, null);
    assert.equal(ds.status === 'rejected' && ds.reason, 'double-spend');
    assert.deepEqual(ds.status === 'rejected' && ds.competingTxs, [CD]);
    assert.equal(
      classifyArc(200, { txid: AB, txStatus: 'REJECTED', extraInfo: 'mandatory-script-verify-flag-failed' }, null).status,
      'rejected',
    );
    const fee = classifyArc(465, { status: 465, title: 'Fee too low', detail: 'fee too low' }, AB);
    assert.equal(fee.status === 'rejected' && fee.reason, 'fee-too-low');
    const ours = classifyArc(462, { reason: 'outputs-exceed-inputs', detail: 'x' }, AB);
    assert.equal(ours.status === 'rejected' && ours.reason, 'outputs-exceed-inputs', "our node's own reason wins");
  });

  it('says "unknown" when ARC did not judge the transaction: only a verdict may give coins back', () => {
    assert.equal(
      classifyArc(200, { txid: AB, txStatus: 'SEEN_IN_ORPHAN_MEMPOOL' }, null).status,
      'unknown',
      'an orphan may still be accepted',
    );
    assert.equal(classifyArc(200, { txStatus: 'STORED' }, null).status, 'unknown', 'no txid');
    for (const status of [401, 403, 404, 405, 409, 413, 422, 460, 466, 467, 468, 469, 475])
      assert.equal(classifyArc(status, { title: 'Not judged' }, AB).status, 'unknown', `HTTP ${status}`);
    assert.equal(
      classifyArc(200, { txid: AB, txStatus: 'DOUBLE_SPEND_ATTEMPTED', competingTxs: [CD] }, null).status,
      'unknown',
      "real ARC's double-spend attempt is not final",
    );
    assert.equal(classifyArc(461, { title: 'Malformed transaction' }, AB).status, 'rejected');
  });

  it("judges only our transaction: ARC's txid is compared with ours, and its text and competitors are cleaned", () => {
    const other = classifyArc(200, { txid: CD, txStatus: 'REJECTED', extraInfo: 'fee too low' }, AB);
    assert.deepEqual(other, {
      status: 'unknown',
      txid: AB,
      message: `ARC answered about another transaction (${CD}); ours was not judged.`,
    });
    assert.equal(classifyArc(200, { txid: CD, txStatus: 'STORED' }, AB).status, 'unknown', 'an acceptance of another transaction');
    assert.deepEqual(classifyArc(200, { txid: AB.toUpperCase(), txStatus: 'STORED' }, AB), {
      status: 'accepted',
      txid: AB,
      alreadyKnown: false,
    });
    assert.deepEqual(classifyArc(200, { txid: 'not-a-txid', txStatus: 'STORED' }, AB), {
      status: 'accepted',
      txid: AB,
      alreadyKnown: false,
    });
    const loud = classifyArc(465, { title: 'Fee\u001b[2K too low\n\u202efake', detail: 'x'.repeat(5_000) }, AB);
    assert.ok(loud.status === 'rejected' && !['\n', '\u001b', '\u202e'].some((c) => loud.message.includes(c)), JSON.stringify(loud));
    assert.ok(loud.message.length <= 500);
    const ds = classifyArc(409, { reason: 'double-spend', competingTxs: [CD, '<script>', 7, CD.toUpperCase()] }, AB);
    assert.deepEqual(ds.status === 'rejected' && ds.competingTxs, [CD, CD]);
  });
});

describe('HTTP with timeouts and bounded retries', () => {
  let server: Server;
  let base = '';
  let hits = 0;
  before(async () => {
    server = createServer((req, res) => {
      hits += 1;
      if (req.url === '/flaky' && hits % 3 !== 0) return void res.writeHead(503).end();
      if (req.url === '/slow') return void setTimeout(() => res.end('late'), 500);
      if (req.url === '/bad') return void res.writeHead(400, { 'content-type': 'application/json' }).end('{"detail":"no"}');
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());

  it('retries 5xx with backoff until it passes', async () => {
    hits = 0;
    const r = await httpRequest(`${base}/flaky`, {}, { timeoutMs: 2000, retries: 3, backoffMs: 5 });
    assert.equal(r.status, 200);
    assert.equal(hits, 3);
  });

  it('gives up after the bounded retries, and on timeouts', async () => {
    await assert.rejects(httpRequest(`${base}/slow`, {}, { timeoutMs: 50, retries: 1, backoffMs: 5 }), (e: HttpUnavailable) =>
      /timed out/.test(e.message),
    );
    hits = 1;
    await assert.rejects(httpRequest(`${base}/flaky`, {}, { timeoutMs: 2000, retries: 0, backoffMs: 5 }), HttpUnavailable);
  });

  it('never retries a 4xx', async () => {
    hits = 0;
    const r = await httpRequest(`${base}/bad`, {}, { timeoutMs: 2000, retries: 3, backoffMs: 5 });
    assert.deepEqual([r.status, r.body, hits], [400, { detail: 'no' }, 1]);
  });

  it('reports an unreachable ARC as an unknown outcome, not a rejection of the transaction', async () => {
    const p = new NetworkProvider({
      network: 'testnet',
      arcUrl: 'http://127.0.0.1:1',
      wocUrl: 'http://127.0.0.1:1',
      http: { retries: 1, backoffMs: 5, timeoutMs: 500 },
    });
    const r = await p.broadcast('0100000000000000000000');
    assert.equal(r.status, 'unknown');
  });
});

describe('WhatsOnChain transaction bytes are checked before the books use them', () => {
  const txPaying = (satoshis: number) =>
    new Transaction(
      1,
      [{ sourceTXID: 'cd'.repeat(32), sourceOutputIndex: 0, unlockingScript: UnlockingScript.fromHex('51'), sequence: 0xffffffff }],
      [{ lockingScript: new P2PKH().lock(PrivateKey.fromRandom().toAddress()), satoshis }],
      0,
    );
  const asked = txPaying(1_000);
  const other = txPaying(90_000_000);
  let answer = '';
  let server: Server;
  let provider: NetworkProvider;
  before(async () => {
    server = createServer((_req, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end(answer));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    provider = new NetworkProvider({ network: 'testnet', arcUrl: url, wocUrl: url, http: { retries: 0, backoffMs: 1, timeoutMs: 2_000 } });
  });
  after(() => server.close());

  it('returns the transaction asked for', async () => {
    answer = `${asked.toHex()}\n`;
    assert.equal(await provider.getTransactionHex(asked.id('hex')), asked.toHex());
  });

  it('refuses another transaction answered for the txid (its outputs would be booked under the wrong id)', async () => {
    answer = other.toHex();
    await assert.rejects(provider.getTransactionHex(asked.id('hex')), /with another one/);
  });

  it('refuses the right transaction with bytes after it, and bytes that are no transaction', async () => {
    answer = `${asked.toHex()}00`;
    await assert.rejects(provider.getTransactionHex(asked.id('hex')), /not one/);
    answer = 'not a transaction';
    await assert.rejects(provider.getTransactionHex(asked.id('hex')), /not one/);
  });
});

describe("coins, balances, histories, the tip and ARC's status are read strictly", () => {
  let answer: unknown = null;
  let server: Server;
  let provider: NetworkProvider;
  const address = PrivateKey.fromRandom().toAddress();
  before(async () => {
    server = createServer((_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer)));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    provider = new NetworkProvider({ network: 'testnet', arcUrl: url, wocUrl: url, http: { retries: 0, backoffMs: 1, timeoutMs: 2_000 } });
  });
  after(() => server.close());
  const coin = { tx_hash: AB, tx_pos: 1, value: 5_000, height: 0 };

  it('uses a well-formed answer as it is', async () => {
    answer = [coin, { ...coin, tx_hash: CD.toUpperCase(), height: 850_000 }];
    assert.deepEqual(
      (await provider.getUtxos(address)).map((u) => [u.txid, u.vout, u.satoshis, u.height]),
      [
        [AB, 1, 5_000, null],
        [CD, 1, 5_000, 850_000],
      ],
    );
    answer = { confirmed: 7, unconfirmed: -2 };
    assert.equal(await provider.getBalance(address), 5);
    answer = [{ tx_hash: AB, height: 12 }];
    assert.deepEqual(await provider.getHistory(address), [{ txid: AB, height: 12 }]);
    answer = { blocks: 900_000, bestblockhash: CD };
    assert.deepEqual(await provider.getTip(), { height: 900_000, hash: CD });
    answer = { txStatus: 'MINED', blockHeight: 12, blockHash: CD, merklePath: 'fe00' };
    assert.equal((await provider.getTxStatus(AB)).state, 'mined');
    assert.equal((await provider.getTxStatus(AB)).seenOnNetwork, true, 'a mined transaction was accepted by the nodes');
    answer = { txStatus: 'SEEN_ON_NETWORK', blockHeight: 0, blockHash: '', merklePath: '' };
    assert.deepEqual(await provider.getTxStatus(AB), {
      txid: AB,
      state: 'mempool',
      blockHeight: null,
      blockHash: null,
      merklePath: null,
      seenOnNetwork: true,
    });
    // What ARC only received, stored or announced is in its mempool, but no node has vouched for it yet.
    for (const txStatus of ['RECEIVED', 'STORED', 'ANNOUNCED_TO_NETWORK', 'REQUESTED_BY_NETWORK', 'SENT_TO_NETWORK', 'QUEUED']) {
      answer = { txStatus };
      const s = await provider.getTxStatus(AB);
      assert.deepEqual([s.state, s.seenOnNetwork], ['mempool', false], txStatus);
    }
    answer = { txStatus: 'ACCEPTED_BY_NETWORK' };
    assert.equal((await provider.getTxStatus(AB)).seenOnNetwork, true);
  });

  it('refuses, whole, an answer with an amount, index, height or txid that is not one', async () => {
    const lies: [string, () => Promise<unknown>, unknown][] = [
      ['a string value', () => provider.getUtxos(address), [{ ...coin, value: '5000' }]],
      ['a fractional value', () => provider.getUtxos(address), [{ ...coin, value: 0.5 }]],
      ['a negative value', () => provider.getUtxos(address), [{ ...coin, value: -1 }]],
      ['more than all the bitcoin', () => provider.getUtxos(address), [{ ...coin, value: 2_100_000_000_000_001 }]],
      ['a path in the txid', () => provider.getUtxos(address), [{ ...coin, tx_hash: '../../admin' }]],
      ['a fractional output index', () => provider.getUtxos(address), [{ ...coin, tx_pos: 1.5 }]],
      ['an object, not a list', () => provider.getUtxos(address), { result: [coin] }],
      ['a string balance', () => provider.getBalance(address), { confirmed: '1e20' }],
      ['a history height in words', () => provider.getHistory(address), [{ tx_hash: AB, height: 'tall' }]],
      ['a history txid of 63 digits', () => provider.getHistory(address), [{ tx_hash: AB.slice(1), height: 1 }]],
      ['a tip without a hash', () => provider.getTip(), { blocks: 5 }],
      ['a negative tip', () => provider.getTip(), { blocks: -5, bestblockhash: CD }],
      ['a mined status at a fractional height', () => provider.getTxStatus(AB), { txStatus: 'MINED', blockHeight: 1.5 }],
      ['a merkle path that is not hex', () => provider.getTxStatus(AB), { txStatus: 'MINED', blockHeight: 1, merklePath: 'zz' }],
      ['a block hash that is not one', () => provider.getTxStatus(AB), { txStatus: 'MINED', blockHeight: 1, blockHash: '<b>' }],
    ];
    for (const [what, call, lie] of lies) {
      answer = lie;
      await assert.rejects(call(), /answered something that is not a valid answer .*it was not used/, what);
    }
  });
});

describe("WhatsOnChain's TSC proof becomes a merkle path (checked later against the header)", () => {
  let answer: unknown = null;
  let server: Server;
  let provider: NetworkProvider;
  before(async () => {
    server = createServer(
      (_req, res) => void res.writeHead(answer === 404 ? 404 : 200, { 'content-type': 'application/json' }).end(JSON.stringify(answer)),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    provider = new NetworkProvider({ network: 'testnet', arcUrl: url, wocUrl: url, http: { retries: 0, backoffMs: 1, timeoutMs: 2_000 } });
  });
  after(() => server.close());

  it('gives a path with the root of the whole block, for each index, with duplicates as "*" or in full', async () => {
    const leaves = ['a1', 'b2', 'c3', 'd4', 'e5'].map((x) => x.repeat(32));
    const level0 = [...leaves.map((hash, offset) => ({ offset, hash, txid: true })), { offset: 5, duplicate: true }];
    const block = new MerklePath(800_000, [level0]);
    const root = block.computeRoot(leaves[0]);
    for (let index = 0; index < leaves.length; index++) {
      const nodes: string[] = [];
      for (let level = 0; (leaves.length - 1) >> level > 0 || level === 0; level++) {
        const sibling = (index >> level) ^ 1;
        const leaf = block.findOrComputeLeaf(level, sibling);
        nodes.push(leaf?.hash ?? '*');
        if (level > 8) break;
      }
      for (const shape of [{ index, txOrId: leaves[index], target: 'ff'.repeat(32), nodes }, [{ index, nodes }]]) {
        answer = shape;
        const hex = await provider.getMerkleProof(leaves[index], 800_000);
        const path = MerklePath.fromHex(hex!);
        assert.equal(path.blockHeight, 800_000);
        assert.equal(path.computeRoot(leaves[index]), root, `index ${index}`);
      }
    }
    answer = 404;
    assert.equal(await provider.getMerkleProof(leaves[0], 1), null);
    answer = [];
    assert.equal(await provider.getMerkleProof(leaves[0], 1), null);
    for (const lie of [{ index: -1, nodes: [] }, { index: 1, nodes: ['zz'] }, { index: 0.5, nodes: [] }, { nodes: [] }, 'proof']) {
      answer = lie;
      await assert.rejects(provider.getMerkleProof(leaves[0], 1), /not a valid answer/, JSON.stringify(lie));
    }
  });
});

describe("WhatsOnChain block headers (BRC-100's getHeaderForHeight) are rebuilt and checked", () => {
  // The main network's genesis block, as WhatsOnChain answers it, and its well-known 80 bytes.
  const GENESIS = {
    hash: '000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f',
    height: 0,
    version: 1,
    merkleroot: '4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b',
    time: 1231006505,
    bits: '1d00ffff',
    nonce: 2083236893,
  };
  const GENESIS_BYTES =
    '0100000000000000000000000000000000000000000000000000000000000000000000003ba3edfd7a7b12b27ac72c3e67768f617fc81bc3888a51323a9fb8aa4b1e5e4a29ab5f49ffff001d1dac2b7c';
  const BLOCK_1 = {
    hash: '00000000839a8e6886ab5951d76f411475428afc90947ee320161bbf18eb6048',
    height: 1,
    version: 1,
    previousblockhash: GENESIS.hash,
    merkleroot: '0e3e2357e806b6cdb1f70b54c3a3a17b6714ee1f0e68bebb44a74b1efd512098',
    time: 1231469665,
    bits: '1d00ffff',
    nonce: 2573394689,
  };

  const MAINNET_1 = maxTargetAt('mainnet', 1);

  it('rebuilds the 80 bytes from the fields and checks them against the hash and the proof of work', () => {
    assert.equal(headerFromWoc(GENESIS, 0, maxTargetAt('mainnet', 0)), GENESIS_BYTES);
    const one = headerFromWoc(BLOCK_1, 1, MAINNET_1);
    assert.equal(one.length, 160);
    assert.equal(Utils.toHex(Hash.hash256(Utils.toArray(one, 'hex')).reverse()), BLOCK_1.hash);
  });

  it('refuses another block, fields that do not hash to the hash named, work not done, and what is not a header', () => {
    assert.throws(() => headerFromWoc(BLOCK_1, 2, MAINNET_1), /not 2/);
    assert.throws(() => headerFromWoc({ ...BLOCK_1, merkleroot: GENESIS.merkleroot }, 1, MAINNET_1), /hash to/);
    assert.throws(() => headerFromWoc({ ...BLOCK_1, hash: GENESIS.hash }, 1, MAINNET_1), /hash to/);
    // Fields with a matching hash that misses its target: what a lying server can make without mining.
    const forged = { ...BLOCK_1, nonce: 1 };
    const forgedHash = blockHash({
      version: 1,
      prevHash: GENESIS.hash,
      merkleRoot: BLOCK_1.merkleroot,
      time: BLOCK_1.time,
      bits: 0x1d00ffff,
      nonce: 1,
    });
    assert.throws(() => headerFromWoc({ ...forged, hash: forgedHash }, 1, MAINNET_1), /proof-of-work/);
    assert.equal(
      headerFromWoc({ ...forged, hash: forgedHash }, 1, null).length,
      160,
      'a chain without work (a local node) is not held to it',
    );
    for (const bad of [null, 'header', { ...BLOCK_1, bits: 'zz' }, { ...BLOCK_1, version: -1 }, { ...BLOCK_1, previousblockhash: 'ab' }])
      assert.throws(() => headerFromWoc(bad, 1, MAINNET_1), UntrustedHeader);
  });

  it('refuses a header whose target is easier than the network’s blocks at that height have had', () => {
    // A lying server's cheapest header: the easiest target there is (bits 207fffff), met by about one hash in two.
    const easy = { ...BLOCK_1, bits: '207fffff' };
    let nonce = 0;
    const fields = () => ({
      version: 1,
      prevHash: GENESIS.hash,
      merkleRoot: BLOCK_1.merkleroot,
      time: BLOCK_1.time,
      bits: 0x207fffff,
      nonce,
    });
    while (BigInt(`0x${blockHash(fields())}`) > targetOf(0x207fffff)) nonce++;
    const minedEasily = { ...easy, nonce, hash: blockHash(fields()) };
    assert.equal(headerFromWoc(minedEasily, 1, null).length, 160, 'it meets its own target');
    for (const network of ['mainnet', 'testnet'])
      assert.throws(() => headerFromWoc(minedEasily, 1, maxTargetAt(network, 1)), /difficulty \(bits 207fffff\) is below/, network);
    // Block 1's real work (difficulty 1) is no proof of a recent block on the main network; on testnet it may be.
    const recent = { ...BLOCK_1, height: 880_000 };
    assert.throws(
      () => headerFromWoc(recent, 880_000, maxTargetAt('mainnet', 880_000)),
      /below any this network's blocks at height 880000/,
    );
    assert.equal(headerFromWoc(recent, 880_000, maxTargetAt('testnet', 880_000)).length, 160);
    // The floors sit far below the chain's real difficulty: 2^62 hashes at least for a block after 400,000.
    assert.equal(maxTargetAt('mainnet', 400_000)! <= targetOf(0x1d00ffff) / 1_000_000_000n, true);
    assert.equal(maxTargetAt('local', 400_000), null);
  });

  it('answers the checked header through the provider, null for no block, and refuses a lie', async () => {
    let answer: { status: number; body: unknown } = { status: 200, body: BLOCK_1 };
    const server = createServer(
      (_req, res) => void res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body)),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const provider = new NetworkProvider({
        network: 'mainnet',
        arcUrl: url,
        wocUrl: url,
        http: { retries: 0, backoffMs: 1, timeoutMs: 2_000 },
      });
      assert.equal((await provider.getBlockHeader(1))?.length, 160);
      answer = { status: 404, body: {} };
      assert.equal(await provider.getBlockHeader(1), null);
      answer = { status: 200, body: { ...BLOCK_1, nonce: 7 } };
      await assert.rejects(provider.getBlockHeader(1), /was refused/);
    } finally {
      server.close();
    }
  });
});
