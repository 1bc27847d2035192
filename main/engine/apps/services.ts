import type { ChainProvider } from '../../chain/types.js';
import type { Throttle } from '../auth/throttle.js';
import type { AuditTrail } from '../audit/trail.js';
import type { CoreServices, Repos, TransactionServices } from '../context.js';
import type { AppGate } from './gate.js';

/** What the apps capability needs: its table, settings (the default wallet for apps), wallets to answer with. */
export interface AppServices extends CoreServices, TransactionServices {
  repos: Pick<Repos, 'apps' | 'settings' | 'wallets' | 'users'>;
  appGate: AppGate;
}

/** What serving the BRC-100 methods needs beyond that: seeds to open, the chain, the audit trail. */
export interface Brc100Services extends AppServices {
  throttle: Throttle;
  sealingKey(): Buffer;
  chain: ChainProvider;
  auditTrail: AuditTrail;
}
