import { OPERATIONS } from '../../../shared/operations.js';
import type { ParsedInputOf, OutputOf } from '../../../shared/operation.js';
import { formatDiagnostic } from '../../contracts/scrypt/diagnostics.js';
import type { CompileResult } from '../../contracts/scrypt/compile.js';
import type { ScryptTsCompileResult } from '../../contracts/compile-worker.js';
import type { OpContext } from '../context.js';
import { workerOwner } from './anonymous.js';
import type { ContractServices } from './services.js';
import { DomainError } from '../../../shared/errors.js';

type Input = ParsedInputOf<typeof OPERATIONS.compile>;
type Output = OutputOf<typeof OPERATIONS.compile>;

const fromBase64 = (b64: string) => Buffer.from(b64.replace(/\s+/g, ''), 'base64').toString('utf8');

/**
 * POST /v1/compile: base64 sCrypt (or scrypt-ts, transpiled first) in; ASM (with $placeholders), hex and
 * artifact out; errors with positions in the source sent.
 */
export async function compile(ctx: OpContext<ContractServices>, input: Input): Promise<Output> {
  const source = fromBase64(input.sourceCode);
  const scryptTs = (input.language ?? (/\.ts$/i.test(input.file ?? '') ? 'scrypt-ts' : 'scrypt')) === 'scrypt-ts';
  // Untrusted source: compiled (and transpiled) in a worker, with time, memory and size limits, and the caller's fair share of the workers.
  if (scryptTs) {
    if (input.imports && Object.keys(input.imports).length)
      throw new DomainError('BAD_REQUEST', 'imports: a scrypt-ts source imports scrypt-ts and scrypt-ts-lib only, which Keystead has.');
    const file = /\.ts$/i.test(input.file ?? '') ? input.file! : `${input.file ?? 'Contract'}.ts`;
    const r = await ctx.services.compiler.compileScryptTs(source, { file, optimize: input.optimize === true, owner: workerOwner(ctx) });
    // The sCrypt comes back with its errors too: they are at its positions (the TypeScript's come without it).
    return { ...answer(r, r.transpiled ? { transpiled: r.transpiled } : {}), transpiled: r.transpiled ?? undefined };
  }
  const imports = Object.fromEntries(Object.entries(input.imports ?? {}).map(([p, b64]) => [p, fromBase64(b64)]));
  const r = await ctx.services.compiler.compile(source, {
    file: input.file ?? 'contract.scrypt',
    optimize: input.optimize === true,
    imports,
    owner: workerOwner(ctx),
  });
  return answer(r, {});
}

/** The answer to a compile, or COMPILE_FAILED with its errors (and `extra`, beside them). */
function answer(r: CompileResult | ScryptTsCompileResult, extra: Record<string, unknown>): Output {
  // A library package compiles to an empty script: hex '' is a result, null is a failure.
  if (!r.artifact || r.asm === null || r.hex === null) {
    const first = r.diagnostics[0];
    throw new DomainError('COMPILE_FAILED', first ? `Compilation failed: ${formatDiagnostic(first)}` : 'Compilation failed.', {
      errors: r.diagnostics,
      ...extra,
    });
  }
  return { scrypt: r.asm, hex: r.hex, artifact: r.artifact as unknown as Record<string, unknown>, errors: r.diagnostics };
}
