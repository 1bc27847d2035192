import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  HD,
  HTTPWalletJSON,
  MasterCertificate,
  Mnemonic,
  P2PKH,
  PrivateKey,
  ProtoWallet,
  Transaction,
  Utils,
  WalletClient,
  type WalletProtocol,
} from '@bsv/sdk';
import { WALLET_METHODS } from '../../main/engine/apps/methods.js';
import { startHeadless } from '../helpers/headless.js';
import { createOrgWallet, orgCall, setUpOrg, type Org } from '../helpers/org.js';
import { tempDir } from '../helpers/tmp.js';

const PHRASE = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
/** The wallet's root key as README documents it (`<account>/3'`), computed with @bsv/sdk alone. */
const root = HD.fromSeed(Mnemonic.fromString(PHRASE).toSeed()).derive("m/44'/236'/0'/3'").privKey;
const IDENTITY = root.toPublicKey().toString();
const PROTOCOL: WalletProtocol = [1, 'every method'];
const KEY = { protocolID: PROTOCOL, keyID: '1' };
const TYPE = Utils.toBase64(Array.from({ length: 32 }, (_, i) => 31 - i));
const APP = 'every-method.example';

/**
 * Every method of BRC-100's WalletInterface, each called once through @bsv/sdk's own WalletClient (the
 * `json-api` substrate, HTTPWalletJSON) against a headless Keystead on its local chain, with the answers
 * checked against @bsv/sdk computed independently where it can compute them. The list of methods comes
 * from the engine's own table, so a method added there and not served fails here.
 */
