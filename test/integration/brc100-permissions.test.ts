import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HD, HTTPWalletJSON, Mnemonic, PrivateKey, ProtoWallet, Utils, WalletClient, type WalletProtocol } from '@bsv/sdk';
import { startHeadless, type Headless } from '../helpers/headless.js';
import { request } from '../helpers/http.js';
import { createOrgWallet, orgCall, setUpOrg, type Org } from '../helpers/org.js';
import { tempDir } from '../helpers/tmp.js';
import { untilValue } from '../helpers/until.js';
import { messageOf } from '../helpers/brc100.js';

const PHRASE = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const root = HD.fromSeed(Mnemonic.fromString(PHRASE).toSeed()).derive("m/44'/236'/0'/3'").privKey;

/** A refusal as WalletClient sees it (the error's name is on the wire: checked with a raw request below). */
const unauthorized = (pattern: RegExp) => (err: unknown) => {
  assert.match(messageOf(err), pattern);
  return true;
};

interface Permission {
  id: number;
  originator: string;
  kind: string;
  state: string;
  subject: string;
  securityLevel: number | null;
  counterparty: string | null;
  decidedBy: string | null;
}

async function permissions(org: Org, originator: string): Promise<Permission[]> {
  const r = await orgCall(org, 'GET', `/api/v1/apps/permissions?originator=${encodeURIComponent(originator)}`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.data.permissions as Permission[];
}

/** The request the app's waiting call recorded (it is recorded before the call waits). */
const pendingRequest = (org: Org, originator: string, kind: string) =>
  untilValue(
    `a pending ${kind} request of ${originator}`,
    () => permissions(org, originator),
    (list) => list.some((p) => p.state === 'pending' && p.kind === kind),
  ).then((list) => list.find((p) => p.state === 'pending' && p.kind === kind)!);

const decide = async (org: Org, body: object) => {
  const r = await orgCall(org, 'POST', '/api/v1/apps/permissions/decide', { body });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.data as Permission;
};

/** Allows an app before its first call, answered by `walletId`. */
async function allow(org: Org, originator: string, walletId: string): Promise<void> {
  const r = await orgCall(org, 'POST', '/api/v1/apps/decide', { body: { originator, allow: true, walletId } });
  assert.equal(r.status, 200, JSON.stringify(r.body));
}

describe("BRC-100 apps under the organisation's permissions, driven by @bsv/sdk WalletClient", () => {
  let host: Headless;
  let org: Org;
  let base: string;
  let walletId: string;
  const reference = new ProtoWallet(root);
  const client = (originator: string) => new WalletClient(new HTTPWalletJSON(originator, base), originator);

  before(async () => {
    host = await startHeadless({ dataDir: tempDir(), password: 'pw', args: ['--brc100-listen', '127.0.0.1:0', '--brc100-wait', '120'] });
    org = await setUpOrg(host);
    walletId = await createOrgWallet(org, { walletTitle: 'Apps', mnemonicPhrase: PHRASE });
    base = `http://${(await orgCall(org, 'GET', '/api/v1/apps')).body.data.listening}`;
  });
  after(() => host.stop());

  it('makes a level-1 protocol call wait until an admin grants it, and needs no grant at level 0 or for the identity key', async () => {
    await allow(org, 'notes.example', walletId);
    const app = client('notes.example');
    assert.deepEqual(await app.getPublicKey({ identityKey: true }), { publicKey: root.toPublicKey().toString() });
    const open = { protocolID: [0, 'open notes'] as WalletProtocol, keyID: '1' };
    assert.deepEqual(await app.getPublicKey(open), await reference.getPublicKey(open));
    assert.deepEqual(await permissions(org, 'notes.example'), []);

    const spec = { protocolID: [1, 'private notes'] as WalletProtocol, keyID: 'n1' };
    const plaintext = Utils.toArray('remember the milk', 'utf8');
    const waiting = app.encrypt({ ...spec, plaintext });
    const request = await pendingRequest(org, 'notes.example', 'protocol');
    assert.equal(request.subject, 'private notes');
    assert.equal(request.securityLevel, 1);
    const granted = await decide(org, { id: request.id, grant: true });
    assert.equal(granted.decidedBy, 'ada@acme.io');
    const { ciphertext } = await waiting;
    assert.deepEqual((await reference.decrypt({ ...spec, ciphertext })).plaintext, plaintext);
    // Granted once for the app: the next use goes through at once.
    assert.deepEqual((await app.decrypt({ ...spec, ciphertext })).plaintext, plaintext);

    // Who decided is in the audit trail, and the app's calls are made on the authority of whoever allowed it.
    const audit = (await orgCall(org, 'GET', '/api/v1/audit?limit=50')).body.data.entries as {
      action: string;
      actorEmail: string | null;
      target: string | null;
    }[];
    const decision = audit.find((e) => e.action === 'decideAppPermission');
    assert.equal(decision?.actorEmail, 'ada@acme.io');
    const decrypted = audit.find((e) => e.action === 'brc100.decrypt');
    assert.equal(decrypted?.actorEmail, 'ada@acme.io');
    assert.match(decrypted?.target ?? '', /app notes\.example/);
  });

  it('refuses a denied protocol with WERR_UNAUTHORIZED, at once from then on', async () => {
    await allow(org, 'denied-proto.example', walletId);
    const app = client('denied-proto.example');
    const spec = { protocolID: [1, 'tracking pixels'] as WalletProtocol, keyID: '1', data: [1, 2, 3] };
    const waiting = app.createHmac(spec);
    const asked = await pendingRequest(org, 'denied-proto.example', 'protocol');
    await decide(org, { id: asked.id, grant: false });
    await assert.rejects(waiting, unauthorized(/denied this app protocol \[1, "tracking pixels"\]/));
    await assert.rejects(app.createHmac(spec), unauthorized(/denied/));
    const raw = await request(base, 'POST', '/createHmac', { body: spec, headers: { origin: 'https://denied-proto.example' } });
    assert.equal(raw.status, 400);
    assert.equal(raw.body.isError, true);
    assert.equal(raw.body.name, 'WERR_UNAUTHORIZED');
    assert.equal(raw.body.code, 2);
    assert.equal((await permissions(org, 'denied-proto.example')).filter((p) => p.state === 'pending').length, 0);
  });

  it('grants a level-2 protocol per counterparty', async () => {
    await allow(org, 'chat.example', walletId);
    const app = client('chat.example');
    const alice = PrivateKey.fromRandom().toPublicKey().toString();
    const bob = PrivateKey.fromRandom().toPublicKey().toString();
    const protocolID: WalletProtocol = [2, 'chat messages'];
    const set = await orgCall(org, 'POST', '/api/v1/apps/permissions', {
      body: { originator: 'chat.example', kind: 'protocol', securityLevel: 2, protocol: 'chat messages', counterparty: alice },
    });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    const toAlice = { protocolID, keyID: '1', counterparty: alice };
    assert.deepEqual(await app.getPublicKey(toAlice), await reference.getPublicKey(toAlice));

    const toBob = app.getPublicKey({ protocolID, keyID: '1', counterparty: bob });
    const request = await pendingRequest(org, 'chat.example', 'protocol');
    assert.equal(request.counterparty, bob);
    await decide(org, { id: request.id, grant: false });
    await assert.rejects(toBob, unauthorized(/with counterparty/));
    // Bob's denial leaves Alice's grant as it was.
    assert.deepEqual(await app.getPublicKey(toAlice), await reference.getPublicKey(toAlice));
  });

  it("asks for a linkage revelation apart from the protocol's keys", async () => {
    await allow(org, 'linkage.example', walletId);
    const app = client('linkage.example');
    const verifier = PrivateKey.fromRandom().toPublicKey().toString();
    const revealing = app.revealSpecificKeyLinkage({ protocolID: [0, 'open notes'], keyID: '1', counterparty: 'anyone', verifier });
    const request = await pendingRequest(org, 'linkage.example', 'protocol');
    assert.equal(request.subject, 'specific key linkage revelation 0 open notes');
    assert.equal(request.counterparty, verifier);
    await decide(org, { id: request.id, grant: true });
    assert.equal((await revealing).verifier, verifier);
  });

  it("keeps the privileged keys apart: <account>/4', each use granted on its own (level 0 too), audited with the reason", async () => {
    await allow(org, 'admin-console.example', walletId);
    const app = client('admin-console.example');
    const privilegedKey = HD.fromSeed(Mnemonic.fromString(PHRASE).toSeed()).derive("m/44'/236'/0'/4'").privKey;
    const privileged = new ProtoWallet(privilegedKey);
    const reason = 'sign the board minutes';

    // The privileged identity key: asked as protocol [0, "identity key"], which is open for everyday keys.
    const identity = app.getPublicKey({ identityKey: true, privileged: true, privilegedReason: reason });
    const asked = await pendingRequest(org, 'admin-console.example', 'protocol');
    assert.equal(asked.subject, 'privileged:identity key');
    assert.equal(asked.securityLevel, 0);
    await decide(org, { id: asked.id, grant: true });
    assert.deepEqual(await identity, { publicKey: privilegedKey.toPublicKey().toString() });
    assert.notEqual(privilegedKey.toPublicKey().toString(), root.toPublicKey().toString());

    // A grant of a protocol's everyday keys does not cover its privileged keys, and the reverse.
    const everyday = await orgCall(org, 'POST', '/api/v1/apps/permissions', {
      body: { originator: 'admin-console.example', kind: 'protocol', securityLevel: 1, protocol: 'board minutes' },
    });
    assert.equal(everyday.status, 200, JSON.stringify(everyday.body));
    const spec = { protocolID: [1, 'board minutes'] as WalletProtocol, keyID: '2026-11', data: Utils.toArray('minutes', 'utf8') };
    assert.deepEqual(await app.createSignature(spec), await reference.createSignature(spec));
    const signing = app.createSignature({ ...spec, privileged: true, privilegedReason: reason });
    const second = await pendingRequest(org, 'admin-console.example', 'protocol');
    assert.equal(second.subject, 'privileged:board minutes');
    await decide(org, { id: second.id, grant: false });
    await assert.rejects(signing, unauthorized(/privileged keys of protocol \[1, "board minutes"\]/));

    // Granted ahead, at level 0 (only privileged grants may name it): the signature is the privileged key's.
    const ahead = await orgCall(org, 'POST', '/api/v1/apps/permissions', {
      body: { originator: 'admin-console.example', kind: 'protocol', securityLevel: 0, protocol: 'open seal', privileged: true },
    });
    assert.equal(ahead.status, 200, JSON.stringify(ahead.body));
    const seal = { protocolID: [0, 'open seal'] as WalletProtocol, keyID: '1', data: [1, 2, 3] };
    const { signature } = await app.createSignature({ ...seal, privileged: true, privilegedReason: reason });
    assert.equal((await privileged.verifySignature({ ...seal, signature, counterparty: 'anyone', forSelf: true })).valid, true);
    await assert.rejects(reference.verifySignature({ ...seal, signature, counterparty: 'anyone', forSelf: true }), /not valid/i);
    const level0 = await orgCall(org, 'POST', '/api/v1/apps/permissions', {
      body: { originator: 'admin-console.example', kind: 'protocol', securityLevel: 0, protocol: 'open seal' },
    });
    assert.equal(level0.status, 400, JSON.stringify(level0.body));

    // Bad reasons and a privileged counterparty revelation are refused before anything is asked.
    await assert.rejects(
      app.getPublicKey({ identityKey: true, privileged: true, privilegedReason: 'x' }),
      (err: Error & { parameter?: string }) => err.parameter === 'privilegedReason',
    );
    const verifier = PrivateKey.fromRandom().toPublicKey().toString();
    await assert.rejects(
      app.revealCounterpartyKeyLinkage({ counterparty: verifier, verifier, privileged: true, privilegedReason: reason }),
      (err: Error & { parameter?: string }) => err.parameter === 'privileged',
    );

    const audit = (await orgCall(org, 'GET', '/api/v1/audit?limit=100')).body.data.entries as { action: string; target: string | null }[];
    assert.ok(audit.some((e) => e.action === 'brc100.getPublicKey' && e.target?.includes(`privileged: ${reason}`)));
    assert.ok(audit.some((e) => e.action === 'brc100.createSignature' && e.target?.includes(`privileged: ${reason}`)));
  });

  it('checks the permission operations: unknown ids, what a grant names, the spending authorisation', async () => {
    const missing = await orgCall(org, 'POST', '/api/v1/apps/permissions/decide', { body: { id: 999999, grant: true } });
    assert.equal(missing.status, 404, JSON.stringify(missing.body));
    const noCounterparty = await orgCall(org, 'POST', '/api/v1/apps/permissions', {
      body: { originator: 'chat.example', kind: 'protocol', securityLevel: 2, protocol: 'chat messages' },
    });
    assert.equal(noCounterparty.status, 400, JSON.stringify(noCounterparty.body));
    const reserved = await orgCall(org, 'POST', '/api/v1/apps/permissions', {
      body: { originator: 'chat.example', kind: 'basket', basket: 'default' },
    });
    assert.equal(reserved.status, 400, JSON.stringify(reserved.body));
    const limit = await orgCall(org, 'PUT', '/api/v1/apps/spending-limit', {
      body: { originator: 'chat.example', limit: { satoshis: 5000 } },
    });
    assert.equal(limit.status, 200, JSON.stringify(limit.body));
    assert.equal(limit.body.data.remainingSatoshis, 5000);
    const unknownCurrency = await orgCall(org, 'PUT', '/api/v1/apps/spending-limit', {
      body: { originator: 'chat.example', limit: { currency: 'XYZ', amount: '10' } },
    });
    assert.equal(unknownCurrency.status, 400, JSON.stringify(unknownCurrency.body));
    const anonymous = await orgCall(org, 'GET', '/api/v1/apps/permissions', { headers: { authToken: '' } });
    assert.equal(anonymous.status, 401);
  });
});

describe('BRC-100: a revoked permission, with nobody to decide again', () => {
  let host: Headless;
  let org: Org;
  let base: string;

  before(async () => {
    host = await startHeadless({ dataDir: tempDir(), password: 'pw', args: ['--brc100-listen', '127.0.0.1:0', '--brc100-wait', '1'] });
    org = await setUpOrg(host);
    const walletId = await createOrgWallet(org, { walletTitle: 'Apps', mnemonicPhrase: PHRASE });
    base = `http://${(await orgCall(org, 'GET', '/api/v1/apps')).body.data.listening}`;
    await allow(org, 'sign.example', walletId);
  });
  after(() => host.stop());

  it('refuses the next call once the grant is revoked, naming what must be granted', async () => {
    const app = new WalletClient(new HTTPWalletJSON('sign.example', base), 'sign.example');
    const set = await orgCall(org, 'POST', '/api/v1/apps/permissions', {
      body: { originator: 'sign.example', kind: 'protocol', securityLevel: 1, protocol: 'document signing' },
    });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    const spec = { protocolID: [1, 'document signing'] as WalletProtocol, keyID: 'doc', data: [7, 7, 7] };
    const { signature } = await app.createSignature(spec);
    assert.deepEqual(await reference().verifySignature({ ...spec, signature, counterparty: 'anyone', forSelf: true }), { valid: true });

    const revoked = await orgCall(org, 'POST', '/api/v1/apps/permissions/revoke', { body: { id: set.body.data.id } });
    assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
    await assert.rejects(app.createSignature(spec), unauthorized(/has not been granted protocol \[1, "document signing"\]/));
    // The refused use stays asked for, for an admin to grant later.
    assert.ok((await permissions(org, 'sign.example')).some((p) => p.state === 'pending' && p.subject === 'document signing'));
  });

  const reference = () => new ProtoWallet(root);
});
