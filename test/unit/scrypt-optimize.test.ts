import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LockingScript, Spend, UnlockingScript } from '@bsv/sdk';
import { RULES, optimize, type Pattern, type Rule } from '../../main/contracts/scrypt/optimize.js';
import { pushBytes, pushInt, toScriptHex, type Token } from '../../main/contracts/scrypt/script.js';

/**
 * The -O peephole rules, one by one: each fires on its window and shrinks the script, and (property) for
 * random stacks of the rule's domain the window and its replacement leave the same stacks, or both fail,
 * under the @bsv/sdk interpreter.
 */

/** A deterministic generator, so a failure names a reproducible case. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const hex = (bytes: number[]) => bytes.map((b) => b.toString(16).padStart(2, '0')).join('');

/**
 * A stack item: for `number`, a minimally encoded script number; for `any`, arbitrary short bytes (non-minimal numbers and negative zero
 * included).
 */
function item(rand: () => number, domain: Rule['domain']): string {
  if (domain === 'number' || rand() < 0.4) {
    const n = BigInt(Math.floor(rand() * 600) - 300);
    const t = pushInt(n);
    return 'op' in t
      ? t.op === 'OP_0'
        ? ''
        : t.op === 'OP_1NEGATE'
          ? '81'
          : Number(t.op.slice(3)).toString(16).padStart(2, '0')
      : (t as { push: string }).push;
  }
  const specials = ['', '00', '80', '0000', '01', '0100', 'ff', '8000'];
  if (rand() < 0.3) return specials[Math.floor(rand() * specials.length)];
  return hex(Array.from({ length: Math.floor(rand() * 5) }, () => Math.floor(rand() * 256)));
}

/** The window's concrete tokens: opcodes as named, a random constant for PUSH/CONST/NUM; one its condition (if any) accepts. */
function windowOf(rule: Rule, rand: () => number): Token[] {
  for (let attempt = 0; ; attempt++) {
    const window = rule.from.map((p: Pattern): Token => {
      if (p === 'NUM') return pushInt(BigInt(Math.floor(rand() * (rand() < 0.2 ? 70000 : 24)) - 3));
      return p === 'PUSH' || p === 'CONST' ? pushBytes(item(rand, 'any')) : { op: p };
    });
    if (!rule.when || rule.when(window)) return window;
    if (attempt > 500) throw new Error(`${rule.name}: no random window satisfies its condition`);
  }
}

/** Closes a branch the window opens, so the script is well formed and both arms are observable. */
function closing(window: Token[]): Token[] {
  const last = window[window.length - 1];
  return 'op' in last && (last.op === 'OP_IF' || last.op === 'OP_NOTIF')
    ? [{ op: 'OP_5' }, { op: 'OP_ELSE' }, { op: 'OP_6' }, { op: 'OP_ENDIF' }]
    : [];
}

type Outcome = { stack: string[]; alt: string[] } | { error: true };

function run(stack: string[], script: Token[]): Outcome {
  const unlocking = toScriptHex(stack.map((v) => pushBytes(v)));
  const spend = new Spend({
    sourceTXID: '00'.repeat(32),
    sourceOutputIndex: 0,
    sourceSatoshis: 1,
    transactionVersion: 1,
    otherInputs: [],
    outputs: [],
    inputSequence: 0xffffffff,
    inputIndex: 0,
    lockTime: 0,
    lockingScript: LockingScript.fromHex(toScriptHex(script) || '61'),
    unlockingScript: UnlockingScript.fromHex(unlocking),
  } as never);
  try {
    for (let n = 0; spend.step(); n++) if (n > 10_000) throw new Error('runaway');
  } catch {
    return { error: true };
  }
  return { stack: spend.stack.map(hex), alt: spend.altStack.map(hex) };
}

const bytesOf = (tokens: Token[]) => toScriptHex(tokens).length / 2;

