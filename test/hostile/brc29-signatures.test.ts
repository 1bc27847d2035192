import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  Hash,
  HTTPWalletJSON,
  MerklePath,
  P2PKH,
  PrivateKey,
  ProtoWallet,
  Random,
  SatoshisPerKilobyte,
  Transaction,
  Utils,
  WalletClient,
  type WalletProtocol,
} from '@bsv/sdk';
import { startHeadless } from '../helpers/headless.js';
import { request } from '../helpers/http.js';
import { createOrgWallet, orgCall, setUpOrg, type Org } from '../helpers/org.js';
import { tempDir } from '../helpers/tmp.js';

/**
 * An app never signs with a key that holds the wallet's coins. A BRC-29 payment internalized into the wallet
 * is a coin whose key is the BRC-42 child of the wallet's BRC-100 root for protocol `[2, '3241645161d8']`,
 * key id `<prefix> <suffix>` and the sender as counterparty: the app that internalized it knows all three. With
 * that protocol granted (apps that pay by BRC-29 ask for it), `createSignature` over a spend's sighash would
 * be a spend of the wallet's coin that no payment policy, spending authorisation or audit entry sees.
 */

const BRC29: WalletProtocol = [2, '3241645161d8'];
const ORIGIN = 'shop.example';

describe('an app cannot sign with the keys of the coins paid into its wallet', () => {
  let org: Org;
  let base: string;
  const app = () => new WalletClient(new HTTPWalletJSON(ORIGIN, base), ORIGIN);
  const senderKey = PrivateKey.fromRandom();
  const counterparty = senderKey.toPublicKey().toString();
  let keyID: string;

  before(async () => {
    org = await setUpOrg(
      await startHeadless({ dataDir: tempDir(), password: 'pw', args: ['--brc100-listen', '127.0.0.1:0', '--mine-interval', '0'] }),
    );
    const walletId = await createOrgWallet(org, { walletTitle: 'Shop' });
    base = `http://${(await orgCall(org, 'GET', '/api/v1/apps')).body.data.listening}`;
    const allowed = await orgCall(org, 'POST', '/api/v1/apps/decide', { body: { originator: ORIGIN, allow: true, walletId } });
    assert.equal(allowed.status, 200, JSON.stringify(allowed.body));
    const identity = (await app().getPublicKey({ identityKey: true })).publicKey;

    // A BRC-29 payment of 5,000 satoshis into the wallet, internalized by the app (so it knows the key's derivation).
    const funded = await orgCall(org, 'POST', '/chain/faucet', { body: { address: senderKey.toAddress(), satoshis: 100_000 } });
    assert.equal(funded.status, 200, JSON.stringify(funded.body));
    await orgCall(org, 'POST', '/chain/mine', { body: {} });
    const txid = funded.body.data.txid as string;
    const source = Transaction.fromHex((await request(org.host.url, 'GET', `/chain/woc/v1/bsv/local/tx/${txid}/hex`)).body as string);
    source.merklePath = MerklePath.fromHex(
      ((await request(org.host.url, 'GET', `/chain/arc/v1/tx/${txid}`)).body as { merklePath: string }).merklePath,
    );
    const [prefix, suffix] = [Utils.toBase64(Random(8)), Utils.toBase64(Random(8))];
    keyID = `${prefix} ${suffix}`;
    const { publicKey } = await new ProtoWallet(senderKey).getPublicKey({ protocolID: BRC29, keyID, counterparty: identity });
    const payment = new Transaction();
    payment.addInput({
      sourceTransaction: source,
      sourceOutputIndex: source.outputs.findIndex((o) => o.satoshis === 100_000),
      unlockingScriptTemplate: new P2PKH().unlock(senderKey),
    });
    payment.addOutput({ lockingScript: new P2PKH().lock(Hash.hash160(Utils.toArray(publicKey, 'hex'))), satoshis: 5_000 });
    payment.addOutput({ lockingScript: new P2PKH().lock(senderKey.toAddress()), change: true });
    await payment.fee(new SatoshisPerKilobyte(1));
    await payment.sign();
    const internalized = await app().internalizeAction({
      tx: payment.toAtomicBEEF(),
      outputs: [
        {
          outputIndex: 0,
          protocol: 'wallet payment',
          paymentRemittance: { derivationPrefix: prefix, derivationSuffix: suffix, senderIdentityKey: counterparty },
        },
      ],
      description: 'a payment',
    });
    assert.deepEqual(internalized, { accepted: true });

    // The admin grants the BRC-29 protocol for every counterparty, as a paying app asks.
    const granted = await orgCall(org, 'POST', '/api/v1/apps/permissions', {
      body: { originator: ORIGIN, kind: 'protocol', securityLevel: 2, protocol: BRC29[1], counterparty: '*' },
    });
    assert.equal(granted.status, 200, JSON.stringify(granted.body));
  });
  after(() => org?.host.stop());

  const refused = async (call: Promise<unknown>) => {
    const err = (await call.then(
      () => null,
      (e: unknown) => e,
    )) as { code?: string; message?: string } | null;
    assert.ok(err, 'the signature is refused');
    assert.match(`${err.code ?? ''} ${err.message ?? ''}`, /UNAUTHORIZED|wallet payment protocol|not been granted/i);
  };

  it('the app may still derive the coin key it paid into (getPublicKey), as paying by BRC-29 needs', async () => {
    const { publicKey } = await app().getPublicKey({ protocolID: BRC29, keyID, counterparty, forSelf: true });
    assert.match(publicKey, /^0[23][0-9a-f]{64}$/);
  });

  it('createSignature with the coin key is refused: over data, over a 32-byte hash, for itself or for anyone', async () => {
    const digest = Hash.sha256(Random(64));
    await refused(app().createSignature({ protocolID: BRC29, keyID, counterparty, data: Random(120) }));
    await refused(app().createSignature({ protocolID: BRC29, keyID, counterparty, hashToDirectlySign: digest }));
    await refused(app().createSignature({ protocolID: BRC29, keyID, counterparty: 'self', hashToDirectlySign: digest }));
    await refused(app().createSignature({ protocolID: BRC29, keyID, counterparty: 'anyone', data: [1, 2, 3] }));
  });

  it('the protocol name spelled another way, or at another level, signs nothing either', async () => {
    const digest = Hash.sha256(Random(32));
    for (const protocolID of [
      [2, ' 3241645161d8 '],
      [2, '3241645161D8'],
      [1, '3241645161d8'],
      [0, '3241645161d8'],
    ] as WalletProtocol[])
      await refused(app().createSignature({ protocolID, keyID, counterparty, hashToDirectlySign: digest }));
  });

  it('each refusal is audited as the app’s error', async () => {
    const audit = await orgCall(org, 'GET', '/api/v1/audit?limit=200');
    assert.equal(audit.status, 200, JSON.stringify(audit.body));
    const text = JSON.stringify(audit.body);
    assert.match(text, /brc100\.createSignature/);
    assert.match(text, /WERR_UNAUTHORIZED/);
  });
});