describe('BRC-100: WalletClient works for every method of the wallet interface', () => {
  let org: Org;
  let app: WalletClient;
  const called = new Set<string>();
  const reference = new ProtoWallet(root);
  const certifierKey = PrivateKey.fromRandom();
  const verifierKey = PrivateKey.fromRandom();
  const coinKey = PrivateKey.fromRandom();
  const payee = () => new P2PKH().lock(PrivateKey.fromRandom().toAddress()).toHex();
  const ok = async <T>(method: string, answer: Promise<T>): Promise<T> => {
    const result = await answer;
    called.add(method);
    return result;
  };

  before(async () => {
    const host = await startHeadless({
      dataDir: tempDir(),
      password: 'pw',
      args: ['--brc100-listen', '127.0.0.1:0', '--brc100-wait', '5'],
    });
    org = await setUpOrg(host);
    const walletId = await createOrgWallet(org, { walletTitle: 'Every method', mnemonicPhrase: PHRASE });
    const funded = await orgCall(org, 'POST', '/chain/faucet', { body: { satoshis: 100_000 }, headers: { walletID: walletId } });
    assert.equal(funded.status, 200, JSON.stringify(funded.body));
    const listening = (await orgCall(org, 'GET', '/api/v1/apps')).body.data.listening as string;
    app = new WalletClient(new HTTPWalletJSON(APP, `http://${listening}`), APP);
    const decided = await orgCall(org, 'POST', '/api/v1/apps/decide', { body: { originator: APP, allow: true, walletId } });
    assert.equal(decided.status, 200, JSON.stringify(decided.body));
    const grants = [
      { kind: 'protocol', securityLevel: 1, protocol: PROTOCOL[1] },
      { kind: 'protocol', securityLevel: 2, protocol: `specific key linkage revelation 1 ${PROTOCOL[1]}`, counterparty: '*' },
      {
        kind: 'protocol',
        securityLevel: 2,
        protocol: `counterparty key linkage revelation ${certifierKey.toPublicKey().toString()}`,
        counterparty: '*',
      },
      { kind: 'basket', basket: 'receipts' },
      { kind: 'certificate', certificateType: TYPE },
    ];
    for (const g of grants) {
      const r = await orgCall(org, 'POST', '/api/v1/apps/permissions', { body: { originator: APP, ...g } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
    }
    const limit = await orgCall(org, 'PUT', '/api/v1/apps/spending-limit', { body: { originator: APP, limit: { satoshis: 50_000 } } });
    assert.equal(limit.status, 200, JSON.stringify(limit.body));
  });
  after(() => org?.host.stop());

  it('answers authentication and chain queries', async () => {
    assert.deepEqual(await ok('isAuthenticated', app.isAuthenticated({})), { authenticated: true });
    assert.deepEqual(await ok('waitForAuthentication', app.waitForAuthentication({})), { authenticated: true });
    const { height } = await ok('getHeight', app.getHeight({}));
    const { header } = await ok('getHeaderForHeight', app.getHeaderForHeight({ height }));
    assert.equal(header.length, 160);
    assert.deepEqual(await ok('getNetwork', app.getNetwork({})), { network: 'testnet' });
    assert.match((await ok('getVersion', app.getVersion({}))).version, /^keystead-/);
  });

  it('answers the key and crypto methods as ProtoWallet over the documented root key does', async () => {
    assert.deepEqual(await ok('getPublicKey', app.getPublicKey({ identityKey: true })), { publicKey: IDENTITY });
    const data = Utils.toArray('every method', 'utf8');
    const { ciphertext } = await ok('encrypt', app.encrypt({ ...KEY, plaintext: data }));
    assert.deepEqual((await reference.decrypt({ ...KEY, ciphertext })).plaintext, data);
    assert.deepEqual((await ok('decrypt', app.decrypt({ ...KEY, ciphertext }))).plaintext, data);
    const { hmac } = await ok('createHmac', app.createHmac({ ...KEY, data }));
    assert.deepEqual(hmac, (await reference.createHmac({ ...KEY, data })).hmac);
    assert.deepEqual(await ok('verifyHmac', app.verifyHmac({ ...KEY, data, hmac })), { valid: true });
    const { signature } = await ok('createSignature', app.createSignature({ ...KEY, data, counterparty: 'self' }));
    assert.deepEqual(await reference.verifySignature({ ...KEY, data, signature, counterparty: 'self' }), { valid: true });
    assert.deepEqual(await ok('verifySignature', app.verifySignature({ ...KEY, data, signature, counterparty: 'self' })), { valid: true });
    const verifier = verifierKey.toPublicKey().toString();
    const specific = await ok('revealSpecificKeyLinkage', app.revealSpecificKeyLinkage({ ...KEY, counterparty: 'anyone', verifier }));
    assert.equal(specific.prover, IDENTITY);
    const counterparty = await ok(
      'revealCounterpartyKeyLinkage',
      app.revealCounterpartyKeyLinkage({ counterparty: certifierKey.toPublicKey().toString(), verifier }),
    );
    assert.equal(counterparty.verifier, verifier);
  });

  it('creates, signs, aborts, internalizes and lists actions and outputs', async () => {
    // An output the test's own key can spend, kept in a basket: spent next with delayed signing.
    const kept = await ok(
      'createAction',
      app.createAction({
        description: 'keep a coin for later',
        outputs: [
          {
            lockingScript: new P2PKH().lock(coinKey.toAddress()).toHex(),
            satoshis: 2_000,
            basket: 'receipts',
            outputDescription: 'kept for later',
          },
        ],
        labels: ['every method'],
        options: { randomizeOutputs: false },
      }),
    );
    const outpoint = `${kept.txid}.0`;
    const signable = await app.createAction({
      description: 'spend the kept coin',
      inputs: [{ outpoint, unlockingScriptLength: 108, inputDescription: 'the kept coin' }],
      outputs: [{ lockingScript: payee(), satoshis: 1_500, outputDescription: 'somebody' }],
      labels: ['every method'],
    });
    assert.ok(signable.signableTransaction);
    const tx = Transaction.fromAtomicBEEF(signable.signableTransaction.tx);
    const vin = tx.inputs.findIndex((i) => i.sourceTXID === kept.txid && i.sourceOutputIndex === 0);
    assert.ok(vin >= 0 && tx.inputs[vin].sourceTransaction, 'the signable transaction carries the input it spends');
    const unlocking = await new P2PKH().unlock(coinKey).sign(tx, vin);
    const signed = await ok(
      'signAction',
      app.signAction({ reference: signable.signableTransaction.reference, spends: { [vin]: { unlockingScript: unlocking.toHex() } } }),
    );
    assert.match(signed.txid ?? '', /^[0-9a-f]{64}$/);

    const held = await app.createAction({
      description: 'not sent after all',
      outputs: [{ lockingScript: payee(), satoshis: 700, outputDescription: 'maybe' }],
      options: { noSend: true },
    });
    assert.deepEqual(await ok('abortAction', app.abortAction({ reference: held.txid! })), { aborted: true });

    // The payment the signed action made, kept in a basket as a receipt (an output of another key).
    const receipt = Transaction.fromAtomicBEEF(
      (
        await app.createAction({
          description: 'pay with a receipt',
          outputs: [{ lockingScript: payee(), satoshis: 900, outputDescription: 'the shop' }],
          options: { randomizeOutputs: false },
        })
      ).tx!,
    );
    assert.deepEqual(
      await ok(
        'internalizeAction',
        app.internalizeAction({
          tx: receipt.toAtomicBEEF(),
          outputs: [{ outputIndex: 0, protocol: 'basket insertion', insertionRemittance: { basket: 'receipts', tags: ['receipt'] } }],
          description: 'keep the receipt',
        }),
      ),
      { accepted: true },
    );
    const outputs = await ok('listOutputs', app.listOutputs({ basket: 'receipts', tags: ['receipt'] }));
    assert.deepEqual(
      outputs.outputs.map((o) => o.outpoint),
      [`${receipt.id('hex')}.0`],
    );
    assert.deepEqual(await ok('relinquishOutput', app.relinquishOutput({ basket: 'receipts', output: `${receipt.id('hex')}.0` })), {
      relinquished: true,
    });
    const actions = await ok('listActions', app.listActions({ labels: ['every method'] }));
    assert.equal(actions.totalActions, 2);
  });

  it('acquires, lists, proves, discovers and relinquishes a certificate', async () => {
    const cert = await MasterCertificate.issueCertificateForSubject(
      new ProtoWallet(certifierKey),
      IDENTITY,
      { role: 'treasurer' },
      TYPE,
      async () => `${'cd'.repeat(32)}.0`,
    );
    const acquired = await ok(
      'acquireCertificate',
      app.acquireCertificate({
        acquisitionProtocol: 'direct',
        type: cert.type,
        certifier: cert.certifier,
        serialNumber: cert.serialNumber,
        revocationOutpoint: cert.revocationOutpoint,
        signature: cert.signature!,
        fields: cert.fields,
        keyringRevealer: 'certifier',
        keyringForSubject: cert.masterKeyring,
      }),
    );
    assert.equal(acquired.subject, IDENTITY);
    assert.equal((await ok('listCertificates', app.listCertificates({ certifiers: [], types: [TYPE] }))).totalCertificates, 1);
    const { keyringForVerifier } = await ok(
      'proveCertificate',
      app.proveCertificate({
        certificate: { serialNumber: cert.serialNumber },
        fieldsToReveal: ['role'],
        verifier: verifierKey.toPublicKey().toString(),
      }),
    );
    assert.deepEqual(Object.keys(keyringForVerifier), ['role']);
    assert.equal((await ok('discoverByIdentityKey', app.discoverByIdentityKey({ identityKey: IDENTITY }))).totalCertificates, 1);
    assert.equal((await ok('discoverByAttributes', app.discoverByAttributes({ attributes: { role: 'treasurer' } }))).totalCertificates, 1);
    assert.deepEqual(
      await ok(
        'relinquishCertificate',
        app.relinquishCertificate({ type: TYPE, serialNumber: cert.serialNumber, certifier: cert.certifier }),
      ),
      { relinquished: true },
    );
  });

  it('has called every method of the interface, and each answered', () => {
    assert.deepEqual([...called].sort(), [...WALLET_METHODS].sort());
    assert.equal(WALLET_METHODS.length, 28);
  });
});
