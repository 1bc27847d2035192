import { BigNumber, PublicKey, Spend, TransactionSignature, type Script } from '@bsv/sdk';
import { createHash } from 'node:crypto';
import { decompressed, nativeCurve, verifyDigest } from '../crypto/secp256k1.js';

/** The members of @bsv/sdk's Spend a signature check reads (its `verifySignature` is private). */
interface SpendInternals {
  sourceTXID: string;
  sourceOutputIndex: number;
  sourceSatoshis: number;
  transactionVersion: number;
  otherInputs: Spend['otherInputs'];
  outputs: Spend['outputs'];
  inputIndex: number;
  inputSequence: number;
  lockTime: number;
  sigHashCache?: unknown;
}

/** Signature checks this module has done since the process started: a test proves with it that this path runs. */
export const signatureChecks = { count: 0 };

const sdkVerifySignature = (Spend.prototype as unknown as { verifySignature: (...args: unknown[]) => boolean }).verifySignature;

/**
 * @bsv/sdk's script interpreter, unchanged, with one step done elsewhere: the ECDSA verification of each
 * OP_CHECKSIG / OP_CHECKMULTISIG signature, which goes to libsecp256k1 (crypto/secp256k1.ts) instead of
 * @bsv/sdk's JavaScript, 50 times faster. Every rule of the script (encodings, strictness flags, the stack,
 * the signature hash's preimage) stays @bsv/sdk's: the preimage is built by its own TransactionSignature,
 * with the Spend's own cache of shared hashes. The one case where the hash is not the preimage's (SIGHASH_SINGLE
 * without a matching output, before the fork id) stays with @bsv/sdk entirely.
 *
 * `verifySignature` is private in @bsv/sdk's types, so it is replaced on this subclass's prototype; the
 * test (test/unit/script-spend.test.ts) proves the replacement is the one that runs, and that verdicts
 * match @bsv/sdk's Spend on valid, tampered, high-S and multisig spends.
 */
export class ScriptSpend extends Spend {
  /**
   * @bsv/sdk's validation, with compressed public keys decoded by libsecp256k1 while it runs: the
   * interpreter decodes each key twice (to check its encoding, then to verify with it), each a square root
   * in BigInt arithmetic, twice the cost of the verification itself. `PublicKey.fromDER` is swapped for the
   * synchronous run only and restored in all cases; what it returns or throws is what @bsv/sdk's would.
   */
  override validate(): boolean {
    if (!nativeCurve) return super.validate();
    const sdkFromDER = PublicKey.fromDER;
    PublicKey.fromDER = (bytes: number[]) => publicKeyFrom(bytes, sdkFromDER);
    try {
      return super.validate();
    } finally {
      PublicKey.fromDER = sdkFromDER;
    }
  }
}

function publicKeyFrom(bytes: number[], sdkFromDER: (bytes: number[]) => PublicKey): PublicKey {
  const full = decompressed(Uint8Array.from(bytes));
  if (!full) return sdkFromDER(bytes);
  const hex = Buffer.from(full).toString('hex');
  return new PublicKey(new BigNumber(hex.slice(2, 66), 16), new BigNumber(hex.slice(66), 16));
}

Object.defineProperty(ScriptSpend.prototype, 'verifySignature', {
  value: function verifySignature(this: SpendInternals, sig: TransactionSignature, pubkey: PublicKey, subscript: Script): boolean {
    const params = {
      sourceTXID: this.sourceTXID,
      sourceOutputIndex: this.sourceOutputIndex,
      sourceSatoshis: this.sourceSatoshis,
      transactionVersion: this.transactionVersion,
      otherInputs: this.otherInputs,
      outputs: this.outputs,
      inputIndex: this.inputIndex,
      subscript,
      inputSequence: this.inputSequence,
      lockTime: this.lockTime,
      scope: sig.scope,
      cache: this.sigHashCache as Parameters<typeof TransactionSignature.formatBytes>[0]['cache'],
    };
    if (TransactionSignature.usesOtdaSingleBug(params)) return sdkVerifySignature.call(this, sig, pubkey, subscript);
    const preimage = TransactionSignature.formatBytes(params);
    const digest = createHash('sha256').update(createHash('sha256').update(preimage).digest()).digest();
    signatureChecks.count++;
    return verifyDigest(
      digest,
      { r: Uint8Array.from(sig.r.toArray('be', 32)), s: Uint8Array.from(sig.s.toArray('be', 32)) },
      Uint8Array.from(pubkey.encode(false) as number[]),
    );
  },
  writable: true,
  configurable: true,
});
