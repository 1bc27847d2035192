import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createOrgWallet, orgCall, type Org } from '../helpers/org.js';
import { stasFormatTemplate } from '../helpers/stas-format-template.js';
import { tempDir } from '../helpers/tmp.js';
import { startPair, stopPair } from '../helpers/two-instances.js';
import { until } from '../helpers/until.js';

const call = orgCall;
const wallet = createOrgWallet;

async function fund(node: Org, o: Org, walletID: string, satoshis: number): Promise<void> {
  const address = (await call(o, 'GET', '/v1/address', { headers: { walletID } })).body.data.address;
  const r = await call(node, 'POST', '/chain/faucet', { body: { address, satoshis } });
  assert.equal(r.status, 200, JSON.stringify(r.body));
}

const tokensOf = async (o: Org, walletID: string, tokenId: string) => {
  const r = await call(o, 'GET', '/v1/balance', { headers: { walletID } });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.data.coins.find((c: { tokenId?: string }) => c.tokenId === tokenId) as { amount: number; sn: number[] } | undefined;
};

describe('tokens over the API, between two instances on one local chain', () => {
  let a: Org;
  let b: Org;
  let alice: string;
  let bob: string;

  before(async () => {
    const templates = tempDir();
    writeFileSync(path.join(templates, 'STAS-20.hex'), `${stasFormatTemplate('STAS-20')}\n`);
    ({ a, b } = await startPair({ args: ['--token-templates', templates], paymailBetween: true }));
    alice = await wallet(a, { walletTitle: 'Alice', paymail: 'alice', paymailActivate: true });
    bob = await wallet(b, { walletTitle: 'Bob', paymail: 'bob', paymailActivate: true });
    await fund(a, a, alice, 300_000);
    await fund(a, b, bob, 100_000);
    // B polls the chain (it is remote): wait until it has seen Bob's coin.
    await until(
      'B sees Bob funded',
      async () =>
        (await call(b, 'GET', '/v1/balance', { headers: { walletID: bob } })).body.data.coins[0].balance === 100_000 ? true : undefined,
      30_000,
    );
  });
  after(() => stopPair(a, b));

  it('issues a KST-20 token, shows it under both token routes, sends part to another instance’s paymail, which proves it and sends some back', async () => {
    const issued = await call(a, 'POST', '/api/v1/issue', {
      headers: { walletID: alice },
      body: {
        name: 'Acme Points',
        protocolId: 'KST-20',
        symbol: 'PTS',
        tokenSupply: 10_000,
        satsPerToken: 1,
        decimals: 2,
        description: 'Loyalty points',
        image: 'https://acme.test/pts.png',
        properties: { issuer: { organisation: 'Acme Ltd', email: 'ada@acme.io' } },
      },
    });
    assert.equal(issued.status, 200, JSON.stringify(issued.body));
    const { tokenId, contractTxid, issueTxid, tokenObj } = issued.body.data;
    assert.match(tokenId, /^[0-9a-f]{40}-PTS$/);
    assert.deepEqual([tokenObj.symbol, tokenObj.totalSupply, tokenObj.protocolId], ['PTS', 10_000, 'KST-20']);
    for (const p of [`/api/v1/token/${tokenId}`, `/api/v1/token${tokenId}`, `/api/v1/token:${tokenId}`]) {
      const d = await call(a, 'GET', p);
      assert.equal(d.status, 200, `${p}: ${JSON.stringify(d.body)}`);
      assert.deepEqual(
        [d.body.data.tokenId, d.body.data.contractTxid, d.body.data.issueTxid, d.body.data.circulatingSupply],
        [tokenId, contractTxid, issueTxid, 10_000],
      );
    }
    const sent = await call(a, 'POST', '/v1/send', {
      headers: { walletID: alice },
      body: { dataArray: [{ to: 'bob@b.test', amount: 2_500, tokenId, notes: 'Welcome bonus' }] },
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.equal(sent.body.data.txIds.length, 1);
    // B proves the lineage back to A's issue (through the chain) before counting the tokens.
    await until(
      'B counts the tokens once proven',
      async () => ((await tokensOf(b, bob, tokenId))?.amount === 2_500 ? true : undefined),
      30_000,
    );
    assert.equal((await tokensOf(a, alice, tokenId))?.amount, 7_500);
    const back = await call(b, 'POST', '/v1/send', {
      headers: { walletID: bob },
      body: { dataArray: [{ to: 'alice@a.test', amount: 500, tokenId }] },
    });
    assert.equal(back.status, 200, JSON.stringify(back.body));
    await until('A holds its tokens back', async () => ((await tokensOf(a, alice, tokenId))?.amount === 8_000 ? true : undefined), 30_000);
    assert.equal((await tokensOf(b, bob, tokenId))?.amount, 2_000);
  });

  it('redeem and send answer 400 with every error when all items fail, 200 partial success when some do', async () => {
    const none = await call(a, 'POST', '/api/v1/redeem', {
      headers: { walletID: alice },
      body: {
        dataArray: [
          { tokenId: 'nope-NOPE', amount: 1 },
          { tokenId: 'nope-NOPE', amount: 2 },
        ],
      },
    });
    assert.equal(none.status, 400, JSON.stringify(none.body));
    assert.equal(none.body.data.errors.length, 2);
    const bad = await call(a, 'POST', '/v1/send', {
      headers: { walletID: alice },
      body: { dataArray: [{ to: 'not an address', amount: 0.0001 }] },
    });
    assert.equal(bad.status, 400);
    // BSV as a decimal is exact or refused: half a satoshi is not rounded to one.
    const half = await call(a, 'POST', '/v1/send', {
      headers: { walletID: alice },
      body: { dataArray: [{ to: 'bob@b.test', amount: 0.000000005 }] },
    });
    assert.equal(half.status, 400);
    assert.match(half.body.data.msg, /amount: 0\.000000005 BSV is not a whole number of satoshis/);
    // BSV and a paymail in one batch: each item is its own payment.
    const mixed = await call(a, 'POST', '/v1/send', {
      headers: { walletID: alice },
      body: {
        dataArray: [
          { to: 'bob@b.test', amount: 0.0001, notes: 'coffee' },
          { to: 'not an address', satoshis: 500 },
        ],
      },
    });
    assert.equal(mixed.status, 200, JSON.stringify(mixed.body));
    assert.equal(mixed.body.data.status, 'partial success');
    assert.deepEqual([mixed.body.data.txIds.length, mixed.body.data.errors.map((e: { index: number }) => e.index)], [1, [1]]);
  });

  it('a licensed template from --token-templates issues STAS-20; an unknown STAS protocol is 409 naming how to install it', async () => {
    const t = await call(a, 'GET', '/api/v1/tokenTemplates');
    assert.deepEqual(
      t.body.data.templates.map((x: { protocolId: string; source: string }) => [x.protocolId, x.source]),
      [['STAS-20', 'flag']],
    );
    const ok = await call(a, 'POST', '/api/v1/issue', {
      headers: { walletID: alice },
      body: { name: 'Stas', protocolId: 'STAS-20', symbol: 'STS', tokenSupply: 100, satsPerToken: 1 },
    });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    // B has the licensed template too: its paymail host takes STAS-20 tokens, and it proves them.
    const sent = await call(a, 'POST', '/v1/send', {
      headers: { walletID: alice },
      body: { dataArray: [{ to: 'bob@b.test', amount: 40, tokenId: ok.body.data.tokenId }] },
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    await until(
      'B holds the STAS-20 tokens',
      async () => ((await tokensOf(b, bob, ok.body.data.tokenId))?.amount === 40 ? true : undefined),
      30_000,
    );
    const missing = await call(a, 'POST', '/api/v1/issue', {
      headers: { walletID: alice },
      body: { name: 'Nft', protocolId: 'STAS-789', symbol: 'NFT', tokenSupply: 1, satsPerToken: 1 },
    });
    assert.equal(missing.status, 409);
    assert.match(missing.body.data.msg, /POST \/api\/v1\/tokenTemplates/);
    assert.match(missing.body.data.msg, /--token-templates/);
    const viewer = await call(a, 'POST', '/api/v1/tokenTemplates', {
      headers: { serviceid: 'wrong' },
      body: { protocolId: 'STAS', template: stasFormatTemplate('STAS') },
    });
    assert.equal(viewer.status, 403);
  });
});
