import { preimageAndSignature } from './preimage.js';
import { dataPush, hexUtf8, minimalNumber, minimalPush, readPushes, utf8Hex } from './script-bytes.js';
import { STAS_SWAP_CAPABLE, StasSwapRule } from './stas-swap.js';
import type { LockParams, StasProtocol, SwapRule, TokenScript, TokenTemplate, TokenUnlock } from './template.js';

export const DESTINATION_PLACEHOLDER = '[destinationPublicKeyHash]';
export const REDEMPTION_PLACEHOLDER = '[redemptionPublicKeyHash]';

/** What a protocol of the STAS family adds to its template and puts in its unlocking scripts (reference §4.2, §4.5). */
const FAMILY: Record<
  StasProtocol,
  { flags: boolean; fungible: boolean; issuerRedeemsOnly: boolean; noteSlot: boolean; appendSlot: boolean; maxTokenOutputs: number }
> = {
  // Legacy STAS: a flags push (00 splittable, 01 not) before the symbol; splits into up to four outputs.
  STAS: { flags: true, fungible: true, issuerRedeemsOnly: false, noteSlot: false, appendSlot: false, maxTokenOutputs: 4 },
  // STAS-20: fungible; a note slot after the pairs; only an issuer-owned output is redeemed.
  'STAS-20': { flags: false, fungible: true, issuerRedeemsOnly: true, noteSlot: true, appendSlot: false, maxTokenOutputs: 4 },
  // STAS-789: an NFT with data that can be appended on transfer; its slot follows the first pair.
  'STAS-789': { flags: false, fungible: false, issuerRedeemsOnly: false, noteSlot: false, appendSlot: true, maxTokenOutputs: 1 },
};

/**
 * The size range of a STAS-family template, both key hashes filled in (reference §4.2: the family's
 * templates measure 1,214 B (STAS-789) to 1,431 B (legacy STAS), STAS-50 5,343 B). Shorter than 1,000 B
 * cannot hold the family's in-script signing and output rebuilding; a P2PKH look-alike is 45 B.
 */
export const STAS_TEMPLATE_MIN_BYTES = 1_000;
export const STAS_TEMPLATE_MAX_BYTES = 8_000;

/** Opcodes that make a script invalid wherever they stand (OP_VERIF, OP_VERNOTIF, and the undefined range). */
const INVALID_OPCODES = (op: number) => op === 0x65 || op === 0x66 || op > 0xb9;

/**
 * Checks a template the organisation installs against the STAS family's structure (reference §4.2):
 * hex with each placeholder exactly once; `76a914[destinationPublicKeyHash]88ac` then OP_VERIFY; a token
 * body that parses as script and uses the family's mechanics (OP_CHECKSIG(VERIFY) on the sighash preimage
 * it is given, a hash of the outputs, OP_SPLIT and OP_CAT to take the preimage apart and rebuild the
 * outputs); ending `OP_RETURN 14[redemptionPublicKeyHash]`; within the family's size range. The reason
 * is null when it fits, else says what does not.
 */
