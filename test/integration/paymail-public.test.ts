import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BSM, LockingScript, MerklePath, P2PKH, PrivateKey, SatoshisPerKilobyte, Transaction, Utils } from '@bsv/sdk';
import { freePort } from '../helpers/free-port.js';
import { startHeadless } from '../helpers/headless.js';
import { request, requestAs } from '../helpers/http.js';
import { createOrgWallet, orgCall, setUpOrg, type Org } from '../helpers/org.js';
import { tempDir } from '../helpers/tmp.js';

/** The public paymail listener, on the open internet behind a proxy: only paymail, any Host, BEEF and sender signatures checked. */
describe('public paymail mode (--paymail-listen)', () => {
  let org: Org;
  let pub: string;
  let walletID: string;
  const payer = PrivateKey.fromRandom();
  const handle = 'shop@acme.test';

  /** A coin of `payer` from the local chain, with its source transaction and (once mined) merkle path. */
  async function coin(satoshis: number, mine: boolean) {
    const f = await orgCall(org, 'POST', '/chain/faucet', { body: { address: payer.toAddress(), satoshis } });
    assert.equal(f.status, 200, JSON.stringify(f.body));
    if (mine) await orgCall(org, 'POST', '/chain/mine', { body: {} });
    const hex = (await request(org.host.url, 'GET', `/chain/woc/v1/bsv/local/tx/${f.body.data.txid}/hex`)).body as string;
    const source = Transaction.fromHex(hex);
    const status = (await request(org.host.url, 'GET', `/chain/arc/v1/tx/${f.body.data.txid}`)).body as { merklePath: string };
    if (mine) source.merklePath = MerklePath.fromHex(status.merklePath);
    return { source, vout: source.outputs.findIndex((o) => o.satoshis === satoshis) };
  }

  async function paying(outputs: { script: string; satoshis: number }[], signer = payer) {
    const { source, vout } = await coin(20_000, true);
    const tx = new Transaction();
    tx.addInput({ sourceTransaction: source, sourceOutputIndex: vout, unlockingScriptTemplate: new P2PKH().unlock(signer) });
    for (const o of outputs) tx.addOutput({ lockingScript: LockingScript.fromHex(o.script), satoshis: o.satoshis });
    tx.addOutput({ lockingScript: new P2PKH().lock(payer.toAddress()), change: true });
    await tx.fee(new SatoshisPerKilobyte(1));
    await tx.sign();
    return tx;
  }

  async function destination(satoshis: number) {
    const r = await requestAs('pay.acme.test', pub, 'POST', `/api/bsvalias/p2p-payment-destination/${handle}`, { body: { satoshis } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body as { outputs: { script: string; satoshis: number }[]; reference: string };
  }

  before(async () => {
    const port = await freePort();
    pub = `http://127.0.0.1:${port}`;
    org = await setUpOrg(
      await startHeadless({
        dataDir: tempDir(),
        password: 'pw',
        args: ['--mine-interval', '0', '--paymail-domain', 'acme.test', '--paymail-listen', `127.0.0.1:${port}`],
      }),
    );
    walletID = await createOrgWallet(org, { walletTitle: 'Shop', paymail: 'shop', paymailActivate: true });
  });
  after(() => org.host.stop());

  it('answers capability discovery for a foreign Host on the second listener, and the first still refuses it', async () => {
    const caps = await requestAs('pay.acme.test', pub, 'GET', '/.well-known/bsvalias', { headers: { 'x-forwarded-proto': 'https' } });
    assert.equal(caps.status, 200);
    assert.equal(caps.body.capabilities['5f1323cddf31'], 'https://pay.acme.test/api/bsvalias/receive-transaction/{alias}@{domain.tld}');
    assert.equal(caps.body.capabilities['5c55a7fdb7bb'], 'https://pay.acme.test/api/bsvalias/beef/{alias}@{domain.tld}');
    const pki = await requestAs('pay.acme.test', pub, 'GET', `/api/bsvalias/id/${handle}`);
    assert.match(pki.body.pubkey, /^0[23][0-9a-f]{64}$/);
    const profile = await requestAs('pay.acme.test', pub, 'GET', `/api/bsvalias/public-profile/${handle}`);
    assert.deepEqual(profile.body, { avatar: null, name: 'Shop' });

    const first = await requestAs('pay.acme.test', org.host.url, 'GET', '/.well-known/bsvalias');
    assert.equal(first.status, 403);
    assert.equal(first.body.data.code, 'HOST_FORBIDDEN');
  });

  it('serves nothing but paymail: no API, no UI, no chain routes', async () => {
    for (const [method, path] of [
      ['GET', '/v1/wallets'],
      ['POST', '/api/v1/login'],
      ['GET', '/openapi.json'],
      ['GET', '/'],
      ['POST', '/chain/faucet'],
      ['GET', '/v1/events'],
    ] as const) {
      const r = await requestAs('pay.acme.test', pub, method, path, {
        headers: { authToken: org.auth.authToken },
        ...(method === 'POST' ? { body: {} } : {}),
      });
      assert.equal(r.status, 404, `${method} ${path}`);
      assert.equal(r.body.code, 'not-found');
    }
  });

  it('accepts a payment delivered as BEEF after checking it by SPV, and records who signed for it', async () => {
    const dest = await destination(7_000);
    const tx = await paying(dest.outputs);
    const txid = tx.id('hex');
    const signature = BSM.sign(Utils.toArray(txid, 'utf8'), payer, 'base64') as string;
    const r = await requestAs('pay.acme.test', pub, 'POST', `/api/bsvalias/beef/${handle}`, {
      body: {
        beef: tx.toHexBEEF(),
        reference: dest.reference,
        metadata: { sender: 'someone@elsewhere.invalid', pubkey: payer.toPublicKey().toString(), signature, note: 'Order 12' },
      },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.txid, txid);
    const history = await orgCall(org, 'GET', '/v1/history', { headers: { walletID } });
    const row = history.body.data.history.find((h: { txid: string }) => h.txid === txid);
    assert.equal(row.amount, 7_000);
    assert.equal(row.memo, 'Order 12');
    assert.match(
      row.counterparty,
      /^someone@elsewhere\.invalid \(unverified/,
      'a sender whose host cannot confirm the key is not taken at its word',
    );
  });

  it('refuses a BEEF that does not verify, and a sender signature that does not sign the txid', async () => {
    const dest = await destination(3_000);
    const forged = await paying(dest.outputs, PrivateKey.fromRandom()); // signed by a key that does not own the coin
    const bad = await requestAs('pay.acme.test', pub, 'POST', `/api/bsvalias/beef/${handle}`, {
      body: { beef: forged.toHexBEEF(), reference: dest.reference },
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 'bad-beef');
    const garbage = await requestAs('pay.acme.test', pub, 'POST', `/api/bsvalias/beef/${handle}`, {
      body: { beef: '0100beef00', reference: dest.reference },
    });
    assert.equal(garbage.body.code, 'bad-beef');

    const tx = await paying(dest.outputs);
    const wrong = BSM.sign(Utils.toArray('not the txid', 'utf8'), payer, 'base64') as string;
    const unsigned = await requestAs('pay.acme.test', pub, 'POST', `/api/bsvalias/receive-transaction/${handle}`, {
      body: {
        hex: tx.toHex(),
        reference: dest.reference,
        metadata: { sender: 'x@y.invalid', pubkey: payer.toPublicKey().toString(), signature: wrong },
      },
    });
    assert.equal(unsigned.status, 400);
    assert.equal(unsigned.body.code, 'bad-signature');
    const history = await orgCall(org, 'GET', '/v1/history', { headers: { walletID } });
    assert.ok(
      !history.body.data.history.some((h: { txid: string }) => h.txid === tx.id('hex') || h.txid === forged.id('hex')),
      'nothing refused was booked',
    );
  });
});
