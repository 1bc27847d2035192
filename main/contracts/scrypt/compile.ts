import { buildArtifact, type Artifact } from './artifact.js';
import type { ContractLike, Item, Program } from './ast.js';
import { generate } from './codegen/contract.js';
import {
  MAX_LOCKING_SCRIPT_BYTES,
  MAX_SCRIPT_SIZE_POLICY,
  notSpendableMessage,
  scriptBytes,
  tooLargeMessage,
} from './codegen/script-size.js';
import { ScriptBudget, ScriptTooLarge } from './codegen/stack.js';
import { posix } from 'node:path';
import type { Diagnostic, Diagnostics, Position } from './diagnostics.js';
import { lower } from './lower/index.js';
import type { ContractIR } from './lower/ir.js';
import { parse } from './parser.js';
import { optimize } from './optimize.js';
import { toAsm, toScriptHex, type Token } from './script.js';
import { checkProgram } from './semantics/index.js';
import type { Layout } from './semantics/layout.js';
import type { Facts } from './semantics/model.js';
import { checkSupport } from './semantics/support.js';
import { STDLIB_FILE, stdlibSource } from './stdlib.js';

/** Marks a file's text among the paths of the files already imported. */
const TEXT = '\u0000text:';

export interface CompileResult {
  /** Present when there were no errors. */
  artifact: Artifact | null;
  /** ASM of the locking-script template, constructor arguments as `$name`. */
  asm: string | null;
  hex: string | null;
  diagnostics: Diagnostic[];
}

let stdlibItems: Item[] | null = null;

/**
 * The standard library's declarations, parsed once. Every position in them names STDLIB_FILE, so that a
 * diagnostic arising in library code is never taken for one at the same line and column of the user's file.
 */
function stdlib(): Item[] {
  if (!stdlibItems) {
    const { program, diagnostics } = parse(stdlibSource(), STDLIB_FILE);
    if (diagnostics.hasErrors) throw new Error(`the standard library does not parse: ${JSON.stringify(diagnostics.items[0])}`);
    tagFile(program, STDLIB_FILE);
    stdlibItems = program.items;
  }
  return stdlibItems;
}

const KIND_WORD: Record<Item['kind'], string> = {
  contract: 'contract',
  library: 'library',
  struct: 'struct',
  alias: 'type',
  const: 'const',
};

/**
 * The user's program (with its imported files) plus the standard library, which is in scope everywhere
 * without an import. The library's names are not the user's to take. No public source states the official
 * rule (the reference only says the library is included by default; scryptlib sees it as one more source
 * file, 'std', beside the program's), and the library's own code refers to its declarations by name
 * (Utils.buildOutput reads Constants.OutputValueLen, the stateful prelude calls SigHash and VarIntReader), so
 * a second declaration could only be a duplicate or, had it replaced the library's, silently change the
 * library's behaviour. Each such declaration is an error at its own position (in the user's file or the
 * imported file that has it), naming the clash; nothing further is checked then (the cascade would be noise).
 */
export function withStdlib(program: Program, diagnostics: Diagnostics): Program {
  // Shared, not copied: the passes and code generation only read library declarations (the one thing
  // generated into a declaration, getStateScript, goes into the user's own contract).
  const lib = stdlib();
  const libItem = new Map(lib.map((i) => [i.name, i]));
  for (const item of program.items) {
    const theirs = libItem.get(item.name);
    if (theirs)
      diagnostics.error(
        item.at,
        `${KIND_WORD[item.kind]} ${item.name} has the name of the standard library's ${KIND_WORD[theirs.kind]} ${item.name}, which every program sees without an import; give it another name`,
      );
  }
  return { imports: program.imports, items: [...lib, ...program.items] };
}

/**
 * A diagnostic arising in standard-library code (a library function inlined with the program's arguments,
 * say) must not point into the library's text, which the user never gave: it is moved to `at` in the user's
 * file (the contract being compiled) and says which library declaration it arose in.
 */
