import type { Repos } from '../context.js';
import type { PaymentServices } from '../payments/services.js';
import type { RateServices } from '../rates/services.js';
import type { TokenLedger } from './ledger.js';
import type { TokenValidator } from './lineage.js';
import type { TemplateRegistry } from '../token-templates/registry.js';
import type { OrdinalsIndex } from '../ordinals/ordinals-index.js';

/**
 * What tokens need besides payments: the token books and their tables, the templates, the lineage prover,
 * and rates for balances.
 */
export interface TokenServices extends PaymentServices, RateServices {
  repos: Pick<
    Repos,
    | 'users'
    | 'organisation'
    | 'wallets'
    | 'addresses'
    | 'walletUtxos'
    | 'walletTxs'
    | 'payments'
    | 'rates'
    | 'tokens'
    | 'tokenTemplates'
    | 'ordinals'
  >;
  tokenTemplates: TemplateRegistry;
  tokenLedger: TokenLedger;
  tokenValidator: TokenValidator;
  /** BSV-21 entries of a lookup come from it (engine/ordinals/lookup.ts). */
  ordinalsIndex?: OrdinalsIndex;
}
