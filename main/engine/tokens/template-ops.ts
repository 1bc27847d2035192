import { createHash } from 'node:crypto';
import { DomainError } from '../../../shared/errors.js';
import type { ParsedInputOf, OutputOf } from '../../../shared/operation.js';
import type { OPERATIONS } from '../../../shared/operations.js';
import type { OpContext } from '../context.js';
import type { TokenServices } from './services.js';
import { checkStasTemplate } from '../token-templates/stas.js';

/** An installed template as the API shows it, with its SHA-256 so an admin can compare it with the licensor's. */
const view = (t: { protocolId: string; template: string; source: string; installedAt: number }) => ({
  protocolId: t.protocolId,
  bytes: t.template.replace(/\[[a-zA-Z]+\]/g, '0'.repeat(40)).length / 2,
  installedAt: new Date(t.installedAt).toISOString(),
  source: t.source,
  sha256: createHash('sha256').update(t.template, 'utf8').digest('hex'),
  problem: checkStasTemplate(t.template),
});

/** Installs (or replaces) a licensed STAS-family template; it is kept in the encrypted database, never shipped. */
export function installTokenTemplate(
  ctx: OpContext<TokenServices>,
  input: ParsedInputOf<typeof OPERATIONS.installTokenTemplate>,
): OutputOf<typeof OPERATIONS.installTokenTemplate> {
  const { services } = ctx;
  const template = input.template.trim();
  const problem = checkStasTemplate(template);
  if (problem) throw new DomainError('VALIDATION_FAILED', `template: not a ${input.protocolId} template: ${problem}`);
  services.repos.tokenTemplates.put(input.protocolId, template, 'api', services.now());
  services.tokenTemplates.reload();
  return view(services.repos.tokenTemplates.all().find((t) => t.protocolId === input.protocolId)!);
}

export function listTokenTemplates(ctx: OpContext<TokenServices>): OutputOf<typeof OPERATIONS.listTokenTemplates> {
  return { templates: ctx.services.repos.tokenTemplates.all().map(view) };
}

export function deleteTokenTemplate(
  ctx: OpContext<TokenServices>,
  input: ParsedInputOf<typeof OPERATIONS.deleteTokenTemplate>,
): OutputOf<typeof OPERATIONS.deleteTokenTemplate> {
  if (!ctx.services.repos.tokenTemplates.remove(input.protocolId))
    throw new DomainError('NOT_FOUND', `No ${input.protocolId} template is installed.`);
  ctx.services.tokenTemplates.reload();
  return { protocolId: input.protocolId };
}
