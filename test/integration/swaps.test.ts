import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADMIN } from '../helpers/http.js';
import { createOrgWallet, orgCall, type Org } from '../helpers/org.js';
import { createRelysia, refusal, type Relysia } from '../helpers/relysia-sdk.js';
import { startPair, stopPair } from '../helpers/two-instances.js';
import { until } from '../helpers/until.js';

/**
 * Atomic swaps of the open template (issue 30 §2) between two instances on one local chain: a maker on A
 * offers tokens, a taker on B inspects and takes the offer; both sides move in one transaction. Over the
 * REST routes and the public service's SDK (its transaction.v1 methods can only use the default wallet).
 */

const DEFAULT_WALLET = '0000-00000000-00000';
const call = orgCall;

async function fund(node: Org, o: Org, walletID: string, satoshis: number): Promise<void> {
  const address = (await call(o, 'GET', '/v1/address', { headers: { walletID } })).body.data.address;
  const r = await call(node, 'POST', '/chain/faucet', { body: { address, satoshis } });
  assert.equal(r.status, 200, JSON.stringify(r.body));
}

type Coin = { tokenId?: string; amount: number; sn?: number[]; balance?: number; protocol: string };
const coinsOf = async (o: Org, walletID: string): Promise<Coin[]> => {
  const r = await call(o, 'GET', '/v1/balance', { headers: { walletID } });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.data.coins as Coin[];
};
const tokensOf = async (o: Org, walletID: string, tokenId: string) => (await coinsOf(o, walletID)).find((c) => c.tokenId === tokenId);
const bsvOf = async (o: Org, walletID: string) => (await coinsOf(o, walletID)).find((c) => c.protocol === 'BSV')?.balance ?? 0;

async function issue(o: Org, walletID: string, body: object): Promise<string> {
  const r = await call(o, 'POST', '/api/v1/issue', { headers: { walletID }, body });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.data.tokenId as string;
}

