import type { z } from 'zod';
import { DomainError } from '../../shared/errors.js';
import { canCall, type OperationName, type OperationOutput } from '../../shared/operations.js';
import { ROLE_LABELS, type Role } from '../../shared/roles.js';
import { recordAudit } from './audit/audit-log.js';
import { authenticate, checkServiceId } from './auth/authenticate.js';
import { callScope, type CallMeta, type Credentials, type OpContext } from './context.js';
import type { Implementation } from './operation.js';
import { IMPLEMENTATIONS } from './operations.js';
import type { EngineServices } from './services.js';

export interface OperationResult<N extends OperationName> {
  msg: string;
  output: OperationOutput<N>;
}

/**
 * Runs one call of an operation: authenticates, authorizes against the operations table, validates the
 * input and only then runs the handler; audited operations are recorded whether they succeed or fail.
 */
export async function executeOperation<N extends OperationName>(
  services: EngineServices,
  name: N,
  input: unknown,
  credentials: Credentials,
  meta: CallMeta,
): Promise<OperationResult<N>> {
  const { logger } = services;
  const handler = IMPLEMENTATIONS[name] as unknown as Implementation;
  const def = handler.contract;
  const ctx: OpContext<EngineServices> = { services, caller: null, meta };
  let parsedInput: unknown;
  try {
    const anonymous = def.credentialsOptional === true && !credentials.authToken && !credentials.uid && !credentials.apiKey;
    if (def.access !== 'public' && !anonymous) {
      ctx.caller = authenticate(services, credentials);
      if (!canCall(ctx.caller.role, name)) {
        throw new DomainError(
          'ROLE_FORBIDDEN',
          `The ${ROLE_LABELS[ctx.caller.role]} role may not call ${name}: ${whoMay(def.access)} Ask an admin if your role should change.`,
        );
      }
      if (def.enterprise && (credentials.serviceId || !meta.serviceIdFromCredential)) checkServiceId(services, credentials);
    }
    const parsed = def.input.safeParse(input ?? {});
    if (!parsed.success) throw new DomainError('VALIDATION_FAILED', describeIssues(parsed.error, input));
    parsedInput = parsed.data;
    // Everything the handler calls knows whose call it is (the payment policy's check of each move).
    const output = await callScope.run({ operation: name, input: parsedInput, caller: ctx.caller, approval: null }, () =>
      handler.run(ctx, parsedInput),
    );
    if (audited(def, parsedInput)) {
      recordAudit(ctx, { action: name, target: handler.target?.(parsedInput, output) ?? null, outcome: 'success', code: null });
      // Audited calls include every change of access (sign-out, roles, users, keys): streams check theirs now.
      services.eventStreams.recheckAll();
    }
    // Never the input or output: either may hold a secret.
    logger.debug({ op: name, uid: ctx.caller?.uid ?? null }, 'operation succeeded');
    return { msg: def.msg, output } as OperationResult<N>;
  } catch (err) {
    // Failed attempts are audited once someone is identified, and always for sign-in operations.
    if (audited(def, parsedInput) && (ctx.caller || def.access === 'public')) {
      const target = parsedInput === undefined ? null : (handler.target?.(parsedInput) ?? null);
      recordAudit(ctx, { action: name, target, outcome: 'error', code: err instanceof DomainError ? err.code : 'INTERNAL' });
    }
    logger.debug({ op: name, uid: ctx.caller?.uid ?? null, code: err instanceof DomainError ? err.code : 'INTERNAL' }, 'operation failed');
    throw err;
  }
}

/** "email: is not a valid e-mail address; password: is required" */
export function describeIssues(error: z.ZodError, input: unknown): string {
  return error.issues
    .map((issue) => {
      const where = issue.path.length ? issue.path.join('.') : 'input';
      const missing = issue.code === 'invalid_type' && issue.path.length > 0 && valueAt(input, issue.path) === undefined;
      return `${where}: ${missing ? 'is required' : issue.message}`;
    })
    .join('; ');
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v = input;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/** Whether this call is audited: every call of an audited operation, or the calls its rule picks (a read-or-change operation's changes). */
function audited(def: { audit?: boolean | ((input: never) => boolean) }, input: unknown): boolean {
  if (typeof def.audit !== 'function') return def.audit === true;
  return input !== undefined && (def.audit as (input: unknown) => boolean)(input);
}

/** Who may make a call, in words people read (the operation's name alone means little to them). */
function whoMay(access: readonly Role[]): string {
  if (access.length === 0) return 'it is not open to your role.';
  const names = access.map((r) => `${ROLE_LABELS[r]}s`);
  return `only ${names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : names[0]} may do this.`;
}
