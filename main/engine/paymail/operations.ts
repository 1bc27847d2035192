import { PAYMAIL_OPERATIONS } from '../../../shared/contracts/paymail.js';
import { implement } from '../operation.js';
import type { PaymailServices } from './services.js';
import { listPaymailHosts, setPaymailHost } from './host-ops.js';

export const PAYMAIL_IMPLEMENTATIONS = implement<PaymailServices>()(PAYMAIL_OPERATIONS, {
  listPaymailHosts: { run: listPaymailHosts },
  setPaymailHost: { run: setPaymailHost, target: (i) => i.domain },
});
