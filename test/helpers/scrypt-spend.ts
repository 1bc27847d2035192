import { Hash, LockingScript, type PrivateKey, Spend, type Transaction, TransactionSignature, UnlockingScript, Utils } from '@bsv/sdk';

/**
 * Runs a contract call the way a node would: the locking script of a source output, spent by input 0 of
 * a transaction with the given outputs, checked by @bsv/sdk's `Spend` interpreter. Signatures and
 * BIP143 preimages for that exact spend are available to build the call's arguments.
 */
export interface SpendTx {
  outputs?: { script: string; satoshis: number }[];
  sourceSatoshis?: number;
  lockTime?: number;
  sequence?: number;
  version?: number;
}

export interface CallContext {
  /**
   * The BIP143 preimage of input 0 (hex), for a sighash scope (default ALL|FORKID). `subscript` (hex)
   * replaces the whole locking script as scriptCode, e.g. the part after an executed OP_CODESEPARATOR.
   */
  preimage(scope?: number, subscript?: string): string;
  /** A checksig signature of input 0 by `key` (DER + sighash byte, hex); `subscript` as for preimage. */
  sign(key: PrivateKey, scope?: number, subscript?: string): string;
}

export const SIGHASH_ALL = TransactionSignature.SIGHASH_ALL | TransactionSignature.SIGHASH_FORKID;
const SOURCE_TXID = '7e'.repeat(32);

export function spends(lockingHex: string, unlockingHexOf: (ctx: CallContext) => string, tx: SpendTx = {}): boolean {
  return explainSpend(lockingHex, unlockingHexOf, tx) === true;
}

/** true, or the interpreter's reason for refusing the spend. */
export function explainSpend(lockingHex: string, unlockingHexOf: (ctx: CallContext) => string, tx: SpendTx = {}): true | string {
  const lockingScript = LockingScript.fromHex(lockingHex);
  const outputs = (tx.outputs ?? [{ script: '006a', satoshis: 0 }]).map((o) => ({
    lockingScript: LockingScript.fromHex(o.script),
    satoshis: o.satoshis,
  }));
  const common = {
    sourceTXID: SOURCE_TXID,
    sourceOutputIndex: 0,
    sourceSatoshis: tx.sourceSatoshis ?? 10_000,
    transactionVersion: tx.version ?? 1,
    otherInputs: [],
    inputIndex: 0,
    inputSequence: tx.sequence ?? 0xffffffff,
    outputs,
    lockTime: tx.lockTime ?? 0,
  };
  const preimageBytes = (scope = SIGHASH_ALL, subscript?: string) =>
    TransactionSignature.format({
      ...common,
      subscript: subscript === undefined ? lockingScript : LockingScript.fromHex(subscript),
      scope,
    } as never);
  const ctx: CallContext = {
    preimage: (scope, subscript) => Utils.toHex(preimageBytes(scope, subscript)),
    sign: (key, scope = SIGHASH_ALL, subscript) => {
      const raw = key.sign(Hash.sha256(preimageBytes(scope, subscript)));
      return Utils.toHex(new TransactionSignature(raw.r, raw.s, scope).toChecksigFormat());
    },
  };
  let unlockingHex: string;
  try {
    unlockingHex = unlockingHexOf(ctx);
  } catch (err) {
    return `building the call failed: ${(err as Error).message}`;
  }
  try {
    const ok = new Spend({ ...common, lockingScript, unlockingScript: UnlockingScript.fromHex(unlockingHex) } as never).validate();
    return ok ? true : 'refused';
  } catch (err) {
    return (err as Error).message.split('\n')[0];
  }
}

/** Runs the interpreter on input 0 of a built transaction (its source transaction attached): true, or the error. */
export function validateInput0(tx: Transaction): true | string {
  const input = tx.inputs[0];
  const source = input.sourceTransaction!;
  const out = source.outputs[input.sourceOutputIndex];
  try {
    const ok = new Spend({
      sourceTXID: source.id('hex'),
      sourceOutputIndex: input.sourceOutputIndex,
      sourceSatoshis: out.satoshis!,
      lockingScript: out.lockingScript,
      transactionVersion: tx.version,
      otherInputs: [],
      unlockingScript: input.unlockingScript!,
      inputSequence: input.sequence ?? 0xffffffff,
      inputIndex: 0,
      outputs: tx.outputs,
      lockTime: tx.lockTime,
    }).validate();
    return ok ? true : 'validate() returned false';
  } catch (err) {
    return (err as Error).message;
  }
}
