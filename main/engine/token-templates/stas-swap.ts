import { Hash, LockingScript, Transaction, TransactionSignature, Utils, type PrivateKey } from '@bsv/sdk';
import { DomainError } from '../../../shared/errors.js';
import { minimalNumber, minimalPush, readPushes } from './script-bytes.js';
import { SIGHASH_ALL_FORKID } from './preimage.js';
import type { StasProtocol, SwapCompletion, SwapOffer, SwapPayment, SwapRule, TokenScript } from './template.js';

/**
 * The STAS family's atomic swap (the "swap" spending type, OP_1), as the STAS SDKs lay it out (reference §4.4–4.5)
 * and as the licensed templates were seen to enforce it when run under @bsv/sdk's Spend:
 *
 *   inputs   0  the offered token output (the maker's; it signs SINGLE|ANYONECANPAY|FORKID at offer time)
 *            1  what the taker pays with: one P2PKH output, or one token output of another token (any STAS template)
 *            2  the funding (P2PKH), always last
 *   outputs  0  what the maker asked for: input 1's script with the maker as owner
 *            1  the offered token output's script with the taker as owner, holding all of input 0's satoshis
 *            2…n-2  the rest of input 1, each with input 1's script (the taker's change of what it paid with);
 *                   output 0 and these hold exactly input 1's satoshis
 *            n-1  the funding's change (P2PKH)
 *
 * The unlocking script of a token input in a swap (each input in its own template's layout):
 *   <amount> <key hash> for every output (STAS-789: an empty slot after the first pair; STAS-20: an empty
 *   note slot after the last), <funding vout> <funding txid, little-endian>, <the other swap input's vout>
 *   <the other swap input's whole parent transaction>, OP_1, <the BIP143 preimage, SIGHASH_ALL|FORKID>,
 *   <owner's signature> <owner's public key>.
 * The template checks that preimage in script (OP_PUSH_TX), hashes the other parent to the other input's
 * outpoint, and rebuilds every output from the pairs and the two inputs' scripts (the rules above, as seen
 * by running forged variants: test/unit/stas-swap.test.ts). The
 * owner's signature is checked by the P2PKH the template starts with, under whatever sighash it carries: the
 * maker's is SINGLE|ANYONECANPAY, so it commits only the maker's outpoint (with its script and value) and
 * output 0, and the taker completes the rest without the maker.
 */

export const SWAP_SPENDING_TYPE = 1;
/** What a maker signs: its own input and the output at the same index, nothing else. */
export const STAS_SIGHASH_SINGLE_ACP_FORKID =
  TransactionSignature.SIGHASH_SINGLE | TransactionSignature.SIGHASH_ANYONECANPAY | TransactionSignature.SIGHASH_FORKID;
/** The swap does not use the sequence: inputs keep the final one. */
export const STAS_SWAP_SEQUENCE = 0xffffffff;

/**
 * Which protocols' templates implement the swap spending type. Each was run under Spend (the published
 * template bytes, STAS-for-BSV and STAS-for-STAS across all pairs of templates): all three accept it. A
 * protocol set to false here is refused with `swapUnsupported`.
 */
export const STAS_SWAP_CAPABLE: Record<StasProtocol, boolean> = { STAS: true, 'STAS-20': true, 'STAS-789': true };

/** Where a protocol's unlocking script has its extra empty slots (reference §4.5). */
export interface StasSlots {
  /** STAS-789: the appended-data slot after the first pair. */
  afterFirstPair: boolean;
  /** STAS-20: the note slot after the last pair. */
  afterPairs: boolean;
}

/** An output being spent: its locking script and value. */
export interface SpentOutput {
  script: string;
  satoshis: number;
}

const refuse = (why: string) => new DomainError('VALIDATION_FAILED', why);

export function swapUnsupported(protocol: StasProtocol): DomainError {
  return refuse(`${protocol} tokens cannot be swapped: the installed ${protocol} template has no swap spending type`);
}

/** The key hash a pair names for an output: the owner bytes 3…23 of a P2PKH or of a token script that starts with one. */
function pairKeyHash(script: string): string | null {
  return /^76a914[0-9a-f]{40}88ac/.test(script) ? script.slice(6, 46) : null;
}

const isP2pkh = (script: string) => /^76a914[0-9a-f]{40}88ac$/.test(script);
/** A STAS-family token script: the owner's P2PKH, OP_VERIFY, a body (the family's templates are over 1,000 bytes). */
const isStasLike = (script: string) => /^76a914[0-9a-f]{40}88ac69/.test(script) && script.length >= 2_000;
/** Two scripts that differ at most in their owner: the same template and token (and NFT data). */
const sameButOwner = (a: string, b: string) => pairKeyHash(a) !== null && pairKeyHash(b) !== null && a.slice(46) === b.slice(46);

