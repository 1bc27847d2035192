import type { Repos } from '../context.js';
import type { PaymailClient } from '../paymail/client.js';
import type { WalletSync } from '../sync/wallet-sync.js';
import type { WalletServices } from '../wallets/services.js';
import type { AuthoriseValueMove } from '../value-move.js';
import type { KeyRing } from './keyring.js';
import type { TemplateRegistry } from '../token-templates/registry.js';
import type { GroupedCommits } from '../../store/grouped-commits.js';

/**
 * What paying needs besides wallets: the addresses, coins, history, attempts and rates, the books to record
 * what it sends, keys to sign, paymail to deliver, and which payments are in flight.
 */
export interface PaymentServices extends WalletServices {
  repos: Pick<Repos, 'users' | 'organisation' | 'wallets' | 'addresses' | 'walletUtxos' | 'walletTxs' | 'payments' | 'rates'>;
  sync: WalletSync;
  keyring: KeyRing;
  paymail: PaymailClient;
  /** A value move's steps commit here: moves that reach a step in the same turn share one commit (grouped-commits.ts). */
  commits: GroupedCommits;
  /** Payment attempts being delivered right now, which settling leaves alone. */
  inFlight: Set<string>;
  /**
   * Whether a recorded transaction is held back by who made it (an app's noSend action, until it sends it
   * with sendWith or aborts it): settling never sends it, and its coins stay reserved. Persistent, so a
   * restart does not send it either.
   */
  heldBack?: (attempt: string) => boolean;
  /** The organisation's check of every value move before it is signed (see value-flow.ts). */
  authoriseValueMove: AuthoriseValueMove;
  /** Whose key spends an output (a plain P2PKH's or a token's owner): what the policy and a paymail's vouch go by. */
  tokenTemplates: Pick<TemplateRegistry, 'holder' | 'recognise'>;
}
