import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { P2PKH, PrivateKey, Transaction } from '@bsv/sdk';
import type { Credentials } from '../../main/engine/context.js';
import { meta, testEngine, type TestEngine } from '../helpers/engine.js';
import { ADMIN } from '../helpers/http.js';

/**
 * An allowed app is a counterparty inside the organisation: it moves value only within its monthly spending
 * authorisation, only on the authority of an admin or manager who still is one, and cannot have coins given
 * back on the books for a transaction it sent itself.
 */
describe('an app moves value only within what the organisation granted', () => {
  let t: TestEngine;
  let admin: Credentials;
  const exec = (op: string, input: object, as: Credentials = admin) =>
    t.engine.execute(op as never, input, as, meta).then((r) => r.output) as Promise<any>;
  const payee = () => new P2PKH().lock(PrivateKey.fromRandom().toAddress()).toHex();
  const app = (originator: string) => (method: string, args: object) => t.engine.brc100.call(originator, method, args, '127.0.0.1');
  const spendable = async (walletId: string) =>
    ((await exec('balance', { walletId, type: 'ALL' })).coins as { tokenId?: string; balance: number }[]).find((c) => !c.tokenId)!.balance;

  beforeEach(async () => {
    t = testEngine();
    const s = (await t.engine.execute('setup', ADMIN, {}, meta)).output;
    admin = { authToken: s.authToken, serviceId: s.serviceId };
    t.engine.brc100.setWait(50); // a spend above the authorisation waits for a grant nobody gives
  });
  afterEach(() => t.engine.close());

  /** A wallet with `satoshis`, an app allowed on it by `by` with a monthly authorisation of `limit` satoshis. */
  async function allowedApp(originator: string, satoshis: number, limit: number, by: Credentials = admin) {
    const walletId = (await exec('createWallet', { walletTitle: originator }, by)).walletID as string;
    await exec('faucet', { walletId, satoshis }, by);
    await exec('decideApp', { originator, allow: true, walletId }, by);
    await exec('setAppSpendingLimit', { originator, limit: { satoshis: limit } }, by);
    return walletId;
  }

  it('counts an output in a basket against the authorisation; only one outside baskets paying the wallet’s own address stays', async () => {
    const walletId = await allowedApp('evil.example', 500_000, 10_000);
    await exec('setAppPermission', { originator: 'evil.example', kind: 'basket', basket: 'tickets' });
    const call = app('evil.example');
    const refused = /above what is left of its monthly authorisation/;
    // A payment to a stranger is refused whether or not the app labels it with a basket.
    await assert.rejects(
      call('createAction', {
        description: 'plain payment',
        outputs: [{ lockingScript: payee(), satoshis: 300_000, outputDescription: 'a payee' }],
      }),
      refused,
    );
    await assert.rejects(
      call('createAction', {
        description: 'an innocent ticket',
        outputs: [{ lockingScript: payee(), satoshis: 300_000, basket: 'tickets', outputDescription: 'a ticket' }],
      }),
      refused,
    );
    assert.equal(await spendable(walletId), 500_000, 'nothing left the wallet');
    // An output paying the wallet's own address outside any basket is a coin of the wallet: only the fee counts.
    const { address } = await exec('walletAddress', { walletId });
    const kept = (await call('createAction', {
      description: 'change the wallet keeps',
      outputs: [{ lockingScript: new P2PKH().lock(address).toHex(), satoshis: 300_000, outputDescription: 'kept change' }],
    })) as { txid: string };
    assert.match(kept.txid, /^[0-9a-f]{64}$/);
    // In a basket it would be no coin, and the app could not sign for it: refused (review-1128c, finding 3).
    await assert.rejects(
      call('createAction', {
        description: 'a ticket at the wallet’s address',
        outputs: [
          { lockingScript: new P2PKH().lock(address).toHex(), satoshis: 300_000, basket: 'tickets', outputDescription: 'a ticket' },
        ],
      }),
      /pays an address of a Keystead wallet/,
    );
  });

  it('acts for nobody once the manager who allowed it is demoted or removed', async () => {
    const person = async (email: string, role: string) => {
      const u = await exec('createUser', { email, password: 'pass-word-123', role, firstName: 'M', lastName: 'M', title: 'T' });
      const login = (await t.engine.execute('login', { email, password: 'pass-word-123' }, {}, meta)).output;
      return { uid: u.uid as string, who: { authToken: login.token ?? login.authToken, serviceId: admin.serviceId } as Credentials };
    };
    const max = await person('max@acme.io', 'Manager');
    await allowedApp('demo.example', 200_000, 1_000_000, max.who);
    const call = app('demo.example');
    const pay = () =>
      call('createAction', {
        description: 'a payment',
        outputs: [{ lockingScript: payee(), satoshis: 5_000, outputDescription: 'a payee' }],
      });
    assert.match(((await pay()) as { txid: string }).txid, /^[0-9a-f]{64}$/, 'a control: allowed by a manager, it pays');
    for (const role of ['Viewer', 'Operator']) {
      await exec('updateUser', { userId: max.uid, role });
      await assert.rejects(pay(), new RegExp(`allowed demo.example is now ${role}, who may not allow apps`));
      await assert.rejects(call('getPublicKey', { identityKey: true }), /may not allow apps/, 'nor its keys');
    }
    await exec('updateUser', { userId: max.uid, role: 'Manager' });
    assert.match(((await pay()) as { txid: string }).txid, /^[0-9a-f]{64}$/, 'a manager again');
    await exec('deleteUser', { userId: max.uid });
    await assert.rejects(pay(), /no longer exists/);
  });

  it('does not give back the coins of a noSend action the app sent itself', async () => {
    const walletId = await allowedApp('nosend.example', 200_000, 1_000_000);
    const call = app('nosend.example');
    const noSend = async () =>
      (await call('createAction', {
        description: 'later',
        outputs: [{ lockingScript: payee(), satoshis: 60_000, outputDescription: 'a payee' }],
        options: { noSend: true },
      })) as { txid: string; tx: number[] };
    const sent = await noSend();
    // The app holds the signed transaction and broadcasts it itself.
    assert.equal(t.node.submit(Transaction.fromAtomicBEEF(sent.tx).toHex()).status, 'accepted');
    await assert.rejects(call('abortAction', { reference: sent.txid }), /the chain already has this one/);
    assert.ok((await spendable(walletId)) <= 140_000, 'the coins stay spent');
    // A control: one the chain does not have is given back.
    const before = await spendable(walletId);
    const kept = await noSend();
    assert.deepEqual(await call('abortAction', { reference: kept.txid }), { aborted: true });
    assert.equal(await spendable(walletId), before);
  });
});
