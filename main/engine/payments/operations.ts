import { PAYMENT_OPERATIONS } from '../../../shared/contracts/payments.js';
import { implement } from '../operation.js';
import type { PaymentServices } from './services.js';
import type { AuditServices } from '../audit/services.js';
import { history } from './history.js';
import { transactionDetail } from './transaction-detail.js';
import { pay } from './pay.js';
import { quotePayment } from './quote.js';
import { resolveUri } from './resolve-op.js';

export const PAYMENT_IMPLEMENTATIONS = implement<PaymentServices & AuditServices>()(PAYMENT_OPERATIONS, {
  resolveUri: { run: resolveUri },
  quotePayment: { run: quotePayment },
  pay: { run: pay, target: (_i, o) => o?.txid ?? null },
  history: { run: history },
  transactionDetail: { run: transactionDetail },
});
