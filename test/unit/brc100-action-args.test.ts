import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createArgs, reference, signArgs } from '../../main/engine/apps/actions/action-args.js';
import { assetsOf } from '../../main/engine/apps/actions/create.js';
import type { AppInputSource } from '../../main/engine/apps/actions/funding.js';
import { WalletErr } from '../../main/engine/apps/werr.js';

const TXID = 'ab'.repeat(32);
const OUT = { lockingScript: '76A9', satoshis: 5, outputDescription: 'an output' };

/** The WERR_INVALID_PARAMETER a call is refused with, naming the parameter as the reference wallet does. */
function refused(fn: () => unknown, parameter: string): void {
  assert.throws(fn, (e) => e instanceof WalletErr && e.name === 'WERR_INVALID_PARAMETER' && e.code === 6 && e.parameter === parameter);
}

describe('BRC-100 action arguments (the reference wallet’s validation rules)', () => {
  it('applies the reference defaults and normalises identifiers', () => {
    const a = createArgs({ description: 'a description', outputs: [{ ...OUT, basket: ' Tickets ', tags: ['Row A'] }], labels: ['Shop'] });
    assert.equal(a.version, 1);
    assert.equal(a.lockTime, 0);
    assert.deepEqual(a.labels, ['shop']);
    assert.equal(a.outputs[0].basket, 'tickets');
    assert.deepEqual(a.outputs[0].tags, ['row a']);
    assert.equal(a.outputs[0].lockingScript, '76a9');
    assert.deepEqual(a.options, {
      signAndProcess: true,
      acceptDelayedBroadcast: true,
      knownTxids: [],
      returnTXIDOnly: false,
      noSend: false,
      noSendChange: [],
      sendWith: [],
      randomizeOutputs: true,
    });
    assert.equal(a.isSignAction, false);
  });

  it('needs signAction when an input has only a length, or signAndProcess is false', () => {
    const input = { outpoint: `${TXID}.1`, inputDescription: 'an input', unlockingScriptLength: 73 };
    const a = createArgs({ description: 'a description', inputs: [input] });
    assert.equal(a.isSignAction, true);
    assert.deepEqual(
      { txid: a.inputs[0].txid, vout: a.inputs[0].vout, seq: a.inputs[0].sequenceNumber },
      { txid: TXID, vout: 1, seq: 0xffffffff },
    );
    const b = createArgs({ description: 'a description', inputs: [{ ...input, unlockingScript: '51', unlockingScriptLength: 1 }] });
    assert.equal(b.isSignAction, false);
    assert.equal(createArgs({ description: 'a description', outputs: [OUT], options: { signAndProcess: false } }).isSignAction, true);
  });

  it('refuses bad arguments naming the parameter', () => {
    refused(() => createArgs({ description: 'abc' }), 'description');
    refused(() => createArgs({ description: 'a description', outputs: [{ ...OUT, lockingScript: 'abc' }] }), 'lockingScript');
    refused(() => createArgs({ description: 'a description', outputs: [{ ...OUT, lockingScript: 'zz' }] }), 'lockingScript');
    refused(() => createArgs({ description: 'a description', outputs: [{ ...OUT, satoshis: 1.5 }] }), 'satoshis');
    refused(() => createArgs({ description: 'a description', outputs: [{ ...OUT, satoshis: 21e14 + 1 }] }), 'satoshis');
    refused(() => createArgs({ description: 'a description', outputs: [{ ...OUT, outputDescription: 'out' }] }), 'outputDescription');
    refused(() => createArgs({ description: 'a description', outputs: [{ ...OUT, basket: '' }] }), 'basket');
    refused(() => createArgs({ description: 'a description', outputs: [{ ...OUT, tags: ['x'.repeat(301)] }] }), 'tag');
    refused(() => createArgs({ description: 'a description', labels: [7] }), 'label');
    refused(
      () => createArgs({ description: 'a description', inputs: [{ outpoint: `${TXID}.0`, inputDescription: 'an input' }] }),
      'unlockingScript, unlockingScriptLength',
    );
    refused(
      () =>
        createArgs({
          description: 'a description',
          inputs: [{ outpoint: `${TXID}.0`, inputDescription: 'an input', unlockingScript: '5151', unlockingScriptLength: 1 }],
        }),
      'unlockingScriptLength',
    );
    refused(
      () =>
        createArgs({ description: 'a description', inputs: [{ outpoint: TXID, inputDescription: 'an input', unlockingScriptLength: 1 }] }),
      'outpoint',
    );
    refused(() => createArgs({ description: 'a description', outputs: [OUT], options: { noSend: 'yes' } }), 'noSend');
    refused(() => createArgs({ description: 'a description', outputs: [OUT], options: { sendWith: ['12'] } }), 'sendWith');
    refused(() => createArgs({ description: 'a description', outputs: [OUT], options: { noSendChange: ['x.1'] } }), 'noSendChange');
    refused(() => createArgs({ description: 'a description', inputBEEF: [1, 256] }), 'inputBEEF');
    refused(() => createArgs({ description: 'a description', outputs: {} }), 'outputs');
  });

  it('reads signAction’s spends by input index and checks the reference', () => {
    const s = signArgs({
      reference: 'AAAAAAAAAAAAAAAA',
      spends: { 0: { unlockingScript: 'AB' }, 2: { unlockingScript: '51', sequenceNumber: 7 } },
    });
    assert.deepEqual(
      [...s.spends],
      [
        [0, { unlockingScript: 'ab', sequenceNumber: undefined }],
        [2, { unlockingScript: '51', sequenceNumber: 7 }],
      ],
    );
    assert.equal(s.options.noSend, false);
    refused(() => signArgs({ reference: 'AAAAAAAAAAAAAAAA', spends: { x: { unlockingScript: '51' } } }), 'spends');
    refused(() => signArgs({ reference: 'AAAAAAAAAAAAAAAA', spends: { 0: { unlockingScript: 'z' } } }), 'unlockingScript');
    refused(() => reference('not base64!'), 'reference');
    refused(() => reference(''), 'reference');
  });

  it('counts what an action takes from baskets by asset: tokens by id, other 1-satoshi outputs as ordinals', () => {
    const token = { template: {}, token: { redemption: 'aa', symbol: 'GOLD' } };
    const services = { tokenTemplates: { recognise: (script: string) => (script === 'token' ? token : null) } } as never;
    const input = (script: string, satoshis: number, basket: string | null): AppInputSource => ({
      vin: 0,
      txid: TXID,
      vout: 0,
      satoshis,
      script,
      unlockingScriptLength: 73,
      sequence: 0,
      description: 'an input',
      basket,
    });
    assert.deepEqual(
      assetsOf(services, [
        input('token', 5, 'gold'),
        input('token', 2, 'gold'),
        input('51', 1, 'art'),
        input('52', 1, 'art'),
        input('53', 1, null),
        input('54', 900, 'cash'),
      ]),
      [
        { asset: 'token:aa-GOLD', amount: 7 },
        { asset: 'ordinal', amount: 2 },
      ],
    );
  });
});
