import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { LockingScript, P2PKH, PrivateKey, Transaction, Utils } from '@bsv/sdk';
import { KST20 } from '../../main/engine/token-templates/kst.js';
import { derivePath, masterFromSeed, seedFromMnemonic } from '../helpers/bip32-oracle.js';
import type { LocalNode } from '../../main/chain/local/local-node.js';
import type { Credentials } from '../../main/engine/context.js';
import type { Engine } from '../../main/engine/engine.js';
import { rejectsWith } from '../helpers/assert-domain-error.js';
import { meta, testEngine } from '../helpers/engine.js';
import { ADMIN } from '../helpers/http.js';

describe('engine: tokens on the local chain', () => {
  let engine: Engine;
  let node: LocalNode;
  let admin: Credentials;
  const run = <T>(p: Promise<{ output: T }>) => p.then((r) => r.output);
  const exec = (op: string, input: object) => run(engine.execute(op as never, input, admin, meta)) as Promise<any>;

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

  const held = async (walletId: string, tokenId: string) => {
    const b = await exec('balance', { walletId, type: 'ALL' });
    return b.coins.find((c: any) => c.tokenId === tokenId) as any;
  };

  it('KST-20: issue, details, split to another wallet, send back (merge), redeem by the issuer; supply follows', async () => {
    const issuerW = await fundedWallet('Treasury', [200_000, 100_000]);
    const otherW = await fundedWallet('Ops', [100_000]);
    const issued = await exec('issueToken', {
      walletId: issuerW,
      name: 'Gold Coin',
      protocolId: 'KST-20',
      symbol: 'GOLD',
      tokenSupply: 1000,
      satsPerToken: 2,
      description: 'a test',
      properties: { issuer: { organisation: 'Acme' } },
    });
    assert.match(issued.tokenId, /^[0-9a-f]{40}-GOLD$/);
    const d = await exec('tokenDetails', { id: issued.tokenId });
    assert.deepEqual([d.supply, d.circulatingSupply, d.protocolId, d.splittable, d.issuedHere], [1000, 1000, 'KST-20', true, true]);
    assert.equal((await held(issuerW, issued.tokenId)).amount, 1000);

    const other = (await exec('walletAddress', { walletId: otherW })).address;
    const sent = await exec('send', { walletId: issuerW, dataArray: [{ to: other, amount: 300, tokenId: issued.tokenId }] });
    assert.deepEqual(sent.errors, []);
    assert.equal((await held(issuerW, issued.tokenId)).amount, 700);
    assert.equal((await held(otherW, issued.tokenId)).amount, 300);
    node.mine();

    // Back to the issuer's redemption address, in two sends, then the issuer redeems 900 (its two outputs merge first).
    const d2 = await exec('tokenDetails', { id: issued.tokenId });
    await exec('send', {
      walletId: otherW,
      dataArray: [
        { to: d2.redeemAddr, amount: 100, tokenId: issued.tokenId },
        { to: d2.redeemAddr, amount: 200, tokenId: issued.tokenId },
      ],
    });
    assert.equal((await held(issuerW, issued.tokenId)).amount, 1000);
    const r = await exec('redeemToken', { walletId: issuerW, dataArray: [{ tokenId: issued.tokenId, amount: 900 }] });
    assert.deepEqual(r.errors, []);
    assert.equal((await held(issuerW, issued.tokenId)).amount, 100);
    assert.equal((await exec('tokenDetails', { id: issued.tokenId })).circulatingSupply, 100);
  });

  it('KST-789: NFTs carry their serial data; sent by serial; redeemed by the holder', async () => {
    const w = await fundedWallet('Art', [200_000]);
    const other = await fundedWallet('Collector', [50_000]);
    const issued = await exec('issueToken', {
      walletId: w,
      name: 'Pictures',
      protocolId: 'KST-789',
      symbol: 'PIC',
      tokenSupply: 3,
      satsPerToken: 1,
      data: { 1: ['sunrise'], 2: ['noon'], 3: ['dusk'] },
    });
    const d = await exec('tokenDetails', { id: issued.tokenId });
    assert.deepEqual(
      d.serials.map((s: any) => [s.sn, s.data[0]]),
      [
        [1, 'sunrise'],
        [2, 'noon'],
        [3, 'dusk'],
      ],
    );
    assert.deepEqual((await held(w, issued.tokenId)).sn, [1, 2, 3]);
    const to = (await exec('walletAddress', { walletId: other })).address;
    await exec('send', { walletId: w, dataArray: [{ to, tokenId: issued.tokenId, sn: 2 }] });
    assert.deepEqual((await held(other, issued.tokenId)).sn, [2]);
    await exec('redeemToken', { walletId: other, dataArray: [{ tokenId: issued.tokenId, sn: 2 }] });
    assert.equal(await held(other, issued.tokenId), undefined);
    const after = await exec('tokenDetails', { id: issued.tokenId });
    assert.equal(after.circulatingSupply, 2);
    assert.equal(after.serials.find((s: any) => s.sn === 2).redeemed, true);
  });

  it('STAS needs its licensed template installed; a non-issuer cannot redeem KST-20', async () => {
    const w = await fundedWallet('T', [100_000]);
    await rejectsWith(
      exec('issueToken', { walletId: w, name: 'S', protocolId: 'STAS-20', symbol: 'S', tokenSupply: 10, satsPerToken: 1 }),
      'CONFLICT',
      /POST \/api\/v1\/tokenTemplates.*--token-templates/,
    );
    const issued = await exec('issueToken', {
      walletId: w,
      name: 'Gold',
      protocolId: 'KST-20',
      symbol: 'G',
      tokenSupply: 10,
      satsPerToken: 1,
    });
    const other = await fundedWallet('O', [50_000]);
    await exec('send', {
      walletId: w,
      dataArray: [{ to: (await exec('walletAddress', { walletId: other })).address, amount: 4, tokenId: issued.tokenId }],
    });
    await rejectsWith(
      exec('redeemToken', { walletId: other, dataArray: [{ tokenId: issued.tokenId, amount: 4 }] }),
      'CONFLICT',
      /redeemed by their issuer/,
    );
    const stranger = PrivateKey.fromRandom().toAddress();
    const partial = await exec('send', {
      walletId: w,
      dataArray: [
        { to: stranger, amount: 1, tokenId: issued.tokenId },
        { to: stranger, amount: 999, tokenId: issued.tokenId },
      ],
    });
    assert.equal(partial.status, 'partial success');
    assert.equal(partial.txIds.length, 1);
    assert.equal(partial.errors[0].index, 1);
  });

  it('the fee manager pays the fees of issues and transfers; the wallet pays only the token satoshis', async () => {
    const w = await fundedWallet('Issuer', [100_000]);
    const fm = await exec('feeManagerInit', {});
    await exec('faucet', { address: fm.address ?? fm.addresses?.[0]?.address, satoshis: 100_000 });
    const bsv = async (walletId: string) => (await exec('balance', { walletId, type: 'BSV' })).coins[0].balance as number;
    const before = await bsv(w);
    const issued = await exec('issueToken', {
      walletId: w,
      name: 'Paid',
      protocolId: 'KST-20',
      symbol: 'FEE',
      tokenSupply: 100,
      satsPerToken: 5,
    });
    assert.equal(await bsv(w), before - 500, 'only the token satoshis left the wallet');
    const transfer = { to: PrivateKey.fromRandom().toAddress(), amount: 10, tokenId: issued.tokenId };
    const sent = await exec('send', { walletId: w, dataArray: [transfer] });
    assert.equal(await bsv(w), before - 500);
    // What each transaction left for the miner, read from the chain: the fee manager's 100,000 less exactly that.
    const txOf = (txid: string) => Transaction.fromHex(node.txHex(txid)!);
    const feeOf = (txid: string) => {
      const tx = txOf(txid);
      const spent = tx.inputs.reduce((sum, i) => sum + txOf(i.sourceTXID!).outputs[i.sourceOutputIndex].satoshis!, 0);
      return spent - tx.outputs.reduce((sum, o) => sum + o.satoshis!, 0);
    };
    const fees = [issued.contractTxid, issued.issueTxid, ...sent.txIds].map(feeOf);
    assert.ok(
      fees.every((f) => f > 0),
      `fees: ${fees}`,
    );
    const metrics = await exec('feeManagerMetrics', {});
    assert.deepEqual(metrics.totalBalance, { balance: 100_000 - fees.reduce((a, b) => a + b, 0), dustBalance: 0 });
  });

  it('a copy of a token script with the right id, not issued by the issuer, is recognised as forged and not counted', async () => {
    const w = await fundedWallet('Real', [100_000]);
    const victim = await fundedWallet('Victim', [10_000]);
    const issued = await exec('issueToken', {
      walletId: w,
      name: 'Real',
      protocolId: 'KST-20',
      symbol: 'REAL',
      tokenSupply: 10,
      satsPerToken: 1,
    });
    const [redemption, symbol] = issued.tokenId.split('-');
    const to = (await exec('walletAddress', { walletId: victim })).address;
    const owner = Utils.toHex(Utils.fromBase58Check(to).data as number[]);
    // A forger's own coin, turned into an output that looks like the token, paying the victim.
    const forger = PrivateKey.fromRandom();
    const faucet = await exec('faucet', { address: forger.toAddress(), satoshis: 5_000 });
    const source = Transaction.fromHex(node.txHex(faucet.txid)!);
    const vout = source.outputs.findIndex((o) => o.lockingScript.toHex() === new P2PKH().lock(forger.toAddress()).toHex());
    const fake = new Transaction(1, [], [], 0);
    fake.addInput({
      sourceTXID: faucet.txid,
      sourceOutputIndex: vout,
      sequence: 0xffffffff,
      unlockingScriptTemplate: new P2PKH().unlock(forger, 'all', false, 5_000, source.outputs[vout].lockingScript),
    });
    fake.addOutput({
      lockingScript: LockingScript.fromHex(KST20.lock({ owner, redemption, symbol, data: [], splittable: true })),
      satoshis: 1_000,
    });
    fake.addOutput({ lockingScript: new P2PKH().lock(forger.toAddress()), satoshis: 3_900 });
    await fake.sign();
    assert.equal(node.submit(fake.toHex()).status, 'accepted');
    await engine.reconcile();
    assert.equal(await held(victim, issued.tokenId), undefined, 'the forged output is not a holding');
    await rejectsWith(
      exec('send', { walletId: victim, dataArray: [{ to: PrivateKey.fromRandom().toAddress(), amount: 1, tokenId: issued.tokenId }] }),
      'INSUFFICIENT_FUNDS',
    );
  });

  it('lookup by private key lists the BSV and the tokens held at its address, filtered by protocol and paged', async () => {
    const w = await fundedWallet('Keys', [100_000]);
    const issued = await exec('issueToken', {
      walletId: w,
      name: 'Lk',
      protocolId: 'KST-20',
      symbol: 'LK',
      tokenSupply: 50,
      satsPerToken: 3,
    });
    const { mnemonic } = await exec('exportMnemonic', { walletId: w, password: ADMIN.password });
    const d = await exec('tokenDetails', { id: issued.tokenId });
    // The redemption address is one of the wallet's receive addresses: find its key.
    const root = masterFromSeed(seedFromMnemonic(mnemonic));
    let wif = '';
    for (let i = 0; i < 40 && !wif; i++) {
      const k = PrivateKey.fromHex(derivePath(root, `m/44'/236'/0'/0/${i}`).key.toString('hex'));
      if (k.toAddress() === d.redeemAddr) wif = k.toWif();
    }
    assert.ok(wif, 'found the issuer key');
    const all = await exec('lookup', { privateKey: wif });
    const token = all.coins.find((c: any) => c.tokenId === issued.tokenId);
    assert.deepEqual(
      [token.protocol, token.amount, token.symbol, token.satsPerToken, token.redeemAddr, token.sn],
      ['KST-20', 50, 'LK', 3, d.redeemAddr, []],
    );
    assert.equal(all.coins[0].protocol, 'BSV');
    const onlyTokens = await exec('lookup', { privateKey: wif, type: 'KST-20' });
    assert.deepEqual(
      onlyTokens.coins.map((c: any) => c.protocol),
      ['KST-20'],
    );
    const none = await exec('lookup', { privateKey: wif, type: 'STAS-20' });
    assert.deepEqual(none.coins, []);
    const perOutput = await exec('lookup', { privateKey: wif, compact: false, type: 'KST-20' });
    assert.equal(perOutput.coins[0].txid, issued.issueTxid);
  });
});
