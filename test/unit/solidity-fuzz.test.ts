import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { compileScrypt } from '../../main/contracts/scrypt/compile.js';
import { transpileSolidity } from '../../main/contracts/solidity/transpile.js';
import { Rng } from '../helpers/rng.js';

/**
 * Random valid Solidity from a small typed generator: state of every supported kind, mappings (plain and
 * nested), fixed arrays written at run-time indices, public and internal functions with parameters and
 * returns, if/else, for and while loops with break and continue, early returns, msg.sender and msg.value.
 * The transpiler must never throw; a program it accepts without errors must compile with our compiler.
 */
interface Fn {
  isPublic: boolean;
  payable: boolean;
  returns: 'uint' | 'bool' | null;
  ints: string[];
  bools: string[];
  loops: number;
  locals: number;
}

class Generator {
  constructor(private readonly r: Rng) {}

  program(): string {
    const fns = Array.from({ length: 1 + this.r.int(3) }, (_, i) => this.fn(i));
    const ctor = this.r.chance(0.5) ? '  constructor(uint x0) { s0 = x0; owner = msg.sender; }\n' : '';
    return `pragma solidity ^0.8.0;\n\ncontract Fuzz {\n  uint s0;\n  uint s1;\n  bool flag;\n  address owner;\n  uint[3] arr;\n  mapping(address => uint) bal;\n  mapping(uint => mapping(address => bool)) seen;\n  uint constant K = 7;\n${ctor}${fns.join('')}}\n`;
  }

  private fn(i: number): string {
    // sCrypt needs a public function in every contract.
    const isPublic = i === 0 || this.r.chance(0.6);
    const f: Fn = {
      isPublic,
      payable: isPublic && this.r.chance(0.3),
      returns: this.r.pick(['uint', 'bool', null] as const),
      ints: ['a', 's0', 's1', 'K'],
      bools: ['b', 'flag'],
      loops: 0,
      locals: 0,
    };
    const body = this.block(f, 0, true);
    const ret = f.returns ? `    return ${f.returns === 'uint' ? this.int(f, 1) : this.bool(f, 1)};\n` : '';
    const vis = isPublic ? this.r.pick(['public', 'external']) : this.r.pick(['internal', 'private']);
    return `  function f${i}(uint a, bool b, address c) ${vis}${f.payable ? ' payable' : ''}${f.returns ? ` returns (${f.returns})` : ''} {\n${body}${ret}  }\n`;
  }

  private block(f: Fn, depth: number, top = false): string {
    const n = 1 + this.r.int(top ? 4 : 3);
    const ints = f.ints.length;
    const bools = f.bools.length;
    let out = '';
    for (let k = 0; k < n; k++) out += this.stmt(f, depth);
    // Locals declared in a block are not visible after it.
    f.ints.length = ints;
    f.bools.length = bools;
    return out;
  }

  private stmt(f: Fn, depth: number): string {
    const pad = '    '.padEnd(4 + depth * 2);
    const choices = ['assign', 'local', 'require', 'if', 'arr'];
    if (depth < 2) choices.push('for', 'while');
    if (f.isPublic) choices.push('map', 'nested', 'sender');
    if (f.payable) choices.push('value');
    if (f.returns && depth > 0) choices.push('return');
    if (f.loops > 0) choices.push('break', 'continue');
    switch (this.r.pick(choices)) {
      case 'assign':
        return this.r.chance(0.5)
          ? `${pad}${this.r.pick(['s0', 's1'])} ${this.r.pick(['=', '+=', '*='])} ${this.int(f, 2)};\n`
          : `${pad}flag = ${this.bool(f, 2)};\n`;
      case 'local': {
        const name = `v${f.locals++}`;
        if (this.r.chance(0.6)) {
          const line = `${pad}uint ${name}${this.r.chance(0.3) ? '' : ` = ${this.int(f, 2)}`};\n`;
          f.ints.push(name);
          return line;
        }
        const line = `${pad}bool ${name} = ${this.bool(f, 2)};\n`;
        f.bools.push(name);
        return line;
      }
      case 'require':
        return `${pad}require(${this.bool(f, 2)}${this.r.chance(0.3) ? ', "no"' : ''});\n`;
      case 'if': {
        const then = this.block(f, depth + 1);
        return this.r.chance(0.5)
          ? `${pad}if (${this.bool(f, 2)}) {\n${then}${pad}}\n`
          : `${pad}if (${this.bool(f, 2)}) {\n${then}${pad}} else {\n${this.block(f, depth + 1)}${pad}}\n`;
      }
      case 'for': {
        const v = `i${f.locals++}`;
        f.loops++;
        f.ints.push(v);
        const body = this.block(f, depth + 1);
        f.ints.pop();
        f.loops--;
        return `${pad}for (uint ${v} = 0; ${v} < ${1 + this.r.int(4)}; ${v}++) {\n${body}${pad}}\n`;
      }
      case 'while': {
        f.loops++;
        const body = this.block(f, depth + 1);
        f.loops--;
        return `${pad}while (${this.bool(f, 1)}) {\n${body}${pad}}\n`;
      }
      case 'arr':
        return `${pad}arr[${this.r.pick(['0', '2', 'a % 3', 's0 % 3'])}] ${this.r.pick(['=', '+='])} ${this.int(f, 1)};\n`;
      case 'map':
        return `${pad}bal[${this.r.pick(['c', 'owner'])}] ${this.r.pick(['=', '+=', '-='])} ${this.int(f, 1)};\n`;
      case 'nested':
        return `${pad}seen[${this.r.pick(['a', 's1'])}][c] = ${this.bool(f, 1)};\n`;
      case 'sender':
        return this.r.chance(0.5) ? `${pad}require(msg.sender != owner);\n` : `${pad}owner = msg.sender;\n`;
      case 'value':
        return `${pad}s1 += msg.value;\n`;
      case 'return':
        return `${pad}if (${this.bool(f, 1)}) return ${f.returns === 'uint' ? this.int(f, 1) : this.bool(f, 1)};\n`;
      case 'break':
        return `${pad}if (${this.bool(f, 1)}) break;\n`;
      default:
        return `${pad}if (${this.bool(f, 1)}) { continue; }\n`;
    }
  }

