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
}
