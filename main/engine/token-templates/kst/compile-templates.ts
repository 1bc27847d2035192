import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileScrypt } from '../../../contracts/scrypt/compile.js';

/** The open template's code for one protocol, as the build compiles it from the sCrypt sources beside this file. */
export interface KstCode {
  protocol: 'KST-20' | 'KST-789';
  /** The compiled rules (between the owner's `88ac69` and the `6a` before the data), hex. */
  code: string;
  /** Offset in the locking script of the 20-byte redemption key hash. */
  redeemAt: number;
  /** sha256 of the sources compiled, so a stale generated file is caught. */
  sourceHash: string;
}

const here = path.dirname(fileURLToPath(import.meta.url));
const CONTRACTS = { 'KST-20': 'kst20.scrypt', 'KST-789': 'kst789.scrypt' } as const;
/** 76 a9 14 <20> (owner) 88 ac 69: the code starts here; then 6a and the 0x14 push of the redemption hash. */
const CODE_START = 26;
const PLACEHOLDER = 1000;

function compile(protocol: keyof typeof CONTRACTS, redeemAt: number): { code: string; source: string } {
  const rules = readFileSync(path.join(here, 'rules.scrypt'), 'utf8').replace(`REDEEM_AT = ${PLACEHOLDER};`, `REDEEM_AT = ${redeemAt};`);
  const source = `${rules}\n${readFileSync(path.join(here, CONTRACTS[protocol]), 'utf8')}`;
  const r = compileScrypt(source, { file: CONTRACTS[protocol], optimize: true });
  if (!r.hex)
    throw new Error(
      `the ${protocol} token template does not compile:\n${r.diagnostics.map((d) => `${d.file}:${d.line}:${d.column}: ${d.message}`).join('\n')}`,
    );
  if (r.hex.includes('<')) throw new Error(`the ${protocol} token template must take no constructor arguments`);
  return { code: r.hex, source };
}

/**
 * Compiles both open-template protocols with our own compiler. The code reads the redemption key hash from
 * its own script at an offset that depends on the code's length, so it is compiled twice: once to measure,
 * once with the offset (a two-byte number either way, so the length does not move).
 */
export function compileKstTemplates(): KstCode[] {
  return (Object.keys(CONTRACTS) as (keyof typeof CONTRACTS)[]).map((protocol) => {
    const measured = compile(protocol, PLACEHOLDER).code.length / 2;
    const redeemAt = CODE_START + measured + 2;
    const { code, source } = compile(protocol, redeemAt);
    if (code.length / 2 !== measured) throw new Error(`the ${protocol} code changed length when its offset was set`);
    return {
      protocol,
      code,
      redeemAt,
      sourceHash: createHash('sha256')
        .update(source.replace(`REDEEM_AT = ${redeemAt};`, ''))
        .digest('hex'),
    };
  });
}
