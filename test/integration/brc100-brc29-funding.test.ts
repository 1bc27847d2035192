import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HTTPWalletJSON, P2PKH, PrivateKey, Transaction, WalletClient } from '@bsv/sdk';
import { internalizeBrc29Payment } from '../helpers/brc29.js';
import { startHeadless } from '../helpers/headless.js';
import { request } from '../helpers/http.js';
import { createOrgWallet, orgCall, setUpOrg, type Org } from '../helpers/org.js';
import { tempDir } from '../helpers/tmp.js';

/**
 * A wallet whose coins all came in as BRC-29 payments an app internalized funds the app's actions with them:
 * signed at once, finished with signAction, and kept with noSend then sent; the local chain checks each script.
 */
const payee = () => new P2PKH().lock(PrivateKey.fromRandom().toAddress()).toHex();

describe('BRC-100 createAction funded by BRC-29 coins the wallet internalized', () => {
  let org: Org;
  let base: string;
  let walletId: string;
  let identity: string;
  const senderKey = PrivateKey.fromRandom();
  const app = () => new WalletClient(new HTTPWalletJSON('shop.example', base), 'shop.example');

  const chainStatus = async (txid: string) =>
    ((await request(org.host.url, 'GET', `/chain/arc/v1/tx/${txid}`)).body as { txStatus?: string }).txStatus ?? '';
  const balance = async () => {
    const r = await orgCall(org, 'GET', '/v1/balance', { headers: { walletID: walletId } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return (r.body.data.coins.find((c: { tokenId?: string }) => !c.tokenId) as { balance: number }).balance;
  };

  /** A BRC-29 payment of `satoshis` to the wallet from a fresh mined coin of the sender, internalized by the app. */
  const internalized = async (satoshis: number): Promise<string> =>
    (await internalizeBrc29Payment(org, app(), { sender: senderKey, identity, satoshis, description: 'a payment to the shop' })).txid;

  /** The wallet's funding inputs of an action's transaction (it has no app inputs here): the outpoints they spend. */
  const spentTxids = (tx: Transaction) => tx.inputs.map((i) => i.sourceTXID ?? i.sourceTransaction?.id('hex'));

  before(async () => {
    const host = await startHeadless({
      dataDir: tempDir(),
      password: 'pw',
      args: ['--brc100-listen', '127.0.0.1:0', '--mine-interval', '0'],
    });
    org = await setUpOrg(host);
    walletId = await createOrgWallet(org, { walletTitle: 'Shop' });
    base = `http://${(await orgCall(org, 'GET', '/api/v1/apps')).body.data.listening}`;
    const allowed = await orgCall(org, 'POST', '/api/v1/apps/decide', { body: { originator: 'shop.example', allow: true, walletId } });
    assert.equal(allowed.status, 200, JSON.stringify(allowed.body));
    const limit = await orgCall(org, 'PUT', '/api/v1/apps/spending-limit', {
      body: { originator: 'shop.example', limit: { satoshis: 1_000_000 } },
    });
    assert.equal(limit.status, 200, JSON.stringify(limit.body));
    identity = (await app().getPublicKey({ identityKey: true })).publicKey;
  });
  after(() => org?.host.stop());

  it('signs an action at once with the only coin, a BRC-29 payment, and the chain takes it', async () => {
    assert.equal(await balance(), 0);
    const paid = await internalized(5_000);
    assert.equal(await balance(), 5_000);
    const r = await app().createAction({
      description: 'pay a supplier',
      outputs: [{ lockingScript: payee(), satoshis: 3_000, outputDescription: 'the supplier' }],
    });
    const tx = Transaction.fromAtomicBEEF(r.tx!);
    assert.deepEqual(spentTxids(tx), [paid], 'the BRC-29 coin funded it');
    assert.match(await chainStatus(r.txid!), /SEEN_ON_NETWORK|MINED/);
    const left = await balance();
    assert.ok(left > 1_000 && left < 2_000, `the change came back (${left})`);
  });

  it('signs the BRC-29 coin funding an action finished with signAction, and the chain takes it', async () => {
    // Larger than the change left above: chosen first (largest first), and enough alone.
    const paid = await internalized(20_000);
    const started = await app().createAction({
      description: 'pay a supplier later',
      outputs: [{ lockingScript: payee(), satoshis: 10_000, outputDescription: 'the supplier' }],
      options: { signAndProcess: false },
    });
    const reference = started.signableTransaction!.reference;
    assert.deepEqual(spentTxids(Transaction.fromAtomicBEEF(started.signableTransaction!.tx)), [paid]);
    const done = await app().signAction({ reference, spends: {} });
    assert.match(done.txid ?? '', /^[0-9a-f]{64}$/);
    assert.match(await chainStatus(done.txid!), /SEEN_ON_NETWORK|MINED/);
  });

  it('signs the BRC-29 coin funding a noSend action, which sendWith then sends', async () => {
    const paid = await internalized(40_000);
    const kept = await app().createAction({
      description: 'pay a supplier in a batch',
      outputs: [{ lockingScript: payee(), satoshis: 1_000, outputDescription: 'the supplier' }],
      options: { noSend: true },
    });
    assert.deepEqual(spentTxids(Transaction.fromAtomicBEEF(kept.tx!)), [paid]);
    assert.doesNotMatch(await chainStatus(kept.txid!), /SEEN_ON_NETWORK|MINED/);
    const sent = await app().createAction({ description: 'send the batch', options: { sendWith: [kept.txid!] } });
    assert.deepEqual(sent.sendWithResults, [{ txid: kept.txid, status: 'unproven' }]);
    assert.match(await chainStatus(kept.txid!), /SEEN_ON_NETWORK|MINED/);
  });
});
