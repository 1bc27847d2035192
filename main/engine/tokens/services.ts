import type { PaymentServices } from '../payments/services.js';
import type { RateServices } from '../rates/services.js';
import type { TokenLedger } from './ledger.js';
import type { TokenValidator } from './lineage.js';
import type { TemplateRegistry } from './templates/registry.js';

/** What tokens need besides payments: the templates, the token books and the lineage prover, and rates for balances. */
export interface TokenServices extends PaymentServices, RateServices {
  tokenTemplates: TemplateRegistry;
  tokenLedger: TokenLedger;
  tokenValidator: TokenValidator;
}
