import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Hash, PrivateKey, Transaction, Utils } from '@bsv/sdk';
import { DEFAULT_FEE_POLICY } from '../../main/chain/policy.js';
import { buildTokenSpend } from '../../main/engine/tokens/build.js';
import { KST789 } from '../../main/engine/token-templates/kst.js';
import { request } from '../helpers/http.js';
import { createOrgWallet, orgCall as call, type Org } from '../helpers/org.js';
import { startPair, stopPair } from '../helpers/two-instances.js';
import { until } from '../helpers/until.js';

/**
 * Token books that never drift (issue 30 §1): lookup of any key sees its tokens on either chain provider,
 * token details follow NFT serials wherever they go on chain, and History shows token transfers as such.
 */
const pkhOf = (k: PrivateKey) => Utils.toHex(Hash.hash160(k.toPublicKey().encode(true) as number[]));

interface Coin {
  protocol: string;
  balance?: number;
  tokenId?: string;
  symbol?: string;
  amount?: number;
  sn?: number[];
  txid?: string;
  proven?: boolean;
}

describe('token books: lookup, NFT serials on chain, token rows in History (two instances, one local chain)', () => {
  let a: Org;
  let b: Org;
  let alice: string;
  let bob: string;
  let carol: string;

  const chainCall = (method: string, path: string, body?: unknown) => request(a.host.url, method, path, body ? { body } : {});
  const fund = async (o: Org, walletID: string, satoshis: number) => {
    const address = (await call(o, 'GET', '/v1/address', { headers: { walletID } })).body.data.address;
    assert.equal((await call(a, 'POST', '/chain/faucet', { body: { address, satoshis } })).status, 200);
  };
  /** A faucet coin at an outside key's address, as a funding input for a spend the test builds itself. */
  const coinFor = async (key: PrivateKey, satoshis: number) => {
    const r = await call(a, 'POST', '/chain/faucet', { body: { address: key.toAddress(), satoshis } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const txid = r.body.data?.txid ?? r.body.txid;
    const tx = Transaction.fromHex((await chainCall('GET', `/chain/woc/v1/bsv/local/tx/${txid}/hex`)).body as string);
    const vout = tx.outputs.findIndex((o) => o.satoshis === satoshis && o.lockingScript.toHex() === `76a914${pkhOf(key)}88ac`);
    return { txid, vout, satoshis, script: tx.outputs[vout].lockingScript.toHex(), key, changeOwner: pkhOf(key) };
  };
  const broadcast = async (tx: Transaction) => {
    const r = await chainCall('POST', '/chain/woc/v1/bsv/local/tx/raw', { txhex: tx.toHex() });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return tx.id('hex');
  };
  const lookup = async (o: Org, key: PrivateKey, headers: Record<string, string> = {}) => {
    const r = await call(o, 'POST', '/v1/lookup', { body: { privateKey: key.toWif() }, headers });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.data.coins as Coin[];
  };

  before(async () => {
    ({ a, b } = await startPair({ paymailBetween: true }));
    alice = await createOrgWallet(a, { walletTitle: 'Alice', paymail: 'alice', paymailActivate: true });
    bob = await createOrgWallet(a, { walletTitle: 'Bob', paymail: 'bob', paymailActivate: true });
    carol = await createOrgWallet(b, { walletTitle: 'Carol', paymail: 'carol', paymailActivate: true });
    await fund(a, alice, 400_000);
  });
  after(() => stopPair(a, b));

  it('lookup of a key outside the organisation lists the tokens its address holds, on the local chain and over the network provider', async () => {
    const issued = await call(a, 'POST', '/api/v1/issue', {
      headers: { walletID: alice },
      body: { name: 'Gems', protocolId: 'KST-20', symbol: 'GEM', tokenSupply: 1_000, satsPerToken: 1, decimals: 0 },
    });
    assert.equal(issued.status, 200, JSON.stringify(issued.body));
    const { tokenId } = issued.body.data;
    const outside = PrivateKey.fromRandom();
    await coinFor(outside, 7_000);
    const sent = await call(a, 'POST', '/v1/send', {
      headers: { walletID: alice },
      body: { dataArray: [{ to: outside.toAddress(), amount: 5, tokenId }] },
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));

    for (const o of [a, b]) {
      const where = o === a ? 'local chain' : 'network provider';
      const compact = await until(
        `${where}: the key's tokens`,
        async () => {
          const coins = await lookup(o, outside);
          return coins.some((c) => c.tokenId === tokenId) ? coins : undefined;
        },
        30_000,
      );
      assert.deepEqual(compact[0], { protocol: 'BSV', balance: 7_000, address: outside.toAddress() }, where);
      const gem = compact.find((c) => c.tokenId === tokenId)!;
      assert.deepEqual([gem.protocol, gem.symbol, gem.amount, gem.proven], ['KST-20', 'GEM', 5, true], where);

      const each = await lookup(o, outside, { compact: 'false' });
      const outputs = each.filter((c) => c.tokenId === tokenId);
      assert.deepEqual(
        outputs.map((c) => [c.amount, c.txid]),
        [[5, sent.body.data.txIds[0]]],
        where,
      );
      assert.equal(
        each.filter((c) => c.protocol === 'BSV' && c.txid).reduce((n, c) => n + (c.balance ?? 0), 0),
        7_000,
        where,
      );

      const onlyTokens = await lookup(o, outside, { type: 'KST-20' });
      assert.deepEqual(
        onlyTokens.map((c) => [c.protocol, c.tokenId, c.amount]),
        [['KST-20', tokenId, 5]],
        `${where}: type KST-20 lists the token and no BSV entry`,
      );
      const onlyBsv = await lookup(o, outside, { type: 'BSV' });
      assert.deepEqual(onlyBsv, [{ protocol: 'BSV', balance: 7_000, address: outside.toAddress() }], where);
    }

    assert.deepEqual(await lookup(a, outside, { type: 'KST-789' }), [], 'another token type lists nothing');
  });

  it('token details follow an NFT serial sent out of the organisation and on, and see it redeemed by its last holder', async () => {
    const issued = await call(a, 'POST', '/api/v1/issue', {
      headers: { walletID: alice },
      body: { name: 'Art', protocolId: 'KST-789', symbol: 'ART', tokenSupply: 3, satsPerToken: 1, data: { 1: ['a'], 2: ['b'], 3: ['c'] } },
    });
    assert.equal(issued.status, 200, JSON.stringify(issued.body));
    const { tokenId, issueTxid } = issued.body.data;
    const serial = async (sn: number) => {
      const d = await call(a, 'GET', `/api/v1/token/${tokenId}`);
      assert.equal(d.status, 200, JSON.stringify(d.body));
      return { ...d.body.data.serials.find((s: { sn: number }) => s.sn === sn), circulating: d.body.data.circulatingSupply };
    };
    assert.equal((await serial(2)).txid, issueTxid);

    const first = PrivateKey.fromRandom();
    const second = PrivateKey.fromRandom();
    const sent = await call(a, 'POST', '/v1/send', {
      headers: { walletID: alice },
      body: { dataArray: [{ to: first.toAddress(), tokenId, sn: 2 }] },
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const sentTxid = sent.body.data.txIds[0];
    const s1 = await serial(2);
    assert.deepEqual([s1.txid, s1.vout, s1.redeemed], [sentTxid, 0, false], 'the serial is where the send put it');

    // The outside key moves it on, with a transaction the test builds and broadcasts itself.
    const sentTx = Transaction.fromHex((await chainCall('GET', `/chain/woc/v1/bsv/local/tx/${sentTxid}/hex`)).body as string);
    const nft = {
      txid: sentTxid,
      vout: 0,
      satoshis: sentTx.outputs[0].satoshis!,
      script: sentTx.outputs[0].lockingScript.toHex(),
      key: first,
      parentHex: null,
    };
    const move = await buildTokenSpend({
      template: KST789,
      kind: 'transfer',
      inputs: [nft],
      tokenOutputs: [{ owner: pkhOf(second), satoshis: nft.satoshis }],
      redeem: null,
      funding: await coinFor(first, 5_000),
      policy: DEFAULT_FEE_POLICY,
    });
    const moveTxid = await broadcast(move.tx);
    const s2 = await serial(2);
    assert.deepEqual([s2.txid, s2.vout, s2.redeemed], [moveTxid, 0, false], 'followed on chain to its latest outpoint');

    // Its last holder redeems it: the serial is redeemed, and no longer circulates.
    const redeemed = await buildTokenSpend({
      template: KST789,
      kind: 'redeem',
      inputs: [
        { txid: moveTxid, vout: 0, satoshis: nft.satoshis, script: move.tx.outputs[0].lockingScript.toHex(), key: second, parentHex: null },
      ],
      tokenOutputs: [],
      redeem: { owner: tokenId.split('-')[0], satoshis: nft.satoshis },
      funding: await coinFor(second, 5_000),
      policy: DEFAULT_FEE_POLICY,
    });
    await broadcast(redeemed.tx);
    const s3 = await serial(2);
    assert.deepEqual([s3.redeemed, s3.txid, s3.circulating], [true, null, 2]);
    assert.equal((await serial(1)).txid, issueTxid, 'the serials still held stay where they are');
  });

  it('History shows a token transfer with its amount, symbol, counterparty and fee, on both sides, within one instance and across two', async () => {
    const issued = await call(a, 'POST', '/api/v1/issue', {
      headers: { walletID: alice },
      body: { name: 'Coupons', protocolId: 'KST-20', symbol: 'CPN', tokenSupply: 100, satsPerToken: 1, decimals: 0 },
    });
    assert.equal(issued.status, 200, JSON.stringify(issued.body));
    const { tokenId } = issued.body.data;
    const rowOf = async (o: Org, walletID: string, txid: string, path = '/v1/history') => {
      const r = await call(o, 'GET', path, { headers: { walletID } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body.data.history.find((h: { txid: string }) => h.txid === txid);
    };
    for (const [o, to, walletID] of [
      [a, 'bob@a.test', bob],
      [b, 'carol@b.test', carol],
    ] as const) {
      const sent = await call(a, 'POST', '/v1/send', { headers: { walletID: alice }, body: { dataArray: [{ to, amount: 5, tokenId }] } });
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      const txid = sent.body.data.txIds[0];
      for (const path of ['/v1/history', '/v2/history']) {
        const out = await rowOf(a, alice, txid, path);
        assert.equal(out.direction, 'out');
        assert.deepEqual(out.tokens, [{ id: tokenId, protocol: 'KST-20', symbol: 'CPN', amount: 5, direction: 'out', proven: true }], to);
        assert.equal(out.counterparty, to);
        assert.ok(out.fee > 0, `the BSV fee is shown: ${JSON.stringify(out)}`);
        assert.equal(out.feePaidBy, 'wallet');
        assert.equal(out.amount, -out.fee, 'amount stays the BSV net change: the fee the wallet paid');
      }
      // The public service's shape lists the tokens among what the counterparty received.
      const page = await call(a, 'GET', '/v1/history', { headers: { walletID: alice } });
      const served = page.body.data.histories.find((h: { txId: string }) => h.txId === txid);
      assert.deepEqual(served.to, [{ to, amount: 5, protocol: 'KST-20', tokenId, symbol: 'CPN' }]);
      assert.equal(served.type, 'debit');
      assert.ok(served.fee > 0);
      const inRow = await until(
        `${to} sees the tokens in its history`,
        async () => {
          const r = await rowOf(o, walletID, txid);
          return r?.tokens?.[0]?.proven ? r : undefined;
        },
        30_000,
      );
      assert.equal(inRow.direction, 'in');
      assert.deepEqual(inRow.tokens, [{ id: tokenId, protocol: 'KST-20', symbol: 'CPN', amount: 5, direction: 'in', proven: true }]);
      assert.equal(inRow.amount, 0);
      assert.equal(inRow.counterparty, 'alice@a.test', 'the sender, as its paymail delivered it');
    }
  });

  it("a token send whose fee the fee manager paid says so in the sender's History (last: the fee manager then pays every fee)", async () => {
    const init = await call(a, 'GET', '/api/v1/initBeta');
    assert.equal(init.status, 200, JSON.stringify(init.body));
    assert.equal((await call(a, 'POST', '/chain/faucet', { body: { address: init.body.data.address, satoshis: 50_000 } })).status, 200);
    const issued = await call(a, 'POST', '/api/v1/issue', {
      headers: { walletID: alice },
      body: { name: 'Tickets', protocolId: 'KST-20', symbol: 'TIX', tokenSupply: 10, satsPerToken: 1, decimals: 0 },
    });
    assert.equal(issued.status, 200, JSON.stringify(issued.body));
    const to = PrivateKey.fromRandom().toAddress();
    const sent = await call(a, 'POST', '/v1/send', {
      headers: { walletID: alice },
      body: { dataArray: [{ to, amount: 3, tokenId: issued.body.data.tokenId }] },
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const txid = sent.body.data.txIds[0];
    const h = await call(a, 'GET', '/v1/history', { headers: { walletID: alice } });
    const row = h.body.data.history.find((r: { txid: string }) => r.txid === txid);
    assert.deepEqual(
      [row.direction, row.amount, row.feePaidBy, row.counterparty, row.tokens],
      [
        'out',
        0,
        'feeManager',
        to,
        [{ id: issued.body.data.tokenId, protocol: 'KST-20', symbol: 'TIX', amount: 3, direction: 'out', proven: true }],
      ],
    );
    assert.ok(row.fee > 0, JSON.stringify(row));
  });
});