export function relocateStdlibDiagnostics(diagnostics: Diagnostics, at: Position): void {
  if (!diagnostics.items.some((d) => d.file === STDLIB_FILE)) return;
  const lib = stdlib();
  const seen = new Set<string>();
  const kept = diagnostics.items.filter((d) => {
    if (d.file !== STDLIB_FILE) return true;
    const owner = [...lib].reverse().find((i) => i.at.line < d.line || (i.at.line === d.line && i.at.column <= d.column));
    d.message = `in the standard library's ${owner ? `${KIND_WORD[owner.kind]} ${owner.name}` : 'code'}: ${d.message}`;
    d.file = at.file ?? diagnostics.file;
    d.line = at.line;
    d.column = at.column;
    // The same error at several places of the library is one error here.
    if (seen.has(d.message)) return false;
    seen.add(d.message);
    return true;
  });
  diagnostics.items.splice(0, diagnostics.items.length, ...kept);
  diagnostics.items.sort((a, b) => a.line - b.line || a.column - b.column);
}

/**
 * sCrypt source → locking-script template and scryptlib artifact. Pipeline (CashScript's shape):
 * 1. lexer and parser → syntax tree;
 * 2. front end: the semantic passes (symbols, types, constants, final require, recursion) establish the
 *    facts; the support pass reports what code generation does not provide; the lowering rewrites stateful
 *    contracts (checked again), elaborates the main contract into the IR and verifies it;
 * 3. code generation over the IR, split by concern (stack scheduling, expressions, statements, built-ins);
 * 4. the -O peephole optimiser; 5. the artifact.
 * The last contract of the file is the main one. Errors at any stage come back as diagnostics with
 * file:line:column; nothing throws. A program the front end accepts always gets code, unless its locking
 * script would be too large for any transaction default nodes relay (codegen/script-size.ts).
 */
export interface CompileOptions {
  /** The file's name, for diagnostics and as the base of relative imports. */
  file?: string;
  optimize?: boolean;
  /**
   * Reads an imported file: `path` is the import resolved against the importing file's directory (POSIX
   * separators, relative to the main file's directory). Null when there is no such file. Without it,
   * `import` is refused.
   */
  readImport?: (path: string) => string | null;
}

export function compileScrypt(source: string, opts: CompileOptions = {}): CompileResult {
  const file = opts.file ?? 'contract.scrypt';
  try {
    return compileUnguarded(source, file, opts.optimize === true, opts.readImport);
  } catch (err) {
    // The passes walk the tree recursively; a program that exhausts the stack is refused, not a crash.
    if (!(err instanceof RangeError)) throw err;
    return {
      artifact: null,
      asm: null,
      hex: null,
      diagnostics: [{ file, line: 1, column: 1, message: 'the program is too large or too deeply nested to compile', severity: 'error' }],
    };
  }
}

/** What the front end hands code generation: the lowered contract and the facts the artifact needs. */
export interface FrontEndResult {
  program: Program;
  main: ContractLike;
  facts: Facts;
  ir: ContractIR;
  layout: Layout;
}

/** Parsing, the semantic passes and the lowering: the IR, or null with the errors in `diagnostics`. */
export function frontEnd(
  source: string,
  file: string,
  readImport?: CompileOptions['readImport'],
): { front: FrontEndResult | null; diagnostics: Diagnostics } {
  const parsed = parse(source, file);
  const { diagnostics } = parsed;
  let program = parsed.program;
  let where: Position = { line: 1, column: 1 };
  const done = (front: FrontEndResult | null = null) => {
    relocateStdlibDiagnostics(diagnostics, where);
    return { front, diagnostics };
  };
  if (diagnostics.hasErrors) return done();
  // The last contract is the one compiled; a file of libraries only (a library package such as
  // scrypt-ts-lib's) compiles its last library: its properties as constructor arguments, no public functions.
  const contracts = program.items.filter((i) => i.kind === 'contract');
  const libraries = program.items.filter((i) => i.kind === 'library');
  const main = contracts[contracts.length - 1] ?? libraries[libraries.length - 1];
  if (!main || (main.kind !== 'contract' && main.kind !== 'library')) {
    diagnostics.error(program.items[0]?.at ?? { line: 1, column: 1 }, 'the file has no contract or library');
    return done();
  }
  where = main.at;
  if (program.imports.length) {
    if (!readImport)
      diagnostics.error(
        program.imports[0].at,
        'imports are not supported here: put every declaration in one file, or compile with the CLI (which reads imported files) or send them in `imports`',
      );
    else
      program = {
        imports: [],
        items: [...importedItems(program, '.', readImport, diagnostics, new Set([TEXT + source])), ...program.items],
      };
  }
  if (diagnostics.hasErrors) return done();
  const full = withStdlib(program, diagnostics);
  if (diagnostics.hasErrors) return done();
  const facts = checkProgram(full, diagnostics);
  checkSupport(facts, diagnostics);
  diagnostics.items.sort((a, b) => a.line - b.line || a.column - b.column);
  if (diagnostics.hasErrors) return done();
  const lowered = lower(full, main, facts, diagnostics);
  return done(lowered && { program, main, facts, ...lowered });
}

