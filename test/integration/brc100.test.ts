import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Hash, HD, HTTPWalletJSON, Mnemonic, ProtoWallet, PrivateKey, Utils, WalletClient, type WalletProtocol } from '@bsv/sdk';
import { startHeadless, type Headless } from '../helpers/headless.js';
import { request } from '../helpers/http.js';
import { createOrgWallet, orgCall, setUpOrg, type Org } from '../helpers/org.js';
import { tempDir } from '../helpers/tmp.js';
import { untilValue } from '../helpers/until.js';
import { messageOf } from '../helpers/brc100.js';

const PHRASE = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const OTHER_PHRASE = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
/** The documented derivation (README, main/engine/apps/root-key.ts): `<account>/3'`, computed here with @bsv/sdk alone. */
const rootOf = (phrase: string) => HD.fromSeed(Mnemonic.fromString(phrase).toSeed()).derive("m/44'/236'/0'/3'").privKey;

const PROTOCOL: WalletProtocol = [2, 'keystead tests'];

async function listApps(org: Org) {
  const r = await orgCall(org, 'GET', '/api/v1/apps');
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.data as {
    apps: { originator: string; state: string; walletId: string | null; calls: number; decidedBy: string | null }[];
    listening: string | null;
    defaultWalletId: string | null;
  };
}

const decide = (org: Org, body: object) => orgCall(org, 'POST', '/api/v1/apps/decide', { body });

/** Grants app.example a level-2 protocol for every counterparty (permissions are tested in brc100-permissions.test.ts). */
async function grantProtocol(org: Org, protocol: string): Promise<void> {
  const body = { originator: 'app.example', kind: 'protocol', securityLevel: 2, protocol, counterparty: '*' };
  const r = await orgCall(org, 'POST', '/api/v1/apps/permissions', { body });
  assert.equal(r.status, 200, JSON.stringify(r.body));
}

