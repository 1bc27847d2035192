import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PrivateKey } from '@bsv/sdk';
import { PaymailClient } from '../../main/engine/paymail/client.js';
import { oracleAddress } from '../helpers/bip32-oracle.js';
import { startHeadless, type Headless } from '../helpers/headless.js';
import { ADMIN, request } from '../helpers/http.js';
import { createOrgWallet, orgCall, setUpOrg, type Org } from '../helpers/org.js';
import { tempDir } from '../helpers/tmp.js';
import { startPair, stopPair } from '../helpers/two-instances.js';
import { until } from '../helpers/until.js';

const setUp = setUpOrg;
const call = orgCall;
const wallet = createOrgWallet;

const balanceOf = async (o: Org, walletID: string) => {
  const w = (await call(o, 'GET', '/v1/wallets')).body.data.wallets.find((x: { walletID: string }) => x.walletID === walletID);
  return w.balance.confirmed + w.balance.unconfirmed;
};

/** What the chain says the wallet holds: every derived address (both chains) asked of the node. */
async function chainBalance(node: Headless, phrase: string, depth = 80): Promise<number> {
  let sum = 0;
  for (const chain of [0, 1]) {
    for (let i = 0; i < depth; i++) {
      const a = oracleAddress(phrase, `m/44'/236'/0'/${chain}/${i}`);
      const u = await request(node.url, 'GET', `/chain/woc/v1/bsv/local/address/${a}/unspent`);
      sum += (u.body as { value: number }[]).reduce((s, x) => s + x.value, 0);
    }
  }
  return sum;
}