export function checkStasTemplate(template: string): string | null {
  const t = template.trim();
  const count = (p: string) => t.split(p).length - 1;
  if (count(DESTINATION_PLACEHOLDER) !== 1 || count(REDEMPTION_PLACEHOLDER) !== 1)
    return `it must contain ${DESTINATION_PLACEHOLDER} and ${REDEMPTION_PLACEHOLDER} once each`;
  if (!t.startsWith(`76a914${DESTINATION_PLACEHOLDER}88ac`))
    return `it must start with the owner's P2PKH: 76a914${DESTINATION_PLACEHOLDER}88ac`;
  const hex = t.replace(DESTINATION_PLACEHOLDER, '').replace(REDEMPTION_PLACEHOLDER, '');
  if (!/^([0-9a-f]{2})+$/.test(hex)) return 'apart from the placeholders it must be lower-case hex, whole bytes';
  const bytes = hex.length / 2 + 40;
  if (bytes < STAS_TEMPLATE_MIN_BYTES || bytes > STAS_TEMPLATE_MAX_BYTES) {
    return `it is ${bytes} bytes with both key hashes; a STAS-family template is ${STAS_TEMPLATE_MIN_BYTES.toLocaleString('en-US')} to ${STAS_TEMPLATE_MAX_BYTES.toLocaleString('en-US')} bytes (not a P2PKH look-alike)`;
  }
  const head = `76a914${DESTINATION_PLACEHOLDER}88ac69`;
  if (!t.startsWith(head)) return `the owner's P2PKH must be followed by OP_VERIFY (69), as in every STAS-family template`;
  const tail = `6a14${REDEMPTION_PLACEHOLDER}`;
  if (!t.endsWith(tail)) return `it must end with OP_RETURN and the redemption key hash: 6a14${REDEMPTION_PLACEHOLDER}`;
  const body = t.slice(head.length, t.length - tail.length);
  const ops = opcodesOf(`${body}6a`);
  if (!ops || ops[ops.length - 1] !== 0x6a)
    return 'its body does not parse as script ending in OP_RETURN (a push runs past it or over the end)';
  const bad = ops.find(INVALID_OPCODES);
  if (bad !== undefined) return `its body holds an invalid opcode (0x${bad.toString(16)})`;
  const has = (...codes: number[]) => ops.some((op) => codes.includes(op));
  if (!has(0xac, 0xad)) return 'its body has no OP_CHECKSIG: a STAS-family template checks the sighash preimage it is given';
  if (!has(0xaa, 0xa8)) return 'its body has no OP_HASH256 or OP_SHA256: a STAS-family template hashes the outputs it rebuilds';
  if (!has(0x7f) || !has(0x7e))
    return 'its body has no OP_SPLIT and OP_CAT: a STAS-family template takes the preimage apart and rebuilds the outputs';
  return null;
}

/** The opcodes of a script, pushes as their opcode (data skipped); null when a push runs past the end. */
function opcodesOf(hex: string): number[] | null {
  const out: number[] = [];
  const total = hex.length / 2;
  const byte = (k: number) => parseInt(hex.slice(k * 2, k * 2 + 2), 16);
  let i = 0;
  while (i < total) {
    const op = byte(i);
    out.push(op);
    let len = 0;
    let start = i + 1;
    if (op >= 1 && op <= 0x4b) len = op;
    else if (op === 0x4c) [len, start] = [byte(i + 1), i + 2];
    else if (op === 0x4d) [len, start] = [byte(i + 1) | (byte(i + 2) << 8), i + 3];
    else if (op === 0x4e) [len, start] = [(byte(i + 1) | (byte(i + 2) << 8) | (byte(i + 3) << 16)) + byte(i + 4) * 0x1000000, i + 5];
    if (start + len > total || Number.isNaN(len)) return null;
    i = start + len;
  }
  return out;
}

/**
 * A licensed STAS-family template, installed by the organisation as the locking-script hex the public STAS
 * SDKs publish, with `[destinationPublicKeyHash]` and `[redemptionPublicKeyHash]`. The bytes never ship with
 * Keystead. The script is the template with both hashes filled in, then (legacy STAS) the flags push, the
 * symbol push and the data pushes. Unlocking, for the token input (input 0, or inputs 0 and 1 in a merge):
 *   <amount> <pkh> for every output — the redemption, the token outputs and the change, in order
 * (STAS-789: a data slot after the first pair; STAS-20: a note slot after the last), the funding outpoint (vout, txid little-endian), the
 * spending type (OP_0; in a
 *   merge: the other input's vout, the pieces of its parent transaction cut at the token script, and their
 *   count), the BIP143 preimage, the owner's signature and public key.
 */
export class StasTemplate implements TokenTemplate {
  readonly fungible: boolean;
  readonly issuerRedeemsOnly: boolean;
  readonly maxTokenOutputs: number;
  readonly canMerge: boolean;
  /** The family's swap spending type (stas-swap.ts), for the protocols whose template implements it. */
  readonly swap?: SwapRule;
  private readonly head: string;
  private readonly middle: string;
  private readonly tail: string;

