import { OPERATIONS } from '../../../shared/operations.js';
import type { ParsedInputOf, OutputOf } from '../../../shared/operation.js';
import type { OpContext } from '../context.js';
import type { PaymailServices } from './services.js';
import { DomainError } from '../../../shared/errors.js';

export function listPaymailHosts(ctx: OpContext<PaymailServices>): OutputOf<typeof OPERATIONS.listPaymailHosts> {
  return { hosts: ctx.services.paymailHosts.entries() };
}

export function setPaymailHost(
  ctx: OpContext<PaymailServices>,
  input: ParsedInputOf<typeof OPERATIONS.setPaymailHost>,
): OutputOf<typeof OPERATIONS.setPaymailHost> {
  if (input.domain === ctx.services.config.paymailDomain)
    throw new DomainError('CONFLICT', `${input.domain} is this Keystead's own paymail domain.`);
  ctx.services.paymailHosts.save(input.domain, input.url);
  return { domain: input.domain, url: input.url };
}
