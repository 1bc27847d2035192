import type { TemplateRegistry } from '../tokens/templates/registry.js';
import type { WalletServices } from '../wallets/services.js';
import type { PaymailHostMap } from './host-map.js';

/** What the paymail host and its settings need; the token templates, to accept tokens sent to a destination. */
export interface PaymailServices extends WalletServices {
  paymailHosts: PaymailHostMap;
  tokenTemplates: TemplateRegistry;
}
