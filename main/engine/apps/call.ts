import type { PrivateKey, WalletProtocol } from '@bsv/sdk';
import type { AppRow } from '../../store/repos/apps.js';
import type { WalletRow } from '../../store/repos/wallets.js';
import type { Args } from './args.js';
import type { Brc100Services } from './services.js';

/**
 * One call of an allowed app, as the handlers of a group of BRC-100 methods (actions/, outputs/,
 * certificates/) receive it: the app, the wallet that answers it, the checked-to-be-an-object arguments, and
 * the wallet's root key on demand (opened once, kept in memory by RootKeys, never logged).
 */
export interface AppCall {
  services: Brc100Services;
  app: AppRow;
  wallet: WalletRow;
  args: Args;
  /** The caller's remote address, for the audit trail. */
  client: string;
  rootKey(): Promise<PrivateKey>;
  /** Writes `brc100.<what>` to the audit trail with the app and wallet; `code` null on success. */
  audit(what: string, code: string | null, detail?: string): void;
  /** The organisation's grants to this app: every use of a protocol, basket, certificate or spend asks here first. */
  permit: AppPermit;
}

/** What leaves the wallet in one action, by asset: satoshis alone do not say it (a 1-sat token output is worth more). */
export interface SpendRequest {
  /** Net satoshis the wallet loses (what it pays others plus the fee, less what comes back to it). */
  satoshis: number;
  /** Other assets leaving the wallet: `token:<tokenId>` (amount in token units), `ordinal` (count of 1-sat outputs). */
  assets: { asset: string; amount: number }[];
  /** The app's description of the action, shown to whoever decides. */
  description: string;
}

/** A spend counted against the app's authorisation; released when the action ends before anything is sent. */
export interface SpendHold {
  release(): void;
}

/**
 * The checks of an app's grants (permissions/). Each resolves when the organisation granted the use (an
 * ungranted one may wait for an admin's decision, as a new app does) and throws WERR_UNAUTHORIZED otherwise.
 */
export interface AppPermit {
  /** `privileged`: the wallet's privileged keys of the protocol (a grant of their own, at every security level). */
  protocol(protocolID: WalletProtocol, counterparty: string, purpose: string, privileged?: boolean): Promise<void>;
  basket(basket: string, purpose: 'insert' | 'list' | 'spend' | 'relinquish' | 'internalize'): Promise<void>;
  certificate(
    type: string,
    purpose: 'acquire' | 'list' | 'prove' | 'relinquish' | 'disclose',
    fields?: readonly string[],
    verifier?: string,
  ): Promise<void>;
  /** Counts the spend against the app's monthly authorisation (atomically: two actions never share one remainder). */
  spend(request: SpendRequest): Promise<SpendHold>;
}

/** A handler of one BRC-100 method: its answer, or a WalletErr (werr.ts) the listener answers with. */
export type MethodHandler = (call: AppCall) => Promise<unknown>;
