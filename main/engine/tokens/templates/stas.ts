import { preimageAndSignature } from './preimage.js';
import { dataPush, hexUtf8, minimalNumber, minimalPush, readPushes, utf8Hex } from './script-bytes.js';
import type { LockParams, StasProtocol, TokenScript, TokenTemplate, TokenUnlock } from './template.js';

export const DESTINATION_PLACEHOLDER = '[destinationPublicKeyHash]';
export const REDEMPTION_PLACEHOLDER = '[redemptionPublicKeyHash]';

/** What a protocol of the STAS family adds to its template and puts in its unlocking scripts (reference §4.2, §4.5). */
const FAMILY: Record<StasProtocol, { flags: boolean; fungible: boolean; issuerRedeemsOnly: boolean; noteSlot: boolean; appendSlot: boolean; maxTokenOutputs: number }> = {
  // Legacy STAS: a flags push (00 splittable, 01 not) before the symbol; splits into up to four outputs.
  STAS: { flags: true, fungible: true, issuerRedeemsOnly: false, noteSlot: false, appendSlot: false, maxTokenOutputs: 4 },
  // STAS-20: fungible; a note slot after the pairs; only an issuer-owned output is redeemed.
  'STAS-20': { flags: false, fungible: true, issuerRedeemsOnly: true, noteSlot: true, appendSlot: false, maxTokenOutputs: 4 },
  // STAS-789: an NFT with data that can be appended on transfer; its slot follows the first pair.
  'STAS-789': { flags: false, fungible: false, issuerRedeemsOnly: false, noteSlot: false, appendSlot: true, maxTokenOutputs: 1 },
};

/** Checks a template the organisation installs: hex with each placeholder exactly once, the owner's P2PKH first. */
export function checkStasTemplate(template: string): string | null {
  const t = template.trim();
  const count = (p: string) => t.split(p).length - 1;
  if (count(DESTINATION_PLACEHOLDER) !== 1 || count(REDEMPTION_PLACEHOLDER) !== 1) return `it must contain ${DESTINATION_PLACEHOLDER} and ${REDEMPTION_PLACEHOLDER} once each`;
  if (!t.startsWith(`76a914${DESTINATION_PLACEHOLDER}88ac`)) return `it must start with the owner's P2PKH: 76a914${DESTINATION_PLACEHOLDER}88ac`;
  const hex = t.replace(DESTINATION_PLACEHOLDER, '').replace(REDEMPTION_PLACEHOLDER, '');
  if (!/^([0-9a-f]{2})+$/.test(hex)) return 'apart from the placeholders it must be lower-case hex, whole bytes';
  if (hex.length > 200_000) return 'it is larger than 100 KB';
  return null;
}

/**
 * A licensed STAS-family template, installed by the organisation as the locking-script hex the public STAS
 * SDKs publish, with `[destinationPublicKeyHash]` and `[redemptionPublicKeyHash]`. The bytes never ship with
 * Keystead. The script is the template with both hashes filled in, then (legacy STAS) the flags push, the
 * symbol push and the data pushes. Unlocking, for the token input (input 0, or inputs 0 and 1 in a merge):
 *   <amount> <pkh> for every output — the redemption, the token outputs and the change, in order
 *   (STAS-789: a data slot after the first pair; STAS-20: a note slot after the last), the funding outpoint (vout, txid little-endian), the spending type (OP_0; in a
 *   merge: the other input's vout, the pieces of its parent transaction cut at the token script, and their
 *   count), the BIP143 preimage, the owner's signature and public key.
 */
export class StasTemplate implements TokenTemplate {
  readonly fungible: boolean;
  readonly issuerRedeemsOnly: boolean;
  readonly maxTokenOutputs: number;
  readonly canMerge: boolean;
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