describe('atomic swaps over the API, between two instances on one local chain', () => {
  let a: Org;
  let b: Org;
  let alice: string;
  let carol: string;
  let bob: string;
  let gold: string;
  let silver: string;
  let relysiaA: Relysia;
  let relysiaB: Relysia;

  before(async () => {
    ({ a, b } = await startPair());
    alice = await createOrgWallet(a, { walletTitle: 'Alice' });
    carol = await createOrgWallet(a, { walletTitle: 'Carol' });
    bob = await createOrgWallet(b, { walletTitle: 'Bob' });
    await fund(a, a, alice, 300_000);
    await fund(a, a, carol, 200_000);
    await fund(a, b, bob, 300_000);
    await until('B sees Bob funded', async () => ((await bsvOf(b, bob)) === 300_000 ? true : undefined), 30_000);
    gold = await issue(a, alice, { name: 'Gold', protocolId: 'KST-20', symbol: 'GOLD', tokenSupply: 1000, satsPerToken: 1 });
    silver = await issue(b, bob, { name: 'Silver', protocolId: 'KST-20', symbol: 'SILVER', tokenSupply: 500, satsPerToken: 1 });
    // A must know SILVER to ask for it: Bob gives Alice one first.
    const aliceAddress = (await call(a, 'GET', '/v1/address', { headers: { walletID: alice } })).body.data.address;
    const gift = await call(b, 'POST', '/v1/send', {
      headers: { walletID: bob },
      body: { dataArray: [{ to: aliceAddress, amount: 1, tokenId: silver }] },
    });
    assert.equal(gift.status, 200, JSON.stringify(gift.body));
    await until('A proves the SILVER gift', async () => ((await tokensOf(a, alice, silver))?.amount === 1 ? true : undefined), 30_000);
    relysiaA = createRelysia(a.host.url, {});
    await relysiaA.authentication.v1.auth({ email: ADMIN.email, password: ADMIN.password });
    relysiaB = createRelysia(b.host.url, {});
    await relysiaB.authentication.v1.auth({ email: ADMIN.email, password: ADMIN.password });
  });
  after(() => stopPair(a, b));

  it('token for BSV: Alice offers 100 GOLD for 0.0002 BSV (split off first), Bob inspects and takes it; it cannot be taken twice', async () => {
    const made = await call(a, 'POST', '/v1/offer', {
      headers: { walletID: alice },
      body: { dataArray: [{ tokenId: gold, tokenAmount: 100, type: 'BSV', amount: 0.0002 }] },
    });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const o = made.body.data.offers[0];
    assert.deepEqual(
      [o.offered.amount, o.offered.tokenId, o.wanted.type, o.wanted.satoshis, o.wanted.amount],
      [100, gold, 'BSV', 20_000, '0.0002'],
    );
    assert.equal(o.wanted.to, o.makerAddress);
    // The offered output is reserved: Alice's spendable GOLD is the rest.
    assert.equal((await tokensOf(a, alice, gold))?.amount, 1000, 'the balance still counts the offered tokens');
    const listed = await call(a, 'GET', '/v1/offers', { headers: { walletID: alice } });
    assert.deepEqual(
      listed.body.data.offers.map((x: { offerId: string; status: string }) => [x.offerId, x.status]),
      [[o.offerId, 'open']],
    );

    const seen = await call(b, 'POST', '/v1/inspectOffer', { body: { dataArray: [{ swapHex: o.swapHex }] } });
    assert.equal(seen.status, 200, JSON.stringify(seen.body));
    const i = seen.body.data.offers[0];
    assert.deepEqual(
      [i.valid, i.problems, i.offered.amount, i.wanted.satoshis, i.makerAddress, i.spent],
      [true, [], 100, 20_000, o.makerAddress, false],
    );
    assert.ok(i.fee > 0);

    const aliceBefore = await bsvOf(a, alice);
    const took = await call(b, 'POST', '/v1/swap', { headers: { walletID: bob }, body: { dataArray: [{ swapHex: o.swapHex }] } });
    assert.equal(took.status, 200, JSON.stringify(took.body));
    const txid = took.body.data.txIds[0];
    await until('B proves the GOLD it bought', async () => ((await tokensOf(b, bob, gold))?.amount === 100 ? true : undefined), 30_000);
    await until('A sees the payment', async () => ((await bsvOf(a, alice)) === aliceBefore + 20_000 ? true : undefined), 30_000);
    assert.equal((await tokensOf(a, alice, gold))?.amount, 900);
    const closed = await call(a, 'GET', '/v1/offers', { headers: { walletID: alice } });
    assert.deepEqual([closed.body.data.offers[0].status, closed.body.data.offers[0].takenTxid], ['taken', txid]);

    const again = await call(b, 'POST', '/v1/swap', { headers: { walletID: bob }, body: { dataArray: [{ swapHex: o.swapHex }] } });
    assert.equal(again.status, 400, JSON.stringify(again.body));
    assert.match(again.body.data.msg, /already spent/);
  });

  it('token for token: never given out as hex (a taker could pay with a look-alike); kept by Keystead and taken by a wallet of the organisation, with change', async () => {
    // Given out, the maker's SINGLE|ANYONECANPAY signature would commit only to output 0's script: anyone can
    // write a SILVER-shaped output from a plain coin and take the GOLD for nothing.
    for (const body of [
      { tokenId: gold, tokenAmount: 200, wantedTokenId: silver, wantedAmount: 50 },
      { tokenId: gold, tokenAmount: 200, type: 'token', wantedTokenId: silver, wantedAmount: 50 },
    ]) {
      const refused = await call(a, 'POST', '/v1/offer', { headers: { walletID: alice }, body: { dataArray: [body] } });
      assert.equal(refused.status, 400, JSON.stringify(refused.body));
      assert.match(refused.body.data.msg, /can ask only for BSV.*look-alike.*exchangeOffer/);
    }
    const sdkRefused = await refusal(
      relysiaA.transaction.v1.offer({ data: { dataArray: [{ tokenId: gold, tokenAmount: 5, wantedTokenId: silver, wantedAmount: 1 }] } }),
      400,
    );
    assert.equal(sdkRefused.code, 'VALIDATION_FAILED');
    // Dave, a wallet of A's organisation, holds 60 SILVER from Bob.
    const dave = await createOrgWallet(a, { walletTitle: 'Dave' });
    await fund(a, a, dave, 100_000);
    const daveAddress = (await call(a, 'GET', '/v1/address', { headers: { walletID: dave } })).body.data.address;
    const sent = await call(b, 'POST', '/v1/send', {
      headers: { walletID: bob },
      body: { dataArray: [{ to: daveAddress, amount: 60, tokenId: silver }] },
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    await until('A proves Dave’s 60 SILVER', async () => ((await tokensOf(a, dave, silver))?.amount === 60 ? true : undefined), 30_000);
    const made = await call(a, 'POST', '/v1/exchangeOffer', {
      headers: { walletID: alice },
      body: { dataArray: [{ tokenId: gold, tokenAmount: 200, wantedTokenId: silver, wantedAmount: 50 }] },
    });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const o = made.body.data.offers[0];
    assert.deepEqual([o.wanted.type, o.wanted.tokenId, o.wanted.tokenAmount], ['token', silver, 50]);
    assert.equal(o.swapHex, '', 'an offer for tokens is not given out as hex');
    const listed = await call(a, 'GET', '/v1/offers', { headers: { walletID: alice } });
    assert.equal(listed.body.data.offers.find((x: { offerId: string }) => x.offerId === o.offerId)?.swapHex, '', 'nor listed with it');
    const took = await call(a, 'POST', '/v1/exchangeSwap', { headers: { walletID: dave }, body: { dataArray: [{ swapId: o.offerId }] } });
    assert.equal(took.status, 200, JSON.stringify(took.body));
    await until('Dave holds 200 GOLD', async () => ((await tokensOf(a, dave, gold))?.amount === 200 ? true : undefined), 30_000);
    await until(
      'Alice holds the 50 SILVER paid to her',
      async () => ((await tokensOf(a, alice, silver))?.amount === 51 ? true : undefined),
      30_000,
    );
    assert.equal((await tokensOf(a, dave, silver))?.amount, 10, 'Dave keeps the change of his larger SILVER output');
    assert.equal((await tokensOf(a, alice, gold))?.amount, 700);
  });

  it('an NFT serial for BSV, offered and taken with the SDK (default wallets)', async () => {
    // The SDK's transaction.v1 cannot name a wallet: the default wallets (created on first use) trade.
    await fund(a, a, DEFAULT_WALLET, 50_000);
    await fund(a, b, DEFAULT_WALLET, 100_000);
    const art = await issue(a, DEFAULT_WALLET, {
      name: 'Art',
      protocolId: 'KST-789',
      symbol: 'ART',
      tokenSupply: 2,
      satsPerToken: 1,
      data: { '1': ['6f6e65'], '2': ['74776f'] },
    });
    await until('B sees its default wallet funded', async () => ((await bsvOf(b, DEFAULT_WALLET)) >= 100_000 ? true : undefined), 30_000);
    const made = (await relysiaA.transaction.v1.offer({
      data: { dataArray: [{ tokenId: art, sn: '2', type: 'BSV', amount: 0.0001 }] },
    })) as {
      offers: { swapHex: string; offered: { sn: number } }[];
    };
    assert.equal(made.offers[0].offered.sn, 2);
    const d = (await relysiaB.transaction.v1.swap({ data: { dataArray: [{ swapHex: made.offers[0].swapHex }] } })) as { txIds: string[] };
    assert.equal(d.txIds.length, 1);
    await until('B holds ART #2', async () => ((await tokensOf(b, DEFAULT_WALLET, art))?.sn?.includes(2) ? true : undefined), 30_000);
    assert.deepEqual((await tokensOf(a, DEFAULT_WALLET, art))?.sn, [1]);
  });

  it('withdrawal: the offered output goes back to Alice, the offer is closed and can no longer be taken', async () => {
    const made = await call(a, 'POST', '/v1/offer', {
      headers: { walletID: alice },
      body: { dataArray: [{ tokenId: gold, tokenAmount: 10, amount: '1' }] },
    });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const o = made.body.data.offers[0];
    const w = await call(a, 'POST', '/v1/withdrawOffer', { headers: { walletID: alice }, body: { offerId: o.offerId } });
    assert.equal(w.status, 200, JSON.stringify(w.body));
    assert.equal(w.body.data.status, 'withdrawn');
    const listed = await call(a, 'GET', '/v1/offers', { headers: { walletID: alice, status: 'withdrawn' } });
    assert.deepEqual(
      listed.body.data.offers.map((x: { offerId: string; takenTxid: string }) => [x.offerId, x.takenTxid]),
      [[o.offerId, w.body.data.txid]],
    );
    await until(
      'B sees the offered output spent',
      async () => {
        const r = await call(b, 'POST', '/v1/inspectOffer', { body: { dataArray: [{ swapHex: o.swapHex }] } });
        return r.body.data.offers[0].spent === true ? r : undefined;
      },
      30_000,
    );
    const took = await call(b, 'POST', '/v1/swap', { headers: { walletID: bob }, body: { dataArray: [{ swapHex: o.swapHex }] } });
    assert.equal(took.status, 400, JSON.stringify(took.body));
    assert.equal((await tokensOf(a, alice, gold))?.amount, 700, 'the withdrawn tokens are Alice’s still');
    const twice = await call(a, 'POST', '/v1/withdrawOffer', { headers: { walletID: alice }, body: { offerId: o.offerId } });
    assert.equal(twice.status, 409);
  });

  it('exchangeOffer / exchangeSwap: an offer kept by Keystead, taken by id by another wallet of the organisation', async () => {
    // A further payment of 0.00005 BSV to an outside address, made by the taker when Keystead completes the offer.
    const outside = (await call(b, 'GET', '/v1/address', { headers: { walletID: bob } })).body.data.address;
    const made = await call(a, 'POST', '/v1/exchangeOffer', {
      headers: { walletID: alice },
      body: { dataArray: [{ tokenId: gold, tokenAmount: 25, type: 'BSV', amount: 0.0003, payment: [{ amount: 0.00005, to: outside }] }] },
    });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const id = made.body.data.offers[0].offerId;
    assert.equal(made.body.data.offers[0].swapHex, '', 'an offer with further payments is not given out as hex');
    assert.deepEqual(made.body.data.offers[0].payments, [{ to: outside, satoshis: 5_000 }]);
    // Carol sees what the kept offer gives and asks, and the further payment, by its id (the hex stays inside).
    const seen = await call(a, 'POST', '/v1/inspectOffer', { body: { dataArray: [{ swapId: id }, { swapId: 'no-such-offer' }] } });
    assert.equal(seen.status, 200, JSON.stringify(seen.body));
    const [kept, unknownId] = seen.body.data.offers;
    assert.equal(kept.valid, true, JSON.stringify(kept.problems));
    assert.deepEqual([kept.offered.amount, kept.wanted.type, kept.wanted.satoshis, kept.offerId], [25, 'BSV', 30_000, id]);
    assert.deepEqual(kept.payments, [{ to: outside, satoshis: 5_000 }]);
    assert.deepEqual([unknownId.valid, unknownId.problems], [false, ['No offer no-such-offer is kept here.']]);
    const carolBefore = await bsvOf(a, carol);
    const aliceBefore = await bsvOf(a, alice);
    const bobBefore = await bsvOf(b, bob);
    const took = await call(a, 'POST', '/v1/exchangeSwap', { headers: { walletID: carol }, body: { dataArray: [{ swapId: id }] } });
    assert.equal(took.status, 200, JSON.stringify(took.body));
    assert.equal(took.body.data.swaps[0].offerId, id);
    await until('Carol holds 25 GOLD', async () => ((await tokensOf(a, carol, gold))?.amount === 25 ? true : undefined), 30_000);
    assert.ok((await bsvOf(a, carol)) < carolBefore - 35_000 + 1);
    assert.equal(await bsvOf(a, alice), aliceBefore + 30_000);
    await until('the further payment arrives', async () => ((await bsvOf(b, bob)) === bobBefore + 5_000 ? true : undefined), 30_000);
    const listed = await call(a, 'GET', '/v1/offers', { headers: { walletID: alice, status: 'taken' } });
    assert.ok(listed.body.data.offers.some((x: { offerId: string }) => x.offerId === id));
    const after = await call(a, 'POST', '/v1/inspectOffer', { body: { dataArray: [{ swapId: id }] } });
    assert.deepEqual([after.body.data.offers[0].valid, after.body.data.offers[0].problems], [false, [`Offer ${id} is taken.`]]);
    const unknown = await refusal(relysiaA.transaction.v1.exchangeSwap({ data: { dataArray: [{ swapId: id }] } }), 409);
    assert.equal(unknown.code, 'CONFLICT');
  });

  it("the organisation's policy judges offers when made and swaps when taken; a refusal reserves nothing", async () => {
    const made = await call(a, 'POST', '/v1/offer', {
      headers: { walletID: alice },
      body: { dataArray: [{ tokenId: gold, tokenAmount: 5, type: 'BSV', amount: 0.0002 }] },
    });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const hex = made.body.data.offers[0].swapHex;
    const setB = await call(b, 'POST', '/api/v1/policies', {
      body: {
        document: {
          rules: [{ when: { assets: ['bsv'], amountOver: { satoshis: 10_000 } }, action: 'deny', reason: 'No large BSV moves' }],
          default: { action: 'allow' },
        },
      },
    });
    assert.equal(setB.status, 200, JSON.stringify(setB.body));
    const bobCoins = await bsvOf(b, bob);
    const denied = await call(b, 'POST', '/v1/swap', { headers: { walletID: bob }, body: { dataArray: [{ swapHex: hex }] } });
    assert.equal(denied.status, 403, JSON.stringify(denied.body));
    assert.equal(denied.body.data.code, 'POLICY_DENIED');
    assert.equal(await bsvOf(b, bob), bobCoins);

    const setA = await call(a, 'POST', '/api/v1/policies', {
      body: {
        document: {
          rules: [{ when: { assets: ['tokens'], tokenIds: [gold] }, action: 'deny', reason: 'GOLD stays here' }],
          default: { action: 'allow' },
        },
      },
    });
    assert.equal(setA.status, 200, JSON.stringify(setA.body));
    const open = (await call(a, 'GET', '/v1/offers', { headers: { walletID: alice, status: 'open' } })).body.data.offers.length;
    const refused = await call(a, 'POST', '/v1/offer', {
      headers: { walletID: alice },
      body: { dataArray: [{ tokenId: gold, tokenAmount: 5, type: 'BSV', amount: 0.0002 }] },
    });
    assert.equal(refused.status, 403, JSON.stringify(refused.body));
    assert.match(refused.body.data.msg, /GOLD stays here/);
    assert.equal((await call(a, 'GET', '/v1/offers', { headers: { walletID: alice, status: 'open' } })).body.data.offers.length, open);
  });
});