  private int(f: Fn, depth: number): string {
    if (depth <= 0 || this.r.chance(0.4)) {
      const leaves = [...f.ints, String(this.r.int(100)), 'arr[1]', 'arr[a % 3]'];
      if (f.isPublic) leaves.push('bal[c]');
      return this.r.pick(leaves);
    }
    const k = this.r.int(4);
    if (k === 0) return `(${this.int(f, depth - 1)} ${this.r.pick(['+', '*', '-'])} ${this.int(f, depth - 1)})`;
    if (k === 1) return `${this.int(f, depth - 1)} ${this.r.pick(['+', '*', '/', '%'])} ${this.r.int(9) + 1}`;
    if (k === 2) return `(${this.bool(f, depth - 1)} ? ${this.int(f, depth - 1)} : ${this.int(f, depth - 1)})`;
    return `${this.int(f, depth - 1)} & ${this.int(f, depth - 1)}`;
  }

  private bool(f: Fn, depth: number): string {
    if (depth <= 0 || this.r.chance(0.3)) {
      const leaves = [...f.bools, 'true', 'false'];
      if (f.isPublic) leaves.push('seen[a][c]');
      return this.r.pick(leaves);
    }
    const k = this.r.int(4);
    if (k === 0) return `${this.int(f, depth - 1)} ${this.r.pick(['<', '<=', '==', '!=', '>', '>='])} ${this.int(f, depth - 1)}`;
    if (k === 1) return `(${this.bool(f, depth - 1)} ${this.r.pick(['&&', '||'])} ${this.bool(f, depth - 1)})`;
    if (k === 2) return `!${this.bool(f, 0)}`;
    return `c ${this.r.pick(['==', '!='])} owner`;
  }
}

describe('Solidity → sCrypt property', () => {
  it('random valid programs never crash the transpiler, and those it accepts compile with our compiler', () => {
    let accepted = 0;
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const source = new Generator(new Rng(seed)).program();
        const r = transpileSolidity(source, { file: 'Fuzz.sol' });
        assert.equal(typeof r.scrypt, 'string');
        for (const l of r.logs) assert.match(l.src, /^Fuzz\.sol:\d+:\d+:\d+:\d+$/, JSON.stringify(l));
        if (r.logs.some((l) => l.type === 'Error')) return;
        accepted++;
        const c = compileScrypt(r.scrypt, { file: 'Fuzz.scrypt' });
        const errors = c.diagnostics.filter((d) => d.severity === 'error');
        assert.deepEqual(
          errors.map((d) => `${d.line}:${d.column} ${d.message}`),
          [],
          `the sCrypt of this program does not compile:\n${source}\n---\n${r.scrypt}`,
        );
      }),
      { numRuns: 150 },
    );
    assert.ok(accepted > 50, `${accepted} of 150 random programs transpiled without errors`);
  });

  it('mutated programs (tokens deleted, duplicated, swapped) never crash it, and every log has a position', () => {
    const base = new Generator(new Rng(7)).program();
    const tokens = base.match(/\s+|[A-Za-z_]\w*|\d+|"[^"]*"|\S/g) ?? [];
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(2), fc.nat(), fc.nat()), { minLength: 1, maxLength: 4 }), (edits) => {
        const t = [...tokens];
        for (const [kind, a, b] of edits) {
          const i = a % t.length;
          const j = b % t.length;
          if (kind === 0) t.splice(i, 1);
          else if (kind === 1) t.splice(i, 0, t[j]);
          else [t[i], t[j]] = [t[j], t[i]];
        }
        const r = transpileSolidity(t.join(''), { file: 'M.sol' });
        for (const l of r.logs) assert.match(l.src, /^M\.sol:\d+:\d+:\d+:\d+$/);
      }),
      { numRuns: 150 },
    );
  });
});
