import { buildArtifact, type Artifact } from './artifact.js';
import type { Expr } from './ast.js';
import { CodeGen } from './codegen.js';
import type { Diagnostic } from './diagnostics.js';
import { parse } from './parser.js';
import { optimize } from './optimize.js';
import { toAsm, toScriptHex } from './script.js';

export interface CompileResult {
  /** Present when there were no errors. */
  artifact: Artifact | null;
  /** ASM of the locking-script template, constructor arguments as `$name`. */
  asm: string | null;
  hex: string | null;
  diagnostics: Diagnostic[];
}

/**
 * sCrypt source → locking-script template and scryptlib artifact. Pipeline: lexer → parser → code
 * generation over a symbolic stack (with type checks) → artifact. The last contract of the file is the
 * main one. Errors at any stage come back as diagnostics with file:line:column; nothing throws.
 */
export function compileScrypt(source: string, opts: { file?: string; optimize?: boolean } = {}): CompileResult {
  const file = opts.file ?? 'contract.scrypt';
  const { program, diagnostics } = parse(source, file);
  const contracts = program.items.filter((i) => i.kind === 'contract');
  if (diagnostics.hasErrors) return { artifact: null, asm: null, hex: null, diagnostics: diagnostics.items };
  const main = contracts[contracts.length - 1];
  if (!main || main.kind !== 'contract') {
    diagnostics.error({ line: 1, column: 1 }, 'the file has no contract');
    return { artifact: null, asm: null, hex: null, diagnostics: diagnostics.items };
  }
  const globals = new Map<string, Expr>();
  for (const item of program.items) {
    if (item === main) continue;
    if (item.kind === 'const' && item.value.kind === 'int') globals.set(item.name, item.value);
    else diagnostics.error(item.at, `${item.kind} declarations are not supported yet (one contract per file, plus static const ints)`);
  }
  if (program.imports.length) diagnostics.error(program.imports[0].at, 'imports are not supported yet');
  const codegen = new CodeGen(main, diagnostics, globals);
  const tokens = diagnostics.hasErrors ? null : codegen.generate();
  if (!tokens || diagnostics.hasErrors) return { artifact: null, asm: null, hex: null, diagnostics: diagnostics.items };
  const final = opts.optimize ? optimize(tokens) : tokens;
  const hex = toScriptHex(final);
  return { artifact: buildArtifact(main, hex, opts.optimize === true, (t) => codegen.resolveType(t)), asm: toAsm(final), hex, diagnostics: diagnostics.items };
}