async function fund(node: Org, o: Org, walletID: string, amounts: number[]): Promise<void> {
  for (const satoshis of amounts) {
    const r = await call(node, 'POST', '/chain/faucet', {
      body: { walletId: undefined, address: (await call(o, 'GET', '/v1/address', { headers: { walletID } })).body.data.address, satoshis },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
  }
}

describe('payments between two instances on one local chain', () => {
  let a: Org;
  let b: Org;
  let alice: string;
  let bob: string;

  before(async () => {
    ({ a, b } = await startPair({ paymailBetween: true }));
    alice = await wallet(a, { walletTitle: 'Alice', paymail: 'alice', paymailActivate: true });
    bob = await wallet(b, { walletTitle: 'Bob', paymail: 'bob', paymailActivate: true });
    await fund(a, a, alice, [200_000]);
  });
  after(() => stopPair(a, b));

  it("B's paymail host answers capability discovery and PKI", async () => {
    const caps = await request(b.host.url, 'GET', '/.well-known/bsvalias');
    assert.equal(caps.body.bsvalias, '1.0');
    assert.match(caps.body.capabilities['2a40af698840'], /p2p-payment-destination\/\{alias\}@\{domain\.tld\}$/);
    const pki = await request(b.host.url, 'GET', '/api/bsvalias/id/bob@b.test');
    assert.match(pki.body.pubkey, /^0[23][0-9a-f]{64}$/);
    const verify = await request(b.host.url, 'GET', `/api/bsvalias/verify-pubkey/bob@b.test/${pki.body.pubkey}`);
    assert.equal(verify.body.match, true);
    const missing = await request(b.host.url, 'GET', '/api/bsvalias/id/nobody@b.test');
    assert.deepEqual([missing.status, missing.body.code], [404, 'not-found']);
  });

  it('pays bob@b.test P2P from a payto: URI; both sides record it', async () => {
    const resolved = await call(a, 'GET', '/v1/URI', { headers: { uri: 'payto:bob@b.test?purpose=Rent%20May&amount=12000' } });
    assert.equal(resolved.status, 200, JSON.stringify(resolved.body));
    const req = resolved.body.data.data;
    assert.deepEqual(
      [req.type, req.mainProtocol, req.peerProtocol, req.isBSV, req.memo],
      ['paymail', 'paymail', 'paymail', true, 'Rent May'],
    );
    assert.match(req.peer, new RegExp(`^${b.host.url}/api/bsvalias/receive-transaction/bob@b.test$`));
    assert.match(req.peerData, /^[0-9a-f]{32}$/);
    assert.match(req.peerBeef, new RegExp(`^${b.host.url}/api/bsvalias/beef/bob@b.test$`), 'B takes BEEF, so A delivers it so');
    assert.deepEqual(req.inputs, []);

    const paid = await call(a, 'POST', '/v1/pay', { body: resolved.body.data, headers: { walletID: alice } });
    assert.equal(paid.status, 200, JSON.stringify(paid.body));
    assert.equal(paid.body.data.msg, 'Transaction sent successfully');
    assert.equal(paid.body.data.delivered, 'p2p');
    const txid = paid.body.data.txid;
    assert.equal(await balanceOf(b, bob), 12_000, 'B recorded it when it received it');
    assert.equal(await balanceOf(a, alice), 200_000 - 12_000 - paid.body.data.fee);
    const ha = (await call(a, 'GET', '/v1/history', { headers: { walletID: alice } })).body.data.history[0];
    assert.deepEqual(
      [ha.txid, ha.direction, ha.amount, ha.memo, ha.counterparty],
      [txid, 'out', -(12_000 + paid.body.data.fee), 'Rent May', 'bob@b.test'],
    );
    const hb = (await call(b, 'GET', '/v1/history', { headers: { walletID: bob } })).body.data.history[0];
    assert.deepEqual(
      [hb.txid, hb.direction, hb.amount, hb.memo, hb.counterparty],
      [txid, 'in', 12_000, 'Rent May', 'alice@a.test'],
      "the sender's signature checked against A's key for alice",
    );
    assert.match(b.host.stderr(), new RegExp(`"txid":"${txid}".*payment received as BEEF`), 'B checked it by SPV');
    const replay = await request(b.host.url, 'POST', '/api/bsvalias/receive-transaction/bob@b.test', {
      body: { hex: 'ab', reference: req.peerData },
    });
    assert.equal(replay.status, 400, 'garbage is refused');
    const rawTx = (await request(a.host.url, 'GET', `/chain/woc/v1/bsv/local/tx/${txid}/hex`)).body as string;
    const again = await request(b.host.url, 'POST', '/api/bsvalias/receive-transaction/bob@b.test', {
      body: { hex: rawTx, reference: req.peerData },
    });
    assert.deepEqual([again.status, again.body.txid], [200, txid], 're-delivering the same transaction is a success');
    assert.equal(await balanceOf(b, bob), 12_000, 'and is not credited twice');
  });

  it('pays a bitcoin: URI by broadcast; the other instance sees it by polling', async () => {
    const to = (await call(b, 'GET', '/v1/address', { headers: { walletID: bob } })).body.data.address;
    const resolved = await call(a, 'POST', '/v1/URI', { body: { uri: `bitcoin:${to}?amount=0.0001` } });
    assert.equal(resolved.body.data.data.type, 'bip21');
    const paid = await call(a, 'POST', '/v1/pay', { body: resolved.body.data.data, headers: { walletID: alice } });
    assert.equal(paid.body.data.delivered, 'broadcast');
    await until('B to see the bitcoin: payment', async () => ((await balanceOf(b, bob)) === 22_000 ? true : undefined));
    await until('B to have applied it', async () =>
      (await call(b, 'GET', '/v1/history', { headers: { walletID: bob } })).body.data.history.length === 2 ? true : undefined,
    );
    await call(a, 'POST', '/chain/mine', { body: {} });
    await until('the confirmation to reach B', async () => {
      const h = (await call(b, 'GET', '/v1/history', { headers: { walletID: bob } })).body.data.history;
      return h.every((e: { confirmations: number }) => e.confirmations >= 1) ? true : undefined;
    });
  });

  it("basic address resolution (multi=true) and the client's PKI checks work against B", async () => {
    const resolved = await call(a, 'GET', '/v1/URI', { headers: { uri: 'payto:bob@b.test?amount=3000&multi=true', walletID: alice } });
    assert.equal(resolved.status, 200, JSON.stringify(resolved.body));
    const req = resolved.body.data.data;
    assert.deepEqual([req.peer, req.peerProtocol, req.outputs.length, req.outputs[0].satoshis], [null, null, 1, 3000]);
    assert.match(req.outputs[0].script, /^76a914[0-9a-f]{40}88ac$/);
    const before = await balanceOf(b, bob);
    const paid = await call(a, 'POST', '/v1/pay', { body: req, headers: { walletID: alice } });
    assert.equal(paid.body.data.delivered, 'broadcast');
    await until('B to see the basic-resolution payment', async () => ((await balanceOf(b, bob)) === before + 3000 ? true : undefined));

    const client = new PaymailClient(() => new Map([['b.test', b.host.url]]));
    const pubkey = await client.pki('bob@b.test');
    assert.equal(await client.verifyPubkey('bob@b.test', pubkey), true);
    assert.equal(await client.verifyPubkey('bob@b.test', PrivateKey.fromRandom().toPublicKey().toString()), false);
  });

  it('refuses unresolvable URIs and overspending with clear errors', async () => {
    const bad = await call(a, 'GET', '/v1/URI', { headers: { uri: 'payto:nobody@b.test?amount=5' } });
    assert.equal(bad.status, 404);
    const noAmount = await call(a, 'GET', '/v1/URI', { headers: { uri: 'payto:bob@b.test' } });
    assert.equal(noAmount.status, 400);
    assert.match(noAmount.body.data.msg, /amount/);
    const req = (await call(a, 'GET', '/v1/URI', { headers: { uri: `bitcoin:${PrivateKey.fromRandom().toAddress()}?amount=1` } })).body.data
      .data;
    const broke = await call(a, 'POST', '/v1/pay', { body: req, headers: { walletID: alice } });
    assert.equal(broke.status, 400);
    assert.equal(broke.body.data.code, 'INSUFFICIENT_FUNDS');
    assert.match(broke.body.data.msg, /satoshis missing/);
  });
});

describe('money safety under concurrency and crashes', () => {
  it('twenty concurrent pays from one wallet never spend a coin twice', async () => {
    const org = await setUp(await startHeadless({ dataDir: tempDir(), password: 'pw', args: ['--mine-interval', '0'] }));
    try {
      const phrase = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
      const w = await wallet(org, { walletTitle: 'Busy', mnemonicPhrase: phrase });
      await fund(
        org,
        org,
        w,
        Array.from({ length: 12 }, () => 10_000),
      );
      const to = PrivateKey.fromRandom().toAddress();
      const req = (await call(org, 'GET', '/v1/URI', { headers: { uri: `bitcoin:${to}?amount=0.00004` } })).body.data.data;
      const results = await Promise.all(
        Array.from({ length: 20 }, () => call(org, 'POST', '/v1/pay', { body: req, headers: { walletID: w } })),
      );
      const ok = results.filter((r) => r.status === 200);
      const failed = results.filter((r) => r.status !== 200);
      assert.ok(ok.length >= 12, `at least one pay per coin succeeds (got ${ok.length})`);
      // A refusal says either that the coins are gone or that a payment still in flight holds them (409,
      // try again): the node checks scripts off the event loop, so pays overlap and some coins are held.
      for (const f of failed) assert.ok(['INSUFFICIENT_FUNDS', 'CONFLICT'].includes(f.body.data.code), JSON.stringify(f.body));
      assert.equal(new Set(ok.map((r) => r.body.data.txid)).size, ok.length);
      const received = (await request(org.host.url, 'GET', `/chain/woc/v1/bsv/local/address/${to}/unspent`)).body as { value: number }[];
      assert.equal(received.length, ok.length, 'every success is on the chain');
      assert.equal(await balanceOf(org, w), await chainBalance(org.host, phrase), "the wallet's view equals the chain's");
    } finally {
      await org.host.stop();
    }
  });

  it('kill -9 in the middle of a burst: after restart the wallet matches the ledger', async () => {
    const dataDir = tempDir();
    const phrase = 'letter advice cage absurd amount doctor acoustic avoid letter advice cage above';
    let host = await startHeadless({ dataDir, password: 'pw', args: ['--mine-interval', '0'] });
    const org = await setUp(host);
    const w = await wallet(org, { walletTitle: 'Crashy', mnemonicPhrase: phrase });
    await fund(
      org,
      org,
      w,
      Array.from({ length: 30 }, () => 5_000),
    );
    const req = (await call(org, 'GET', '/v1/URI', { headers: { uri: `bitcoin:${PrivateKey.fromRandom().toAddress()}?amount=0.00002` } }))
      .body.data.data;
    // The host dies the moment the first pay of the burst comes back paid: some pays are through, the rest in flight.
    const pays = 30;
    let answered = 0;
    let inFlightAtKill: number | null = null;
    const crashing = host;
    const burst = Array.from({ length: pays }, () =>
      call(org, 'POST', '/v1/pay', { body: req, headers: { walletID: w } }).then(
        (r) => {
          answered += 1;
          if (r.status !== 200 || inFlightAtKill !== null) return;
          inFlightAtKill = pays - answered;
          crashing.proc.kill('SIGKILL');
        },
        () => undefined, // cut off by the kill
      ),
    );
    await Promise.all(burst);
    await host.stop();
    assert.notEqual(inFlightAtKill, null, 'a pay of the burst went through before the kill');
    assert.ok(inFlightAtKill! > 0, 'the kill came while pays were still in flight');

    host = await startHeadless({ dataDir, password: 'pw', args: ['--mine-interval', '0'] });
    try {
      const login = await request(host.url, 'POST', '/api/v1/login', { body: { email: ADMIN.email, password: ADMIN.password } });
      const again: Org = { host, auth: { authToken: login.body.data.authToken }, serviceid: login.body.data.serviceId };
      const onChain = await chainBalance(host, phrase);
      assert.equal(await balanceOf(again, w), onChain, 'nothing lost, nothing counted twice');
      const next = await call(again, 'POST', '/v1/pay', { body: req, headers: { walletID: w } });
      assert.equal(next.status, 200, `the wallet pays again after the crash: ${JSON.stringify(next.body)}`);
      assert.equal(await balanceOf(again, w), await chainBalance(host, phrase));
    } finally {
      await host.stop();
    }
  });

  it('the fee manager pays the fee of a user payment (enterprise routes)', async () => {
    const org = await setUp(await startHeadless({ dataDir: tempDir(), password: 'pw', args: ['--mine-interval', '0'] }));
    try {
      const denied = await request(org.host.url, 'GET', '/api/v1/initBeta', { headers: org.auth });
      assert.equal(denied.status, 403, 'serviceid is required');
      const init = await call(org, 'GET', '/api/v1/initBeta');
      assert.equal(init.body.data.msg, 'Fee manager init successfully');
      const addresses = (await call(org, 'GET', '/api/v1/feeAddressBeta')).body.data.addresses;
      assert.equal(addresses.length, 20);
      await call(org, 'POST', '/chain/faucet', { body: { address: addresses[0], satoshis: 50_000 } });
      const w = await wallet(org, { walletTitle: 'Ops' });
      await fund(org, org, w, [3_000]);
      const req = (await call(org, 'GET', '/v1/URI', { headers: { uri: `bitcoin:${PrivateKey.fromRandom().toAddress()}?amount=0.00003` } }))
        .body.data.data;
      const paid = await call(org, 'POST', '/v1/pay', { body: req, headers: { walletID: w } });
      assert.equal(paid.status, 200, JSON.stringify(paid.body));
      assert.equal(paid.body.data.feePaidBy, 'feeManager');
      assert.equal(await balanceOf(org, w), 0, 'the user moved all 3,000 satoshis without holding fee money');
      const metrics = await call(org, 'GET', '/api/v1/feeMetricsBeta');
      assert.equal(metrics.body.data.totalBalance.balance, 50_000 - paid.body.data.fee);
      assert.ok(
        metrics.body.data.availableUtxos.every((u: { state: string }) => ['available', 'reserved', 'dust', 'spent'].includes(u.state)),
      );
    } finally {
      await org.host.stop();
    }
  });
});
