import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { Transaction, UnlockingScript } from '@bsv/sdk';
import type { LocalNode } from '../../main/chain/local/local-node.js';
import type { Credentials } from '../../main/engine/context.js';
import type { Engine } from '../../main/engine/engine.js';
import { rejectsWith } from '../helpers/assert-domain-error.js';
import { meta, testEngine } from '../helpers/engine.js';
import { ADMIN } from '../helpers/http.js';
import { stasFormatTemplate } from '../helpers/stas-format-template.js';

describe('engine: STAS-family tokens with an installed template', () => {
  let engine: Engine;
  let node: LocalNode;
  let admin: Credentials;
  const exec = (op: string, input: object) => engine.execute(op as never, input, admin, meta).then((r) => r.output) as Promise<any>;
  const held = async (walletId: string, tokenId: string) =>
    (await exec('balance', { walletId })).coins.find((c: any) => c.tokenId === tokenId);
  const rawOf = (txid: string) => Transaction.fromHex(node.txHex(txid)!);

  beforeEach(async () => {
    ({ engine, node } = testEngine());
    const s = (await engine.execute('setup', ADMIN, {}, meta)).output;
    admin = { authToken: s.authToken, serviceId: s.serviceId };
  });

  async function funded(title: string, sats: number[]) {
    const w = await exec('createWallet', { walletTitle: title });
    for (const a of sats) await exec('faucet', { walletId: w.walletID, satoshis: a });
    return w.walletID as string;
  }

  it('installs, lists and removes templates; refuses one without its placeholders', async () => {
    const t = await exec('installTokenTemplate', { protocolId: 'stas-20', template: stasFormatTemplate() });
    assert.equal(t.protocolId, 'STAS-20');
    assert.ok(t.bytes > 100);
    assert.deepEqual(
      (await exec('listTokenTemplates', {})).templates.map((x: any) => x.protocolId),
      ['STAS-20'],
    );
    await rejectsWith(
      exec('installTokenTemplate', { protocolId: 'STAS', template: '76a914aa88ac' }),
      'VALIDATION_FAILED',
      /\[destinationPublicKeyHash\]/,
    );
    await exec('deleteTokenTemplate', { protocolId: 'STAS-20' });
    assert.deepEqual((await exec('listTokenTemplates', {})).templates, []);
  });

  it('STAS-20: issue, split, send back, merge (one owner), redeem by the issuer; the unlocking layout is the reference’s', async () => {
    await exec('installTokenTemplate', { protocolId: 'STAS-20', template: stasFormatTemplate() });
    const issuer = await funded('Issuer', [300_000, 100_000]);
    const holder = await funded('Holder', [100_000]);
    const issued = await exec('issueToken', {
      walletId: issuer,
      name: 'Stas Coin',
      protocolId: 'STAS-20',
      symbol: 'STC',
      tokenSupply: 500,
      satsPerToken: 10,
    });
    const contract = rawOf(issued.contractTxid);
    assert.match(
      contract.outputs[0].lockingScript.toHex(),
      /^76a914[0-9a-f]{40}88ac6a/,
      'the contract output: issuer P2PKH, OP_RETURN, schema',
    );
    const to = (await exec('walletAddress', { walletId: holder })).address;
    const sent = await exec('send', { walletId: issuer, dataArray: [{ to, amount: 120, tokenId: issued.tokenId }] });
    assert.equal((await held(holder, issued.tokenId)).amount, 120);
    assert.equal((await held(issuer, issued.tokenId)).amount, 380);

    // §4.5: pairs (token to holder, token back, change), STAS-20 note slot, funding vout and txid (LE), OP_0, preimage, sig, pubkey.
    const tx = rawOf(sent.txIds[0]);
    const chunks = (tx.inputs[0].unlockingScript as UnlockingScript).chunks;
    const funding = tx.inputs[tx.inputs.length - 1];
    assert.equal(chunks.length, 3 * 2 + 1 + 2 + 1 + 3);
    assert.equal(chunks[6].op, 0, 'the note slot is OP_0');
    assert.equal(Buffer.from(chunks[8].data!).toString('hex'), Buffer.from(funding.sourceTXID!, 'hex').reverse().toString('hex'));
    assert.equal(chunks[9].op, 0, 'spending type 0');

    const redeemAddr = (await exec('tokenDetails', { id: issued.tokenId })).redeemAddr;
    await exec('send', { walletId: holder, dataArray: [{ to: redeemAddr, amount: 120, tokenId: issued.tokenId }] });
    node.mine();
    const r = await exec('redeemToken', { walletId: issuer, dataArray: [{ tokenId: issued.tokenId, amount: 450 }] });
    assert.equal(r.txIds.length, 2, 'a merge of the two outputs, then the redemption');
    assert.equal((await held(issuer, issued.tokenId)).amount, 50);
    assert.equal((await exec('tokenDetails', { id: issued.tokenId })).circulatingSupply, 50);
    const lookup = await exec('balance', { walletId: issuer, type: 'STAS-20' });
    assert.deepEqual(
      lookup.coins.map((c: any) => c.protocol),
      ['STAS-20'],
    );
  });

  it('legacy STAS writes its flags byte; STAS-789 NFTs move by serial and any holder redeems', async () => {
    await exec('installTokenTemplate', { protocolId: 'STAS', template: stasFormatTemplate('STAS') });
    await exec('installTokenTemplate', { protocolId: 'STAS-789', template: stasFormatTemplate('STAS-789') });
    const w = await funded('Issuer', [300_000]);
    const holder = await funded('Holder', [100_000]);
    const legacy = await exec('issueToken', {
      walletId: w,
      name: 'Legacy',
      protocolId: 'STAS',
      symbol: 'LEG',
      tokenSupply: 10,
      satsPerToken: 1,
      splitable: false,
    });
    const out = rawOf(legacy.issueTxid).outputs[0].lockingScript.toHex();
    assert.match(out, /6a14[0-9a-f]{40}0101034c4547$/, 'redemption hash, flags 01 (not splittable), symbol');
    const nft = await exec('issueToken', {
      walletId: w,
      name: 'Tickets',
      protocolId: 'STAS-789',
      symbol: 'TIX',
      tokenSupply: 2,
      satsPerToken: 1,
      data: { 1: ['row A'], 2: ['row B'] },
    });
    const to = (await exec('walletAddress', { walletId: holder })).address;
    await exec('send', { walletId: w, dataArray: [{ to, tokenId: nft.tokenId, sn: 1 }] });
    assert.deepEqual((await held(holder, nft.tokenId)).sn, [1]);
    await exec('redeemToken', { walletId: holder, dataArray: [{ tokenId: nft.tokenId, sn: 1 }] });
    assert.equal((await exec('tokenDetails', { id: nft.tokenId })).circulatingSupply, 1);
  });
});
