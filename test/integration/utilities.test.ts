import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { PrivateKey, Transaction } from '@bsv/sdk';
import { startHeadless } from '../helpers/headless.js';
import { request, type Reply } from '../helpers/http.js';
import { createOrgWallet, orgCall, setUpOrg, type Org } from '../helpers/org.js';
import { tempDir } from '../helpers/tmp.js';
import { until } from '../helpers/until.js';

/**
 * The public service's SDK (vaionex/RelysiaSDK v1.1.17, src/utility, src/transactions, src/wallets) replayed
 * request by request: its headers (authToken, walletID/walletId, serviceid, satoshis, currency, privateKey),
 * its bodies, and the fields its caller reads from `data`.
 */
const b64 = (s: string) => Buffer.from(s).toString('base64');
const hex = (s: string) => Buffer.from(s).toString('hex');
const P2PKH_SCRYPT = `contract P2PKH {
  Ripemd160 pubKeyHash;
  public function unlock(Sig sig, PubKey pubKey) {
    require(hash160(pubKey) == this.pubKeyHash);
    require(checkSig(sig, pubKey));
  }
}`;

/** Pushes after OP_FALSE OP_RETURN, hex (a small reader, independent of the code under test). */
function pushesOf(script: string): string[] {
  assert.ok(script.startsWith('006a'), `not OP_FALSE OP_RETURN: ${script.slice(0, 10)}`);
  const b = Buffer.from(script, 'hex');
  const out: string[] = [];
  for (let i = 2; i < b.length;) {
    const op = b[i];
    let len = op;
    let at = i + 1;
    if (op === 0x4c) [len, at] = [b[i + 1], i + 2];
    else if (op === 0x4d) [len, at] = [b.readUInt16LE(i + 1), i + 3];
    else if (op === 0x4e) [len, at] = [b.readUInt32LE(i + 1), i + 5];
    out.push(b.subarray(at, at + len).toString('hex'));
    i = at + len;
  }
  return out;
}

