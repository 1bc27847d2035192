import { OPERATIONS } from '../../../shared/operations.js';
import type { ParsedInputOf, OutputOf } from '../../../shared/operation.js';
import { formatDiagnostic } from '../../contracts/scrypt/diagnostics.js';
import type { OpContext } from '../context.js';
import { workerOwner } from './anonymous.js';
import type { ContractServices } from './services.js';
import { DomainError } from '../../../shared/errors.js';

/** POST /v1/compile: base64 sCrypt in; ASM (with $placeholders), hex and artifact out; errors with positions. */
export async function compile(
  ctx: OpContext<ContractServices>,
  input: ParsedInputOf<typeof OPERATIONS.compile>,
): Promise<OutputOf<typeof OPERATIONS.compile>> {
  const source = Buffer.from(input.sourceCode.replace(/\s+/g, ''), 'base64').toString('utf8');
  const file = input.file ?? 'contract.scrypt';
  // Untrusted source: compiled in a worker, with time, memory and size limits, and the caller's fair share of the workers.
  const imports = Object.fromEntries(
    Object.entries(input.imports ?? {}).map(([p, b64]) => [p, Buffer.from(b64.replace(/\s+/g, ''), 'base64').toString('utf8')]),
  );
  const r = await ctx.services.compiler.compile(source, { file, optimize: input.optimize === true, imports, owner: workerOwner(ctx) });
  // A library package compiles to an empty script: hex '' is a result, null is a failure.
  if (!r.artifact || r.asm === null || r.hex === null) {
    const first = r.diagnostics[0];
    throw new DomainError('COMPILE_FAILED', first ? `Compilation failed: ${formatDiagnostic(first)}` : 'Compilation failed.', {
      errors: r.diagnostics,
    });
  }
  return { scrypt: r.asm, hex: r.hex, artifact: r.artifact as unknown as Record<string, unknown>, errors: r.diagnostics };
}
