import { buildArtifact, type Artifact } from './artifact.js';
import type { Item, Program } from './ast.js';
import { CodeGen } from './codegen.js';
import type { Diagnostic } from './diagnostics.js';
import { parse } from './parser.js';
import { optimize } from './optimize.js';
import { toAsm, toScriptHex } from './script.js';
import { checkProgram } from './semantics/index.js';
import { STDLIB_FILE, STDLIB_SOURCE } from './stdlib.js';

export interface CompileResult {
  /** Present when there were no errors. */
  artifact: Artifact | null;
  /** ASM of the locking-script template, constructor arguments as `$name`. */
  asm: string | null;
  hex: string | null;
  diagnostics: Diagnostic[];
}

let stdlibItems: Item[] | null = null;

/** The standard library's declarations, parsed once. */
function stdlib(): Item[] {
  if (!stdlibItems) {
    const { program, diagnostics } = parse(STDLIB_SOURCE, STDLIB_FILE);
    if (diagnostics.hasErrors) throw new Error(`the standard library does not parse: ${JSON.stringify(diagnostics.items[0])}`);
    stdlibItems = program.items;
  }
  return stdlibItems;
}

/** The user's program plus every standard-library declaration it does not replace with its own. */
function withStdlib(program: Program): Program {
  const own = new Set(program.items.map((i) => i.name));
  // Shared, not copied: the passes and code generation only read library declarations (the one thing
  // generated into a declaration, getStateScript, goes into the user's own contract).
  const lib = stdlib().filter((i) => !own.has(i.name));
  return { imports: program.imports, items: [...lib, ...program.items] };
}

/**
 * sCrypt source → locking-script template and scryptlib artifact. Pipeline: lexer → parser → code
 * generation over a symbolic stack → artifact. The last contract of the file is the main one. Errors
 * at any stage come back as diagnostics with file:line:column; nothing throws.
 */
export function compileScrypt(source: string, opts: { file?: string; optimize?: boolean } = {}): CompileResult {
  const file = opts.file ?? 'contract.scrypt';
  try {
    return compileUnguarded(source, file, opts.optimize === true);
  } catch (err) {
    // The passes walk the tree recursively; a program that exhausts the stack is refused, not a crash.
    if (!(err instanceof RangeError)) throw err;
    return { artifact: null, asm: null, hex: null, diagnostics: [{ file, line: 1, column: 1, message: 'the program is too large or too deeply nested to compile', severity: 'error' }] };
  }
}

function compileUnguarded(source: string, file: string, optimizeOutput: boolean): CompileResult {
  const failed = () => ({ artifact: null, asm: null, hex: null, diagnostics: diagnostics.items });
  const { program, diagnostics } = parse(source, file);
  if (diagnostics.hasErrors) return failed();
  const contracts = program.items.filter((i) => i.kind === 'contract');
  const main = contracts[contracts.length - 1];
  if (!main || main.kind !== 'contract') {
    diagnostics.error({ line: 1, column: 1 }, 'the file has no contract');
    return failed();
  }
  if (program.imports.length) diagnostics.error(program.imports[0].at, 'imports are not supported: put every declaration in one file');
  if (diagnostics.hasErrors) return failed();
  const full = withStdlib(program);
  checkProgram(full, diagnostics); // semantic passes: scopes, types, constants, final require, recursion
  if (diagnostics.hasErrors) return failed();
  const codegen = new CodeGen(full, main, diagnostics);
  const tokens = codegen.generate();
  if (!tokens || diagnostics.hasErrors) return failed();
  const final = optimizeOutput ? optimize(tokens) : tokens;
  const hex = toScriptHex(final);
  return { artifact: buildArtifact(program, main, hex, optimizeOutput, codegen), asm: toAsm(final), hex, diagnostics: diagnostics.items };
}