/**
 * The declarations of the files a program imports, each file once, dependencies first (as the official
 * compiler concatenates them); positions inside them name their file. A file is one file however it is
 * reached: by its normalised path, and by its text, since the same file read along another path (a
 * symbolic link, a package copy, another letter case) has the same text, and two files of the same text
 * would only define everything twice. `seen` holds paths, and texts marked by TEXT (the entry file's first).
 */
function importedItems(
  program: Program,
  dir: string,
  readImport: NonNullable<CompileOptions['readImport']>,
  diagnostics: Diagnostics,
  seen: Set<string>,
): Item[] {
  const items: Item[] = [];
  for (const imp of program.imports) {
    const resolved = posix.normalize(posix.join(dir, imp.path.replace(/\\/g, '/')));
    if (seen.has(resolved)) continue;
    seen.add(resolved);
    const text = readImport(resolved);
    if (text === null) {
      diagnostics.error(imp.at, `cannot read the imported file ${imp.path}`);
      continue;
    }
    if (seen.has(TEXT + text)) continue;
    seen.add(TEXT + text);
    const sub = parse(text, resolved);
    tagFile(sub.program, resolved);
    for (const d of sub.diagnostics.items) diagnostics.error({ line: d.line, column: d.column, file: resolved }, d.message);
    items.push(...importedItems(sub.program, posix.dirname(resolved), readImport, diagnostics, seen), ...sub.program.items);
  }
  return items;
}

/** Marks every position in an imported file's tree with the file's name. */
function tagFile(node: unknown, file: string): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) return node.forEach((n) => tagFile(n, file));
  const o = node as Record<string, unknown>;
  for (const [k, v] of Object.entries(o)) {
    if (k === 'at' && v && typeof v === 'object' && 'line' in v) (v as Position).file = file;
    else tagFile(v, file);
  }
}

/**
 * How much larger than the limit the unoptimised code of a -O compile may grow: the optimiser removes about a
 * third of it over the corpus and more of unrolled constant-index array reads, so code somewhat over the limit
 * can still optimise to a script that fits. Beyond this, generation stops before the tokens fill memory.
 */
const OPTIMISED_HEADROOM = 2;

function compileUnguarded(source: string, file: string, optimizeOutput: boolean, readImport?: CompileOptions['readImport']): CompileResult {
  const { front, diagnostics } = frontEnd(source, file, readImport);
  const failed = () => ({ artifact: null, asm: null, hex: null, diagnostics: diagnostics.items });
  if (!front) return failed();
  let tokens: Token[];
  try {
    tokens = generate(front.ir, front.layout, new ScriptBudget(MAX_LOCKING_SCRIPT_BYTES * (optimizeOutput ? OPTIMISED_HEADROOM : 1)));
  } catch (err) {
    if (!(err instanceof ScriptTooLarge)) throw err;
    diagnostics.error(front.main.at, tooLargeMessage(err.bytes, false));
    return failed();
  }
  const final = optimizeOutput ? optimize(tokens) : tokens;
  const bytes = scriptBytes(final);
  if (bytes > MAX_LOCKING_SCRIPT_BYTES) {
    diagnostics.error(front.main.at, tooLargeMessage(bytes, true));
    return failed();
  }
  const hex = toScriptHex(final);
  const { line, column } = front.main.at;
  const warnings: Diagnostic[] =
    bytes > MAX_SCRIPT_SIZE_POLICY
      ? [{ file: front.main.at.file ?? file, line, column, message: notSpendableMessage(bytes), severity: 'warning' }]
      : [];
  return {
    artifact: buildArtifact(front.program, front.main, hex, optimizeOutput, front.facts),
    asm: toAsm(final),
    hex,
    diagnostics: [...diagnostics.items, ...warnings],
  };
}
