import type { ChainProvider } from '../../chain/types.js';
import type { Throttle } from '../auth/throttle.js';
import type { AuditTrail } from '../audit/trail.js';
import type { CoreServices, Repos, TransactionServices } from '../context.js';
import type { PaymentServices } from '../payments/services.js';
import type { TemplateRegistry } from '../token-templates/registry.js';
import type { AppGate } from './gate.js';

/** What the apps capability needs: its table, settings (the default wallet for apps), wallets to answer with. */
export interface AppServices extends CoreServices, TransactionServices {
  repos: Pick<Repos, 'apps' | 'settings' | 'wallets' | 'users' | 'appActions' | 'appOutputs'>;
  appGate: AppGate;
}

/** What the Apps view's record of app activity reads. */
export interface AppActivityServices extends CoreServices {
  repos: Pick<Repos, 'appActivity'>;
}

/**
 * The organisation's grants to apps (permissions/): the BRC-100 methods ask them, admins and managers decide
 * them; a waiting request waits at the app gate, keyed by the request; currency limits read the rate table.
 */
export interface AppPermissionServices extends CoreServices, TransactionServices {
  repos: Pick<Repos, 'apps' | 'appPermissions' | 'rates' | 'users'>;
  appGate: AppGate;
}

/** The certificates wallets hold (certificates/): the BRC-100 methods and the Apps view's list and relinquish. */
export interface AppCertificatesServices extends CoreServices {
  repos: Pick<Repos, 'appCertificates' | 'wallets' | 'apps'>;
}

/**
 * What serving the BRC-100 methods needs beyond that: seeds to open, the chain, the audit trail, and what
 * paying needs (an action that moves value is a value move like any payment: payments/value-flow.ts).
 */
export type Brc100Services = AppServices &
  AppActivityServices &
  AppCertificatesServices &
  AppPermissionServices &
  PaymentServices & {
    throttle: Throttle;
    sealingKey(): Buffer;
    chain: ChainProvider;
    auditTrail: AuditTrail;
    /** Recognises token outputs an action spends (actions/: an app's spend of a token is asked for by asset). */
    tokenTemplates: TemplateRegistry;
    /** listActions, listOutputs, relinquishOutput and internalizeAction's rows (outputs/); approved app actions (actions/scope.ts). */
    /** Token and 1Sat outputs the books hold, which no app names as its input (actions/inputs.ts). */
    repos: Pick<Repos, 'appOutputQueries' | 'approvals' | 'tokens' | 'ordinals'>;
  };
