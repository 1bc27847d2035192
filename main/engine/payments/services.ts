import type { PaymailClient } from '../paymail/client.js';
import type { WalletServices } from '../wallets/services.js';
import type { KeyRing } from './keyring.js';

/** What paying needs besides wallets: keys to sign, paymail to deliver, and which payments are in flight. */
export interface PaymentServices extends WalletServices {
  keyring: KeyRing;
  paymail: PaymailClient;
  /** Payment attempts being delivered right now, which settling leaves alone. */
  inFlight: Set<string>;
}
