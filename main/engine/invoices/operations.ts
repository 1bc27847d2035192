import { INVOICE_OPERATIONS } from '../../../shared/contracts/invoices.js';
import { implement } from '../operation.js';
import { createInvoice } from './create.js';
import { cancelInvoice, listInvoices, paymentRequest } from './invoices.js';
import { payInvoice } from './pay-invoice.js';
import type { InvoiceServices } from './services.js';

export const INVOICE_IMPLEMENTATIONS = implement<InvoiceServices>()(INVOICE_OPERATIONS, {
  createInvoice: { run: createInvoice, target: (_i, o) => o?.invoiceId ?? null },
  paymentRequest: { run: paymentRequest },
  payInvoice: { run: payInvoice, target: (i) => i.invoiceId },
  listInvoices: { run: listInvoices },
  cancelInvoice: { run: cancelInvoice, target: (i) => i.invoiceId },
});
