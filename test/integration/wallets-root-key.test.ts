import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HTTPWalletJSON, PrivateKey, ProtoWallet, WalletClient, type WalletProtocol } from '@bsv/sdk';
import { startHeadless, type Headless } from '../helpers/headless.js';
import { ADMIN, request } from '../helpers/http.js';
import { createOrgWallet, orgCall, setUpOrg, type Org } from '../helpers/org.js';
import { tempDir } from '../helpers/tmp.js';
import { untilValue } from '../helpers/until.js';

/** A key as a BRC-100 wallet elsewhere would hold it; the app-side oracle is @bsv/sdk's ProtoWallet over it. */
const ROOT = PrivateKey.fromRandom();
const ROOT_HEX = ROOT.toHex().padStart(64, '0');
const PROTOCOL: WalletProtocol = [2, 'keystead root key tests'];

const balanceOf = async (o: Org, walletID: string) => {
  const w = (await orgCall(o, 'GET', '/v1/wallets')).body.data.wallets.find((x: { walletID: string }) => x.walletID === walletID);
  return w.balance.confirmed + w.balance.unconfirmed;
};

describe('a wallet created from a BRC-100 root key, over the API and the BRC-100 listener', () => {
  let host: Headless;
  let org: Org;
  let walletId: string;
  let base: string;

  before(async () => {
    host = await startHeadless({ dataDir: tempDir(), password: 'pw', args: ['--brc100-listen', '127.0.0.1:0', '--brc100-wait', '120'] });
    org = await setUpOrg(host);
    walletId = await createOrgWallet(org, { walletTitle: 'Imported root', rootKey: ROOT.toWif() });
    const apps = await orgCall(org, 'GET', '/api/v1/apps');
    assert.equal(apps.status, 200, JSON.stringify(apps.body));
    base = `http://${apps.body.data.listening}`;
  });
  after(() => host.stop());

  it('refuses keys that are not private keys with 400 and a code', async () => {
    const wif = ROOT.toWif();
    const badChecksum = wif.slice(0, -1) + (wif.endsWith('x') ? 'y' : 'x');
    for (const rootKey of ['00'.repeat(32), 'not a key', `${ROOT_HEX}ff`, badChecksum]) {
      const r = await orgCall(org, 'POST', '/v1/createWallet', { body: { walletTitle: 'Bad', rootKey } });
      assert.equal(r.status, 400, JSON.stringify(r.body));
      assert.equal(r.body.data.code, 'VALIDATION_FAILED');
      assert.match(r.body.data.msg ?? r.body.data.message ?? JSON.stringify(r.body), /rootKey/);
      assert.ok(!JSON.stringify(r.body).includes(ROOT_HEX), 'the key is never echoed');
    }
    const both = await orgCall(org, 'POST', '/v1/createWallet', {
      body: {
        walletTitle: 'Both',
        rootKey: ROOT_HEX,
        mnemonicPhrase: 'legal winner thank year wave sausage worth useful legal winner thank yellow',
      },
    });
    assert.deepEqual([both.status, both.body.data.code], [400, 'VALIDATION_FAILED']);
  });

  it('answers WalletClient with that key: identity key and BRC-42 derivations as ProtoWallet computes them', async () => {
    const app = new WalletClient(new HTTPWalletJSON('rootkey.example', base), 'rootkey.example');
    const first = app.getPublicKey({ identityKey: true });
    await untilValue(
      'the app to be pending',
      () => orgCall(org, 'GET', '/api/v1/apps'),
      (r) =>
        (r.body.data.apps as { originator: string; state: string }[]).some(
          (a) => a.originator === 'rootkey.example' && a.state === 'pending',
        ),
    );
    const allowed = await orgCall(org, 'POST', '/api/v1/apps/decide', { body: { originator: 'rootkey.example', allow: true, walletId } });
    assert.equal(allowed.status, 200, JSON.stringify(allowed.body));
    assert.deepEqual(await first, { publicKey: ROOT.toPublicKey().toString() });
    // Keys of a protocol need its grant (permissions are tested in brc100-permissions.test.ts).
    const grant = await orgCall(org, 'POST', '/api/v1/apps/permissions', {
      body: { originator: 'rootkey.example', kind: 'protocol', securityLevel: 2, protocol: PROTOCOL[1], counterparty: '*' },
    });
    assert.equal(grant.status, 200, JSON.stringify(grant.body));
    const reference = new ProtoWallet(ROOT);
    const counterparty = PrivateKey.fromRandom().toPublicKey().toString();
    for (const args of [
      { protocolID: PROTOCOL, keyID: '1' },
      { protocolID: PROTOCOL, keyID: '2', counterparty },
      { protocolID: PROTOCOL, keyID: '3', counterparty, forSelf: true },
    ]) {
      assert.deepEqual(await app.getPublicKey(args), await reference.getPublicKey(args), JSON.stringify(args));
    }
  });

  it('receives and pays on the local chain like any wallet, and backs up as its root key', async () => {
    const funded = await orgCall(org, 'POST', '/chain/faucet', { body: { walletId, satoshis: 100_000 } });
    assert.equal(funded.status, 200, JSON.stringify(funded.body));
    assert.equal(await balanceOf(org, walletId), 100_000);
    const to = PrivateKey.fromRandom().toAddress();
    const sent = await orgCall(org, 'POST', '/v1/send', { body: { dataArray: [{ to, amount: 0.0002 }] }, headers: { walletID: walletId } });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const [txid] = sent.body.data.txIds;
    const onChain = await request(host.url, 'GET', `/chain/woc/v1/bsv/local/address/${to}/unspent`);
    assert.deepEqual(
      (onChain.body as { tx_hash: string; value: number }[]).map((u) => [u.tx_hash, u.value]),
      [[txid, 20_000]],
    );
    const left = await balanceOf(org, walletId);
    assert.ok(left < 80_000 && left > 79_000, `change came back: ${left}`);

    const backup = await orgCall(org, 'GET', '/v1/mnemonic', { headers: { walletID: walletId, password: ADMIN.password } });
    assert.equal(backup.status, 200, JSON.stringify(backup.body));
    assert.equal(backup.body.data.rootKey, ROOT_HEX);
    assert.equal(backup.body.data.mnemonic, undefined);
    assert.ok(!host.stderr().includes(ROOT_HEX) && !host.stderr().includes(ROOT.toWif()), 'the key is never logged');
  });
});
