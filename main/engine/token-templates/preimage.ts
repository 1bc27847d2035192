import { Hash, LockingScript, TransactionSignature, Utils } from '@bsv/sdk';
import type { TokenUnlock } from './template.js';

/** SIGHASH_ALL | SIGHASH_FORKID: what token scripts check their preimage against, and what the owner signs. */
export const SIGHASH_ALL_FORKID = TransactionSignature.SIGHASH_ALL | TransactionSignature.SIGHASH_FORKID;

/** The BIP143 preimage of a token input (hex) and the owner's signature over it (checksig format, hex). */
export function preimageAndSignature(u: Pick<TokenUnlock, 'tx' | 'inputIndex' | 'script' | 'satoshis' | 'key'>): {
  preimage: string;
  signature: string;
} {
  const { tx, inputIndex } = u;
  const input = tx.inputs[inputIndex];
  const preimage = TransactionSignature.format({
    sourceTXID: input.sourceTXID!,
    sourceOutputIndex: input.sourceOutputIndex,
    sourceSatoshis: u.satoshis,
    transactionVersion: tx.version,
    otherInputs: tx.inputs.filter((_, i) => i !== inputIndex),
    inputIndex,
    outputs: tx.outputs,
    inputSequence: input.sequence ?? 0xffffffff,
    subscript: LockingScript.fromHex(u.script),
    lockTime: tx.lockTime,
    scope: SIGHASH_ALL_FORKID,
  });
  const raw = u.key.sign(Hash.sha256(preimage));
  const signature = new TransactionSignature(raw.r, raw.s, SIGHASH_ALL_FORKID).toChecksigFormat();
  return { preimage: Utils.toHex(preimage), signature: Utils.toHex(signature) };
}

/** Every input's outpoint, serialised as BIP143's hashPrevouts hashes them (txid little-endian, vout 4 bytes LE). */
export function prevouts(u: Pick<TokenUnlock, 'tx'>): string {
  return u.tx.inputs.map((i) => outpoint(i.sourceTXID!, i.sourceOutputIndex)).join('');
}

export function outpoint(txid: string, vout: number): string {
  const le = Buffer.alloc(4);
  le.writeUInt32LE(vout);
  return Buffer.from(txid, 'hex').reverse().toString('hex') + le.toString('hex');
}
