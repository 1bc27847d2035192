import type { PrivateKey, Transaction } from '@bsv/sdk';
import type { TokenProtocol } from '../../../shared/token-protocols.js';

// The protocols themselves are a shared fact (schemas, lookup, UI): defined once in shared/token-protocols.ts.
export { STAS_PROTOCOL_IDS as STAS_PROTOCOLS, TOKEN_PROTOCOL_IDS as TOKEN_PROTOCOLS } from '../../../shared/token-protocols.js';
export type { StasProtocol, TokenProtocol } from '../../../shared/token-protocols.js';

/** What a token output's locking script says. */
export interface TokenScript {
  protocol: TokenProtocol;
  /** Key hash of the owner (hex). */
  owner: string;
  /** Key hash of the redemption address: the issuer's; with the symbol, the token's identity. */
  redemption: string;
  symbol: string;
  /** Data pushes after the symbol (hex): an NFT's per-token data. */
  data: string[];
  /** Legacy STAS's flag byte; the protocol's rule for the others. */
  splittable: boolean;
}

export const tokenIdOf = (t: Pick<TokenScript, 'redemption' | 'symbol'>) => `${t.redemption}-${t.symbol}`;

export interface LockParams {
  owner: string;
  redemption: string;
  symbol: string;
  data: string[];
  splittable: boolean;
}

/** One token input being signed, with everything its unlocking script may need. */
export interface TokenUnlock {
  tx: Transaction;
  inputIndex: number;
  /** The locking script and value of the output being spent. */
  script: string;
  satoshis: number;
  /** The owner's key, which signs. */
  key: PrivateKey;
  kind: 'transfer' | 'merge' | 'redeem';
  /** The token outputs, in order (after the redemption output when redeeming). */
  tokenOutputs: { owner: string; satoshis: number }[];
  redeem: { owner: string; satoshis: number } | null;
  change: { owner: string; satoshis: number } | null;
  /** The funding input's outpoint (the last input). */
  funding: { txid: string; vout: number } | null;
  /** The other token input's parent transaction (hex), in a merge. */
  otherParent: string | null;
}

/**
 * A token template: how its outputs are written and recognised, and how a spend of one is unlocked.
 * Builders call these only, so a template whose bytes the organisation installs works unchanged.
 */
export interface TokenTemplate {
  readonly protocol: TokenProtocol;
  /** Fungible and splittable (split, merge, partial redeem), or one token per output (an NFT). */
  readonly fungible: boolean;
  /** Only an issuer-owned output can be redeemed (KST-20, STAS-20). */
  readonly issuerRedeemsOnly: boolean;
  /** The most token outputs one spend may create. */
  readonly maxTokenOutputs: number;
  /** Whether two outputs may be merged in one spend. */
  readonly canMerge: boolean;
  lock(p: LockParams): string;
  parse(script: string): TokenScript | null;
  /** The unlocking script (hex) for one token input of a fully built transaction. */
  unlock(u: TokenUnlock): string;
  /** How this template's outputs are offered and swapped atomically; absent when the template has no swap path. */
  readonly swap?: SwapRule;
}

/**
 * The maker's side of an offer: the offer transaction has the offered token output as input 0 and the output
 * asked for in return as output 0 (a P2PKH payment to the maker, or the wanted token's output owned by the
 * maker). The maker signs SIGHASH_SINGLE | ANYONECANPAY | FORKID: its own outpoint and output 0, nothing else.
 */
export interface SwapOffer {
  /** The offer transaction: input 0 the offered token output (with its sequence set by `offerSequence`), output 0 the asked-for output. */
  tx: Transaction;
  inputIndex: number;
  /** The locking script and value of the offered output. */
  script: string;
  satoshis: number;
  /** The maker (the offered output's owner). */
  key: PrivateKey;
}

/** The taker's completion of an offered input, once the whole swap transaction is built. */
export interface SwapCompletion {
  tx: Transaction;
  inputIndex: number;
  script: string;
  satoshis: number;
  /** What the maker put in the offered input's unlocking script at offer time (`SwapRule.offer`'s answer). */
  makerPart: string;
  /** The offered tokens' outputs, in order, from output `firstTokenOutput` on (owners: the taker's, usually). */
  tokenOutputs: { owner: string; satoshis: number }[];
  firstTokenOutput: number;
  /** The whole parent transaction (hex) of the other swap input, for rules that hash it in script (STAS). */
  otherParent?: string | null;
}

/**
 * A taker's own token input paying for an offer (token for token): it pays the output asked for (output 0,
 * the maker as owner) and the taker's change of that token, from output `firstTokenOutput` on, with the rest
 * of the transaction around them. The taker owns it and signs it over the whole transaction.
 */
export interface SwapPayment extends TokenUnlock {
  firstTokenOutput: number;
}

/**
 * A template's swap rule. For STAS the maker's part may be the whole final unlocking script (signed
 * SINGLE|ANYONECANPAY|FORKID with the family's "swap" spending type) and `complete` returns it unchanged;
 * for the open template (KST) it is the owner's signature, and the taker completes the script's own checks
 * (its OP_PUSH_TX preimage, the outputs around the tokens).
 */
export interface SwapRule {
  /** The sequence the offered input must carry (committed by the maker's signature; KST ties it to the SWAP kind). */
  readonly offerSequence: number;
  /** Whether this output (its locking script) can be offered by this rule: an earlier release may lack a swap path. */
  canOffer(script: string): boolean;
  /** The maker's part of the offered input's unlocking script (hex), made at offer time. */
  offer(o: SwapOffer): string;
  /** The maker's signature and public key read back from a maker's part (to check it when inspecting an offer); null if it is not one. */
  readOffer(makerPart: string): { signature: string; publicKey: string } | null;
  /** The offered input's final unlocking script (hex), once the taker has built the whole transaction. */
  complete(c: SwapCompletion): string;
  /** The unlocking script (hex) of a taker's own token input that pays for an offer. */
  unlockPayment(u: SwapPayment): string;
  /**
   * Why a built swap transaction does not have the layout this rule's scripts enforce (null when it has), for
   * rules with a fixed layout (STAS): `spent` is the output each input spends, in input order. Checked before
   * signing, so a mistake is a clear refusal rather than a transaction the network refuses.
   */
  layoutProblem?(tx: Transaction, spent: { script: string; satoshis: number }[]): string | null;
}
