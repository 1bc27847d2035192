import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  Certificate,
  createNonce,
  HD,
  HTTPWalletJSON,
  MasterCertificate,
  Mnemonic,
  Peer,
  PrivateKey,
  ProtoWallet,
  Random,
  Utils,
  VerifiableCertificate,
  verifyNonce,
  WalletClient,
  type AuthMessage,
  type Transport,
  type WalletInterface,
} from '@bsv/sdk';
import { startHeadless, type Headless } from '../helpers/headless.js';
import { createOrgWallet, orgCall, setUpOrg, type Org } from '../helpers/org.js';
import { tempDir } from '../helpers/tmp.js';
import { messageOf } from '../helpers/brc100.js';

const PHRASE = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
/** The wallet's BRC-100 root key as README documents it (`<account>/3'`), computed with @bsv/sdk alone. */
const root = HD.fromSeed(Mnemonic.fromString(PHRASE).toSeed()).derive("m/44'/236'/0'/3'").privKey;
const SUBJECT = root.toPublicKey().toString();
const TYPE = Utils.toBase64(Array.from({ length: 32 }, (_, i) => i + 1));
const OTHER_TYPE = Utils.toBase64(Array.from({ length: 32 }, (_, i) => 200 - i));
const DENIED_TYPE = Utils.toBase64(Array.from({ length: 32 }, () => 7));
const OUTPOINT = `${'ab'.repeat(32)}.0`;
const FIELDS = { name: 'Ada Lovelace', email: 'ada@acme.io', country: 'UK' };

const certifierKey = PrivateKey.fromRandom();
const certifier = new ProtoWallet(certifierKey);
const CERTIFIER = certifierKey.toPublicKey().toString();

const issue = (subject: string, fields: Record<string, string> = FIELDS, type = TYPE, by: ProtoWallet = certifier) =>
  MasterCertificate.issueCertificateForSubject(by, subject, fields, type, async () => OUTPOINT);

/** The arguments of a direct acquisition of `cert`, as an app hands it over. */
const direct = (cert: MasterCertificate) => ({
  acquisitionProtocol: 'direct' as const,
  type: cert.type,
  certifier: cert.certifier,
  serialNumber: cert.serialNumber,
  revocationOutpoint: cert.revocationOutpoint,
  signature: cert.signature!,
  fields: cert.fields,
  keyringRevealer: 'certifier' as const,
  keyringForSubject: cert.masterKeyring,
});

const refusedAsArgs = (e: unknown) => {
  const err = e as { name: string; parameter?: string; message: string };
  assert.equal(err.name, 'WERR_INVALID_PARAMETER', err.message);
  assert.equal(err.parameter, 'args', err.message);
  assert.match(err.message, /valid encrypted and signed certificate and keyring from revealer/);
  return true;
};

type Mode = 'honest' | 'wrong-subject' | 'tampered-field' | 'bad-serial' | 'unsigned' | 'oversized';

/**
 * A certifier written from BRC-52/103/104 for the test: BRC-103 mutual authentication over HTTP (handshake
 * on POST /.well-known/auth, then general messages carried by x-bsv-auth-* headers, each signed), and
 * POST /signCertificate that checks the wallet's nonce, opens the fields with its key, and signs a
 * certificate whose serial number is its HMAC of both nonces. `mode` makes it answer in hostile ways.
 */
class TestCertifier implements Transport {
  mode: Mode = 'honest';
  /** The field values it read from the last request (the certifier can read them: they were encrypted for it). */
  seen: Record<string, string> | null = null;
  private handle?: (m: AuthMessage) => Promise<void>;
  private readonly pendingAuth = new Map<string, http.ServerResponse>();
  private readonly pendingGeneral = new Map<string, http.ServerResponse>();
  readonly server = http.createServer((req, res) => void this.serve(req, res));
  private readonly peer: Peer;

