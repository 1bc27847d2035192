import assert from 'node:assert/strict';
import { after, afterEach, describe, it } from 'node:test';
import { P2PKH, PrivateKey, SatoshisPerKilobyte, Transaction } from '@bsv/sdk';
import { LocalProvider } from '../../main/chain/local/local-provider.js';
import type { ChainProvider } from '../../main/chain/types.js';
import { beefOf, verifiedBeef } from '../../main/engine/paymail/beef.js';
import { ScriptVerifier } from '../../main/chain/script-check.js';
import { buildPaymailServer } from '../../main/server/paymail-server.js';
import { testEngine, type TestEngine } from '../helpers/engine.js';

describe('BEEF: what a sender builds, a receiver verifies by SPV', () => {
  let t: TestEngine;
  const scripts = new ScriptVerifier(1);
  afterEach(() => t.engine.close());
  after(() => scripts.close());

  /** key's coin: funded and mined (proven), then moved once unconfirmed; returns a payment spending the unconfirmed one. */
  async function chainOfSpends(key: PrivateKey, lastSigner = key) {
    const funded = await t.node.faucet(key.toAddress(), 50_000);
    t.node.mine();
    const parent = Transaction.fromHex(t.node.txHex(funded.txid!)!);
    const spend = (source: Transaction, signer = key) => {
      const tx = new Transaction();
      tx.addInput({
        sourceTransaction: source,
        sourceOutputIndex: source.outputs.findIndex((o) => o.lockingScript.toHex() === new P2PKH().lock(key.toAddress()).toHex()),
        unlockingScriptTemplate: new P2PKH().unlock(signer),
      });
      tx.addOutput({ lockingScript: new P2PKH().lock(key.toAddress()), change: true });
      return tx;
    };
    const middle = spend(parent);
    await middle.fee(new SatoshisPerKilobyte(1));
    await middle.sign();
    assert.equal(t.node.submit(middle.toHex()).status, 'accepted');
    const payment = spend(middle, lastSigner);
    await payment.fee(new SatoshisPerKilobyte(1));
    await payment.sign();
    return payment;
  }

  it('carries unconfirmed ancestors back to a proven one, and verifies against the chain', async () => {
    t = testEngine();
    const chain = new LocalProvider(t.node, () => null);
    const payment = await chainOfSpends(PrivateKey.fromRandom());
    const beef = await beefOf(chain, Transaction.fromHex(payment.toHex()));
    assert.ok(beef);
    const received = await verifiedBeef(chain, beef, scripts);
    assert.equal(received.id('hex'), payment.id('hex'));
  });

  it("is refused when a merkle root is not the chain's, or a script does not unlock", async () => {
    t = testEngine();
    const chain = new LocalProvider(t.node, () => null);
    const payment = await chainOfSpends(PrivateKey.fromRandom());
    const beef = (await beefOf(chain, payment))!;
    const lyingChain: ChainProvider = Object.assign(Object.create(chain) as ChainProvider, { getMerkleRoot: async () => '00'.repeat(32) });
    await assert.rejects(verifiedBeef(lyingChain, beef, scripts), /merkle proof of [0-9a-f]{64} does not match the chain's block/);
    // Signed by a key that does not own the coin it spends.
    const forged = await chainOfSpends(PrivateKey.fromRandom(), PrivateKey.fromRandom());
    await assert.rejects(verifiedBeef(chain, (await beefOf(chain, forged))!, scripts), /does not verify/);
  });

  it("a stranger's BEEF is bounded before any script is checked", async () => {
    t = testEngine();
    const chain = new LocalProvider(t.node, () => null);
    const beef = (await beefOf(chain, await chainOfSpends(PrivateKey.fromRandom())))!;
    await assert.rejects(verifiedBeef(chain, beef, scripts, { transactions: 2, unprovenInputs: 100 }), /3 transactions; the limit is 2/);
    await assert.rejects(verifiedBeef(chain, beef, scripts, { transactions: 100, unprovenInputs: 1 }), /more than 1 unproven inputs/);
    assert.ok(
      await verifiedBeef(chain, beef, scripts, { transactions: 3, unprovenInputs: 2 }),
      'the payment, its unconfirmed parent and a proven grandparent fit',
    );
  });

  it('is null (the raw transaction is sent instead) when an ancestor cannot be had', async () => {
    t = testEngine();
    const chain = new LocalProvider(t.node, () => null);
    const payment = await chainOfSpends(PrivateKey.fromRandom());
    const forgetful: ChainProvider = Object.assign(Object.create(chain) as ChainProvider, { getTransactionHex: async () => null });
    assert.equal(await beefOf(forgetful, payment), null);
  });
});

describe('the public paymail listener limits each client', () => {
  it("answers 429 past the rate, per client (the trusted proxy's X-Forwarded-For)", async () => {
    const t = testEngine();
    const app = await buildPaymailServer({ engine: t.engine, perClientPerMinute: 3, trustedProxies: ['127.0.0.1'] });
    try {
      const get = (xff?: string) =>
        app.inject({
          method: 'GET',
          url: '/.well-known/bsvalias',
          headers: { host: 'pay.example.com', ...(xff ? { 'x-forwarded-for': xff } : {}) },
        });
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await get('203.0.113.7')).statusCode);
      assert.deepEqual(statuses, [200, 200, 200, 429]);
      const limited = await get('203.0.113.7');
      assert.equal(limited.json().code, 'rate-limited');
      assert.ok(Number(limited.headers['retry-after']) >= 1);
      assert.equal((await get('198.51.100.9')).statusCode, 200, 'another client has its own allowance');
      const caps = (await get('198.51.100.9')).json();
      assert.equal(caps.capabilities.pki, 'http://pay.example.com/api/bsvalias/id/{alias}@{domain.tld}');
    } finally {
      await app.close();
      t.engine.close();
    }
  });
});
