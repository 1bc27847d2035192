import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MasterCertificate, PrivateKey, ProtoWallet, Utils, Validation, VerifiableCertificate } from '@bsv/sdk';
import type { AppCall } from '../../main/engine/apps/call.js';
import { acquireCertificate, verifyForWallet, type Candidate } from '../../main/engine/apps/certificates/acquire.js';
import { sdkChecked } from '../../main/engine/apps/certificates/args.js';
import { discoverByAttributes } from '../../main/engine/apps/certificates/discover.js';
import { listCertificates, proveCertificate, relinquishCertificate } from '../../main/engine/apps/certificates/held.js';
import { WalletErr } from '../../main/engine/apps/werr.js';
import { openStore, type Store } from '../../main/store/database.js';
import { createRepos } from '../../main/store/repos/index.js';
import type { WalletRow } from '../../main/store/repos/wallets.js';
import { tempDir } from '../helpers/tmp.js';

const TYPE = Utils.toBase64(Array.from({ length: 32 }, (_, i) => i));
const OUTPOINT = `${'cd'.repeat(32)}.1`;
const root = PrivateKey.fromRandom();
const wallet = new ProtoWallet(root);
const SUBJECT = root.toPublicKey().toString();
const certifier = new ProtoWallet(PrivateKey.fromRandom());

const issue = (subject = SUBJECT, fields: Record<string, string> = { name: 'Ada', email: 'ada@acme.io' }) =>
  MasterCertificate.issueCertificateForSubject(certifier, subject, fields, TYPE, async () => OUTPOINT);

const candidateOf = (c: MasterCertificate): Candidate => ({
  type: c.type,
  serialNumber: c.serialNumber,
  certifier: c.certifier,
  revocationOutpoint: c.revocationOutpoint,
  signature: c.signature!,
  fields: c.fields,
  keyring: c.masterKeyring,
  revealer: c.certifier,
});

const refused = (e: unknown) => {
  assert.ok(e instanceof WalletErr, String(e));
  assert.equal(e.name, 'WERR_INVALID_PARAMETER');
  assert.equal(e.parameter, 'args');
  return true;
};

describe('certificates: what the wallet accepts (verifyForWallet) and the SDK argument checks', () => {
  it('accepts a certificate issued to the wallet and answers its fields', async () => {
    assert.deepEqual(await verifyForWallet(wallet, candidateOf(await issue())), { name: 'Ada', email: 'ada@acme.io' });
  });

  it('refuses a forged signature, another subject, a tampered field, a keyring that does not open, a missing key', async () => {
    const good = candidateOf(await issue());
    const other = candidateOf(await issue());
    const cases: Record<string, Candidate> = {
      signature: { ...good, signature: other.signature },
      subject: candidateOf(await issue(PrivateKey.fromRandom().toPublicKey().toString())),
      field: { ...good, fields: { ...good.fields, name: good.fields.email } },
      keyring: { ...good, keyring: other.keyring },
      'missing key': { ...good, keyring: { name: good.keyring.name } },
      'extra key': { ...good, keyring: { ...good.keyring, age: good.keyring.name } },
      revealer: { ...good, revealer: PrivateKey.fromRandom().toPublicKey().toString() },
      'no fields': { ...good, fields: {}, keyring: {} },
      'not DER': { ...good, signature: 'abcd' },
    };
    for (const [what, c] of Object.entries(cases)) await assert.rejects(verifyForWallet(wallet, c), refused, what);
  });

  it("answers the SDK's WERR_INVALID_PARAMETER in the listener's shape, and a malformed call as args", () => {
    assert.throws(
      () => sdkChecked(() => Validation.validateRelinquishCertificateArgs({ type: TYPE, serialNumber: TYPE, certifier: 'zz' })),
      (e) => e instanceof WalletErr && e.parameter === 'certifier',
    );
    assert.throws(
      () => sdkChecked(() => Validation.validateListCertificatesArgs({} as never)),
      (e) => e instanceof WalletErr && e.parameter === 'args',
    );
  });
});

