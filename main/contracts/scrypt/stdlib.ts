import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { OP } from './script.js';

/**
 * The standard library, written in sCrypt (stdlib/*.scrypt) and compiled with the user's program. The
 * official library source is not public; this is our own implementation of its documented behaviour (the
 * sCrypt language reference and the TypeScript mirrors in scrypt-ts): `Utils`, `SigHash` (BIP143 preimage
 * fields), `Tx` (OP_PUSH_TX: the preimage is signed in script with a fixed, public key and nonce, then
 * checked with OP_CHECKSIG, which only succeeds for the real preimage of the spending transaction), the
 * readers/writers of the stateful-contract data part, and `HashedMap`/`HashedSet`. Only what a program uses
 * costs script: library functions are inlined at their call sites.
 */
export const STDLIB_FILE = '<stdlib>';

/**
 * The library's files, in the order their declarations are compiled: the order of static constants decides
 * where each is pushed at the bottom of a script, so it is fixed here rather than left to the directory.
 */
export const STDLIB_FILES = ['utils.scrypt', 'sighash.scrypt', 'state.scrypt', 'tx.scrypt', 'hashed.scrypt'];

/**
 * Where the .scrypt files are: beside this file when it runs from source (tsx: tests, scripts), in
 * scrypt-stdlib/ beside the bundle in dist/main/ (scripts/build.mjs copies them there), which the main
 * process and the compile workers both run from.
 */
function stdlibDir(): string {
  const here = fileURLToPath(import.meta.url);
  return here.endsWith('.ts') ? path.join(path.dirname(here), 'stdlib') : path.join(path.dirname(here), 'scrypt-stdlib');
}

/**
 * Bitcoin's opcodes as named constants (OpCodeType), in opcode order with each alias after its canonical
 * name; the standard library builds scripts from them, and like every non-int constant a used one is pushed
 * once at the bottom of the script. Generated from the opcode table the compiler itself uses (script.ts),
 * so the two cannot disagree, rather than written out as a .scrypt file.
 */
function opcodeLibrary(): string {
  const named: [string, number][] = Object.entries(OP).filter(([name]) => name !== 'OP_LEFT' && name !== 'OP_RIGHT');
  named.push(['OP_FALSE', 0x00], ['OP_TRUE', 0x51], ['OP_PUBKEYHASH', 0xfd], ['OP_PUBKEY', 0xfe]);
  const alias = new Set(['OP_FALSE', 'OP_TRUE', 'OP_CHECKLOCKTIMEVERIFY', 'OP_CHECKSEQUENCEVERIFY']);
  named.sort((a, b) => a[1] - b[1] || Number(alias.has(a[0])) - Number(alias.has(b[0])));
  const lines = named.map(([name, code]) => `  static const OpCodeType ${name} = OpCodeType(b'${code.toString(16).padStart(2, '0')}');`);
  return `library OpCode {\n${lines.join('\n')}\n}`;
}

let source: string | null = null;

/**
 * The library as one source file, read once: the generated OpCode library, then the files in order, each
 * followed by a blank line (so positions in '<stdlib>' are those of the files laid end to end).
 */
export function stdlibSource(): string {
  if (source === null) {
    const dir = stdlibDir();
    const files = STDLIB_FILES.map((f) => `${readFileSync(path.join(dir, f), 'utf8')}\n`);
    source = `\n${opcodeLibrary()}\n\n${files.join('')}`;
  }
  return source;
}

/**
 * Names the standard library declares. They are taken: a program (or a file it imports) that declares one
 * of them again is refused at that declaration (compile.ts, withStdlib).
 */
export const STDLIB_NAMES = [
  'OpCode',
  'Utils',
  'SigHash',
  'VarIntReader',
  'VarIntWriter',
  'Tx',
  'Constants',
  'SortedItem',
  'HashedMap',
  'HashedSet',
];