  constructor(
    readonly protocol: StasProtocol,
    readonly template: string,
  ) {
    const problem = checkStasTemplate(template);
    if (problem) throw new Error(`the ${protocol} template is not usable: ${problem}`);
    const f = FAMILY[protocol];
    this.fungible = f.fungible;
    this.issuerRedeemsOnly = f.issuerRedeemsOnly;
    this.maxTokenOutputs = f.maxTokenOutputs;
    this.canMerge = f.fungible;
    if (STAS_SWAP_CAPABLE[protocol]) this.swap = new StasSwapRule(this, { afterFirstPair: f.appendSlot, afterPairs: f.noteSlot });
    const t = template.trim();
    const d = t.indexOf(DESTINATION_PLACEHOLDER);
    const r = t.indexOf(REDEMPTION_PLACEHOLDER);
    this.head = t.slice(0, d);
    this.middle = t.slice(d + DESTINATION_PLACEHOLDER.length, r);
    this.tail = t.slice(r + REDEMPTION_PLACEHOLDER.length);
  }

  lock(p: LockParams): string {
    const flags = FAMILY[this.protocol].flags ? dataPush(p.splittable ? '00' : '01') : '';
    return `${this.head}${p.owner}${this.middle}${p.redemption}${this.tail}${flags}${dataPush(utf8Hex(p.symbol))}${p.data.map(dataPush).join('')}`;
  }

  parse(script: string): TokenScript | null {
    const h = this.head.length;
    const m = this.middle.length;
    if (!script.startsWith(this.head) || script.slice(h + 40, h + 40 + m) !== this.middle) return null;
    const afterRedemption = h + 40 + m + 40;
    if (script.slice(afterRedemption, afterRedemption + this.tail.length) !== this.tail) return null;
    const owner = script.slice(h, h + 40);
    const redemption = script.slice(h + 40 + m, h + 40 + m + 40);
    if (!/^[0-9a-f]{40}$/.test(owner) || !/^[0-9a-f]{40}$/.test(redemption)) return null;
    const pushes = readPushes(script, (afterRedemption + this.tail.length) / 2);
    if (!pushes) return null;
    const flags = FAMILY[this.protocol].flags;
    if (pushes.length < (flags ? 2 : 1)) return null;
    const splittable = flags ? pushes[0] !== '01' : this.fungible;
    const rest = flags ? pushes.slice(1) : pushes;
    return { protocol: this.protocol, owner, redemption, symbol: hexUtf8(rest[0]), data: rest.slice(1), splittable };
  }

  unlock(u: TokenUnlock): string {
    const f = FAMILY[this.protocol];
    const pairs = [...(u.redeem ? [u.redeem] : []), ...u.tokenOutputs, ...(u.change ? [u.change] : [])];
    const out: string[] = [];
    pairs.forEach((p, i) => {
      out.push(minimalNumber(p.satoshis), minimalPush(p.owner));
      if (i === 0 && f.appendSlot) out.push(minimalPush(''));
    });
    if (f.noteSlot) out.push(minimalPush(''));
    if (u.funding) out.push(minimalNumber(u.funding.vout), minimalPush(Buffer.from(u.funding.txid, 'hex').reverse().toString('hex')));
    else out.push(minimalPush(''), minimalPush(''), minimalPush(''), minimalPush(''));
    if (u.kind === 'merge') {
      // The other token input's parent transaction, cut wherever the token script (after the owner) occurs, pieces in reverse.
      const other = u.tx.inputs[1 - u.inputIndex];
      const pieces = (u.otherParent ?? '').split(u.script.slice(46)).reverse();
      out.push(minimalNumber(other.sourceOutputIndex), ...pieces.map(minimalPush), minimalNumber(pieces.length));
    } else out.push(minimalNumber(0));
    const { preimage, signature } = preimageAndSignature(u);
    out.push(minimalPush(preimage), minimalPush(signature), minimalPush(u.key.toPublicKey().toString()));
    return out.join('');
  }
}
