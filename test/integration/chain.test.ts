import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ARC, MerklePath, P2PKH, PrivateKey, SatoshisPerKilobyte, Transaction, WhatsOnChain } from '@bsv/sdk';
import { NetworkProvider, remoteEndpoints } from '../../main/chain/network/network-provider.js';
import { startHeadless, type Headless } from '../helpers/headless.js';
import { ADMIN, request } from '../helpers/http.js';
import { tempDir } from '../helpers/tmp.js';
import { until } from '../helpers/until.js';

const key = PrivateKey.fromRandom();

describe('local node over HTTP: ARC and WhatsOnChain compatible, shared by two instances', () => {
  const dataA = tempDir();
  let a: Headless;
  let b: Headless;
  let adminA: Record<string, string>;
  let adminB: Record<string, string>;
  let funding: Transaction;

  before(async () => {
    a = await startHeadless({ dataDir: dataA, password: 'pw-a', args: ['--mine-interval', '0'] });
    const s = await request(a.url, 'POST', '/api/v1/setup', { body: ADMIN });
    adminA = { authToken: s.body.data.authToken };
  });
  after(async () => {
    await b?.stop();
    await a?.stop();
  });

  it('faucet and mine need an admin or manager', async () => {
    assert.equal((await request(a.url, 'POST', '/chain/faucet', { body: { address: key.toAddress(), satoshis: 1000 } })).status, 401);
    const viewer = await request(a.url, 'POST', '/api/v1/createUser', {
      body: { email: 'vera@acme.io', password: 'viewer-pass-1', role: 'viewer' },
      headers: { ...adminA, serviceid: (await request(a.url, 'GET', '/api/v1/me', { headers: adminA })).body.data.serviceId },
    });
    assert.equal(viewer.status, 200);
    const v = await request(a.url, 'POST', '/api/v1/login', { body: { email: 'vera@acme.io', password: 'viewer-pass-1' } });
    const denied = await request(a.url, 'POST', '/chain/mine', { body: {}, headers: { authToken: v.body.data.authToken } });
    assert.equal(denied.status, 403);

    const f = await request(a.url, 'POST', '/chain/faucet', { body: { address: key.toAddress(), satoshis: 100_000 }, headers: adminA });
    assert.equal(f.status, 200, JSON.stringify(f.body));
    assert.match(f.body.data.txid, /^[0-9a-f]{64}$/);
    funding = Transaction.fromHex((await request(a.url, 'GET', `/chain/woc/v1/bsv/local/tx/${f.body.data.txid}/hex`)).body);
    const m = await request(a.url, 'POST', '/chain/mine', { body: {}, headers: adminA });
    assert.deepEqual([m.body.data.height, m.body.data.txCount], [1, 2], 'the block after genesis: its coinbase and the faucet payment');
  });

  it("@bsv/sdk's ARC broadcaster is accepted, and its status reads back with a verifiable merkle path", async () => {
    const tx = new Transaction();
    tx.addInput({ sourceTransaction: funding, sourceOutputIndex: 0, unlockingScriptTemplate: new P2PKH().unlock(key) });
    tx.addOutput({ lockingScript: new P2PKH().lock(PrivateKey.fromRandom().toAddress()), satoshis: 30_000 });
    tx.addOutput({ lockingScript: new P2PKH().lock(key.toAddress()), change: true });
    await tx.fee(new SatoshisPerKilobyte(1));
    await tx.sign();
    const arc = new ARC(`${a.url}/chain/arc`);
    const r = await arc.broadcast(tx);
    assert.equal(r.status, 'success', JSON.stringify(r));
    assert.equal((r as { txid: string }).txid, tx.id('hex'));

    const seen = await request(a.url, 'GET', `/chain/arc/v1/tx/${tx.id('hex')}`);
    assert.equal(seen.body.txStatus, 'SEEN_ON_NETWORK');
    await request(a.url, 'POST', '/chain/mine', { body: {}, headers: adminA });
    const mined = await request(a.url, 'GET', `/chain/arc/v1/tx/${tx.id('hex')}`);
    assert.equal(mined.body.txStatus, 'MINED');

    const tracker = new WhatsOnChain('main');
    // Pointed at the node (the class hard-codes api.whatsonchain.com as its base); otherwise unchanged.
    Object.defineProperty(tracker, 'URL', { value: `${a.url}/chain/woc/v1/bsv/local` });
    assert.equal(await tracker.currentHeight(), mined.body.blockHeight);
    assert.equal(await MerklePath.fromHex(mined.body.merklePath).verify(tx.id('hex'), tracker), true);
    assert.equal(await tracker.isValidRootForHeight('00'.repeat(32), mined.body.blockHeight), false);

    const again = await arc.broadcast(tx);
    assert.equal(again.status, 'success', 'already known is a success');

    const conflict = new Transaction();
    conflict.addInput({ sourceTransaction: funding, sourceOutputIndex: 0, unlockingScriptTemplate: new P2PKH().unlock(key) });
    conflict.addOutput({ lockingScript: new P2PKH().lock(key.toAddress()), satoshis: 50_000 });
    await conflict.sign();
    const ds = await arc.broadcast(conflict);
    assert.equal(ds.status, 'error');
    assert.equal((ds as { code: string }).code, 'DOUBLE_SPEND_ATTEMPTED');
    funding = tx;
  });

  it('serves UTXOs, history, policy and rates to a WhatsOnChain-style client', async () => {
    const woc = new NetworkProvider({ network: 'remote', ...remoteEndpoints(a.url) });
    const utxos = await woc.getUtxos(key.toAddress());
    assert.equal(utxos.length, 1);
    assert.equal(utxos[0].txid, funding.id('hex'));
    assert.ok(utxos[0].height !== null && utxos[0].height > 0);
    assert.equal(utxos[0].script, new P2PKH().lock(key.toAddress()).toHex());
    assert.deepEqual(
      (await woc.getHistory(key.toAddress())).map((h) => h.txid).sort(),
      [funding.id('hex'), funding.inputs[0].sourceTransaction!.id('hex')].sort(),
    );
    assert.deepEqual(await woc.getFeePolicy(), { satoshis: 1, bytes: 1000, dustLimit: 1 });
    assert.equal((await woc.getUsdRate())!.rate, 40);
    assert.equal((await woc.getTip()).height, (await request(a.url, 'GET', '/chain/woc/v1/bsv/local/chain/info')).body.blocks);
    assert.equal(await woc.getTransactionHex('ab'.repeat(32)), null);
  });

  it("a second instance uses the first one's node: balances and tip follow it", async () => {
    b = await startHeadless({
      dataDir: tempDir(),
      password: 'pw-b',
      args: ['--network', 'remote', '--remote-url', a.url, '--sync-interval', '1', '--paymail-domain', 'b.test'],
    });
    const s = await request(b.url, 'POST', '/api/v1/setup', { body: { ...ADMIN, organisation: 'Beta' } });
    adminB = { authToken: s.body.data.authToken };
    const net = await request(b.url, 'GET', '/v1/network', { headers: adminB });
    assert.equal(net.body.data.network, 'remote');
    assert.equal(net.body.data.faucet, true, "another Keystead's local chain is a development chain too");
    assert.equal(net.body.data.tip.height, (await request(a.url, 'GET', '/v1/network', { headers: adminA })).body.data.tip.height);

    const w = await request(b.url, 'POST', '/v1/createWallet', { body: { walletTitle: 'Beta ops' }, headers: adminB });
    const addr = (await request(b.url, 'GET', '/v1/address', { headers: { ...adminB, walletID: w.body.data.walletID } })).body.data.address;
    await request(a.url, 'POST', '/chain/faucet', { body: { address: addr, satoshis: 77_000 }, headers: adminA });
    const balance = async () => (await request(b.url, 'GET', '/v1/wallets', { headers: adminB })).body.data.wallets[0].balance;
    const diag = async () => JSON.stringify((await request(b.url, 'GET', '/v1/network', { headers: adminB })).body.data.syncError);
    await until('B to see the payment', async () => ((await balance()).unconfirmed === 77_000 ? true : undefined)).catch(async (e) => {
      throw new Error(`${e.message}; sync: ${await diag()}`);
    });
    assert.deepEqual(await until('B to see the payment', async () => ((await balance()).unconfirmed === 77_000 ? balance() : undefined)), {
      confirmed: 0,
      unconfirmed: 77_000,
    });
    await request(a.url, 'POST', '/chain/mine', { body: {}, headers: adminA });
    assert.deepEqual(await until('B to see it confirmed', async () => ((await balance()).confirmed === 77_000 ? balance() : undefined)), {
      confirmed: 77_000,
      unconfirmed: 0,
    });
    // B's own faucet and mining go to A's node (its development routes).
    const viaB = await request(b.url, 'POST', '/chain/faucet', { body: { address: addr, satoshis: 1_000 }, headers: adminB });
    assert.equal(viaB.status, 200, JSON.stringify(viaB.body));
    assert.equal(
      (await request(a.url, 'GET', `/chain/woc/v1/bsv/local/tx/${viaB.body.data.txid}/hex`)).status,
      200,
      "the coins came from A's node",
    );
    const mined = await request(b.url, 'POST', '/chain/mine', { body: {}, headers: adminB });
    assert.equal(mined.status, 200, JSON.stringify(mined.body));
    assert.ok(mined.body.data.txCount >= 2, 'the faucet transaction was mined on A');
  });

  it('keeps the chain over a restart, and can require an API key on its routes', async () => {
    await b.stop();
    const tip = (await request(a.url, 'GET', '/chain/woc/v1/bsv/local/chain/info')).body;
    await a.stop();
    a = await startHeadless({ dataDir: dataA, password: 'pw-a', args: ['--mine-interval', '0', '--chain-api-key', 'node-key-1'] });
    assert.equal((await request(a.url, 'GET', '/chain/woc/v1/bsv/local/chain/info')).status, 401);
    const again = await request(a.url, 'GET', '/chain/woc/v1/bsv/local/chain/info', { headers: { authorization: 'node-key-1' } });
    assert.deepEqual(again.body, tip);
    const arc = new ARC(`${a.url}/chain/arc`, { apiKey: 'node-key-1' });
    const stale = await arc.broadcast(funding);
    assert.equal(stale.status, 'success', 'with the key, ARC works; the known tx is still known');
  });
});
