import type { WalletServices } from '../wallets/services.js';
import type { PaymailHostMap } from './host-map.js';

/** What the paymail host and its settings need. */
export interface PaymailServices extends WalletServices {
  paymailHosts: PaymailHostMap;
}
