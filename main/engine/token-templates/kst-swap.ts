import { Hash, LockingScript, TransactionSignature, Utils, type Transaction } from '@bsv/sdk';
import { preimageAndSignature, SIGHASH_ALL_FORKID } from './preimage.js';
import { minimalPush, readPushes } from './script-bytes.js';
import type { SwapCompletion, SwapOffer, SwapPayment, SwapRule, TokenScript, TokenUnlock } from './template.js';

/** What the swap rule needs of its template (kst.ts), named here so the two modules import in one direction. */
export interface KstSwapHost {
  parse(script: string): TokenScript | null;
  unlockingScript(
    u: Pick<TokenUnlock, 'tx' | 'tokenOutputs' | 'redeem' | 'change' | 'otherParent'>,
    kind: number,
    around: { before: string; after: string },
    preimage: string,
    ownerPart: string,
  ): string;
}

/** What a maker signs: its own input and the output at the same index, nothing else. */
export const SIGHASH_SINGLE_ACP_FORKID =
  TransactionSignature.SIGHASH_SINGLE | TransactionSignature.SIGHASH_ANYONECANPAY | TransactionSignature.SIGHASH_FORKID;
/** The sequence of an input spent as a SWAP (rules.scrypt SWAP_SEQUENCE); every other spend uses 0xffffffff. */
export const KST_SWAP_SEQUENCE = 0xfffffffe;
const SWAP_KIND = 3;

/** The serialised outputs `from` (inclusive) to `to` (exclusive) of a transaction, hex. */
export function outputsHex(tx: Transaction, from: number, to: number): string {
  let hex = '';
  for (let i = from; i < to; i++) {
    const o = tx.outputs[i];
    const script = o.lockingScript.toHex();
    const w = new Utils.Writer();
    w.writeUInt64LE(o.satoshis ?? 0);
    w.writeVarIntNum(script.length / 2);
    hex += Utils.toHex(w.toArray()) + script;
  }
  return hex;
}

/** The BIP143 preimage of one input under a sighash scope (bytes). */
function bip143(u: Pick<SwapOffer, 'tx' | 'inputIndex' | 'script' | 'satoshis'>, scope: number): number[] {
  const input = u.tx.inputs[u.inputIndex];
  return TransactionSignature.format({
    sourceTXID: input.sourceTXID!,
    sourceOutputIndex: input.sourceOutputIndex,
    sourceSatoshis: u.satoshis,
    transactionVersion: u.tx.version,
    otherInputs: u.tx.inputs.filter((_, i) => i !== u.inputIndex),
    inputIndex: u.inputIndex,
    outputs: u.tx.outputs,
    inputSequence: input.sequence ?? 0xffffffff,
    subscript: LockingScript.fromHex(u.script),
    lockTime: u.tx.lockTime,
    scope,
  });
}

/** The SIGHASH_ALL preimage the script's own OP_PUSH_TX check takes (anyone can make it: it needs no key). */
const allPreimage = (u: Pick<SwapOffer, 'tx' | 'inputIndex' | 'script' | 'satoshis'>) => Utils.toHex(bip143(u, SIGHASH_ALL_FORKID));

/**
 * The open template's swap rule (release 3 on). Why it is safe:
 * - The maker signs SINGLE|ANYONECANPAY|FORKID at offer time: that signature commits the offered outpoint,
 *   its script and value, its sequence (KST_SWAP_SEQUENCE) and output 0 (the asked-for output). The script
 *   accepts that sequence in the SWAP kind only, so the signature can never serve a transfer, merge or redeem
 *   (a redeem could otherwise pay "the asked-for satoshis" out of the maker's own tokens).
 * - In the SWAP kind the script still checks its own OP_PUSH_TX preimage (SIGHASH_ALL, filled in by the taker):
 *   hash256(before + its token outputs + after) must be the transaction's hashOutputs, its token outputs carry
 *   its own code and token (the same tail) and together hold exactly its value. So the offered tokens all go
 *   to token outputs of the same token (or the spend fails), and the maker gets output 0 as it asked.
 * - The offered input (the first) needs a non-empty `before` (at least output 0); a second input paying for
 *   an offer with its own tokens starts at output 0. An output carries one token's tail, so swap inputs of
 *   different tokens never count the same output; inputs of one token could only share outputs by making the
 *   outputs fewer than the inputs (tokens destroyed with their signers' consent, never made), and Keystead
 *   refuses offers of a token for itself. The books (tokens/lineage.ts) count a transaction whose outputs
 *   of a token exceed its inputs of it as forged.
 */
export class KstSwapRule implements SwapRule {
  readonly offerSequence = KST_SWAP_SEQUENCE;

  constructor(private readonly template: KstSwapHost) {}

  canOffer(script: string): boolean {
    return this.template.parse(script) !== null;
  }

  offer(o: SwapOffer): string {
    const preimage = bip143(o, SIGHASH_SINGLE_ACP_FORKID);
    const raw = o.key.sign(Hash.sha256(preimage));
    const signature = Utils.toHex(new TransactionSignature(raw.r, raw.s, SIGHASH_SINGLE_ACP_FORKID).toChecksigFormat());
    return minimalPush(signature) + minimalPush(o.key.toPublicKey().toString());
  }

  readOffer(makerPart: string): { signature: string; publicKey: string } | null {
    const pushes = readPushes(makerPart, 0);
    if (!pushes || pushes.length < 2) return null;
    // A completed SWAP unlocking ends with the same two pushes; an offer's is just those two.
    const [signature, publicKey] = pushes.slice(-2);
    if (!/^(02|03)[0-9a-f]{64}$/.test(publicKey) || signature.length < 18) return null;
    return { signature, publicKey };
  }

  complete(c: SwapCompletion): string {
    const owner = this.readOffer(c.makerPart);
    if (!owner) throw new Error('the offered input carries no maker signature');
    const preimage = allPreimage(c);
    const end = c.firstTokenOutput + c.tokenOutputs.length;
    return this.template.unlockingScript(
      { tx: c.tx, tokenOutputs: c.tokenOutputs, redeem: null, change: null, otherParent: null },
      SWAP_KIND,
      { before: outputsHex(c.tx, 0, c.firstTokenOutput), after: outputsHex(c.tx, end, c.tx.outputs.length) },
      preimage,
      minimalPush(owner.signature) + minimalPush(owner.publicKey),
    );
  }

  unlockPayment(u: SwapPayment): string {
    const { preimage, signature } = preimageAndSignature(u);
    const end = u.firstTokenOutput + u.tokenOutputs.length;
    return this.template.unlockingScript(
      u,
      SWAP_KIND,
      { before: outputsHex(u.tx, 0, u.firstTokenOutput), after: outputsHex(u.tx, end, u.tx.outputs.length) },
      preimage,
      minimalPush(signature) + minimalPush(u.key.toPublicKey().toString()),
    );
  }
}