/**
 * Why an output may not be asked for in return for `offered` (null when it may):
 * - it must be a P2PKH payment or a STAS-family token output, of a positive value (the template rebuilds
 *   output 0 as the taker's input script with the maker as owner, so nothing else can be paid);
 * - not the offered token itself (a maker's signature over output 0 = its own token could serve a plain
 *   transfer or merge of the offered output);
 * - not a P2PKH paying the offered token's redemption key hash: a redeem pays exactly that output, so the
 *   maker's SINGLE|ANYONECANPAY signature would let anyone redeem (or redeem-split, keeping the rest of) the
 *   offered tokens, paying the maker out of its own tokens. Shown under Spend with the published templates
 *   (a whole redeem for all three; a redeem-split handing the rest to the builder for legacy STAS and STAS-20).
 */
export function askedOutputProblem(offeredScript: string, offered: TokenScript, asked: SpentOutput): string | null {
  if (!Number.isSafeInteger(asked.satoshis) || asked.satoshis < 1) return 'the asked-for output must be worth at least 1 satoshi';
  if (!isP2pkh(asked.script) && !isStasLike(asked.script))
    return 'a STAS swap can ask only for a P2PKH payment or a STAS-family token output';
  if (sameButOwner(asked.script, offeredScript)) return 'the offer asks for the very token it offers';
  if (isP2pkh(asked.script) && pairKeyHash(asked.script) === offered.redemption)
    return "the asked-for payment goes to the token's redemption address: anyone could then redeem the offered tokens with the maker's signature; ask to be paid at another address";
  return null;
}

/** The BIP143 preimage (bytes) of one input of a transaction under a sighash scope. */
function bip143(tx: Transaction, inputIndex: number, spent: SpentOutput, scope: number): number[] {
  const input = tx.inputs[inputIndex];
  return TransactionSignature.format({
    sourceTXID: input.sourceTXID ?? input.sourceTransaction!.id('hex'),
    sourceOutputIndex: input.sourceOutputIndex,
    sourceSatoshis: spent.satoshis,
    transactionVersion: tx.version,
    otherInputs: tx.inputs.filter((_, i) => i !== inputIndex),
    inputIndex,
    outputs: tx.outputs,
    inputSequence: input.sequence ?? 0xffffffff,
    subscript: LockingScript.fromHex(spent.script),
    lockTime: tx.lockTime,
    scope,
  });
}

function sign(key: PrivateKey, preimage: number[], scope: number): string {
  const raw = key.sign(Hash.sha256(preimage));
  return Utils.toHex(new TransactionSignature(raw.r, raw.s, scope).toChecksigFormat());
}

/**
 * The maker's part of an offer: its SINGLE|ANYONECANPAY|FORKID signature over input `inputIndex` (the offered
 * output) and the output at the same index (what it asks for), and its public key, as two pushes. The offer
 * transaction holds just those two; nothing else the taker adds is committed, and nothing else needs to be.
 */
export function makerOffer(tx: Transaction, inputIndex: number, offered: SpentOutput, key: PrivateKey): string {
  if (inputIndex !== 0 || tx.outputs.length < 1)
    throw refuse('a STAS offer has the offered output as input 0 and the asked-for output as output 0');
  const signature = sign(key, bip143(tx, 0, offered, STAS_SIGHASH_SINGLE_ACP_FORKID), STAS_SIGHASH_SINGLE_ACP_FORKID);
  return minimalPush(signature) + minimalPush(key.toPublicKey().toString());
}

/** The maker's signature and public key from its part (or from a completed swap unlocking, which ends with them). */
export function readMakerOffer(makerPart: string): { signature: string; publicKey: string } | null {
  const pushes = readPushes(makerPart, 0);
  if (!pushes || pushes.length < 2) return null;
  const [signature, publicKey] = pushes.slice(-2);
  if (!/^(02|03)[0-9a-f]{64}$/.test(publicKey) || signature.length < 18) return null;
  if (parseInt(signature.slice(-2), 16) !== STAS_SIGHASH_SINGLE_ACP_FORKID) return null;
  return { signature, publicKey };
}

/**
 * Why a swap transaction does not have the layout the templates enforce (null when it has): `spent` is the
 * output each input spends, in input order. Checked before anything is signed, so a taker's mistake is a
 * clear refusal rather than a transaction the network refuses.
 */