describe('BRC-100 apps over the listener, driven by @bsv/sdk WalletClient', () => {
  let host: Headless;
  let org: Org;
  let base: string;
  let walletId: string;
  const root = rootOf(PHRASE);
  const reference = new ProtoWallet(root);
  const client = (originator: string) => new WalletClient(new HTTPWalletJSON(originator, base), originator);

  before(async () => {
    host = await startHeadless({ dataDir: tempDir(), password: 'pw', args: ['--brc100-listen', '127.0.0.1:0', '--brc100-wait', '120'] });
    org = await setUpOrg(host);
    walletId = await createOrgWallet(org, { walletTitle: 'Apps', mnemonicPhrase: PHRASE });
    const listed = await listApps(org);
    assert.match(listed.listening ?? '', /^127\.0\.0\.1:\d+$/);
    base = `http://${listed.listening}`;
  });
  after(() => host.stop());

  it('holds a new app pending until an admin allows it, then answers with the mapped wallet', async () => {
    const app = client('app.example');
    assert.deepEqual(await app.isAuthenticated({}), { authenticated: false });
    const first = app.getPublicKey({ identityKey: true });
    const pending = await untilValue(
      'the app to be pending',
      () => listApps(org),
      (l) => l.apps.some((a) => a.originator === 'app.example' && a.state === 'pending'),
    );
    assert.equal(pending.apps[0].originator, 'app.example');
    const allowed = await decide(org, { originator: 'app.example', allow: true, walletId });
    assert.equal(allowed.status, 200, JSON.stringify(allowed.body));
    assert.equal(allowed.body.data.state, 'allowed');
    assert.equal(allowed.body.data.decidedBy, 'ada@acme.io');
    assert.deepEqual(await first, { publicKey: root.toPublicKey().toString() });
    await grantProtocol(org, PROTOCOL[1]);
    await grantProtocol(org, `specific key linkage revelation ${PROTOCOL[0]} ${PROTOCOL[1]}`);
    assert.deepEqual(await app.isAuthenticated({}), { authenticated: true });
    assert.deepEqual(await app.waitForAuthentication({}), { authenticated: true });
    const listed = await listApps(org);
    const row = listed.apps.find((a) => a.originator === 'app.example')!;
    assert.equal(row.walletId, walletId);
    assert.ok(row.calls >= 2, JSON.stringify(row));
  });

  it('derives BRC-42/43 keys as ProtoWallet does from the same root key', async () => {
    const app = client('app.example');
    const counterparty = PrivateKey.fromRandom().toPublicKey().toString();
    for (const args of [
      { protocolID: PROTOCOL, keyID: '1' },
      { protocolID: PROTOCOL, keyID: '1', counterparty },
      { protocolID: PROTOCOL, keyID: '7', counterparty, forSelf: true },
      { protocolID: [0, 'open protocol here'] as WalletProtocol, keyID: 'x', counterparty: 'anyone' as const },
    ]) {
      assert.deepEqual(await app.getPublicKey(args), await reference.getPublicKey(args), JSON.stringify(args));
    }
    assert.notEqual(
      (await app.getPublicKey({ protocolID: PROTOCOL, keyID: '1' })).publicKey,
      (await new ProtoWallet(rootOf(OTHER_PHRASE)).getPublicKey({ protocolID: PROTOCOL, keyID: '1' })).publicKey,
    );
  });

  it('encrypts, decrypts, makes and checks HMACs and signatures both ways with ProtoWallet', async () => {
    const app = client('app.example');
    const me = (await app.getPublicKey({ identityKey: true })).publicKey;
    const peerKey = PrivateKey.fromRandom();
    const peer = new ProtoWallet(peerKey);
    const peerPub = peerKey.toPublicKey().toString();
    const plaintext = Utils.toArray('a message for the peer', 'utf8');
    const spec = { protocolID: PROTOCOL, keyID: 'k1' };

    const { ciphertext } = await app.encrypt({ ...spec, counterparty: peerPub, plaintext });
    assert.deepEqual((await peer.decrypt({ ...spec, counterparty: me, ciphertext })).plaintext, plaintext);
    const back = await peer.encrypt({ ...spec, counterparty: me, plaintext });
    assert.deepEqual((await app.decrypt({ ...spec, counterparty: peerPub, ciphertext: back.ciphertext })).plaintext, plaintext);

    const { hmac } = await app.createHmac({ ...spec, counterparty: peerPub, data: plaintext });
    assert.deepEqual(await peer.verifyHmac({ ...spec, counterparty: me, data: plaintext, hmac }), { valid: true });
    const peerHmac = await peer.createHmac({ ...spec, counterparty: me, data: plaintext });
    assert.deepEqual(await app.verifyHmac({ ...spec, counterparty: peerPub, data: plaintext, hmac: peerHmac.hmac }), { valid: true });
    await assert.rejects(app.verifyHmac({ ...spec, counterparty: peerPub, data: [1, 2, 3], hmac: peerHmac.hmac }), (e) =>
      /HMAC is not valid/.test(messageOf(e)),
    );

    const { signature } = await app.createSignature({ ...spec, counterparty: peerPub, data: plaintext });
    assert.deepEqual(await peer.verifySignature({ ...spec, counterparty: me, data: plaintext, signature }), { valid: true });
    const peerSig = await peer.createSignature({ ...spec, counterparty: me, data: plaintext });
    assert.deepEqual(await app.verifySignature({ ...spec, counterparty: peerPub, data: plaintext, signature: peerSig.signature }), {
      valid: true,
    });
    await assert.rejects(app.verifySignature({ ...spec, counterparty: peerPub, data: [9], signature: peerSig.signature }), (e) =>
      /Signature is not valid/.test(messageOf(e)),
    );

    // Linkage revelations decrypt, for the verifier, to what ProtoWallet reveals.
    const verifierKey = PrivateKey.fromRandom();
    const verifier = new ProtoWallet(verifierKey);
    const specific = await app.revealSpecificKeyLinkage({ ...spec, counterparty: peerPub, verifier: verifierKey.toPublicKey().toString() });
    const expected = await reference.revealSpecificKeyLinkage({
      ...spec,
      counterparty: peerPub,
      verifier: verifierKey.toPublicKey().toString(),
    });
    const open = (r: typeof specific) =>
      verifier.decrypt({
        protocolID: [2, `specific linkage revelation ${r.protocolID[0]} ${r.protocolID[1]}`],
        keyID: r.keyID,
        counterparty: r.prover,
        ciphertext: r.encryptedLinkage,
      });
    assert.deepEqual((await open(specific)).plaintext, (await open(expected)).plaintext);
    await grantProtocol(org, `counterparty key linkage revelation ${peerPub}`);
    const counterpartyLinkage = await app.revealCounterpartyKeyLinkage({
      counterparty: peerPub,
      verifier: verifierKey.toPublicKey().toString(),
    });
    assert.equal(counterpartyLinkage.prover, me);

    // What revealed key material is in the audit trail with the app that asked.
    const audit = await orgCall(org, 'GET', '/api/v1/audit?limit=50');
    const actions = JSON.stringify(audit.body);
    for (const action of [
      'brc100.revealSpecificKeyLinkage',
      'brc100.revealCounterpartyKeyLinkage',
      'brc100.createSignature',
      'brc100.decrypt',
    ]) {
      assert.ok(actions.includes(action), `${action} not audited: ${actions.slice(0, 500)}`);
    }
    assert.ok(actions.includes('app app.example'), actions.slice(0, 500));
  });

  it('answers WERR_INVALID_PARAMETER for a bad argument, naming it, before anything else', async () => {
    const app = client('app.example');
    await assert.rejects(
      app.getPublicKey({ protocolID: [7 as 2, 'keystead tests'], keyID: '1' }),
      (e: Error & { code?: number; parameter?: string }) => {
        assert.equal(e.name, 'WERR_INVALID_PARAMETER');
        assert.equal(e.code, 6);
        assert.equal(e.parameter, 'protocolID');
        return true;
      },
    );
    await assert.rejects(app.encrypt({ protocolID: PROTOCOL, keyID: '', plaintext: [1] }), (e: Error & { parameter?: string }) => {
      assert.equal(e.parameter, 'keyID');
      return true;
    });
    await assert.rejects(
      app.getPublicKey({ identityKey: true, privileged: true, privilegedReason: 'why' }),
      (e: Error & { parameter?: string }) => e.parameter === 'privilegedReason',
    );
    const raw = await request(base, 'POST', '/listActions', { body: { labels: [], limit: 0 }, headers: { origin: 'https://app.example' } });
    assert.equal(raw.status, 400);
    assert.equal(raw.body.isError, true);
    assert.equal(raw.body.name, 'WERR_INVALID_PARAMETER');
    assert.equal(raw.body.parameter, 'limit');
  });

  it('answers the chain: height, 80-byte headers, network and version', async () => {
    const app = client('app.example');
    const mined = await orgCall(org, 'POST', '/chain/mine', { body: { blocks: 2 } });
    assert.equal(mined.status, 200, JSON.stringify(mined.body));
    const { height } = await app.getHeight({});
    assert.ok(height >= mined.body.data.height, `${height} < ${mined.body.data.height}`);
    const { header } = await app.getHeaderForHeight({ height: mined.body.data.height });
    assert.equal(header.length, 160);
    assert.equal(Utils.toHex(Hash.hash256(Utils.toArray(header, 'hex')).reverse()), mined.body.data.hash);
    await assert.rejects(
      app.getHeaderForHeight({ height: height + 1000 }),
      (e: Error & { parameter?: string }) => e.parameter === 'height',
    );
    assert.deepEqual(await app.getNetwork({}), { network: 'testnet' });
    assert.match((await app.getVersion({})).version, /^keystead-/);
  });

  it('refuses denied and revoked apps at once, and mismatched or missing originators', async () => {
    assert.equal((await decide(org, { originator: 'denied.example', allow: false })).status, 200);
    await assert.rejects(client('denied.example').getPublicKey({ identityKey: true }), (e) => /denied/.test(messageOf(e)));
    assert.deepEqual(await client('denied.example').isAuthenticated({}), { authenticated: false });

    assert.equal((await decide(org, { originator: 'revoked.example:8080', allow: true, walletId })).status, 200);
    const revokedApp = client('revoked.example:8080');
    assert.deepEqual(await revokedApp.getPublicKey({ identityKey: true }), { publicKey: root.toPublicKey().toString() });
    const revoked = await orgCall(org, 'POST', '/api/v1/apps/revoke', { body: { originator: 'revoked.example:8080' } });
    assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
    assert.equal(revoked.body.data.state, 'revoked');
    await assert.rejects(revokedApp.getPublicKey({ identityKey: true }), (e) => /revoked/.test(messageOf(e)));

    const mismatched = await request(base, 'POST', '/getPublicKey', {
      body: { identityKey: true },
      headers: { origin: 'https://evil.example', originator: 'app.example' },
    });
    assert.equal(mismatched.status, 400);
    assert.equal(mismatched.body.isError, true);
    assert.match(mismatched.body.message, /different apps/);
    // A browser page over plain HTTP (anyone on the network path can write one) never passes for the HTTPS app
    // of its host; the browser marks its request (Sec-Fetch-Site), which the page cannot remove.
    for (const origin of ['http://app.example', 'http://app.example:80']) {
      for (const site of ['cross-site', 'same-site', 'none']) {
        const plain = await request(base, 'POST', '/getPublicKey', {
          body: { identityKey: true },
          headers: { origin, 'sec-fetch-site': site },
        });
        assert.equal(plain.status, 400, `${origin} ${site}`);
        assert.match(plain.body.message, /plain-HTTP page/, origin);
      }
    }
    const secure = await request(base, 'POST', '/getPublicKey', {
      body: { identityKey: true },
      headers: { origin: 'https://app.example', 'sec-fetch-site': 'cross-site' },
    });
    assert.equal(secure.status, 200, JSON.stringify(secure.body));
    // A sandboxed or file:// page sends `Origin: null`: it may not claim an allowed app through Originator.
    const sandboxed = await request(base, 'POST', '/getPublicKey', {
      body: { identityKey: true },
      headers: { origin: 'null', originator: 'app.example' },
    });
    assert.equal(sandboxed.status, 400);
    assert.equal(sandboxed.body.isError, true);
    assert.equal(sandboxed.body.publicKey, undefined);
    const anonymous = await request(base, 'POST', '/getPublicKey', { body: { identityKey: true } });
    assert.equal(anonymous.status, 400);
    assert.match(anonymous.body.message, /Origin or Originator/);
  });

  it('answers a browser preflight and names the origin it answers', async () => {
    const pre = await fetch(`${base}/getPublicKey`, {
      method: 'OPTIONS',
      headers: { origin: 'http://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    assert.equal(pre.status, 204);
    assert.equal(pre.headers.get('access-control-allow-origin'), 'http://app.example');
    assert.match(pre.headers.get('access-control-allow-headers') ?? '', /content-type/);
  });

  it('keeps the apps operations for admins and managers, and checks the wallet named', async () => {
    const unknown = await decide(org, { originator: 'x.example', allow: true, walletId: 'no-such-wallet' });
    assert.equal(unknown.status, 404, JSON.stringify(unknown.body));
    const set = await orgCall(org, 'PUT', '/api/v1/apps/default-wallet', { body: { walletId } });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.equal((await listApps(org)).defaultWalletId, walletId);
    // Allowed without a wallet of its own: the default wallet for apps answers.
    assert.equal((await decide(org, { originator: 'plain.example', allow: true })).status, 200);
    assert.deepEqual(await client('plain.example').getPublicKey({ identityKey: true }), { publicKey: root.toPublicKey().toString() });
    // A secure wallet's keys open only with its password, which BRC-100 cannot send: refused, never asked for.
    const secure = await createOrgWallet(org, { walletTitle: 'Vault', type: 'secure', walletPassword: 'vault-password-1' });
    assert.equal((await decide(org, { originator: 'secure.example', allow: true, walletId: secure })).status, 200);
    await assert.rejects(client('secure.example').getPublicKey({ identityKey: true }), (e) => /secure wallet/.test(messageOf(e)));
    const anonymous = await request(host.url, 'GET', '/api/v1/apps', { headers: { serviceid: org.serviceid } });
    assert.equal(anonymous.status, 401);
  });
});

describe('BRC-100: an app nobody decides about', () => {
  let host: Headless;
  let base: string;

  before(async () => {
    host = await startHeadless({ dataDir: tempDir(), password: 'pw', args: ['--brc100-listen', '127.0.0.1:0', '--brc100-wait', '1'] });
    const org = await setUpOrg(host);
    base = `http://${(await listApps(org)).listening}`;
  });
  after(() => host.stop());

  it('is refused when its wait expires, and stays pending', async () => {
    const app = new WalletClient(new HTTPWalletJSON('slow.example', base), 'slow.example');
    await assert.rejects(app.getPublicKey({ identityKey: true }), (e) => /not been allowed yet/.test(messageOf(e)));
    assert.deepEqual(await app.isAuthenticated({}), { authenticated: false });
  });
});
