import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { P2PKH, PrivateKey } from '@bsv/sdk';
import { PaymailVouches } from '../../main/engine/paymail/vouched.js';
import { createOrgWallet, orgCall, type Org } from '../helpers/org.js';
import { startPair, stopPair } from '../helpers/two-instances.js';
import { until } from '../helpers/until.js';

/**
 * A payment names its counterparty itself: `uri` beside the outputs it pays. A caller (an operator, a script's
 * API key) who labels a payment to its own address with a trusted payee's paymail must not get the payee's
 * standing: the policy believes a paymail only for outputs whose addresses that paymail's host gave this engine
 * when it resolved it. A payment the engine resolved keeps the payee's standing.
 */

const p2pkh = (address: string) => new P2PKH().lock(address).toHex();

describe('a paymail named beside the outputs is a label, not a payee', () => {
  let a: Org;
  let b: Org;
  let alice: string;
  let bobAddress: string;

  before(async () => {
    ({ a, b } = await startPair({ paymailBetween: true }));
    alice = await createOrgWallet(a, { walletTitle: 'Alice' });
    const bob = await createOrgWallet(b, { walletTitle: 'Bob', paymail: 'bob', paymailActivate: true });
    bobAddress = (await orgCall(b, 'GET', '/v1/address', { headers: { walletID: bob } })).body.data.address;
    const funded = await orgCall(a, 'POST', '/chain/faucet', { body: { satoshis: 500_000 }, headers: { walletID: alice } });
    assert.equal(funded.status, 200, JSON.stringify(funded.body));
    // A's book: bob@b.test, usable at once. A's policy: only payees in the book, anything else refused.
    assert.equal((await orgCall(a, 'PUT', '/api/v1/payees/settings', { body: { coolingOffHours: 0 } })).status, 200);
    const payee = await orgCall(a, 'POST', '/api/v1/payees', { body: { name: 'Bob', destination: 'bob@b.test' } });
    assert.equal(payee.status, 200, JSON.stringify(payee.body));
    const policy = await orgCall(a, 'POST', '/api/v1/policies', {
      body: {
        document: {
          rules: [{ when: { destination: { kind: 'inBook' } }, action: 'allow' }],
          default: { action: 'deny', reason: 'only payees in the book' },
        },
      },
    });
    assert.equal(policy.status, 200, JSON.stringify(policy.body));
  });
  after(() => stopPair(a, b));

  const pay = (body: object) => orgCall(a, 'POST', '/v1/pay', { headers: { walletID: alice }, body });
  const denied = (r: { status: number; body: { data: { code?: string } } }) => {
    assert.equal(r.status, 403, JSON.stringify(r.body));
    assert.equal(r.body.data.code, 'POLICY_DENIED');
  };

  it("a payment to the caller's own address labelled with the payee's paymail is refused, however the label is spelled", async () => {
    const thief = p2pkh(PrivateKey.fromRandom().toAddress());
    for (const uri of ['payto:bob@b.test', 'bob@b.test', 'BOB@B.TEST', 'payto:bob@b.test?amount=0.0005', 'bitcoin:bob@b.test'])
      denied(await pay({ outputs: [{ script: thief, satoshis: 50_000 }], uri }));
    // Nor with the payee's own real address beside the thief's: every output must be vouched for.
    denied(
      await pay({
        outputs: [
          { script: thief, satoshis: 50_000 },
          { script: p2pkh(bobAddress), satoshis: 1_000 },
        ],
        uri: 'payto:bob@b.test',
      }),
    );
  });

  it('a label whose destinations the paymail host gave to a different paymail is refused', async () => {
    // Resolve bob@b.test for real, then pay its scripts under the label of another paymail.
    const resolved = await orgCall(a, 'POST', '/v1/URI', {
      headers: { walletID: alice },
      body: { uri: 'payto:bob@b.test', amount: 10_000 },
    });
    assert.equal(resolved.status, 200, JSON.stringify(resolved.body));
    const { outputs } = resolved.body.data.data;
    denied(await pay({ outputs, uri: 'payto:carol@b.test' }));
  });

  it('a payment the engine resolved from the paymail keeps the payee’s standing and is paid', async () => {
    const resolved = await orgCall(a, 'POST', '/v1/URI', {
      headers: { walletID: alice },
      body: { uri: 'payto:bob@b.test', amount: 12_000 },
    });
    assert.equal(resolved.status, 200, JSON.stringify(resolved.body));
    const paid = await pay(resolved.body.data.data);
    assert.equal(paid.status, 200, JSON.stringify(paid.body));
    await until('the payment is settled', async () => {
      const h = await orgCall(a, 'GET', '/v1/history', { headers: { walletID: alice } });
      return JSON.stringify(h.body).includes(paid.body.data.txid) ? true : undefined;
    });
  });
});

describe('what a paymail vouches for', () => {
  const address = () => PrivateKey.fromRandom().toAddress();

  it('only the addresses its own resolution answered, for a while, for that paymail only', () => {
    let now = 1_000;
    const v = new PaymailVouches(() => now, 60_000, 3);
    const [x, y, z, w] = [address(), address(), address(), address()];
    v.record('Bob@B.test', [p2pkh(x), p2pkh(y), '6a0568656c6c6f']);
    assert.equal(v.vouches('bob@b.test', [x]), true, 'case does not matter');
    assert.equal(v.vouches('bob@b.test', [x, y]), true);
    assert.equal(v.vouches('bob@b.test', [x, z]), false, 'every address must be vouched for');
    assert.equal(v.vouches('carol@b.test', [x]), false, 'another paymail');
    assert.equal(v.vouches('bob@b.test', []), false, 'nothing paid, nothing vouched');
    now += 60_001;
    assert.equal(v.vouches('bob@b.test', [x]), false, 'expired');
    v.record('bob@b.test', [p2pkh(x), p2pkh(y), p2pkh(z), p2pkh(w)]);
    assert.equal(v.vouches('bob@b.test', [x]), false, 'the oldest is forgotten past the bound');
    assert.equal(v.vouches('bob@b.test', [y, z, w]), true);
    v.record('carol@b.test', [p2pkh(y)]);
    assert.equal(v.vouches('bob@b.test', [y]), false, 'the latest resolution of an address decides whose it is');
  });
});
