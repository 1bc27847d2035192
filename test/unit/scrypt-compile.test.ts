import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { Hash, LockingScript, P2PKH, PrivateKey, Transaction, UnlockingScript, Utils } from '@bsv/sdk';
import { buildContractClass, Bytes, Int, PubKey, Ripemd160, Sha256, Sig } from 'scryptlib';
import { templateMd5 } from '../../main/contracts/scrypt/artifact.js';
import { compileScrypt } from '../../main/contracts/scrypt/compile.js';
import { ROOT } from '../helpers/headless.js';
import { spends as spendsHelper, validateInput0 } from '../helpers/scrypt-spend.js';

const fixture = (name: string) => readFileSync(path.join(ROOT, 'test', 'fixtures', 'scrypt', name), 'utf8');

function compiled(name: string) {
  const r = compileScrypt(fixture(name), { file: name });
  assert.deepEqual(r.diagnostics, [], `${name} compiles`);
  return r;
}

/** Runs the interpreter on unlocking + locking script: the oracle for every compiled contract. */
const spends = (lockingHex: string, unlockingHex: string) => spendsHelper(lockingHex, () => unlockingHex);
const spendsTx = (tx: Transaction) => validateInput0(tx) === true;

describe('sCrypt compiler: output equal to the official compiler, and spendable', () => {
  it('P2PKH: byte for byte the official non-optimised template, ASM and artifact', () => {
    const r = compiled('p2pkh.scrypt');
    assert.equal(r.hex, '<pubKeyHash>5179a95179876952795279ac777777');
    assert.equal(
      r.asm,
      '$pubKeyHash OP_1 OP_PICK OP_HASH160 OP_1 OP_PICK OP_EQUAL OP_VERIFY OP_2 OP_PICK OP_2 OP_PICK OP_CHECKSIG OP_NIP OP_NIP OP_NIP',
    );
    const a = r.artifact!;
    assert.deepEqual(
      { version: a.version, contract: a.contract, abi: a.abi, md5: a.md5 },
      {
        version: 9,
        contract: 'P2PKH',
        abi: [
          {
            type: 'function',
            name: 'unlock',
            index: 0,
            params: [
              { name: 'sig', type: 'Sig' },
              { name: 'pubKey', type: 'PubKey' },
            ],
          },
          { type: 'constructor', params: [{ name: 'pubKeyHash', type: 'Ripemd160' }] },
        ],
        md5: templateMd5('<pubKeyHash>5179a95179876952795279ac777777'),
      },
    );
  });

  it('P2PKH: scryptlib loads the artifact; a real signature spends it, a wrong key does not', async () => {
    const Contract = buildContractClass(compiled('p2pkh.scrypt').artifact as never);
    const key = PrivateKey.fromRandom();
    const pkh = Utils.toHex(Hash.hash160(key.toPublicKey().encode(true) as number[]));
    const instance = new Contract(Ripemd160(pkh)) as unknown as {
      lockingScript: { toHex(): string };
      unlock(s: unknown, p: unknown): { unlockingScript: { toHex(): string } };
    };
    const locking = instance.lockingScript.toHex();
    assert.equal(locking, `14${pkh}5179a95179876952795279ac777777`);

    // Sign a real spend with @bsv/sdk, then have scryptlib encode the same call, and run it.
    const source = new Transaction();
    source.addOutput({ lockingScript: LockingScript.fromHex(locking), satoshis: 5000 });
    const sign = async (signer: PrivateKey) => {
      const tx = new Transaction();
      tx.addInput({ sourceTransaction: source, sourceOutputIndex: 0, unlockingScriptTemplate: new P2PKH().unlock(signer) });
      tx.addOutput({ lockingScript: new P2PKH().lock(key.toAddress()), satoshis: 4000 });
      await tx.sign();
      const chunks = tx.inputs[0].unlockingScript!.chunks;
      const call = instance.unlock(Sig(Utils.toHex(chunks[0].data!)), PubKey(Utils.toHex(chunks[1].data!)));
      assert.equal(
        call.unlockingScript.toHex(),
        tx.inputs[0].unlockingScript!.toHex(),
        'scryptlib encodes unlock(sig, pubKey) as the SDK does',
      );
      return tx;
    };
    const good = await sign(key);
    assert.equal(spendsTx(good), true);
    const bad = await sign(PrivateKey.fromRandom());
    assert.equal(spendsTx(bad), false);
  });

  it('-O: the peephole optimiser gives the official optimised P2PKH, and every corpus contract still spends the same', () => {
    assert.equal(compileScrypt(fixture('p2pkh.scrypt'), { optimize: true }).hex, '<pubKeyHash>78a978886f75ac777777');
    const Plain = buildContractClass(compiled('demo.scrypt').artifact as never);
    const Opt = buildContractClass(compileScrypt(fixture('demo.scrypt'), { optimize: true }).artifact as never);
    for (const C of [Plain, Opt]) {
      const d = new C(Int(5), Int(2)) as any;
      assert.equal(spends(d.lockingScript.toHex(), d.add(Int(7)).unlockingScript.toHex()), true);
      assert.equal(spends(d.lockingScript.toHex(), d.sub(Int(4)).unlockingScript.toHex()), false);
    }
    const ArithOpt = buildContractClass(compileScrypt(fixture('arith.scrypt'), { optimize: true }).artifact as never);
    const a = new ArithOpt(Int(100), Bytes('abcd')) as any;
    assert.ok(
      a.lockingScript.toHex().length <
        (new (buildContractClass(compiled('arith.scrypt').artifact as never))(Int(100), Bytes('abcd')) as any).lockingScript.toHex().length,
    );
    assert.equal(spends(a.lockingScript.toHex(), a.check(Int(9), Int(3), Bytes('abcd010203')).unlockingScript.toHex()), true);
    assert.equal(spends(a.lockingScript.toHex(), a.check(Int(9), Int(3), Bytes('ffff010203')).unlockingScript.toHex()), false);
  });

  it('Demo: two public functions dispatched on a selector', () => {
    const r = compiled('demo.scrypt');
    assert.equal(r.asm!.split(' ').slice(0, 7).join(' '), '$x $y OP_2 OP_PICK OP_0 OP_EQUAL OP_IF');
    assert.ok(r.asm!.endsWith('OP_ELSE OP_0 OP_ENDIF OP_ENDIF'));
    const Contract = buildContractClass(r.artifact as never);
    const demo = new Contract(Int(5), Int(2)) as unknown as Record<
      string,
      (...a: unknown[]) => { unlockingScript: { toHex(): string } }
    > & { lockingScript: { toHex(): string } };
    const locking = demo.lockingScript.toHex();
    assert.equal(spends(locking, demo.add(Int(7)).unlockingScript.toHex()), true, 'add(7)');
    assert.equal(spends(locking, demo.sub(Int(3)).unlockingScript.toHex()), true, 'sub(3)');
    assert.equal(spends(locking, demo.add(Int(8)).unlockingScript.toHex()), false, 'add(8)');
    assert.equal(spends(locking, demo.sub(Int(7)).unlockingScript.toHex()), false, 'sub(7)');
  });

  it('HashPuzzle: the preimage unlocks, anything else does not', () => {
    const Contract = buildContractClass(compiled('hash-puzzle.scrypt').artifact as never);
    const secret = Utils.toHex(Utils.toArray('open sesame', 'utf8'));
    const c = new Contract(Sha256(Utils.toHex(Hash.sha256(Utils.toArray(secret, 'hex'))))) as any;
    assert.equal(spends(c.lockingScript.toHex(), c.unlock(Bytes(secret)).unlockingScript.toHex()), true);
    assert.equal(spends(c.lockingScript.toHex(), c.unlock(Bytes('00')).unlockingScript.toHex()), false);
  });

  it('Arith: locals, assignment, branches, ternary, logic, slices, len, num2bin, unpack', () => {
    const Contract = buildContractClass(compiled('arith.scrypt').artifact as never);
    const c = new Contract(Int(100), Bytes('abcd')) as any;
    const locking = c.lockingScript.toHex();
    const ok = (a: number, b: number, blob: string) => spends(locking, c.check(Int(a), Int(b), Bytes(blob)).unlockingScript.toHex());
    assert.equal(ok(3, 9, 'abcd010203'), true, 'sum 12, |d| 6 → 18 ≤ 100');
    assert.equal(ok(9, 3, 'abcd010203'), true, 'the else branch');
    assert.equal(ok(500, 1, 'abcd010203'), true, 'capped at the limit by ?:');
    assert.equal(ok(3, 9, 'ffff010203'), false, 'wrong prefix');
    assert.equal(ok(3, 9, 'abcd0102'), false, 'wrong length');
  });

  it('LoopSum: static consts and unrolled loops (OP_NOP before each iteration)', () => {
    const r = compiled('loop-sum.scrypt');
    assert.equal(r.asm!.split(' ').filter((t) => t === 'OP_NOP').length, 6, '4 + 2 iterations');
    assert.deepEqual(
      r.artifact!.abi.at(-1),
      { type: 'constructor', params: [{ name: 'target', type: 'int' }] },
      'static consts are not constructor parameters',
    );
    const Contract = buildContractClass(r.artifact as never);
    const c = new Contract(Int(2 * (0 + 1 + 2 + 3) + 6)) as any;
    assert.equal(spends(c.lockingScript.toHex(), c.check(Int(2)).unlockingScript.toHex()), true);
    assert.equal(spends(c.lockingScript.toHex(), c.check(Int(3)).unlockingScript.toHex()), false);
    const bad = compileScrypt('contract A { int n; public function f(int a) { loop (this.n) { a += 1; } require(a == 1); } }');
    assert.match(bad.diagnostics[0].message, /loop count must be a compile-time constant/);
  });

  it("PrivateCalls: private and static functions inlined, callers' names untouched", () => {
    const Contract = buildContractClass(compiled('private-calls.scrypt').artifact as never);
    const c = new Contract(Int(10)) as any;
    const ok = (x: number, expected: number) => spends(c.lockingScript.toHex(), c.check(Int(x), Int(expected)).unlockingScript.toHex());
    assert.equal(ok(4, 4 * 3 + 10 + 2), true);
    assert.equal(ok(4, 25), false);
    const rec = compileScrypt(
      'contract A { private function f(int a) : int { return f(a); } public function g(int a) { require(f(a) == 1); } }',
    );
    assert.match(rec.diagnostics[0].message, /recursion is not allowed: f → f/);
  });

  it('Ctor: an explicit constructor in the official shape (OP_0 slots, placeholders, OP_NOP … OP_DROPs OP_NOP)', () => {
    const r = compiled('ctor.scrypt');
    assert.ok(r.hex!.startsWith('0000<a><tag>61'), r.hex!);
    assert.match(r.asm!, /^OP_0 OP_0 \$a \$tag OP_NOP .* OP_DROP OP_DROP OP_NOP /);
    assert.deepEqual(r.artifact!.abi.at(-1), {
      type: 'constructor',
      params: [
        { name: 'a', type: 'int' },
        { name: 'tag', type: 'bytes' },
      ],
    });
    const Contract = buildContractClass(r.artifact as never);
    const c = new Contract(Int(21), Bytes('beef')) as any;
    assert.equal(spends(c.lockingScript.toHex(), c.check(Int(42), Bytes('beef')).unlockingScript.toHex()), true);
    assert.equal(spends(c.lockingScript.toHex(), c.check(Int(21), Bytes('beef')).unlockingScript.toHex()), false);
  });

  it('MultiSig: arrays flattened as scryptlib expects, checkMultiSig with real signatures', async () => {
    const r = compiled('multisig.scrypt');
    assert.ok(r.hex!.startsWith('<keys[0]><keys[1]><keys[2]><limits[0]><limits[1]>'), r.hex!);
    assert.deepEqual(
      r.artifact!.abi.map((x) => x.params.map((p) => p.type)),
      [
        ['Sig[2]', 'int'],
        ['PubKey[3]', 'int[2]'],
      ],
    );
    const Contract = buildContractClass(r.artifact as never);
    const keys = [PrivateKey.fromRandom(), PrivateKey.fromRandom(), PrivateKey.fromRandom()];
    const c = new Contract(
      keys.map((k) => PubKey(k.toPublicKey().toString())),
      [Int(10), Int(50)],
    ) as any;
    const locking = c.lockingScript.toHex();
    const source = new Transaction();
    source.addOutput({ lockingScript: LockingScript.fromHex(locking), satoshis: 5000 });
    // Sign with @bsv/sdk's own multisig-style signatures: each key signs the spend (SIGHASH_ALL|FORKID).
    const attempt = async (signers: PrivateKey[], amount: number) => {
      const tx = new Transaction();
      tx.addInput({ sourceTransaction: source, sourceOutputIndex: 0, unlockingScript: new UnlockingScript() });
      tx.addOutput({ lockingScript: new P2PKH().lock(keys[0].toAddress()), satoshis: 4000 });
      const sigs: string[] = [];
      for (const k of signers) {
        const tmpl = new P2PKH().unlock(k, 'all', false, 5000, LockingScript.fromHex(locking));
        const u = await tmpl.sign(tx, 0);
        sigs.push(Utils.toHex(u.chunks[0].data!));
      }
      tx.inputs[0].unlockingScript = UnlockingScript.fromHex(
        c
          .unlock(
            sigs.map((x) => Sig(x)),
            Int(amount),
          )
          .unlockingScript.toHex(),
      );
      return spendsTx(tx);
    };
    assert.equal(await attempt([keys[0], keys[2]], 60), true, 'keys 1 and 3, amount inside (9, 100)');
    assert.equal(await attempt([keys[2], keys[0]], 60), false, 'signatures out of key order');
    assert.equal(await attempt([keys[0], PrivateKey.fromRandom()], 60), false, 'a stranger signs');
    assert.equal(await attempt([keys[0], keys[1]], 9), false, 'amount not above the lowered bound');
  });

  it('reports unsupported constructs and type errors as positioned diagnostics, never a crash', () => {
    const cases: [string, RegExp][] = [
      [
        'contract A { int x; public function f(int a) { require(a == 1); int b = 2; } }',
        /1:21: error: public function f must end with require/,
      ],
      ["contract A { int x; public function f(int a) { require(a == b'00'); } }", /cannot compare int with bytes/],
      ['contract A { int x; public function f(bytes a) { require(a + 1 == 2); } }', /\+ needs ints, not bytes and int/],
      ['contract A { int x; public function f(int a) { require(nope == 1); } }', /unknown name 'nope'/],
      ['contract A { int x; public function f(int a) { require(this.y == 1); } }', /A has no property 'y'/],
      ['contract A { Point x; public function f(int a) { require(a == 1); } }', /unknown type Point/],
      ['contract A { int[3] x; public function f(int a) { require(this.x[3] == 1); } }', /index 3 is out of bounds for int\[3\]/],
      [
        'contract A { int[3] x; public function f(int a) { int y = this.x[a]++; require(a == y); } }',
        /index that is written must be a compile-time constant/,
      ],
      ['contract A { int x; constructor(int y) { this.z = y; } public function f(int a) { require(a == 1); } }', /A has no property 'z'/],
      ['contract A { int x; }', /needs at least one public function/],
      ['struct S { int a; } contract A { int x; public function f(int a) { S s = {a, 2}; require(s.a == 1); } }', /S has 1 fields, not 2/],
      ['contract A { int x; public function f(int a) { require(a == 1) }', /expected ';'/],
    ];
    for (const [source, message] of cases) {
      const r = compileScrypt(source, { file: 'A.scrypt' });
      assert.equal(r.artifact, null, source);
      assert.ok(
        r.diagnostics.some((d) => message.test(`${d.line}:${d.column}: ${d.severity}: ${d.message}`)),
        `${source}\n→ ${JSON.stringify(r.diagnostics)}`,
      );
    }
  });
});