  constructor(private readonly wallet: ProtoWallet) {
    this.peer = new Peer(wallet as unknown as WalletInterface, this);
    this.peer.listenForGeneralMessages((sender, payload) => void this.general(sender, payload));
  }

  async onData(callback: (m: AuthMessage) => Promise<void>): Promise<void> {
    this.handle = callback;
  }

  async send(m: AuthMessage): Promise<void> {
    if (m.messageType !== 'general') {
      const res = this.pendingAuth.get(m.yourNonce!);
      this.pendingAuth.delete(m.yourNonce!);
      res?.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(m));
      return;
    }
    const r = new Utils.Reader(m.payload);
    const requestId = Utils.toBase64(r.read(32));
    const status = r.readVarIntNum();
    r.readVarIntNum(); // no x-bsv headers of its own
    const body = r.read(r.readVarIntNum());
    const res = this.pendingGeneral.get(requestId)!;
    this.pendingGeneral.delete(requestId);
    res
      .writeHead(status, {
        'content-type': 'application/json',
        'x-bsv-auth-version': m.version,
        'x-bsv-auth-identity-key': m.identityKey,
        'x-bsv-auth-message-type': 'general',
        'x-bsv-auth-nonce': m.nonce!,
        'x-bsv-auth-your-nonce': m.yourNonce!,
        'x-bsv-auth-signature': Utils.toHex(m.signature!),
        'x-bsv-auth-request-id': requestId,
      })
      .end(Buffer.from(body));
  }

  private async serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url!, 'http://certifier');
    if (url.pathname === '/.well-known/auth') {
      const m = JSON.parse(body.toString('utf8')) as AuthMessage;
      this.pendingAuth.set(m.initialNonce!, res);
      await this.handle!(m);
      return;
    }
    // A general message: the request as the client signed it (BRC-104), rebuilt from the HTTP request.
    const h = (name: string) => String(req.headers[name] ?? '');
    const requestId = h('x-bsv-auth-request-id');
    const w = new Utils.Writer();
    w.write(Utils.toArray(requestId, 'base64'));
    const method = Utils.toArray(req.method!, 'utf8');
    w.writeVarIntNum(method.length);
    w.write(method);
    const pathBytes = Utils.toArray(url.pathname, 'utf8');
    w.writeVarIntNum(pathBytes.length);
    w.write(pathBytes);
    if (url.search) {
      const s = Utils.toArray(url.search, 'utf8');
      w.writeVarIntNum(s.length);
      w.write(s);
    } else w.writeVarIntNum(-1);
    const signed: [string, string][] = [];
    for (const [k, v] of Object.entries(req.headers)) {
      if (typeof v !== 'string') continue;
      if ((k.startsWith('x-bsv-') && !k.startsWith('x-bsv-auth')) || k === 'authorization') signed.push([k, v]);
      else if (k === 'content-type') signed.push([k, v.split(';')[0].trim()]);
    }
    signed.sort(([a], [b]) => a.localeCompare(b));
    w.writeVarIntNum(signed.length);
    for (const [k, v] of signed) {
      for (const part of [Utils.toArray(k, 'utf8'), Utils.toArray(v, 'utf8')]) {
        w.writeVarIntNum(part.length);
        w.write(part);
      }
    }
    if (body.length > 0) {
      w.writeVarIntNum(body.length);
      w.write(Array.from(body));
    } else w.writeVarIntNum(-1);
    this.pendingGeneral.set(requestId, res);
    await this.handle!({
      version: h('x-bsv-auth-version'),
      messageType: 'general',
      identityKey: h('x-bsv-auth-identity-key'),
      nonce: h('x-bsv-auth-nonce'),
      yourNonce: h('x-bsv-auth-your-nonce'),
      payload: w.toArray(),
      signature: Utils.toArray(h('x-bsv-auth-signature'), 'hex'),
    });
  }

  private async general(subject: string, payload: number[]): Promise<void> {
    const r = new Utils.Reader(payload);
    const requestId = r.read(32);
    Utils.toUTF8(r.read(r.readVarIntNum()));
    Utils.toUTF8(r.read(r.readVarIntNum()));
    r.readVarIntNum(); // no search
    const n = r.readVarIntNum();
    for (let i = 0; i < n; i++) {
      r.read(r.readVarIntNum());
      r.read(r.readVarIntNum());
    }
    const req = JSON.parse(Utils.toUTF8(r.read(r.readVarIntNum()))) as {
      clientNonce: string;
      type: string;
      fields: Record<string, string>;
      masterKeyring: Record<string, string>;
    };
    // A request it cannot honour (a nonce not made for it) is answered 400, signed like any answer.
    const answer = await this.sign(subject, req).then(
      (a) => ({ status: 200, a }),
      (e: Error) => ({ status: 400, a: { status: 'error', description: e.message } }),
    );
    const body = Utils.toArray(JSON.stringify(answer.a), 'utf8');
    const w = new Utils.Writer();
    w.write(requestId);
    w.writeVarIntNum(answer.status);
    w.writeVarIntNum(0);
    w.writeVarIntNum(body.length);
    w.write(body);
    await this.peer.toPeer(w.toArray(), subject);
  }

  private async sign(
    subject: string,
    req: { clientNonce: string; type: string; fields: Record<string, string>; masterKeyring: Record<string, string> },
  ): Promise<unknown> {
    if (!(await verifyNonce(req.clientNonce, this.wallet as unknown as WalletInterface, subject).catch(() => false)))
      throw new Error('the client nonce was not made for this certifier');
    this.seen = await MasterCertificate.decryptFields(this.wallet, req.masterKeyring, req.fields, subject);
    const serverNonce = await createNonce(this.wallet as unknown as WalletInterface, subject);
    const { hmac } = await this.wallet.createHmac({
      data: Utils.toArray(req.clientNonce + serverNonce, 'base64'),
      protocolID: [2, 'certificate issuance'],
      keyID: serverNonce + req.clientNonce,
      counterparty: subject,
    });
    const serial = this.mode === 'bad-serial' ? Utils.toBase64(Random(32)) : Utils.toBase64(hmac);
    const who = this.mode === 'wrong-subject' ? PrivateKey.fromRandom().toPublicKey().toString() : subject;
    const fields = this.mode === 'tampered-field' ? { ...req.fields, name: req.fields.email } : req.fields;
    const cert = new Certificate(req.type, serial, who, CERTIFIER, OUTPOINT, fields);
    if (this.mode === 'unsigned') cert.signature = '30' + '06020101020101';
    else await cert.sign(this.wallet);
    // A signed answer past the 1 MiB cap of a certificate answer.
    if (this.mode === 'oversized') return { certificate: cert, serverNonce, padding: 'x'.repeat(1024 * 1024 + 1) };
    return { certificate: cert, serverNonce };
  }
}

