import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { LockingScript, P2PKH, PrivateKey, Transaction, UnlockingScript, Utils } from '@bsv/sdk';
import type { LocalNode } from '../../main/chain/local/local-node.js';
import { LocalProvider } from '../../main/chain/local/local-provider.js';
import type { ChainProvider, TxStatus } from '../../main/chain/types.js';
import type { Credentials } from '../../main/engine/context.js';
import type { Engine } from '../../main/engine/engine.js';
import { KST20 } from '../../main/engine/token-templates/kst.js';
import { withOwner } from '../../main/engine/token-templates/script-bytes.js';
import { meta, testEngine } from '../helpers/engine.js';
import { ADMIN } from '../helpers/http.js';

/**
 * Swaps in the engine, against hostile takers: an offer is checked before it is taken (inspectOffer), and a
 * taker who adds look-alike token outputs around a swap (the SWAP kind lets the taker write them) makes no
 * tokens: the books count a transaction's outputs of a token only up to its inputs of that token.
 */
describe('engine: swaps against hostile takers', () => {
  let engine: Engine;
  let node: LocalNode;
  let admin: Credentials;
  const exec = (op: string, input: object) => engine.execute(op as never, input, admin, meta).then((r) => r.output) as Promise<any>;

  beforeEach(async () => {
    ({ engine, node } = testEngine());
    const s = (await engine.execute('setup', ADMIN, {}, meta)).output;
    admin = { authToken: s.authToken, serviceId: s.serviceId };
  });

  async function fundedWallet(title: string, amounts: number[]) {
    const w = await exec('createWallet', { walletTitle: title });
    for (const a of amounts) await exec('faucet', { walletId: w.walletID, satoshis: a });
    return w.walletID as string;
  }
  const held = async (walletId: string, tokenId: string) =>
    ((await exec('balance', { walletId, type: 'ALL' })).coins as any[]).find((c) => c.tokenId === tokenId);
  const pkhOf = (address: string) => Utils.toHex(Utils.fromBase58Check(address).data as number[]);
  /** Issues a token from a wallet: KST-20 unless `more` (further issueToken fields) says otherwise. */
  const issue = (walletId: string, name: string, symbol: string, tokenSupply: number, satsPerToken: number, more: object = {}) =>
    exec('issueToken', { walletId, name, protocolId: 'KST-20', symbol, tokenSupply, satsPerToken, ...more });

  it('inspectOffer reports a tampered offer (asked output changed after signing) and a forged one; swap refuses them', async () => {
    const maker = await fundedWallet('Maker', [100_000]);
    const taker = await fundedWallet('Taker', [100_000]);
    const { tokenId } = await issue(maker, 'Gold', 'GOLD', 10, 1);
    const o = (await exec('offer', { walletId: maker, dataArray: [{ tokenId, type: 'BSV', amount: '0.00001' }] })).offers[0];
    const ok = (await exec('inspectOffer', { dataArray: [{ swapHex: o.swapHex }] })).offers[0];
    assert.deepEqual([ok.valid, ok.problems, ok.wanted.satoshis, ok.offerId], [true, [], 1000, o.offerId]);

    // The same signed input, asking 1 satoshi instead (a new transaction: the SDK caches a parsed one's bytes).
    const signed = Transaction.fromHex(o.swapHex);
    const tampered = new Transaction(signed.version, [], [], signed.lockTime);
    tampered.addInput({ ...signed.inputs[0] });
    tampered.addOutput({ lockingScript: signed.outputs[0].lockingScript, satoshis: 1 });
    assert.notEqual(tampered.toHex(), o.swapHex);
    const bad = (await exec('inspectOffer', { dataArray: [{ swapHex: tampered.toHex() }] })).offers[0];
    assert.equal(bad.valid, false);
    assert.match(bad.problems.join(' '), /signature does not check/);
    await assert.rejects(exec('swap', { walletId: taker, dataArray: [{ swapHex: tampered.toHex() }] }), /signature does not check/);

    const notAnOffer = (await exec('inspectOffer', { dataArray: [{ swapHex: '0100000000000000000000' }] })).offers[0];
    assert.equal(notAnOffer.valid, false);

    // BSV is read exactly (half a satoshi is refused, not rounded); an offer never asks for its own token.
    await assert.rejects(
      exec('offer', { walletId: maker, dataArray: [{ tokenId, type: 'BSV', amount: '0.000000005' }] }),
      /whole number of satoshis/,
    );
    await assert.rejects(
      exec('exchangeOffer', { walletId: maker, dataArray: [{ tokenId, wantedTokenId: tokenId, wantedAmount: 1 }] }),
      /token it offers/,
    );
    // An offer for tokens is never given out as hex: its maker's signature commits only to output 0's script,
    // which a taker could write from a plain coin.
    await assert.rejects(
      exec('offer', { walletId: maker, dataArray: [{ tokenId, wantedTokenId: tokenId, wantedAmount: 1 }] }),
      /can ask only for BSV/,
    );
  });

  it('a taker adding a look-alike token output to a swap makes no tokens: the books count only what the inputs hold', async () => {
    const maker = await fundedWallet('Maker', [100_000]);
    const victim = await fundedWallet('Victim', [10_000]);
    const { tokenId } = await issue(maker, 'Gold', 'GOLD', 10, 1);
    const o = (await exec('offer', { walletId: maker, dataArray: [{ tokenId, type: 'BSV', amount: '0.00001' }] })).offers[0];
    const offer = Transaction.fromHex(o.swapHex);
    const makerPart = offer.inputs[0].unlockingScript!.toHex();
    const source = (await exec('balance', { walletId: maker, type: 'ALL' })).coins.find((c: any) => c.tokenId === tokenId);
    assert.ok(source);
    const sourceTx = Transaction.fromHex(node.txHex(offer.inputs[0].sourceTXID!)!);
    const script = sourceTx.outputs[offer.inputs[0].sourceOutputIndex].lockingScript.toHex();

    // The taker: its own coin pays the maker and the fee, and writes a look-alike GOLD output paying the victim.
    const thief = PrivateKey.fromRandom();
    const faucet = await exec('faucet', { address: thief.toAddress(), satoshis: 20_000 });
    const coinTx = Transaction.fromHex(node.txHex(faucet.txid)!);
    const vout = coinTx.outputs.findIndex((x) => x.lockingScript.toHex() === new P2PKH().lock(thief.toAddress()).toHex());
    const victimOwner = pkhOf((await exec('walletAddress', { walletId: victim })).address);
    const tx = new Transaction(1, [], [], 0);
    tx.addInput({
      sourceTXID: offer.inputs[0].sourceTXID,
      sourceOutputIndex: offer.inputs[0].sourceOutputIndex,
      sequence: offer.inputs[0].sequence,
      unlockingScript: new UnlockingScript(),
    });
    tx.addInput({
      sourceTXID: faucet.txid,
      sourceOutputIndex: vout,
      sequence: 0xffffffff,
      unlockingScriptTemplate: new P2PKH().unlock(thief, 'all', false, 20_000, coinTx.outputs[vout].lockingScript),
    });
    tx.addOutput({ lockingScript: offer.outputs[0].lockingScript, satoshis: offer.outputs[0].satoshis });
    tx.addOutput({ lockingScript: LockingScript.fromHex(withOwner(script, pkhOf(thief.toAddress()))), satoshis: 10 });
    tx.addOutput({ lockingScript: LockingScript.fromHex(withOwner(script, victimOwner)), satoshis: 500 });
    tx.addOutput({ lockingScript: new P2PKH().lock(thief.toAddress()), satoshis: 18_000 });
    tx.inputs[0].unlockingScript = UnlockingScript.fromHex(
      KST20.swap!.complete({
        tx,
        inputIndex: 0,
        script,
        satoshis: 10,
        makerPart,
        tokenOutputs: [{ owner: pkhOf(thief.toAddress()), satoshis: 10 }],
        firstTokenOutput: 1,
      }),
    );
    await tx.sign();
    // The script allows it (the look-alike is the taker's own output, outside what the offered input claims)…
    assert.equal(node.submit(tx.toHex()).status, 'accepted');
    await engine.reconcile();
    // …but the books do not: 510 GOLD out of 10 in, so the victim's output (past the 10) is forged.
    assert.equal(await held(victim, tokenId), undefined, 'the look-alike is not a holding');
    const offers = (await exec('listOffers', { walletId: maker })).offers;
    assert.deepEqual([offers[0].status, offers[0].takenTxid], ['taken', tx.id('hex')]);
  });
  it('an NFT serial is asked for only when its data tells it from the others; inspect names no serial any of several would pay', async () => {
    const maker = await fundedWallet('Maker', [200_000]);
    const { tokenId: gold } = await issue(maker, 'Gold', 'GOLD', 10, 1);
    // Serials 1 and 2 carry the same data (none of their own); 3 has its own.
    const { tokenId: deeds } = await issue(maker, 'Deeds', 'DEED', 3, 1, { protocolId: 'KST-789', data: { 3: ['plot 3'] } });
    await assert.rejects(
      exec('exchangeOffer', { walletId: maker, dataArray: [{ tokenId: gold, tokenAmount: 1, wantedTokenId: deeds, wantedSn: 2 }] }),
      /DEED #2 carries the same data as #1, so a swap cannot tell them apart/,
    );
    const made = await exec('exchangeOffer', {
      walletId: maker,
      dataArray: [{ tokenId: gold, tokenAmount: 1, wantedTokenId: deeds, wantedSn: 3 }],
    });
    assert.equal(made.offers[0].wanted.sn, 3);
  });

  it('inspectOffer flags an offer asking for a fungible token amount that is not a whole number of tokens', async () => {
    const maker = await fundedWallet('Maker', [200_000]);
    const gold = await issue(maker, 'Gold', 'GOLD', 10, 1);
    const bars = await issue(maker, 'Bars', 'BAR', 5, 1000);
    // A stranger's offer of the GOLD output asking for 1,999 satoshis of BAR: shown as "1 BAR", it would take almost 2.
    const goldTx = Transaction.fromHex(node.txHex(gold.issueTxid)!);
    const barTx = Transaction.fromHex(node.txHex(bars.issueTxid)!);
    const goldVout = goldTx.outputs.findIndex((o) => o.satoshis === 10);
    const barScript = barTx.outputs.find((o) => o.satoshis === 5000)!.lockingScript;
    const hostile = new Transaction(1, [], [], 0);
    hostile.addInput({
      sourceTXID: gold.issueTxid,
      sourceOutputIndex: goldVout,
      unlockingScript: new UnlockingScript(),
      sequence: KST20.swap!.offerSequence,
    });
    hostile.addOutput({ lockingScript: barScript, satoshis: 1999 });
    const seen = (await exec('inspectOffer', { dataArray: [{ swapHex: hostile.toHex() }] })).offers[0];
    assert.equal(seen.valid, false);
    assert.ok(
      seen.problems.some((p: string) => /asks for 1999 satoshis of BAR, not a whole number of tokens \(1000 satoshis each\)/.test(p)),
      JSON.stringify(seen.problems),
    );
  });

  it('an offer of a token the taker’s books cannot learn shows no number of tokens and cannot be taken', async () => {
    // The maker issues GOLD at 1,000 satoshis a token and offers 1 GOLD (a 1,000-satoshi output).
    const maker = await fundedWallet('Maker', [100_000]);
    const gold = await issue(maker, 'Gold', 'GOLD', 10, 1000);
    const o = (
      await exec('offer', { walletId: maker, dataArray: [{ tokenId: gold.tokenId, tokenAmount: 1, type: 'BSV', amount: '0.0005' }] })
    ).offers[0];
    // The taker keeps other books on the same chain; its ARC has never heard of the (old) issue, so the
    // token's satoshis per token are only the issuer's word there.
    const hidden = new Set([gold.issueTxid]);
    const other = testEngine({
      chain: () => {
        const sameChain = new LocalProvider(node, () => null);
        return Object.assign(Object.create(sameChain) as ChainProvider, {
          getTxStatus: async (t: string): Promise<TxStatus> =>
            hidden.has(t) ? { txid: t, state: 'unknown', blockHeight: null, blockHash: null, merklePath: null } : sameChain.getTxStatus(t),
        });
      },
    });
    try {
      const s = (await other.engine.execute('setup', ADMIN, {}, meta)).output;
      const who = { authToken: s.authToken, serviceId: s.serviceId };
      const run = (op: string, input: object) => other.engine.execute(op as never, input, who, meta).then((r) => r.output) as Promise<any>;
      const seen = (await run('inspectOffer', { dataArray: [{ swapHex: o.swapHex }] })).offers[0];
      assert.equal(seen.valid, false);
      assert.equal(seen.offered.amount, null, 'not 1,000 GOLD: the number of tokens is not known');
      assert.match(seen.problems.join(' '), /how many GOLD the offered 1000 satoshis hold is not known here/);
      const taker = (await run('createWallet', { walletTitle: 'Taker' })).walletID;
      await run('faucet', { walletId: taker, satoshis: 100_000 });
      await assert.rejects(run('swap', { walletId: taker, dataArray: [{ swapHex: o.swapHex }] }), /is not known here/);
      // Once a node vouches for the issue, the same offer is 1 GOLD.
      hidden.clear();
      const again = (await run('inspectOffer', { dataArray: [{ swapHex: o.swapHex }] })).offers[0];
      assert.deepEqual([again.valid, again.offered.amount], [true, 1], JSON.stringify(again.problems));
    } finally {
      other.engine.close();
    }
  });

  it('inspectOffer flags an offer whose version or lock time a taker’s transaction cannot carry', async () => {
    const maker = await fundedWallet('Maker', [100_000]);
    const { tokenId } = await issue(maker, 'Gold', 'GOLD', 10, 1);
    const o = (await exec('offer', { walletId: maker, dataArray: [{ tokenId, type: 'BSV', amount: '0.00001' }] })).offers[0];
    const signed = Transaction.fromHex(o.swapHex);
    for (const [version, lockTime] of [
      [2, 0],
      [1, 500_000],
    ]) {
      const odd = new Transaction(version, [], [], lockTime);
      odd.addInput({ ...signed.inputs[0] });
      odd.addOutput({ lockingScript: signed.outputs[0].lockingScript, satoshis: signed.outputs[0].satoshis });
      const seen = (await exec('inspectOffer', { dataArray: [{ swapHex: odd.toHex() }] })).offers[0];
      assert.equal(seen.valid, false);
      assert.ok(seen.problems.includes('the offer is not a version 1 transaction with lock time 0'), JSON.stringify(seen.problems));
    }
  });
});
