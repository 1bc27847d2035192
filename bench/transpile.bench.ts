import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from '@solidity-parser/parser';
import { transpileSolidity } from '../main/contracts/solidity/transpile.js';
import { report, time } from './lib.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * A large token contract: `n` public functions over mappings (plain and nested), msg.sender, loops with
 * break, early returns, structs. Every rule that rewrites code has work to do in every function.
 */
function program(n: number): string {
  const fns = Array.from(
    { length: n },
    (_, i) => `    function op${i}(address to, uint amount, uint[4] memory xs) external returns (uint) {
        require(balances[msg.sender] >= amount, "balance");
        balances[msg.sender] -= amount;
        balances[to] += amount;
        allowance[to][msg.sender] += ${i};
        uint total;
        for (uint k = 0; k < 4; k++) {
            if (xs[k] == ${i}) break;
            total += xs[k];
        }
        if (total > amount) {
            return total;
        }
        last = Entry(to, amount + ${i}, true);
        return amount;
    }`,
  );
  return `pragma solidity ^0.8.0;\n\ncontract Large {\n    struct Entry { address who; uint amount; bool set; }\n    mapping(address => uint) balances;\n    mapping(address => mapping(address => uint)) allowance;\n    Entry last;\n\n${fns.join('\n\n')}\n}\n`;
}

/**
 * The transpiler on a large contract (200 functions, about 3,400 lines) against the floor of parsing the
 * same source with @solidity-parser/parser alone (goal ≤ 3×: the translation costs little next to the
 * parse); linear scaling from 20 to 200 functions (≤ 11×); corpus throughput.
 */
export const MEASURES = ['transpile-parse', 'transpile-scaling'];

export async function run(): Promise<void> {
  const large = program(200);
  const parsed = await time('parse only (@solidity-parser/parser, 200 functions)', 5, () => parse(large, { range: true }), 2);
  const transpiled = await time(
    'transpile (parse + translate + print, 200 functions)',
    5,
    () => {
      if (transpileSolidity(large).logs.some((l) => l.type === 'Error')) throw new Error('the bench contract should transpile');
    },
    2,
  );
  report({ name: 'transpile-parse', bench: 'transpile vs parse', floor: parsed, measured: transpiled, goal: 3 });
  const small = await time('transpile, 20 functions', 50, () => transpileSolidity(program(20)), 5);
  report({ name: 'transpile-scaling', bench: 'transpiler scaling', floor: small, measured: transpiled, goal: 11 });
  console.log(
    `  size      ${large.split('\n').length} lines of Solidity → ${transpileSolidity(large).scrypt.split('\n').length} lines of sCrypt`,
  );

  const dir = path.join(root, 'test', 'fixtures', 'solidity', 'pass');
  const corpus = readdirSync(dir)
    .filter((f) => f.endsWith('.sol'))
    .map((f) => readFileSync(path.join(dir, f), 'utf8'));
  const rounds = 20;
  const t = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) for (const s of corpus) transpileSolidity(s);
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  console.log(
    `  corpus    ${Math.round((rounds * corpus.length * 1000) / ms)} programs transpiled per second (${corpus.length} corpus programs)`,
  );
}
