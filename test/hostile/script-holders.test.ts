import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { P2PKH, PrivateKey, Transaction, UnlockingScript } from '@bsv/sdk';
import type { Credentials } from '../../main/engine/context.js';
import { hash160OfAddress, signedHolderOf } from '../../main/chain/script.js';
import { DomainError } from '../../shared/errors.js';
import { meta, testEngine, type TestEngine } from '../helpers/engine.js';
import { ADMIN } from '../helpers/http.js';

/**
 * Who an output pays is whose key alone spends it: a plain P2PKH's, or a recognised token output's owner.
 * A script that only starts with a P2PKH (`<P2PKH> OP_DROP OP_TRUE`, …) names an address but anyone may
 * spend it, so the policy counts it as leaving the wallet at its full value and gives it no payee's
 * standing. Before: it was taken for the named address, so a payment to such a script "stayed in the
 * wallet" (no limit, no approval) or went "to the payee", and an outsider then took it.
 */
const tails = {
  'OP_DROP OP_TRUE': '7551',
  'OP_NIP OP_TRUE (after an empty push)': '007751',
  'OP_2DROP OP_TRUE (after a dummy push)': '51' + '6d51',
};

async function organisation(t: TestEngine) {
  const s = (await t.engine.execute('setup', ADMIN, {}, meta)).output;
  const admin: Credentials = { authToken: s.authToken, serviceId: s.serviceId };
  const exec = (op: string, input: object) => t.engine.execute(op as never, input, admin, meta).then((r) => r.output as any);
  const { walletID } = await exec('createWallet', { walletTitle: 'Treasury' });
  const { address } = await exec('walletAddress', { walletId: walletID });
  await exec('faucet', { address, satoshis: 2_000_000 });
  return { exec, walletID, address };
}

async function refusal(p: Promise<unknown>): Promise<DomainError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof DomainError, String(err));
    return err;
  }
  assert.fail('the payment went through');
}

describe('an output is held by whose key alone spends it', () => {
  let t: TestEngine;
  beforeEach(() => {
    t = testEngine();
  });
  afterEach(() => t.engine.close());

  it('a script starting with the wallet’s own P2PKH leaves the wallet: a cap refuses it, at full value', async () => {
    const o = await organisation(t);
    await o.exec('proposePolicy', {
      document: {
        rules: [
          { name: 'cap', when: { assets: ['bsv'], amountOver: { satoshis: 10_000 } }, action: 'deny', reason: 'BSV up to 10,000 sat' },
        ],
        default: { action: 'allow' },
      },
    });
    const own = `76a914${hash160OfAddress(o.address)}88ac`;
    for (const [name, tail] of Object.entries(tails)) {
      const err = await refusal(o.exec('pay', { walletId: o.walletID, outputs: [{ script: own + tail, satoshis: 300_000 }] }));
      assert.equal(err.code, 'POLICY_DENIED', name);
    }
    // A control: the wallet's own plain P2PKH stays in the wallet, so the cap does not apply.
    const back = await o.exec('pay', { walletId: o.walletID, outputs: [{ script: own, satoshis: 300_000 }] });
    assert.match(back.txid, /^[0-9a-f]{64}$/);
  });

  it('a script starting with a payee’s P2PKH is not the payee: a payees-only policy refuses it', async () => {
    const o = await organisation(t);
    const payee = PrivateKey.fromRandom();
    await o.exec('setPayeeSettings', { coolingOffHours: 0 });
    const { payeeId } = await o.exec('addPayee', { name: 'Supplier', destination: payee.toAddress() });
    await o.exec('proposePolicy', {
      document: {
        rules: [{ name: 'payees only', when: { destination: { kind: 'payees', payees: [payeeId] } }, action: 'allow' }],
        default: { action: 'deny', reason: 'only the payee book' },
      },
    });
    const theirs = new P2PKH().lock(payee.toAddress()).toHex();
    for (const [name, tail] of Object.entries(tails)) {
      const err = await refusal(o.exec('pay', { walletId: o.walletID, outputs: [{ script: theirs + tail, satoshis: 50_000 }] }));
      assert.equal(err.code, 'POLICY_DENIED', name);
    }
    const paid = await o.exec('pay', { walletId: o.walletID, outputs: [{ script: theirs, satoshis: 50_000 }] });
    assert.match(paid.txid, /^[0-9a-f]{64}$/, 'a control: the payee’s own address is paid');
  });

  it('shown as a script nobody holds, not as the wallet’s own token output; and anyone can indeed take it', async () => {
    const o = await organisation(t);
    const own = `76a914${hash160OfAddress(o.address)}88ac`;
    const paid = await o.exec('pay', { walletId: o.walletID, outputs: [{ script: own + tails['OP_DROP OP_TRUE'], satoshis: 40_000 }] });
    const detail = await o.exec('transactionDetail', { walletId: o.walletID, txid: paid.txid });
    const out = detail.outputs.find((x: { satoshis: number }) => x.satoshis === 40_000);
    assert.deepEqual([out.kind, out.address, out.mine], ['script', null, false]);
    // Why it must count as leaving: the address's public key (on chain once it has spent, as here) and an
    // empty signature spend it; no key needed.
    const parent = Transaction.fromHex(t.node.txHex(paid.txid)!);
    const pubkey = parent.inputs[0].unlockingScript!.chunks.at(-1)!.data!;
    const take = new Transaction();
    const vout = parent.outputs.findIndex((x) => x.satoshis === 40_000);
    const unlocking = new UnlockingScript([{ op: 0 }, { op: pubkey.length, data: pubkey }]);
    take.addInput({ sourceTransaction: parent, sourceOutputIndex: vout, unlockingScript: unlocking });
    take.addOutput({ lockingScript: new P2PKH().lock(PrivateKey.fromRandom().toAddress()), satoshis: 39_000 });
    const taken = t.node.submit(take.toHex());
    assert.equal(taken.status, 'accepted', JSON.stringify(taken));
  });
});

describe('signedHolderOf: a P2PKH followed only by what cannot change its outcome', () => {
  const address = PrivateKey.fromRandom().toAddress();
  const p2pkh = new P2PKH().lock(address).toHex();
  it('names the address after OP_RETURN data and inscription envelopes of data pushes', () => {
    for (const tail of ['6a', '6a0568656c6c6f', '0063036f726451106170706c69636174696f6e2f6a736f6e0068', '00630068006301ff686a00'])
      assert.equal(signedHolderOf(p2pkh + tail), address, tail);
  });
  it('names nobody after code, an unclosed or non-data envelope, a cut push, or for a plain P2PKH', () => {
    for (const tail of ['', ...Object.values(tails), '0063', '006375680068', '0063ac68', '4c05aa', '51', '00'])
      assert.equal(signedHolderOf(p2pkh + tail), null, tail || '(plain)');
  });
});
