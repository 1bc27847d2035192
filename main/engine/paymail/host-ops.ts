import type { OperationOutput, ParsedInput } from '../../../shared/operations.js';
import type { OpContext } from '../context.js';
import { DomainError } from '../../../shared/errors.js';

export function listPaymailHosts(ctx: OpContext): OperationOutput<'listPaymailHosts'> {
  return { hosts: ctx.services.paymailHosts.entries() };
}

export function setPaymailHost(ctx: OpContext, input: ParsedInput<'setPaymailHost'>): OperationOutput<'setPaymailHost'> {
  if (input.domain === ctx.services.config.paymailDomain) throw new DomainError('CONFLICT', `${input.domain} is this Keystead's own paymail domain.`);
  ctx.services.paymailHosts.save(input.domain, input.url);
  return { domain: input.domain, url: input.url };
}
