import type { CoreServices, Repos, TransactionServices } from '../context.js';
import type { WalletSync } from '../sync/wallet-sync.js';
import type { TemplateRegistry } from '../token-templates/registry.js';
import type { WalletServices } from '../wallets/services.js';
import type { PaymailHostMap } from './host-map.js';
import type { PaymailClient } from './client.js';

/**
 * What the paymail host and its settings need: the wallets behind the aliases, their addresses, the
 * references it issues, the books to record what it receives, and the token templates, to accept tokens
 * sent to a destination.
 */
export interface PaymailServices extends CoreServices, TransactionServices, Pick<WalletServices, 'addressBook' | 'chain'> {
  repos: Pick<Repos, 'wallets' | 'addresses' | 'payments' | 'walletTxs' | 'invoices'>;
  sync: WalletSync;
  paymailHosts: PaymailHostMap;
  /** To ask a sender's host whether a key is theirs. */
  paymail: PaymailClient;
  tokenTemplates: TemplateRegistry;
}
