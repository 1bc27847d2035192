import type { OPERATIONS } from '../../../shared/operations.js';
import type { ParsedInputOf, OutputOf } from '../../../shared/operation.js';
import { DomainError } from '../../../shared/errors.js';
import type { OpContext } from '../context.js';
import { workerOwner } from './anonymous.js';
import type { ContractServices } from './services.js';

/**
 * POST /v1/transpile: base64 Solidity in; sCrypt and the error logs out. A source with errors gives no
 * sCrypt and a 400 with the logs, unless `force` asks for the best-effort sCrypt beside them (200).
 */
export async function transpile(
  ctx: OpContext<ContractServices>,
  input: ParsedInputOf<typeof OPERATIONS.transpile>,
): Promise<OutputOf<typeof OPERATIONS.transpile>> {
  const source = Buffer.from(input.sourceCode.replace(/\s+/g, ''), 'base64').toString('utf8');
  // Untrusted source: transpiled in a worker, with time, memory and size limits and the caller's fair share, like compiles.
  const r = await ctx.services.compiler.transpile(source, { file: input.file ?? 'contract.sol', owner: workerOwner(ctx) });
  const errors = r.logs.filter((l) => l.type === 'Error');
  if (errors.length && input.force !== true) {
    throw new DomainError(
      'TRANSPILE_FAILED',
      `Transpiling failed: ${errors[0].src}: ${errors[0].message}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''}`,
      { errorLogs: r.logs },
    );
  }
  return { scrypt: r.scrypt, errorLogs: r.logs };
}
