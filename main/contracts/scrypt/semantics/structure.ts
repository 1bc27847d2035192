import type { Diagnostics } from '../diagnostics.js';
import { resolveType, type Facts, type Type } from './model.js';

/**
 * Method names scryptlib's generated contract class already uses (`invalidMethodName` in
 * node_modules/scryptlib/dist/contract.js, 2.2.6): a public function with one of these names makes
 * `buildContractClass` throw.
 */
export const RESERVED_METHOD_NAMES = new Set([
  'arguments',
  'setDataPart',
  'setDataPartInASM',
  'setDataPartInHex',
  'version',
  'stateProps',
  'sourceMapFile',
  'file',
  'contractName',
  'ctorArgs',
  'run_verify',
  'replaceAsmVars',
  'asmVars',
  'asmArguments',
  'dataPart',
  'lockingScript',
  'codeHash',
  'codePart',
  'resolver',
  'getNewStateScript',
  'txContext',
]);

/**
 * The shape of the program: a main contract (the last one) with at least one public function; libraries
 * without public functions; public functions neither static nor with a return type; no public function
 * named like a scryptlib member; every other function with a return type; properties initialised only when static; no property of the main
 * contract without a constructor whose type is an array of libraries with an explicit constructor.
 */
export function checkStructure(facts: Facts, diags: Diagnostics): void {
  const { env } = facts;
  if (!env.main) {
    const first = env.program.items[0];
    diags.error(
      first ? first.at : { line: 1, column: 1 },
      'the file has no contract or library (the last contract of a file is the one compiled, or the last library of a file of libraries)',
    );
  } else if (env.main.kind === 'contract' && !env.main.functions.some((f) => f.visibility === 'public')) {
    diags.error(env.main.at, `contract ${env.main.name} needs at least one public function`);
  }
  for (const item of env.program.items) {
    if (item.kind !== 'contract' && item.kind !== 'library') continue;
    for (const p of item.properties) {
      if (p.init && !p.isStatic)
        diags.error(p.at, `property ${p.name} cannot have an initial value unless it is static const; set it in the constructor`);
      if (p.isStatic && !p.init) diags.error(p.at, `static property ${p.name} needs a value`);
    }
    if (item === env.main) {
      const ctx = { facts, owner: item, generics: new Map<string, Type>() };
      for (const p of item.properties.filter((x) => !x.isStatic)) {
        let t = resolveType(p.type, ctx);
        while (t.k === 'array') t = t.elem;
        // A single value: built at the start of the script from its constructor's arguments (placeholders
        // `p.ctor.arg`), or, in a contract with an explicit constructor, assigned in code (`this.p = new T(…)`).
        // An array of them only in a contract with an explicit constructor, which starts every property as
        // default slots: its code sets the elements (`this.p[0] = new T(…)`), and those it leaves alone are
        // built from default arguments, as a single one is.
        const single = resolveType(p.type, ctx).k === 'object';
        if (t.k === 'object' && t.decl.ctor && !single && !item.ctor) {
          diags.error(
            p.at,
            `property ${p.name}: an array of ${t.decl.kind} values with an explicit constructor cannot be a property of a contract without a constructor; give ${item.name} a constructor that sets them with new ${t.decl.name}(…), or build them in a function`,
          );
        }
      }
    }
    for (const f of item.functions) {
      if (f.visibility !== 'public') {
        const asm = f.body.length === 1 && f.body[0].kind === 'asm';
        if (!f.returnType)
          diags.error(
            f.at,
            `function ${f.name} needs a return type (function ${f.name}(…) : type)${asm ? ', the type of what its asm leaves on the stack' : ''}`,
          );
        continue;
      }
      if (item.kind === 'library') {
        diags.error(f.at, `library ${item.name} cannot have public functions (${f.name}); only contracts can`);
        continue;
      }
      if (f.isStatic) diags.error(f.at, `public function ${f.name} cannot be static`);
      else if (f.returnType)
        diags.error(f.returnType.at, `public function ${f.name} cannot declare a return type (it returns bool implicitly)`);
      if (RESERVED_METHOD_NAMES.has(f.name)) diags.error(f.at, `public function name '${f.name}' is reserved by scryptlib; rename it`);
    }
  }
}