describe('-O peephole rules', () => {
  it('every rule fires on its window, and the result is smaller (or, moving a push, no larger)', () => {
    const rand = rng(7);
    for (const rule of RULES) {
      const window = windowOf(rule, rand);
      const out = optimize(window);
      assert.notDeepEqual(out, window, rule.name);
      assert.ok(bytesOf(out) <= bytesOf(window), `${rule.name}: ${bytesOf(out)} > ${bytesOf(window)} bytes`);
      assert.deepEqual(optimize(rule.to(window)), out, `${rule.name}: the replacement reaches the same fixpoint`);
    }
  });

  it('examples: OP_NOPs vanish, pairs fuse, NOT IF is NOTIF, 1 ADD is 1ADD, a push sinks below NIPs', () => {
    const ops = (s: string) => s.split(' ').map((op): Token => ({ op }));
    const asm = (tokens: Token[]) => tokens.map((t) => ('op' in t ? t.op : 'push' in t ? t.push : `$${t.placeholder}`)).join(' ');
    assert.equal(asm(optimize(ops('OP_NOP OP_1 OP_ADD OP_NOP'))), 'OP_1ADD');
    assert.equal(asm(optimize(ops('OP_3 OP_PICK OP_3 OP_PICK'))), 'OP_2OVER');
    assert.equal(asm(optimize(ops('OP_3 OP_ROLL OP_3 OP_ROLL'))), 'OP_2SWAP');
    assert.equal(asm(optimize(ops('OP_5 OP_ROLL OP_5 OP_ROLL'))), 'OP_2ROT');
    assert.equal(asm(optimize(ops('OP_NOT OP_IF OP_1 OP_ENDIF'))), 'OP_NOTIF OP_1 OP_ENDIF');
    assert.equal(asm(optimize([{ push: 'abcd' }, ...ops('OP_NIP OP_NIP OP_NIP')])), 'OP_2DROP OP_DROP abcd');
    assert.equal(asm(optimize(ops('OP_7 OP_1 OP_MUL OP_DUP OP_NIP'))), 'OP_7');
    assert.equal(asm(optimize([{ placeholder: 'x' }, { op: 'OP_DROP' }])), '$x OP_DROP', 'a constructor placeholder is never removed');
    assert.equal(asm(optimize(ops('OP_SWAP OP_ADD'))), 'OP_ADD');
    // A constant index read: the bounds check and the depth arithmetic fold into one PICK.
    assert.equal(
      asm(
        optimize(
          ops(
            'OP_5 OP_1 OP_DUP OP_0 OP_GREATERTHANOREQUAL OP_VERIFY OP_DUP OP_3 OP_LESSTHAN OP_VERIFY OP_1 OP_MUL OP_SUB OP_TOALTSTACK OP_FROMALTSTACK OP_DUP OP_TOALTSTACK OP_PICK OP_FROMALTSTACK OP_DROP',
          ),
        ),
      ),
      'OP_4 OP_PICK',
    );
    assert.equal(
      asm(optimize(ops('OP_5 OP_3 OP_DUP OP_0 OP_GREATERTHANOREQUAL OP_VERIFY OP_DUP OP_3 OP_LESSTHAN OP_VERIFY'))).split(' ').length,
      10,
      'an index out of bounds keeps its check',
    );
  });

  it('property: each rule leaves the same stacks as its window (or both fail), for random stacks of its domain', () => {
    const rand = rng(2026);
    for (const rule of RULES) {
      for (let trial = 0; trial < 60; trial++) {
        // Deep enough for every window (2ROT reads six items): the compiler only emits a window where its items exist.
        const depth = 7 + Math.floor(rand() * 3);
        const stack = Array.from({ length: depth }, () => item(rand, rule.domain));
        const window = windowOf(rule, rand);
        const tail = closing(window);
        const before = run(stack, [...window, ...tail]);
        const after = run(stack, [...rule.to(window), ...tail]);
        assert.deepEqual(after, before, `${rule.name} on [${stack.join(', ')}] with ${toScriptHex(window)}`);
      }
    }
  });
});
