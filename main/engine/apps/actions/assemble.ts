import { LockingScript, P2PKH, Spend, Transaction, UnlockingScript } from '@bsv/sdk';
import type { SigningAccount } from '../../payments/keyring.js';
import type { ActionOutput } from './action-args.js';
import type { AppInputSource, Funding } from './funding.js';
import { invalidParameter } from '../werr.js';

/**
 * The action's transaction: the app's inputs first (so the input indexes the app signs and names in
 * signAction's `spends` are its own order), then the wallet's funding coins; the app's outputs and the
 * change, shuffled when randomizeOutputs asks (the vouts answered are the ones used).
 */
export interface Draft {
  tx: Transaction;
  /** vout of each of the app's outputs, in the order the app gave them. */
  vouts: number[];
  /** vout of the change, or null. */
  changeVout: number | null;
}

function shuffled(n: number): number[] {
  const order = [...Array(n).keys()];
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

export function assemble(
  a: { version: number; lockTime: number; randomizeOutputs: boolean },
  inputs: readonly AppInputSource[],
  outputs: readonly ActionOutput[],
  funding: Funding,
): Draft {
  const tx = new Transaction(a.version, [], [], a.lockTime);
  for (const i of inputs)
    tx.addInput({
      sourceTXID: i.txid,
      sourceOutputIndex: i.vout,
      sequence: i.sequence,
      // Empty until the app's script comes (serialized as such in the signable transaction).
      unlockingScript: i.unlockingScript !== undefined ? UnlockingScript.fromHex(i.unlockingScript) : new UnlockingScript(),
    });
  for (const c of funding.coins)
    tx.addInput({ sourceTXID: c.txid, sourceOutputIndex: c.vout, sequence: 0xffffffff, unlockingScript: new UnlockingScript() });
  const all = [
    ...outputs.map((o) => ({ lockingScript: LockingScript.fromHex(o.lockingScript), satoshis: o.satoshis })),
    ...(funding.change
      ? [{ lockingScript: new P2PKH().lock(funding.change.address), satoshis: funding.change.satoshis, change: true }]
      : []),
  ];
  const order = a.randomizeOutputs ? shuffled(all.length) : [...all.keys()];
  const vouts: number[] = new Array<number>(outputs.length);
  let changeVout: number | null = null;
  order.forEach((from, vout) => {
    tx.addOutput(all[from]);
    if (from < outputs.length) vouts[from] = vout;
    else changeVout = vout;
  });
  return { tx, vouts, changeVout };
}

/**
 * Signs the wallet's funding inputs (P2PKH, SIGHASH_ALL|FORKID), each with the key of its coin (an HD
 * address's, or a BRC-29 payment's: SigningAccount.keyFor): they commit to every outpoint and output,
 * not to the other inputs' unlocking scripts, so the app's scripts may come before or after.
 */
export async function signFunding(tx: Transaction, firstCoin: number, funding: Funding, account: SigningAccount): Promise<void> {
  for (const [k, c] of funding.coins.entries()) {
    const vin = firstCoin + k;
    const unlock = new P2PKH().unlock(account.keyFor(c), 'all', false, c.satoshis, LockingScript.fromHex(c.script));
    tx.inputs[vin].unlockingScript = await unlock.sign(tx, vin);
  }
}

/**
 * Runs each of the app's inputs through @bsv/sdk's interpreter against the output it spends: a script that
 * does not unlock is the app's error (WERR_INVALID_PARAMETER spends), found before anything is recorded or sent.
 */
export function verifyAppInputs(tx: Transaction, inputs: readonly AppInputSource[], parameter: string): void {
  for (const i of inputs) {
    const input = tx.inputs[i.vin];
    let ok = false;
    let why = '';
    try {
      ok = new Spend({
        sourceTXID: i.txid,
        sourceOutputIndex: i.vout,
        sourceSatoshis: i.satoshis,
        lockingScript: LockingScript.fromHex(i.script),
        transactionVersion: tx.version,
        otherInputs: tx.inputs.filter((_, k) => k !== i.vin),
        outputs: tx.outputs,
        unlockingScript: input.unlockingScript!,
        inputSequence: input.sequence ?? 0xffffffff,
        inputIndex: i.vin,
        lockTime: tx.lockTime,
      }).validate();
    } catch (err) {
      why = ` (${(err as Error).message.slice(0, 200)})`;
    }
    if (!ok) throw invalidParameter(parameter, `unlocking scripts that unlock what they spend: input ${i.vin} does not${why}`);
  }
}
