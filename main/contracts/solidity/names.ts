import { STDLIB_NAMES } from '../scrypt/stdlib.js';

/**
 * Names sCrypt reserves (its keywords and types, and the standard library's libraries and structs, which
 * every program sees and none may declare again: a Solidity `library Constants` is common) and names the
 * transpiler generates: a Solidity name equal to one of them is written `userDefined_<name>`, everywhere.
 * `$` in a name becomes `_`.
 */
const KEYWORDS = [
  'contract',
  'constructor',
  'public',
  'static',
  'if',
  'else',
  'require',
  'exit',
  'true',
  'false',
  'bool',
  'int',
  'bytes',
  'loop',
  'function',
  'return',
  'new',
  'import',
  'auto',
  'struct',
  'library',
  'const',
  'type',
  'state',
  'PrivKey',
  'PubKey',
  'Ripemd160',
  'Sha1',
  'Sha256',
  'Sig',
  'SigHashType',
  'OpCodeType',
  'SigHashPreimage',
  'asm',
];
const GENERATED = [
  'Tx',
  'Utils',
  'SigHash',
  'hash160',
  'hash256',
  'checkSig',
  'propagateState',
  'checkInitBalance',
  'txPreimage',
  'output',
  'outputScript',
  'msgSender',
  'msgValue',
  'sig',
  'pubKey',
  'returned',
  'ret',
  'retVal',
  'loopBreakFlag',
  '__LoopCount__',
  'contractBalance',
  'initBalance',
];
const RESERVED = new Set([...KEYWORDS, ...GENERATED, ...STDLIB_NAMES]);

export function scryptName(name: string): string {
  const n = name.replaceAll('$', '_');
  return RESERVED.has(n) ? `userDefined_${n}` : n;
}
