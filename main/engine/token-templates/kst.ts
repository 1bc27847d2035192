import type { KstCode } from './kst/compile-templates.js';
import { KST_CODE_V1, KST_CODE_V2 } from './kst/legacy-code.js';
import { KST_CODE } from './kst/templates.generated.js';
import { preimageAndSignature, prevouts } from './preimage.js';
import { dataPush, hexUtf8, minimalNumber, minimalPush, readPushes, utf8Hex } from './script-bytes.js';
import type { LockParams, SwapRule, TokenScript, TokenTemplate, TokenUnlock } from './template.js';
import { KstSwapRule } from './kst-swap.js';

const KINDS = { transfer: 0, merge: 1, redeem: 2, swap: 3 } as const;
/** The current release of the open template's code (kst/*.scrypt); releases from 3 on have the SWAP kind. */
export const KST_CURRENT_RELEASE = 3;
/** The code's array parameters: up to this many token outputs per spend. */
const MAX_TOKEN_OUTPUTS = 4;

/**
 * Keystead's open token template (KST-20 fungible, KST-789 NFT), compiled from kst/*.scrypt by our own
 * compiler at build time. Layout: `76a914 <owner> 88ac 69 <code> 6a 14 <redemption> <push symbol> [<push data>…]`.
 * The unlocking script is the code's `unlock` parameters in order, then the owner's signature and key:
 * kind, amounts[4], owners[4], count, redeemAmount, changeAmount, changeOwner, prevouts, otherParent, before, after, preimage,
 * sig, pubkey (`before` and `after` from release 3 on: the SWAP kind, see kst-swap.ts).
 */
export class KstTemplate implements TokenTemplate {
  readonly issuerRedeemsOnly: boolean;
  readonly maxTokenOutputs: number;
  readonly canMerge: boolean;
  private readonly code: string;
  readonly redeemAt: number;
  /** Release 3 on: the SWAP kind, and the unlocking's `before` and `after` parameters. */
  readonly swap?: SwapRule;

  constructor(
    readonly protocol: 'KST-20' | 'KST-789',
    readonly fungible: boolean,
    codes: readonly KstCode[] = KST_CODE,
    readonly release: number = codes === KST_CODE_V1 ? 1 : codes === KST_CODE_V2 ? 2 : KST_CURRENT_RELEASE,
  ) {
    const compiled = codes.find((c) => c.protocol === protocol);
    if (!compiled) throw new Error(`no compiled code for ${protocol}: run npm run build`);
    this.code = compiled.code;
    this.redeemAt = compiled.redeemAt;
    this.issuerRedeemsOnly = fungible;
    this.maxTokenOutputs = fungible ? MAX_TOKEN_OUTPUTS : 1;
    this.canMerge = fungible;
    if (release >= 3) this.swap = new KstSwapRule(this);
  }

  /** Script bytes before the owner-independent data: prefix, owner, `88ac69`, code, `6a`. */
  get codeBytes(): number {
    return this.code.length / 2;
  }

  lock(p: LockParams): string {
    return `76a914${p.owner}88ac69${this.code}6a${dataPush(p.redemption)}${dataPush(utf8Hex(p.symbol))}${p.data.map(dataPush).join('')}`;
  }

  parse(script: string): TokenScript | null {
    if (!script.startsWith('76a914') || script.slice(46, 52) !== '88ac69') return null;
    const codeEnd = 52 + this.code.length;
    if (script.slice(52, codeEnd) !== this.code || script.slice(codeEnd, codeEnd + 2) !== '6a') return null;
    const pushes = readPushes(script, codeEnd / 2 + 1);
    if (!pushes || pushes.length < 2 || pushes[0].length !== 40) return null;
    return {
      protocol: this.protocol,
      owner: script.slice(6, 46),
      redemption: pushes[0],
      symbol: hexUtf8(pushes[1]),
      data: pushes.slice(2),
      splittable: this.fungible,
    };
  }

  unlock(u: TokenUnlock): string {
    const { preimage, signature } = preimageAndSignature(u);
    return this.unlockingScript(
      u,
      KINDS[u.kind],
      { before: '', after: '' },
      preimage,
      minimalPush(signature) + minimalPush(u.key.toPublicKey().toString()),
    );
  }

  /**
   * The unlocking script: the code's parameters, then the owner's signature and key (`ownerPart`, two
   * pushes). Releases before 3 have no `before` and `after` parameters.
   */
  unlockingScript(
    u: Pick<TokenUnlock, 'tx' | 'tokenOutputs' | 'redeem' | 'change' | 'otherParent'>,
    kind: number,
    around: { before: string; after: string },
    preimage: string,
    ownerPart: string,
  ): string {
    if (u.tokenOutputs.length > this.maxTokenOutputs)
      throw new Error(`${this.protocol} creates at most ${this.maxTokenOutputs} token outputs per spend`);
    const slots = Array.from({ length: MAX_TOKEN_OUTPUTS }, (_, i) => u.tokenOutputs[i]);
    const pushes = [
      minimalNumber(kind),
      ...slots.map((o) => minimalNumber(o?.satoshis ?? 0)),
      ...slots.map((o) => minimalPush(o?.owner ?? '')),
      minimalNumber(u.tokenOutputs.length),
      minimalNumber(u.redeem?.satoshis ?? 0),
      minimalNumber(u.change?.satoshis ?? 0),
      minimalPush(u.change?.owner ?? ''),
      minimalPush(prevouts(u)),
      minimalPush(u.otherParent ?? ''),
      ...(this.release >= 3 ? [minimalPush(around.before), minimalPush(around.after)] : []),
      minimalPush(preimage),
      ownerPart,
    ];
    return pushes.join('');
  }
}

export const KST20 = new KstTemplate('KST-20', true);
export const KST789 = new KstTemplate('KST-789', false);

/**
 * Earlier releases of the open template's code. The code is what the build compiles, so a compiler change
 * changes it; outputs written with an earlier release keep that code for good (the script requires its
 * token outputs to carry its own code), so each release stays recognised and is moved with its own code.
 * New tokens are issued with the current one.
 */
export const KST_RELEASES: readonly KstTemplate[] = [
  KST20,
  KST789,
  new KstTemplate('KST-20', true, KST_CODE_V2, 2),
  new KstTemplate('KST-789', false, KST_CODE_V2, 2),
  new KstTemplate('KST-20', true, KST_CODE_V1, 1),
  new KstTemplate('KST-789', false, KST_CODE_V1, 1),
];
