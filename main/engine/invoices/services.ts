import type { AuditServices } from '../audit/services.js';
import type { Repos } from '../context.js';
import type { PaymentServices } from '../payments/services.js';
import type { RateServices } from '../rates/services.js';

/** What invoices need: paying (payments, which audits), pricing in a currency (rates), and their own table. */
export interface InvoiceServices extends PaymentServices, Omit<RateServices, 'repos'>, Omit<AuditServices, 'repos'> {
  repos: PaymentServices['repos'] & Pick<Repos, 'invoices' | 'rates' | 'audit'>;
}
