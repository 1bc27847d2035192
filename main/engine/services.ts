import type { Brc100Services } from './apps/services.js';
import type { AuditServices } from './audit/services.js';
import type { AuthServices } from './auth/services.js';
import type { ChainOpServices } from './chain/services.js';
import type { ContractServices } from './contracts/services.js';
import type { EventServices } from './events/services.js';
import type { InvoiceServices } from './invoices/services.js';
import type { OrgServices } from './org/services.js';
import type { PaymailServices } from './paymail/services.js';
import type { PayeeServices } from './payees/services.js';
import type { PolicyServices } from './policies/services.js';
import type { PaymentServices } from './payments/services.js';
import type { RateServices } from './rates/services.js';
import type { SyncServices } from './sync/services.js';
import type { TokenServices } from './tokens/services.js';
import type { SwapServices } from './swaps/services.js';
import type { OrdinalServices } from './ordinals/services.js';
import type { WalletServices } from './wallets/services.js';

/**
 * Everything the engine builds once: one object that gives each capability what it declared it needs
 * (its repositories are a subset of all of them, so one object satisfies every capability's narrower view).
 */
export type EngineServices = AuditServices &
  AuthServices &
  OrgServices &
  RateServices &
  ContractServices &
  WalletServices &
  SyncServices &
  PaymailServices &
  PaymentServices &
  InvoiceServices &
  TokenServices &
  SwapServices &
  OrdinalServices &
  ChainOpServices &
  EventServices &
  PayeeServices &
  PolicyServices &
  Brc100Services;