describe('the SDK utilities, sweep, data on chain and metrics', () => {
  let o: Org;
  let walletID: string;
  let sdkHeaders: Record<string, string>;
  /** A request as the SDK's Request class sends it: JSON headers, authToken, then the method's own headers. */
  const sdk = (method: string, path: string, headers: Record<string, string> = {}, body?: unknown): Promise<Reply> =>
    request(o.host.url, method, path, {
      headers: { 'content-type': 'application/json', accept: 'application/json', ...sdkHeaders, ...headers },
      body,
    });
  const chainTx = async (txid: string) => {
    const r = await request(o.host.url, 'GET', `/chain/woc/v1/bsv/local/tx/${txid}/hex`);
    assert.equal(r.status, 200, `the chain has ${txid}`);
    return Transaction.fromHex(r.body as string);
  };
  const unspentAt = async (address: string) =>
    (await request(o.host.url, 'GET', `/chain/woc/v1/bsv/local/address/${address}/unspent`)).body as { value: number }[];
  const faucet = async (address: string, satoshis: number) => {
    const r = await orgCall(o, 'POST', '/chain/faucet', { body: { address, satoshis } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.data.txid as string;
  };
  const balanceOf = async (id: string) => (await orgCall(o, 'GET', '/v1/balance', { headers: { walletID: id } })).body.data;

  before(async () => {
    o = await setUpOrg(await startHeadless({ dataDir: tempDir(), password: 'pw-u', args: ['--mine-interval', '0'] }));
    sdkHeaders = { authToken: o.auth.authToken };
    walletID = await createOrgWallet(o, { walletTitle: 'Data' });
    const address = (await orgCall(o, 'GET', '/v1/address', { headers: { walletID } })).body.data.address;
    await faucet(address, 200_000);
    await until('the wallet is funded', async () => ((await balanceOf(walletID)).coins[0].balance === 200_000 ? true : undefined));
  });
  after(async () => {
    await o?.host.stop();
  });

  it('currencyConversion: headers satoshis and currency; data.currency and data.balance', async () => {
    const r = await sdk('GET', '/v1/currencyConversion', { satoshis: '100000000', currency: 'USD' });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const convert = await orgCall(o, 'GET', '/v1/convert?satoshis=100000000&currency=USD');
    assert.equal(r.body.data.currency, 'USD');
    assert.equal(r.body.data.balance, convert.body.data.rate);
    const bad = await sdk('GET', '/v1/currencyConversion', { satoshis: 'lots', currency: 'USD' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.data.code, 'VALIDATION_FAILED');
  });

  it('compile and transpile without credentials; the SDK compile() that sends no body gets a clear 400', async () => {
    const anon = await request(o.host.url, 'POST', '/v1/compile', { body: { sourceCode: b64(P2PKH_SCRYPT) } });
    assert.equal(anon.status, 200, JSON.stringify(anon.body));
    assert.match(anon.body.data.scrypt, /OP_CHECKSIG/);
    const sol = await request(o.host.url, 'POST', '/v1/transpile', {
      body: { sourceCode: b64('contract A { uint x; function f() public { x = 1; } }') },
    });
    assert.equal(sol.status, 200, JSON.stringify(sol.body));
    const bodiless = await sdk('POST', '/v1/compile', { 'content-type': 'application/json' });
    assert.equal(bodiless.status, 400);
    assert.equal(bodiless.body.data.code, 'VALIDATION_FAILED');
    assert.match(bodiless.body.data.msg, /sourceCode: is required/);
    // A bad credential is still refused, not treated as none.
    const wrong = await request(o.host.url, 'POST', '/v1/compile', {
      headers: { authToken: 'nope' },
      body: { sourceCode: b64(P2PKH_SCRYPT) },
    });
    assert.equal(wrong.status, 401);
    // Without credentials a client gets a burst, then 429 with Retry-After.
    const burst = await Promise.all(
      Array.from({ length: 14 }, () => request(o.host.url, 'POST', '/v1/compile', { body: { sourceCode: b64(P2PKH_SCRYPT) } })),
    );
    const limited = burst.filter((r) => r.status === 429);
    assert.ok(limited.length >= 1, `statuses: ${burst.map((r) => r.status).join(',')}`);
    assert.equal(limited[0].body.data.code, 'RATE_LIMITED');
    assert.ok(Number(limited[0].headers.get('retry-after')) >= 1);
    // Signed in, the same client is not limited by the anonymous bucket.
    assert.equal((await sdk('POST', '/v1/compile', {}, { sourceCode: b64(P2PKH_SCRYPT) })).status, 200);
  });

  let postTxid: string;
  it('post: {dataArray:[{notes}]} from a wallet in OP_FALSE OP_RETURN; the chain has the bytes', async () => {
    const r = await sdk('POST', '/v1/post', { walletID, serviceid: o.serviceid }, { dataArray: [{ notes: ['hello keystead', { n: 1 }] }] });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    postTxid = r.body.data.txid;
    assert.match(postTxid, /^[0-9a-f]{64}$/);
    const tx = await chainTx(postTxid);
    const out = tx.outputs[r.body.data.vout];
    assert.equal(out.satoshis, 0);
    assert.deepEqual(pushesOf(out.lockingScript.toHex()), [hex('hello keystead'), hex('{"n":1}')]);
    assert.ok(r.body.data.fee > 0);
    const nothing = await sdk('POST', '/v1/post', { walletID }, { dataArray: [] });
    assert.equal(nothing.status, 400);
  });

  let uploadTxid: string;
  it('upload: {fileUrl, fileName} as a data: URL, written in the B:// layout; a private http URL is refused', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    const r = await sdk(
      'POST',
      '/v1/upload',
      { walletID, serviceid: o.serviceid },
      { fileUrl: `data:image/png;base64,${png.toString('base64')}`, fileName: 'logo.png' },
    );
    assert.equal(r.status, 200, JSON.stringify(r.body));
    uploadTxid = r.body.data.txid;
    assert.equal(r.body.data.uri, `b://${uploadTxid}`);
    const out = (await chainTx(uploadTxid)).outputs[r.body.data.vout];
    assert.deepEqual(pushesOf(out.lockingScript.toHex()), [
      hex('19HxigV4QyBv3tHpQVcUEQyq1pzZVdoAut'),
      png.toString('hex'),
      hex('image/png'),
      hex('binary'),
      hex('logo.png'),
    ]);

    const server = createServer((_q, s) => s.end('secret')).listen(0, '127.0.0.1');
    await new Promise((ok) => server.once('listening', ok));
    try {
      const local = await sdk(
        'POST',
        '/v1/upload',
        { walletID },
        { fileUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/x.txt`, fileName: 'x.txt' },
      );
      assert.equal(local.status, 403, JSON.stringify(local.body));
      assert.match(local.body.data.msg, /private or local address/);
    } finally {
      server.close();
    }
    const big = await sdk(
      'POST',
      '/v1/upload',
      { walletID },
      { file: Buffer.alloc(1_000_001).toString('base64'), contentType: 'application/octet-stream' },
    );
    assert.equal(big.status, 413);
    assert.equal(big.body.data.code, 'PAYLOAD_TOO_LARGE');
  });

  it('rawtx: a txid gives the hex; the service-only {dataArray:[{to, amount}]} form answers why not', async () => {
    const r = await sdk('POST', '/v1/rawtx', { walletID }, { txid: postTxid });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(Transaction.fromHex(r.body.data.rawtx).id('hex'), postTxid);
    const byHeader = await sdk('GET', '/v1/rawtx', { txid: postTxid });
    assert.equal(byHeader.body.data.rawtx, r.body.data.rawtx);
    const service = await sdk(
      'POST',
      '/v1/rawtx',
      { walletID },
      { dataArray: [{ to: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT', amount: 0.0001 }] },
    );
    assert.equal(service.status, 400);
    assert.match(service.body.data.msg, /does not sign a payment without sending it/);
    const missing = await sdk('POST', '/v1/rawtx', {}, { txid: 'ab'.repeat(32) });
    assert.equal(missing.status, 404);
  });

  it('inspect: {dataArray:[{swapHex}]} decodes inputs (with what they spend), outputs and data', async () => {
    const raw = (await sdk('GET', '/v1/rawtx', { txid: postTxid })).body.data.rawtx;
    const r = await sdk('POST', '/v1/inspect', {}, { dataArray: [{ swapHex: raw }] });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const [t] = r.body.data.transactions;
    assert.equal(t.txid, postTxid);
    assert.ok(t.inputs.every((i: { previous: unknown }) => i.previous !== null));
    assert.equal(t.fee, t.totalIn - t.totalOut);
    const data = t.outputs.find((x: { kind: string }) => x.kind === 'data');
    assert.deepEqual(data.text, ['hello keystead', '{"n":1}']);
    assert.equal(r.body.data.offerDetails.length, 1);
    const junk = await sdk('POST', '/v1/inspect', {}, { dataArray: [{ swapHex: '00' }] });
    assert.equal(junk.status, 400);
  });

  it('metrics: walletId header; data.balance and userUtxos, and counts and volumes per day', async () => {
    const r = await sdk('GET', '/v1/metrics', { walletId: walletID, serviceId: o.serviceid });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const bal = await balanceOf(walletID);
    assert.equal(r.body.data.data.balance, bal.coins[0].balance);
    assert.equal(
      r.body.data.data.userUtxos.reduce((s: number, u: { value: number }) => s + u.value, 0),
      r.body.data.data.balance,
    );
    const today = r.body.data.periods[0];
    assert.equal(today.received.count, 1);
    assert.equal(today.received.satoshis, 200_000);
    assert.equal(today.sent.count, 2);
    assert.equal(today.net, r.body.data.data.balance);
    assert.equal(today.fees, 200_000 - r.body.data.data.balance);
  });

  it('drop: privateKey header sweeps BSV and tokens into the default wallet; the key ends with nothing', async () => {
    // A token at the key: issued by this wallet, part sent to the key's address.
    const issued = await orgCall(o, 'POST', '/api/v1/issue', {
      headers: { walletID },
      body: { name: 'Sweep Points', protocolId: 'KST-20', symbol: 'SWP', tokenSupply: 1_000, satsPerToken: 1 },
    });
    assert.equal(issued.status, 200, JSON.stringify(issued.body));
    const { tokenId } = issued.body.data;
    const key = PrivateKey.fromRandom();
    const address = key.toAddress();
    const sent = await orgCall(o, 'POST', '/v1/send', {
      headers: { walletID },
      body: { dataArray: [{ to: address, amount: 300, tokenId }] },
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    await faucet(address, 40_000);
    await faucet(address, 25_000);

    const before = (await balanceOf('0000-00000000-00000')).coins[0]?.balance ?? 0;
    const r = await sdk('POST', '/v1/drop', { serviceID: o.serviceid, privateKey: key.toWif() }, { dataArray: [{ amount: 0.00065 }] });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const d = r.body.data;
    assert.equal(d.address, address);
    assert.equal(d.tokens.length, 1);
    assert.deepEqual(d.txIds, [d.tokens[0].txid, d.bsv.txid]);
    assert.equal(d.tokens[0].tokenId, tokenId);
    assert.equal(d.bsv.received, 65_000 - d.tokens[0].fee - d.bsv.fee);
    assert.deepEqual(await unspentAt(address), []);
    await until('the default wallet has the BSV and the tokens', async () => {
      const b = await balanceOf('0000-00000000-00000');
      const tokens = b.coins.find((c: { tokenId?: string }) => c.tokenId === tokenId);
      return b.coins[0].balance === before + d.bsv.received && tokens?.amount === 300 ? true : undefined;
    });

    // inspect reads the token the sweep's transfer carried.
    const transfer = (await sdk('POST', '/v1/rawtx', {}, { txid: d.tokens[0].txid })).body.data.rawtx;
    const seen = await sdk('POST', '/v1/inspect', {}, { rawtx: transfer });
    const [t] = seen.body.data.transactions;
    assert.equal(t.inputs[0].previous.token.tokenId, tokenId);
    assert.equal(t.inputs[0].previous.address, address);
    assert.equal(t.outputs[0].kind, 'token');
    assert.equal(t.outputs[0].token.amount, 300);
    assert.equal(t.outputs[0].token.symbol, 'SWP');

    // Nothing left: refused.
    const again = await sdk('POST', '/v1/drop', { privateKey: key.toWif() }, { dataArray: [{ amount: 1 }] });
    assert.equal(again.status, 400);
    // A 1-satoshi output may carry an ordinal: the sweep leaves it at the key and says so.
    const ord = PrivateKey.fromRandom();
    await faucet(ord.toAddress(), 1);
    await faucet(ord.toAddress(), 20_000);
    const swept = await sdk('POST', '/v1/drop', { privateKey: ord.toWif() }, { dataArray: [{ amount: 0.0002 }] });
    assert.equal(swept.status, 200, JSON.stringify(swept.body));
    assert.deepEqual(
      swept.body.data.skipped.map((x: { reason: string }) => /ordinal/.test(x.reason)),
      [true],
    );
    assert.deepEqual(
      (await unspentAt(ord.toAddress())).map((u) => u.value),
      [1],
    );
    const onlyOrdinal = await sdk('POST', '/v1/drop', { privateKey: ord.toWif() }, { dataArray: [{ amount: 1 }] });
    assert.equal(onlyOrdinal.status, 400, JSON.stringify(onlyOrdinal.body));
    assert.match(onlyOrdinal.body.data.msg, /nothing to sweep/);
    assert.equal((await unspentAt(ord.toAddress())).length, 1);
    const noKey = await sdk('POST', '/v1/drop', {}, { dataArray: [{ amount: 1 }] });
    assert.equal(noKey.status, 400);
  });
});
