import type { Token } from './script.js';

/**
 * The optional peephole optimiser (-O). Each rule replaces a window of opcodes with a shorter
 * equivalent one; rules run to a fixpoint. Longer windows come first, so `OP_2 OP_PICK OP_2 OP_PICK`
 * becomes `OP_3DUP OP_DROP` before `OP_1 OP_PICK` would become `OP_OVER`.
 */
const RULES: [string[], string[]][] = [
  [['OP_2', 'OP_PICK', 'OP_2', 'OP_PICK', 'OP_2', 'OP_PICK'], ['OP_3DUP']],
  [['OP_2', 'OP_PICK', 'OP_2', 'OP_PICK'], ['OP_3DUP', 'OP_DROP']],
  [['OP_1', 'OP_PICK', 'OP_1', 'OP_PICK'], ['OP_2DUP']],
  [['OP_0', 'OP_PICK'], ['OP_DUP']],
  [['OP_1', 'OP_PICK'], ['OP_OVER']],
  [['OP_0', 'OP_ROLL'], []],
  [['OP_1', 'OP_ROLL'], ['OP_SWAP']],
  [['OP_2', 'OP_ROLL'], ['OP_ROT']],
  [['OP_EQUAL', 'OP_VERIFY'], ['OP_EQUALVERIFY']],
  [['OP_NUMEQUAL', 'OP_VERIFY'], ['OP_NUMEQUALVERIFY']],
  [['OP_CHECKSIG', 'OP_VERIFY'], ['OP_CHECKSIGVERIFY']],
  [['OP_SWAP', 'OP_DROP'], ['OP_NIP']],
  [['OP_NOT', 'OP_NOT'], []],
  [['OP_DUP', 'OP_DROP'], []],
];

const opOf = (t: Token | undefined) => (t && 'op' in t ? t.op : null);

export function optimize(tokens: readonly Token[]): Token[] {
  let current = [...tokens];
  for (let changed = true; changed; ) {
    changed = false;
    const out: Token[] = [];
    for (let i = 0; i < current.length; ) {
      const rule = RULES.find(([from]) => from.every((op, k) => opOf(current[i + k]) === op));
      if (rule) {
        out.push(...rule[1].map((op) => ({ op })));
        i += rule[0].length;
        changed = true;
      } else out.push(current[i++]);
    }
    current = out;
  }
  return current;
}