describe('certificates: the handlers over the store (migration 22), with the permit and audit they call', () => {
  let store: Store;
  let repos: ReturnType<typeof createRepos>;
  let row: WalletRow;
  const permits: string[] = [];
  const audits: { what: string; code: string | null; detail?: string }[] = [];
  const events: string[] = [];
  let denyType: string | null = null;

  const callOf = (args: Record<string, unknown>): AppCall =>
    ({
      services: {
        repos,
        now: () => 1_700_000_000_000,
        logger: { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} },
        events: { publish: (type: string) => events.push(type) },
      },
      app: { originator: 'shop.example', state: 'allowed' },
      wallet: row,
      args,
      client: '127.0.0.1',
      rootKey: async () => root,
      audit: (what: string, code: string | null, detail?: string) => audits.push({ what, code, detail }),
      permit: {
        certificate: async (type: string, purpose: string, fields?: readonly string[], verifier?: string) => {
          permits.push(`${purpose} ${type} ${(fields ?? []).join(',')} ${verifier ?? ''}`.trim());
          if (type === denyType) throw new WalletErr('WERR_UNAUTHORIZED', 2, 'denied');
        },
      },
    }) as unknown as AppCall;

  const direct = (c: MasterCertificate) => ({
    acquisitionProtocol: 'direct',
    type: c.type,
    certifier: c.certifier,
    serialNumber: c.serialNumber,
    revocationOutpoint: c.revocationOutpoint,
    signature: c.signature,
    fields: c.fields,
    keyringRevealer: 'certifier',
    keyringForSubject: c.masterKeyring,
  });

  before(() => {
    store = openStore({ dataDir: tempDir(), password: 'pw' });
    repos = createRepos(store.db);
    repos.users.insert({
      uid: 'uid-admin',
      email: 'ada@acme.io',
      passwordHash: 'x',
      role: 'admin',
      firstName: 'Ada',
      lastName: 'L',
      title: '',
      createdAt: 0,
      updatedAt: 0,
    });
    const id = repos.wallets.insert({
      walletId: 'w1',
      ownerUid: 'uid-admin',
      title: 'Identity',
      logo: '',
      type: 'standard',
      derivationPath: "m/44'/236'/0'",
      accountXpub: 'xpub',
      sealedSeed: 'sealed',
      paymailAlias: null,
      paymailDomain: null,
      paymailActive: false,
      createdAt: 0,
    });
    row = repos.wallets.byRow(id)!;
  });
  after(() => store.close());

  it('acquires, stores the encrypted fields and master keyring as given, and replaces a re-acquired one', async () => {
    const cert = await issue();
    const answer = await acquireCertificate(callOf(direct(cert)));
    assert.equal((answer as { subject: string }).subject, SUBJECT);
    assert.deepEqual(permits.pop(), `acquire ${TYPE} name,email`);
    assert.equal(audits.at(-1)!.what, 'acquireCertificate');
    assert.equal(audits.at(-1)!.code, null);
    const [stored] = repos.appCertificates.matching(row.id, { serialNumber: cert.serialNumber }, 2);
    assert.deepEqual(stored.fields, cert.fields);
    assert.deepEqual(stored.masterKeyring, cert.masterKeyring);
    assert.equal(stored.originator, 'shop.example');
    assert.equal(stored.revealer, cert.certifier);
    assert.equal(events.at(-1), 'apps', 'the Apps view is told');
    // No field value is stored in the clear.
    const raw = JSON.stringify(store.db.prepare('SELECT * FROM app_certificate_fields').all());
    assert.ok(!raw.includes('ada@acme.io') && raw.includes(cert.fields.email));
    await acquireCertificate(callOf(direct(cert)));
    assert.equal(repos.appCertificates.list(row.id, { certifiers: [], types: [], limit: 10, offset: 0 }).total, 1);
  });

  it('refuses and audits a forged certificate, and keeps a denied type out', async () => {
    const cert = await issue();
    await assert.rejects(acquireCertificate(callOf({ ...direct(cert), signature: (await issue()).signature })), refused);
    assert.equal(audits.at(-1)!.code, 'WERR_INVALID_PARAMETER');
    denyType = TYPE;
    await assert.rejects(
      acquireCertificate(callOf(direct(await issue()))),
      (e) => e instanceof WalletErr && e.name === 'WERR_UNAUTHORIZED',
    );
    denyType = null;
    assert.equal(repos.appCertificates.list(row.id, { certifiers: [], types: [], limit: 10, offset: 0 }).total, 1);
  });

  it('lists, proves to a verifier (exactly the fields asked), discovers and relinquishes', async () => {
    const listed = (await listCertificates(callOf({ certifiers: [], types: [] }))) as {
      totalCertificates: number;
      certificates: { serialNumber: string; certifier: string }[];
    };
    assert.equal(listed.totalCertificates, 1);
    assert.match(permits.at(-1)!, /^list /);
    const held = repos.appCertificates.matching(row.id, {}, 2)[0];
    const verifierKey = PrivateKey.fromRandom();
    const { keyringForVerifier } = (await proveCertificate(
      callOf({
        certificate: { serialNumber: held.serialNumber },
        fieldsToReveal: ['email'],
        verifier: verifierKey.toPublicKey().toString(),
      }),
    )) as { keyringForVerifier: Record<string, string> };
    assert.equal(permits.at(-1), `prove ${TYPE} email ${verifierKey.toPublicKey().toString()}`);
    assert.equal(audits.at(-1)!.what, 'proveCertificate');
    const shown = new VerifiableCertificate(
      held.type,
      held.serialNumber,
      held.subject,
      held.certifier,
      held.revocationOutpoint,
      held.fields,
      keyringForVerifier,
      held.signature,
    );
    assert.deepEqual(await shown.decryptFields(new ProtoWallet(verifierKey)), { email: 'ada@acme.io' });

    const found = (await discoverByAttributes(callOf({ attributes: { name: 'Ada' } }))) as { totalCertificates: number };
    assert.equal(found.totalCertificates, 1);
    assert.match(permits.at(-1)!, /^disclose /);
    assert.equal(
      ((await discoverByAttributes(callOf({ attributes: { name: 'Bob' } }))) as { totalCertificates: number }).totalCertificates,
      0,
    );

    assert.deepEqual(await relinquishCertificate(callOf({ type: held.type, serialNumber: held.serialNumber, certifier: held.certifier })), {
      relinquished: true,
    });
    assert.equal(audits.at(-1)!.what, 'relinquishCertificate');
    assert.equal(
      (store.db.prepare('SELECT count(*) AS n FROM app_certificate_fields').get() as { n: number }).n,
      0,
      'its fields went with it',
    );
    await assert.rejects(
      relinquishCertificate(callOf({ type: held.type, serialNumber: held.serialNumber, certifier: held.certifier })),
      refused,
    );
  });
});
