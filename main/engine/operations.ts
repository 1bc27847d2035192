import type { OperationName, Operations } from '../../shared/operations.js';
import { APP_ACTIVITY_IMPLEMENTATIONS, APP_IMPLEMENTATIONS } from './apps/operations.js';
import { APP_CERTIFICATE_IMPLEMENTATIONS } from './apps/certificates/operations.js';
import { APP_PERMISSION_IMPLEMENTATIONS } from './apps/permissions/operations.js';
import { API_KEY_IMPLEMENTATIONS, SECOND_FACTOR_IMPLEMENTATIONS } from './auth/operations.js';
import { AUDIT_IMPLEMENTATIONS } from './audit/operations.js';
import { CHAIN_IMPLEMENTATIONS } from './chain/operations.js';
import { CONTRACT_IMPLEMENTATIONS } from './contracts/operations.js';
import { EVENT_IMPLEMENTATIONS } from './events/operations.js';
import { FEE_IMPLEMENTATIONS } from './fees/operations.js';
import { INVOICE_IMPLEMENTATIONS } from './invoices/operations.js';
import type { Implementation } from './operation.js';
import type { EngineServices } from './services.js';
import { NOT_OFFERED_IMPLEMENTATIONS } from './org/not-offered.js';
import { ORG_IMPLEMENTATIONS } from './org/operations.js';
import { PAYMAIL_IMPLEMENTATIONS } from './paymail/operations.js';
import { PAYEE_IMPLEMENTATIONS } from './payees/operations.js';
import { POLICY_IMPLEMENTATIONS } from './policies/operations.js';
import { PAYMENT_IMPLEMENTATIONS } from './payments/operations.js';
import { RATE_IMPLEMENTATIONS } from './rates/operations.js';
import { TOKEN_IMPLEMENTATIONS } from './tokens/operations.js';
import { SWAP_IMPLEMENTATIONS } from './swaps/operations.js';
import { ORDINALS_IMPLEMENTATIONS } from './ordinals/operations.js';
import { ACCOUNT_IMPLEMENTATIONS, USER_IMPLEMENTATIONS } from './users/operations.js';
import { WALLET_IMPLEMENTATIONS, WALLET_PAYMAIL_IMPLEMENTATIONS } from './wallets/operations.js';
import { UTILITY_IMPLEMENTATIONS } from './utilities/operations.js';
import { SWEEP_IMPLEMENTATIONS } from './sweep/operations.js';

/**
 * Every capability's implementations. The type makes a contract without a handler a compile error, and
 * so is a handler needing a service the engine does not build.
 */
export const IMPLEMENTATIONS = {
  ...POLICY_IMPLEMENTATIONS,
  ...ORG_IMPLEMENTATIONS,
  ...USER_IMPLEMENTATIONS,
  ...ACCOUNT_IMPLEMENTATIONS,
  ...API_KEY_IMPLEMENTATIONS,
  ...SECOND_FACTOR_IMPLEMENTATIONS,
  ...AUDIT_IMPLEMENTATIONS,
  ...WALLET_IMPLEMENTATIONS,
  ...WALLET_PAYMAIL_IMPLEMENTATIONS,
  ...CHAIN_IMPLEMENTATIONS,
  ...RATE_IMPLEMENTATIONS,
  ...PAYMENT_IMPLEMENTATIONS,
  ...FEE_IMPLEMENTATIONS,
  ...PAYMAIL_IMPLEMENTATIONS,
  ...CONTRACT_IMPLEMENTATIONS,
  ...TOKEN_IMPLEMENTATIONS,
  ...SWAP_IMPLEMENTATIONS,
  ...ORDINALS_IMPLEMENTATIONS,
  ...EVENT_IMPLEMENTATIONS,
  ...NOT_OFFERED_IMPLEMENTATIONS,
  ...INVOICE_IMPLEMENTATIONS,
  ...UTILITY_IMPLEMENTATIONS,
  ...SWEEP_IMPLEMENTATIONS,
  ...PAYEE_IMPLEMENTATIONS,
  ...APP_IMPLEMENTATIONS,
  ...APP_PERMISSION_IMPLEMENTATIONS,
  ...APP_ACTIVITY_IMPLEMENTATIONS,
  ...APP_CERTIFICATE_IMPLEMENTATIONS,
} satisfies { [N in OperationName]: Implementation<Operations[N], EngineServices> };
