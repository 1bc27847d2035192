import type { Diagnostics } from '../diagnostics.js';
import type { Facts } from './model.js';

/**
 * Method names scryptlib's generated contract class already uses (`invalidMethodName` in
 * node_modules/scryptlib/dist/contract.js, 2.2.6): a public function with one of these names makes
 * `buildContractClass` throw.
 */
export const RESERVED_METHOD_NAMES = new Set([
  'arguments', 'setDataPart', 'setDataPartInASM', 'setDataPartInHex', 'version', 'stateProps', 'sourceMapFile', 'file',
  'contractName', 'ctorArgs', 'run_verify', 'replaceAsmVars', 'asmVars', 'asmArguments', 'dataPart', 'lockingScript',
  'codeHash', 'codePart', 'resolver', 'getNewStateScript', 'txContext',
]);

/**
 * The shape of the program: a main contract (the last one) with at least one public function; libraries
 * without public functions; public functions neither static nor with a return type; no public function
 * named like a scryptlib member.
 */
export function checkStructure(facts: Facts, diags: Diagnostics): void {
  const { env } = facts;
  if (!env.main) {
    const first = env.program.items[0];
    diags.error(first ? first.at : { line: 1, column: 1 }, 'the file has no contract (the last contract of a file is the one compiled)');
  } else if (!env.main.functions.some((f) => f.visibility === 'public')) {
    diags.error(env.main.at, `contract ${env.main.name} needs at least one public function`);
  }
  for (const item of env.program.items) {
    if (item.kind !== 'contract' && item.kind !== 'library') continue;
    for (const f of item.functions) {
      if (f.visibility !== 'public') continue;
      if (item.kind === 'library') {
        diags.error(f.at, `library ${item.name} cannot have public functions (${f.name}); only contracts can`);
        continue;
      }
      if (f.isStatic) diags.error(f.at, `public function ${f.name} cannot be static`);
      else if (f.returnType) diags.error(f.returnType.at, `public function ${f.name} cannot declare a return type (it returns bool implicitly)`);
      if (RESERVED_METHOD_NAMES.has(f.name)) diags.error(f.at, `public function name '${f.name}' is reserved by scryptlib; rename it`);
    }
  }
}
