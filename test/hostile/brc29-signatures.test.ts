import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Hash, HTTPWalletJSON, PrivateKey, Random, WalletClient, type WalletProtocol } from '@bsv/sdk';
import { BRC29, internalizeBrc29Payment } from '../helpers/brc29.js';
import { startHeadless } from '../helpers/headless.js';
import { createOrgWallet, orgCall, setUpOrg, type Org } from '../helpers/org.js';
import { tempDir } from '../helpers/tmp.js';

/**
 * An app never signs with a key that holds the wallet's coins. A BRC-29 payment internalized into the wallet
 * is a coin whose key is the BRC-42 child of the wallet's BRC-100 root for protocol `[2, '3241645161d8']`,
 * key id `<prefix> <suffix>` and the sender as counterparty: the app that internalized it knows all three. With
 * that protocol granted (apps that pay by BRC-29 ask for it), `createSignature` over a spend's sighash would
 * be a spend of the wallet's coin that no payment policy, spending authorisation or audit entry sees.
 */

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
    ({ keyID } = await internalizeBrc29Payment(org, app(), { sender: senderKey, identity, satoshis: 5_000, description: 'a payment' }));

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
