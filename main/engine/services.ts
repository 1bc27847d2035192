import type { ContractServices } from './contracts/services.js';
import type { EventServices } from './events/services.js';
import type { PaymailServices } from './paymail/services.js';
import type { PaymentServices } from './payments/services.js';
import type { RateServices } from './rates/services.js';
import type { TokenServices } from './tokens/services.js';

/** Everything the engine builds once: one object that gives each capability what it declared it needs. */
export type EngineServices = PaymentServices & PaymailServices & ContractServices & RateServices & TokenServices & EventServices;