export function swapLayoutProblem(tx: Transaction, spent: SpentOutput[]): string | null {
  if (tx.inputs.length !== 3 || spent.length !== 3)
    return 'a STAS swap has three inputs: the offered tokens, what the taker pays with (one output), and the funding';
  const [offered, payment, funding] = spent;
  if (!isStasLike(offered.script)) return 'input 0 must be the offered token output';
  if (!isP2pkh(payment.script) && !isStasLike(payment.script)) return 'input 1 must be a P2PKH output or a STAS-family token output';
  if (!isP2pkh(funding.script)) return 'the funding (the last input) must be a P2PKH output';
  const outs = tx.outputs.map((o) => ({ script: o.lockingScript.toHex(), satoshis: o.satoshis ?? 0 }));
  if (outs.length < 3)
    return 'a STAS swap has at least three outputs: the asked-for output, the offered tokens to the taker, and the change';
  const unpaired = outs.findIndex((o) => pairKeyHash(o.script) === null);
  if (unpaired >= 0) return `output ${unpaired} does not start with a P2PKH: the STAS unlocking names an owner for every output`;
  if (!sameButOwner(outs[0].script, payment.script)) return 'output 0 must be what input 1 holds (the same script), to the maker';
  if (!sameButOwner(outs[1].script, offered.script) || outs[1].satoshis !== offered.satoshis)
    return 'output 1 must hold all the offered tokens (the same script and value), to the taker';
  const rest = outs.slice(2, -1);
  if (rest.some((o) => !sameButOwner(o.script, payment.script)))
    return "outputs between the offered tokens and the change must be the taker's change of input 1 (its script)";
  const paid = outs[0].satoshis + rest.reduce((s, o) => s + o.satoshis, 0);
  if (paid !== payment.satoshis)
    return `output 0 and the taker's change must hold exactly input 1's ${payment.satoshis} satoshis (they hold ${paid})`;
  if (!isP2pkh(outs[outs.length - 1].script)) return "the last output must be the funding's change (P2PKH)";
  return null;
}

export interface SwapUnlockParams {
  protocol: StasProtocol;
  slots: StasSlots;
  tx: Transaction;
  /** 0 for the offered (maker's) input, 1 for a taker's token input. */
  inputIndex: 0 | 1;
  /** The output this input spends. */
  spent: SpentOutput;
  /** The whole parent transaction (hex) of the other swap input. */
  otherParent: string;
  /** The owner's signature (checksig format, hex) and public key. */
  signature: string;
  publicKey: string;
}

/** The unlocking script (hex) of one token input of a fully built swap transaction (layout above). */
export function swapUnlocking(p: SwapUnlockParams): string {
  if (!STAS_SWAP_CAPABLE[p.protocol]) throw swapUnsupported(p.protocol);
  const { tx } = p;
  if (tx.inputs.length !== 3) throw refuse('a STAS swap has three inputs: the offered tokens, the taker’s payment, the funding');
  const other = tx.inputs[1 - p.inputIndex];
  let parent: Transaction;
  try {
    parent = Transaction.fromHex(p.otherParent);
  } catch {
    throw refuse("the other swap input's parent transaction does not parse");
  }
  if (parent.id('hex') !== (other.sourceTXID ?? other.sourceTransaction?.id('hex')) || !parent.outputs[other.sourceOutputIndex])
    throw refuse("the parent transaction given is not the other swap input's");
  const out: string[] = [];
  tx.outputs.forEach((o, i) => {
    const pkh = pairKeyHash(o.lockingScript.toHex());
    if (!pkh) throw refuse(`output ${i} does not start with a P2PKH: the STAS unlocking names an owner for every output`);
    out.push(minimalNumber(o.satoshis ?? 0), minimalPush(pkh));
    if (i === 0 && p.slots.afterFirstPair) out.push(minimalPush(''));
  });
  if (p.slots.afterPairs) out.push(minimalPush(''));
  const funding = tx.inputs[2];
  const fundingTxid = funding.sourceTXID ?? funding.sourceTransaction!.id('hex');
  out.push(minimalNumber(funding.sourceOutputIndex), minimalPush(Buffer.from(fundingTxid, 'hex').reverse().toString('hex')));
  out.push(minimalNumber(other.sourceOutputIndex), minimalPush(p.otherParent), minimalNumber(SWAP_SPENDING_TYPE));
  const preimage = Utils.toHex(bip143(tx, p.inputIndex, p.spent, SIGHASH_ALL_FORKID));
  out.push(minimalPush(preimage), minimalPush(p.signature), minimalPush(p.publicKey));
  return out.join('');
}

/** The taker's own token input (input 1) paying for an offer: signed SIGHASH_ALL|FORKID over the whole swap. */
export function takerPaymentUnlocking(p: Omit<SwapUnlockParams, 'inputIndex' | 'signature' | 'publicKey'> & { key: PrivateKey }): string {
  const signature = sign(p.key, bip143(p.tx, 1, p.spent, SIGHASH_ALL_FORKID), SIGHASH_ALL_FORKID);
  return swapUnlocking({ ...p, inputIndex: 1, signature, publicKey: p.key.toPublicKey().toString() });
}

