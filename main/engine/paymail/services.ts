import type { TemplateRegistry } from '../tokens/templates/registry.js';
import type { WalletServices } from '../wallets/services.js';
import type { PaymailHostMap } from './host-map.js';
import type { PaymailClient } from './client.js';

/** What the paymail host and its settings need; the token templates, to accept tokens sent to a destination. */
export interface PaymailServices extends WalletServices {
  paymailHosts: PaymailHostMap;
  /** To ask a sender's host whether a key is theirs. */
  paymail: PaymailClient;
  tokenTemplates: TemplateRegistry;
}