describe('BRC-100 certificates (BRC-52) over the listener, driven by @bsv/sdk WalletClient', () => {
  let host: Headless;
  let org: Org;
  let base: string;
  let app: WalletClient;
  const testCertifier = new TestCertifier(certifier);
  let certifierUrl: string;

  before(async () => {
    host = await startHeadless({ dataDir: tempDir(), password: 'pw', args: ['--brc100-listen', '127.0.0.1:0', '--brc100-wait', '120'] });
    org = await setUpOrg(host);
    const walletId = await createOrgWallet(org, { walletTitle: 'Identity', mnemonicPhrase: PHRASE });
    const listed = await orgCall(org, 'GET', '/api/v1/apps');
    base = `http://${listed.body.data.listening}`;
    const allowed = await orgCall(org, 'POST', '/api/v1/apps/decide', { body: { originator: 'certs.example', allow: true, walletId } });
    assert.equal(allowed.status, 200, JSON.stringify(allowed.body));
    // The organisation grants the app the two certificate types (every field), and denies a third.
    for (const [certificateType, grant] of [
      [TYPE, true],
      [OTHER_TYPE, true],
      [DENIED_TYPE, false],
    ] as const) {
      const r = await orgCall(org, 'POST', '/api/v1/apps/permissions', {
        body: { originator: 'certs.example', kind: 'certificate', certificateType, grant },
      });
      assert.equal(r.status, 200, JSON.stringify(r.body));
    }
    app = new WalletClient(new HTTPWalletJSON('certs.example', base), 'certs.example');
    await new Promise<void>((resolve) => testCertifier.server.listen(0, '127.0.0.1', resolve));
    certifierUrl = `http://127.0.0.1:${(testCertifier.server.address() as AddressInfo).port}`;
  });
  after(async () => {
    testCertifier.server.closeAllConnections();
    await new Promise((resolve) => testCertifier.server.close(resolve));
    await host.stop();
  });

  it('acquires a certificate handed over directly, and lists it as the SDK shapes it', async () => {
    assert.equal((await app.getPublicKey({ identityKey: true })).publicKey, SUBJECT);
    const cert = await issue(SUBJECT);
    const acquired = await app.acquireCertificate(direct(cert));
    assert.deepEqual(acquired, {
      type: TYPE,
      subject: SUBJECT,
      serialNumber: cert.serialNumber,
      certifier: CERTIFIER,
      revocationOutpoint: OUTPOINT,
      signature: cert.signature,
      fields: cert.fields,
    });
    const listed = await app.listCertificates({ certifiers: [CERTIFIER], types: [TYPE] });
    assert.equal(listed.totalCertificates, 1);
    assert.equal(listed.certificates[0].serialNumber, cert.serialNumber);
    assert.deepEqual(listed.certificates[0].keyring, cert.masterKeyring);
    assert.equal(listed.certificates[0].verifier, CERTIFIER);
    // The listed certificate still verifies, and its fields stay encrypted (the wallet opens them, not the list).
    assert.ok(await Certificate.fromObject(listed.certificates[0]).verify());
    assert.notEqual(listed.certificates[0].fields.name, FIELDS.name);
  });

  it('refuses forged certificates: bad signature, wrong subject, tampered field, keyring that does not open, wrong certifier', async () => {
    const good = await issue(SUBJECT);
    const other = await issue(SUBJECT);
    const forgeries = {
      'signature of another certificate': { ...direct(good), signature: other.signature! },
      'issued to someone else': direct(await issue(PrivateKey.fromRandom().toPublicKey().toString())),
      'a field swapped after signing': { ...direct(good), fields: { ...good.fields, name: good.fields.email } },
      'keyring keys swapped between fields': {
        ...direct(good),
        keyringForSubject: { ...good.masterKeyring, name: good.masterKeyring.email, email: good.masterKeyring.name },
      },
      'keyring of another certificate': { ...direct(good), keyringForSubject: other.masterKeyring },
      'claimed by another certifier': { ...direct(good), certifier: PrivateKey.fromRandom().toPublicKey().toString() },
    };
    for (const [what, args] of Object.entries(forgeries)) {
      await assert.rejects(app.acquireCertificate(args), refusedAsArgs, what);
    }
    // A genuine certificate of a type the organisation denied this app is refused, not kept.
    const denied = await issue(SUBJECT, FIELDS, DENIED_TYPE);
    await assert.rejects(app.acquireCertificate(direct(denied)), (e) => /not been granted|denied/i.test(messageOf(e)));
    const listed = await app.listCertificates({ certifiers: [], types: [] });
    assert.ok(!listed.certificates.some((c) => c.serialNumber === good.serialNumber), 'no forgery was kept');
    assert.ok(!listed.certificates.some((c) => c.serialNumber === denied.serialNumber), 'no denied certificate was kept');
    const trail = await orgCall(org, 'GET', '/api/v1/audit?limit=200');
    const entries = JSON.stringify(trail.body);
    assert.match(entries, /brc100\.acquireCertificate/);
  });

  it('lists with certifier and type filters and pages', async () => {
    const otherCertifier = new ProtoWallet(PrivateKey.fromRandom());
    const otherKey = (await otherCertifier.getPublicKey({ identityKey: true })).publicKey;
    for (let i = 0; i < 3; i++) await app.acquireCertificate(direct(await issue(SUBJECT, { n: String(i) }, OTHER_TYPE)));
    await app.acquireCertificate(direct(await issue(SUBJECT, { n: 'x' }, TYPE, otherCertifier)));
    const all = await app.listCertificates({ certifiers: [], types: [] });
    assert.equal(all.totalCertificates, 5);
    const byType = await app.listCertificates({ certifiers: [], types: [OTHER_TYPE], limit: 2, offset: 0 });
    assert.equal(byType.totalCertificates, 3);
    assert.equal(byType.certificates.length, 2);
    const page2 = await app.listCertificates({ certifiers: [], types: [OTHER_TYPE], limit: 2, offset: 2 });
    assert.equal(page2.certificates.length, 1);
    assert.ok(!byType.certificates.some((c) => c.serialNumber === page2.certificates[0].serialNumber));
    const byCertifier = await app.listCertificates({ certifiers: [otherKey], types: [] });
    assert.equal(byCertifier.totalCertificates, 1);
    assert.equal(byCertifier.certificates[0].certifier, otherKey);
    const both = await app.listCertificates({ certifiers: [otherKey], types: [OTHER_TYPE] });
    assert.equal(both.totalCertificates, 0);
  });

  it('proves a certificate to a verifier, who decrypts exactly the revealed fields', async () => {
    const [held] = (await app.listCertificates({ certifiers: [CERTIFIER], types: [TYPE] })).certificates;
    const verifierKey = PrivateKey.fromRandom();
    const verifier = new ProtoWallet(verifierKey);
    const { keyringForVerifier } = await app.proveCertificate({
      certificate: { type: held.type, serialNumber: held.serialNumber, certifier: held.certifier },
      fieldsToReveal: ['name', 'country'],
      verifier: verifierKey.toPublicKey().toString(),
    });
    assert.deepEqual(Object.keys(keyringForVerifier).sort(), ['country', 'name']);
    const shown = VerifiableCertificate.fromCertificate(held, keyringForVerifier);
    assert.ok(await shown.verify());
    assert.deepEqual(await shown.decryptFields(verifier), { name: FIELDS.name, country: FIELDS.country });
    // The keyring is for that verifier only.
    await assert.rejects(shown.decryptFields(new ProtoWallet(PrivateKey.fromRandom())));
    // A field the certificate does not have, and a certificate the wallet does not hold, are refused.
    await assert.rejects(
      app.proveCertificate({
        certificate: { serialNumber: held.serialNumber },
        fieldsToReveal: ['age'],
        verifier: verifierKey.toPublicKey().toString(),
      }),
      (e: { parameter?: string }) => e.parameter === 'fieldsToReveal',
    );
    await assert.rejects(
      app.proveCertificate({
        certificate: { serialNumber: Utils.toBase64(Random(32)) },
        fieldsToReveal: ['name'],
        verifier: verifierKey.toPublicKey().toString(),
      }),
      (e: { parameter?: string; message: string }) => e.parameter === 'args' && /unique certificate match/.test(e.message),
    );
  });

  it('discovers from the wallet’s own certificates by identity key and by attributes', async () => {
    const mine = await app.discoverByIdentityKey({ identityKey: SUBJECT });
    assert.equal(mine.totalCertificates, 5);
    const ada = mine.certificates.find((c) => c.type === TYPE && c.certifier === CERTIFIER)!;
    assert.deepEqual(ada.decryptedFields, FIELDS);
    assert.equal(typeof ada.certifierInfo.name, 'string');
    // The publicly revealed keyring opens the fields for anyone.
    const open = VerifiableCertificate.fromCertificate(ada, ada.publiclyRevealedKeyring);
    assert.deepEqual(await open.decryptFields(new ProtoWallet('anyone')), FIELDS);
    const stranger = await app.discoverByIdentityKey({ identityKey: PrivateKey.fromRandom().toPublicKey().toString() });
    assert.deepEqual(stranger, { totalCertificates: 0, certificates: [] });
    const byEmail = await app.discoverByAttributes({ attributes: { email: 'ada@acme.io' } });
    assert.equal(byEmail.totalCertificates, 1);
    assert.equal(byEmail.certificates[0].serialNumber, ada.serialNumber);
    assert.equal((await app.discoverByAttributes({ attributes: { n: '1' } })).totalCertificates, 1);
    assert.equal((await app.discoverByAttributes({ attributes: { email: 'ada@acme.io', country: 'FR' } })).totalCertificates, 0);
    const paged = await app.discoverByIdentityKey({ identityKey: SUBJECT, limit: 2, offset: 4 });
    assert.equal(paged.totalCertificates, 5);
    assert.equal(paged.certificates.length, 1);
  });

  it('acquires by issuance from a certifier over BRC-103, and refuses its hostile answers', async () => {
    testCertifier.mode = 'honest';
    const fields = { role: 'treasurer', org: 'Acme' };
    const issued = await app.acquireCertificate({
      acquisitionProtocol: 'issuance',
      type: OTHER_TYPE,
      certifier: CERTIFIER,
      certifierUrl,
      fields,
    });
    assert.equal(issued.subject, SUBJECT);
    assert.equal(issued.certifier, CERTIFIER);
    assert.deepEqual(testCertifier.seen, fields, 'the certifier read the values the wallet encrypted for it');
    assert.ok(await Certificate.fromObject(issued).verify());
    const found = await app.discoverByAttributes({ attributes: { role: 'treasurer' } });
    assert.equal(found.totalCertificates, 1);
    assert.deepEqual(found.certificates[0].decryptedFields, fields);

    for (const mode of ['wrong-subject', 'tampered-field', 'bad-serial', 'unsigned'] as const) {
      testCertifier.mode = mode;
      await assert.rejects(
        app.acquireCertificate({ acquisitionProtocol: 'issuance', type: OTHER_TYPE, certifier: CERTIFIER, certifierUrl, fields: { mode } }),
        (e) => /answered with no valid certificate|valid encrypted and signed certificate/.test(messageOf(e)),
        mode,
      );
    }
    testCertifier.mode = 'honest';
    // A certifier that is not the one named: its BRC-103 identity is checked.
    await assert.rejects(
      app.acquireCertificate({
        acquisitionProtocol: 'issuance',
        type: OTHER_TYPE,
        certifier: PrivateKey.fromRandom().toPublicKey().toString(),
        certifierUrl,
        fields: { x: 'y' },
      }),
      (e) => /is not the certifier/.test(messageOf(e)),
    );
    assert.equal((await app.discoverByAttributes({ attributes: { mode: 'bad-serial' } })).totalCertificates, 0);
  });

  it('refuses certifiers that answer too much, redirect, or sit where Keystead does not go, storing nothing', async () => {
    const before = (await app.listCertificates({ certifiers: [], types: [] })).totalCertificates;
    const acquire = (url: string, fields: Record<string, string> = { attack: 'yes' }) =>
      app.acquireCertificate({ acquisitionProtocol: 'issuance', type: OTHER_TYPE, certifier: CERTIFIER, certifierUrl: url, fields });
    testCertifier.mode = 'oversized';
    await assert.rejects(acquire(certifierUrl), (e) => /could not be reached over BRC-103: .*more than 1048576 bytes/.test(messageOf(e)));
    testCertifier.mode = 'honest';
    // A host that sends the wallet elsewhere: the redirect is not followed.
    let redirected = 0;
    const redirector = http.createServer((_req, res) => {
      redirected++;
      res.writeHead(307, { location: `${certifierUrl.replace('127.0.0.1', 'localhost')}/.well-known/auth` }).end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}`;
      await assert.rejects(acquire(url), (e) => /redirect, which is not followed/.test(messageOf(e)));
      assert.equal(redirected, 1);
    } finally {
      redirector.closeAllConnections();
      await new Promise((resolve) => redirector.close(resolve));
    }
    // Refused before anything is sent: other schemes, credentials, private and link-local addresses.
    const refusedUrl = (e: unknown) => {
      const err = e as { name: string; parameter?: string; message: string };
      assert.equal(err.name, 'WERR_INVALID_PARAMETER', err.message);
      assert.equal(err.parameter, 'certifierUrl', err.message);
      return true;
    };
    for (const url of ['ftp://127.0.0.1/', certifierUrl.replace('http://', 'http://ada:pw@'), 'http://10.0.0.1', 'http://169.254.169.254'])
      await assert.rejects(acquire(url), refusedUrl, url);
    assert.equal((await app.listCertificates({ certifiers: [], types: [] })).totalCertificates, before, 'nothing was stored');
    assert.equal((await app.discoverByAttributes({ attributes: { attack: 'yes' } })).totalCertificates, 0);
    // The honest certifier still issues.
    const issued = await acquire(certifierUrl, { after: 'attacks' });
    assert.equal(issued.certifier, CERTIFIER);
    await app.relinquishCertificate({ type: issued.type, serialNumber: issued.serialNumber, certifier: issued.certifier });
  });

  it('relinquishes a certificate (app and admin), after which it is neither listed nor provable', async () => {
    const [held] = (await app.listCertificates({ certifiers: [CERTIFIER], types: [TYPE] })).certificates;
    assert.deepEqual(await app.relinquishCertificate({ type: held.type, serialNumber: held.serialNumber, certifier: held.certifier }), {
      relinquished: true,
    });
    assert.equal((await app.listCertificates({ certifiers: [CERTIFIER], types: [TYPE] })).totalCertificates, 0);
    await assert.rejects(
      app.relinquishCertificate({ type: held.type, serialNumber: held.serialNumber, certifier: held.certifier }),
      (e: { parameter?: string }) => e.parameter === 'args',
    );
    await assert.rejects(
      app.proveCertificate({ certificate: { serialNumber: held.serialNumber }, fieldsToReveal: ['name'], verifier: SUBJECT }),
      (e: { parameter?: string }) => e.parameter === 'args',
    );

    // The Apps view lists what each wallet holds (field names, never values) and an admin relinquishes.
    const list = await orgCall(org, 'GET', '/api/v1/apps/certificates');
    assert.equal(list.status, 200, JSON.stringify(list.body));
    const rows = list.body.data.certificates as {
      id: number;
      type: string;
      fieldNames: string[];
      originator: string;
      walletTitle: string;
    }[];
    assert.equal(rows.length, 5);
    assert.ok(rows.every((r) => r.originator === 'certs.example' && r.walletTitle === 'Identity'));
    assert.ok(!JSON.stringify(rows).includes('treasurer'), 'values are not listed');
    const issuedRow = rows.find((r) => r.fieldNames.join(',') === 'org,role')!;
    const gone = await orgCall(org, 'POST', '/api/v1/apps/certificates/relinquish', { body: { id: issuedRow.id } });
    assert.equal(gone.status, 200, JSON.stringify(gone.body));
    assert.equal((await app.discoverByAttributes({ attributes: { role: 'treasurer' } })).totalCertificates, 0);
    const again = await orgCall(org, 'POST', '/api/v1/apps/certificates/relinquish', { body: { id: issuedRow.id } });
    assert.equal(again.status, 404, JSON.stringify(again.body));
    const trail = JSON.stringify((await orgCall(org, 'GET', '/api/v1/audit?limit=200')).body);
    for (const what of ['brc100.relinquishCertificate', 'brc100.proveCertificate', 'relinquishAppCertificate'])
      assert.ok(trail.includes(what), what);
  });
});