/** What the rule needs from the template it belongs to. */
export interface StasSwapHost {
  readonly protocol: StasProtocol;
  /** One token per output (STAS-789): the template refuses to split it, so it pays whole. */
  readonly fungible: boolean;
  parse(script: string): TokenScript | null;
}

/** The parent transaction (hex) of a swap input: given, or the input's attached source transaction. */
function parentOf(tx: Transaction, inputIndex: number, given: string | null | undefined): string {
  const hex = given ?? tx.inputs[inputIndex]?.sourceTransaction?.toHex();
  if (!hex) throw refuse(`a STAS swap needs the whole parent transaction of input ${inputIndex} (the template hashes it to its outpoint)`);
  return hex;
}

/**
 * The STAS family's `SwapRule` (template.ts). The maker's part is its SINGLE|ANYONECANPAY signature and key;
 * the taker completes the offered input's unlocking script (everything but that signature is public: the
 * outputs, the funding outpoint, the taker's parent transaction and the preimage, which needs no key).
 * `complete` and `unlockPayment` take the other input's parent as `otherParent` when given, else from the
 * other input's `sourceTransaction`.
 */
export class StasSwapRule implements SwapRule {
  readonly offerSequence = STAS_SWAP_SEQUENCE;

  constructor(
    private readonly host: StasSwapHost,
    private readonly slots: StasSlots,
  ) {}

  canOffer(script: string): boolean {
    return STAS_SWAP_CAPABLE[this.host.protocol] && this.host.parse(script) !== null;
  }

  offer(o: SwapOffer): string {
    if (!STAS_SWAP_CAPABLE[this.host.protocol]) throw swapUnsupported(this.host.protocol);
    const token = this.host.parse(o.script);
    if (!token) throw refuse(`the offered output is not a ${this.host.protocol} token output`);
    if (o.tx.inputs.length !== 1 || o.tx.outputs.length !== 1)
      throw refuse('a STAS offer has exactly one input (the offered tokens) and one output (what is asked for)');
    const asked = o.tx.outputs[0];
    const problem = askedOutputProblem(o.script, token, { script: asked.lockingScript.toHex(), satoshis: asked.satoshis ?? 0 });
    if (problem) throw refuse(problem);
    if ((o.tx.inputs[0].sequence ?? 0xffffffff) !== STAS_SWAP_SEQUENCE) throw refuse('the offered input must carry the final sequence');
    return makerOffer(o.tx, o.inputIndex, { script: o.script, satoshis: o.satoshis }, o.key);
  }

  readOffer(makerPart: string): { signature: string; publicKey: string } | null {
    return readMakerOffer(makerPart);
  }

  /** Why a built swap transaction does not have the layout the templates enforce (`swapLayoutProblem`); null when it has. */
  layoutProblem(tx: Transaction, spent: SpentOutput[]): string | null {
    return swapLayoutProblem(tx, spent);
  }

  complete(c: SwapCompletion): string {
    const maker = readMakerOffer(c.makerPart);
    if (!maker) throw refuse('the offered input carries no maker signature (SIGHASH_SINGLE|ANYONECANPAY)');
    if (c.inputIndex !== 0) throw refuse('the offered input of a STAS swap is input 0');
    // The template sends all the offered tokens to output 1, to one owner: no split in a swap.
    if (c.firstTokenOutput !== 1 || c.tokenOutputs.length !== 1 || c.tokenOutputs[0].satoshis !== c.satoshis)
      throw refuse('a STAS swap sends all the offered tokens to output 1, to one owner');
    return swapUnlocking({
      protocol: this.host.protocol,
      slots: this.slots,
      tx: c.tx,
      inputIndex: 0,
      spent: { script: c.script, satoshis: c.satoshis },
      otherParent: parentOf(c.tx, 1, c.otherParent),
      signature: maker.signature,
      publicKey: maker.publicKey,
    });
  }

  unlockPayment(u: SwapPayment): string {
    if (u.inputIndex !== 1) throw refuse("the taker's token input of a STAS swap is input 1");
    if (u.firstTokenOutput !== 0)
      throw refuse("a STAS swap pays the asked-for tokens at output 0 (the taker's change after the offered tokens)");
    if (!this.host.fungible && u.tx.outputs.length > 3)
      throw refuse(`a ${this.host.protocol} NFT pays whole for an offer: its template refuses change of it`);
    return takerPaymentUnlocking({
      protocol: this.host.protocol,
      slots: this.slots,
      tx: u.tx,
      spent: { script: u.script, satoshis: u.satoshis },
      otherParent: parentOf(u.tx, 0, u.otherParent),
      key: u.key,
    });
  }
}
