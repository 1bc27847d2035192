/**
 * scrypt-ts → sCrypt → our compiler → scrypt-ts → a real spend, offline.
 *
 * For each contract in test/fixtures/scrypt-ts: transpile the TypeScript live with scrypt-ts-transpiler,
 * compile the sCrypt it produces with our compileScrypt, load the artifact into the scrypt-ts class
 * (`loadArtifact`), instantiate it, let scrypt-ts encode a public-method call (running the method's
 * TypeScript off-chain first, as scrypt-ts does), and check with the @bsv/sdk interpreter (`Spend`) that the
 * spend validates with the right arguments and fails with wrong ones. Transactions are built and hashed by
 * @bsv/sdk; scrypt-ts's bundled bsv library only sees a copy (scrypt-ts needs one in `this.to`).
 *
 * scrypt-ts can only encode calls that pass its own off-chain checks, so wrong calls are encoded with
 * scrypt-ts's underlying encoder (`encodeMethodCall`, the scryptlib delegate) instead.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Hash, LockingScript, P2PKH, PrivateKey, Transaction, TransactionSignature, UnlockingScript, Utils } from '@bsv/sdk';
import { compileScrypt } from '../../main/contracts/scrypt/compile.js';
import { loadScryptTsModules, transpileScryptTs } from '../helpers/scrypt-ts.js';
import { tempDir } from '../helpers/tmp.js';
import { validateInput0 } from '../helpers/scrypt-spend.js';

const require = createRequire(import.meta.url);
// The same (CommonJS) scrypt-ts module instance the fixture classes extend.
const scryptTs = require('scrypt-ts') as typeof import('scrypt-ts');
const { bsv, PubKey, Ripemd160, Sha256, Sig, SigHashPreimage, toByteString } = scryptTs;

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'scrypt-ts');
const NAMES = ['HashLockedP2PKH', 'WeightedSum', 'Counter'] as const;
type Name = (typeof NAMES)[number];
const FILES = NAMES.map((n) => path.join(FIXTURES, `${n}.ts`));

/** What the tests use of a scrypt-ts contract instance and class (the classes are loaded at run time). */
interface Instance {
  lockingScript: { toHex(): string };
  codePart: string;
  getUnlockingScript(call: (self: any) => void): { toHex(): string };
  next(): Instance;
  [member: string]: any;
}
interface ContractClass {
  new (...args: any[]): Instance;
  loadArtifact(artifact: unknown): void;
}

let sources: Record<string, string>;
let classes: Record<string, ContractClass>;

before(async () => {
  sources = await transpileScryptTs(FILES, tempDir('keystead-scrypt-ts-'));
  const modules = loadScryptTsModules(FILES);
  classes = Object.fromEntries(NAMES.map((n, i) => [n, modules[FILES[i]][n] as ContractClass]));
});

/** Compiles the live transpiler output of `name` with our compiler; any diagnostic fails, with the source. */
function compiled(name: Name) {
  const source = sources[name];
  assert.ok(source, `the transpiler produced ${name}.scrypt`);
  const r = compileScrypt(source, { file: `${name}.scrypt` });
  const listing = source
    .split('\n')
    .map((l, i) => `${String(i + 1).padStart(3)}| ${l}`)
    .join('\n');
  assert.deepEqual(
    r.diagnostics,
    [],
    `transpiled ${name}.scrypt must compile without diagnostics:\n${r.diagnostics.map((d) => `  ${d.file}:${d.line}:${d.column}: ${d.severity}: ${d.message}`).join('\n')}\n--- ${name}.scrypt (from the scrypt-ts transpiler) ---\n${listing}`,
  );
  assert.ok(r.artifact, `${name}: an artifact`);
  return r.artifact;
}

/** A scrypt-ts class with our artifact loaded. */
function contractClass(name: Name): ContractClass {
  const C = classes[name];
  assert.equal(typeof C, 'function', `${name}.ts exports class ${name}`);
  C.loadArtifact(compiled(name));
  return C;
}

const validate = validateInput0;

/** An output holding `lockingHex`, in a transaction of its own (nothing spends into it: it is never broadcast). */
function fund(lockingHex: string, satoshis: number): Transaction {
  const tx = new Transaction();
  tx.addOutput({ lockingScript: LockingScript.fromHex(lockingHex), satoshis });
  return tx;
}

/** A transaction spending output 0 of `source` (unlocking script still empty) into `outputs`. */
function spending(source: Transaction, outputs: { lockingHex: string; satoshis: number }[], lockTime = 0): Transaction {
  const tx = new Transaction();
  tx.addInput({ sourceTransaction: source, sourceOutputIndex: 0, unlockingScript: new UnlockingScript(), sequence: 0xffffffff });
  for (const o of outputs) tx.addOutput({ lockingScript: LockingScript.fromHex(o.lockingHex), satoshis: o.satoshis });
  tx.lockTime = lockTime;
  return tx;
}

/** The same transaction in scrypt-ts's bsv library, with input 0's source output attached, for `self.to`. */
function toScryptTs(tx: Transaction): { tx: unknown; inputIndex: number } {
  const input = tx.inputs[0];
  const out = input.sourceTransaction!.outputs[input.sourceOutputIndex];
  const copy = new bsv.Transaction(tx.toHex()) as any;
  copy.inputs[0].output = new (bsv.Transaction as any).Output({
    script: bsv.Script.fromHex(out.lockingScript.toHex()),
    satoshis: out.satoshis,
  });
  assert.equal(copy.id, tx.id('hex'), 'scrypt-ts sees the same transaction');
  return { tx: copy, inputIndex: 0 };
}

/** BIP143 preimage (SIGHASH_ALL | FORKID) of input 0, computed by @bsv/sdk. */
function preimage(tx: Transaction): string {
  const input = tx.inputs[0];
  const out = input.sourceTransaction!.outputs[input.sourceOutputIndex];
  return Utils.toHex(
    TransactionSignature.format({
      sourceTXID: input.sourceTransaction!.id('hex'),
      sourceOutputIndex: input.sourceOutputIndex,
      sourceSatoshis: out.satoshis!,
      transactionVersion: tx.version,
      otherInputs: [],
      outputs: tx.outputs,
      inputIndex: 0,
      subscript: out.lockingScript,
      inputSequence: input.sequence ?? 0xffffffff,
      lockTime: tx.lockTime,
      scope: TransactionSignature.SIGHASH_ALL | TransactionSignature.SIGHASH_FORKID,
    }),
  );
}

/** An ECDSA signature (SIGHASH_ALL | FORKID, checksig format) by `key` over input 0 of `tx`, made by @bsv/sdk. */
async function signature(tx: Transaction, key: PrivateKey): Promise<string> {
  const input = tx.inputs[0];
  const out = input.sourceTransaction!.outputs[input.sourceOutputIndex];
  const unlocking = await new P2PKH().unlock(key, 'all', false, out.satoshis, out.lockingScript).sign(tx, 0);
  return Utils.toHex(unlocking.chunks[0].data!);
}

/** scrypt-ts's encoder without its off-chain run of the method: how a wrong call gets encoded at all. */
function encodeRaw(instance: Instance, method: string, args: unknown[]): UnlockingScript {
  const call = instance.encodeMethodCall(method, args) as { unlockingScript: { toHex(): string } };
  return UnlockingScript.fromHex(call.unlockingScript.toHex());
}

const hex = (bytes: number[]) => Utils.toHex(bytes);

describe('scrypt-ts contracts: transpiled, compiled by our compiler, spent', () => {
  it('the saved reference copies in fixtures/scrypt-ts/transpiled are what the transpiler produces today', () => {
    for (const name of NAMES) {
      const saved = readFileSync(path.join(FIXTURES, 'transpiled', `${name}.scrypt`), 'utf8');
      assert.equal(sources[name], saved, `${name}.scrypt: refresh test/fixtures/scrypt-ts/transpiled from the live output`);
    }
  });

  it("HashLockedP2PKH: the secret plus the owner's signature spend it; a wrong secret, key or signature does not", async () => {
    const HashLockedP2PKH = contractClass('HashLockedP2PKH');
    const owner = PrivateKey.fromRandom();
    const ownerPub = hex(owner.toPublicKey().encode(true) as number[]);
    const secret = hex(Utils.toArray('correct horse battery staple', 'utf8'));
    const ownerHash = hex(Hash.hash160(Utils.toArray(ownerPub, 'hex')));
    const secretHash = hex(Hash.sha256(Utils.toArray(secret, 'hex')));
    const instance = new HashLockedP2PKH(Ripemd160(ownerHash), Sha256(secretHash));
    const locking = instance.lockingScript.toHex();
    assert.ok(locking.includes(ownerHash) && locking.includes(secretHash), 'the constructor arguments are in the locking script');

    const source = fund(locking, 5000);
    const payTo = { lockingHex: new P2PKH().lock(owner.toAddress()).toHex(), satoshis: 4000 };

    // The honest spend, encoded by scrypt-ts after it ran unlock() off-chain against the same transaction.
    const good = spending(source, [payTo]);
    const sig = await signature(good, owner);
    const unlocking = instance.getUnlockingScript((self) => {
      self.to = toScryptTs(good);
      self.unlock(toByteString(secret), Sig(sig), PubKey(ownerPub));
    });
    good.inputs[0].unlockingScript = UnlockingScript.fromHex(unlocking.toHex());
    assert.deepEqual(
      good.inputs[0].unlockingScript.chunks.map((c) => hex(c.data ?? [])),
      [secret, sig, ownerPub],
      'a single public method: its arguments pushed in order, no selector',
    );
    assert.equal(validate(good), true, 'secret + owner signature');

    // scrypt-ts refuses a bad signature off-chain; on-chain it must fail too.
    const stranger = PrivateKey.fromRandom();
    const forged = spending(source, [payTo]);
    const strangerSig = await signature(forged, stranger);
    assert.throws(
      () =>
        instance.getUnlockingScript((self) => {
          self.to = toScryptTs(forged);
          self.unlock(toByteString(secret), Sig(strangerSig), PubKey(ownerPub));
        }),
      /signature check failed/,
    );
    /** A spend paying `satoshis` to the owner, signed by `signer` (or carrying a given signature), encoded raw. */
    const attempt = async (secretHex: string, signer: PrivateKey | string, pub: string, satoshis = 4000) => {
      const tx = spending(source, [{ ...payTo, satoshis }]);
      const s = typeof signer === 'string' ? signer : await signature(tx, signer);
      tx.inputs[0].unlockingScript = encodeRaw(instance, 'unlock', [toByteString(secretHex), Sig(s), PubKey(pub)]);
      return validate(tx);
    };
    const strangerPub = hex(stranger.toPublicKey().encode(true) as number[]);
    assert.equal(await attempt(secret, owner, ownerPub), true, 'the raw encoder gives the same honest spend');
    assert.notEqual(await attempt(secret, stranger, ownerPub), true, "a stranger's signature");
    assert.notEqual(await attempt(secret, stranger, strangerPub), true, "a stranger's key and signature");
    assert.notEqual(await attempt(hex(Utils.toArray('wrong secret', 'utf8')), owner, ownerPub), true, 'a wrong secret');
    assert.notEqual(await attempt(secret, sig, ownerPub, 3999), true, 'the honest signature, on a transaction paying 1 satoshi less');
  });

  it('WeightedSum: both public methods (loop over a FixedArray, static and private helpers) agree with scrypt-ts off-chain', () => {
    const WeightedSum = contractClass('WeightedSum');
    const weights = [3n, 1n, 4n, 1n];
    const target = 22n;
    const instance = new WeightedSum(weights, target);
    const locking = instance.lockingScript.toHex();
    const source = fund(locking, 1000);

    /** [off-chain verdict of scrypt-ts, on-chain verdict of the interpreter] for one call. */
    const verdicts = (method: 'check' | 'bounded', args: unknown[]): [boolean, true | string] => {
      let offchain = true;
      try {
        instance.getUnlockingScript((self) => void self[method](...args));
      } catch {
        offchain = false;
      }
      const tx = spending(source, []);
      tx.inputs[0].unlockingScript = encodeRaw(instance, method, args);
      return [offchain, validate(tx)];
    };

    // check(xs): every entry non-negative, dot(weights, xs) == target.
    const good = [2n, 5n, 1n, 7n]; // 6 + 5 + 4 + 7 = 22
    assert.deepEqual(verdicts('check', [good]), [true, true], 'check([2, 5, 1, 7])');
    const unlocking = instance.getUnlockingScript((self) => void self.check(good));
    const tx = spending(source, []);
    tx.inputs[0].unlockingScript = UnlockingScript.fromHex(unlocking.toHex());
    assert.equal(validate(tx), true, 'check() as encoded by getUnlockingScript');
    assert.equal(verdicts('check', [[2n, 5n, 1n, 8n]])[0], false, 'off by one: scrypt-ts refuses it');
    assert.notEqual(verdicts('check', [[2n, 5n, 1n, 8n]])[1], true, 'off by one');
    assert.deepEqual(
      verdicts('check', [[-1n, 14n, 1n, 7n]]).map((v) => v === true),
      [false, false],
      'dot product right, a negative entry',
    );
    assert.deepEqual(
      verdicts('check', [[0n, 0n, 0n, 22n]]).map((v) => v === true),
      [true, true],
      'check([0, 0, 0, 22])',
    );

    // bounded(a, b): clamp((a*b - w0)/2 + (a*b)%3 - -b, 0, target) == target, with negative operands too
    // (truncating division and remainder, as in Script and in JavaScript bigints).
    const cases: [bigint, bigint][] = [
      [10n, 5n],
      [1n, 1n],
      [-1n, 47n],
      [-1n, 49n],
      [-7n, -4n],
      [0n, 22n],
      [-1n, 46n],
      [3n, -9n],
      [-5n, 9n],
    ];
    const seen = new Set<boolean>();
    for (const [a, b] of cases) {
      const [offchain, onchain] = verdicts('bounded', [a, b]);
      seen.add(offchain);
      assert.equal(onchain === true, offchain, `bounded(${a}, ${b}): scrypt-ts says ${offchain}, the script says ${onchain}`);
    }
    assert.deepEqual([...seen].sort(), [false, true], 'the cases include passing and failing calls');
  });

  it('Counter (@prop(true)): increment() spends into the next state, twice; a wrong next state, amount or preimage fails', () => {
    const Counter = contractClass('Counter');
    const genesis = new Counter(0n);
    const amount = 10_000;

    /** The next instance, spent to from `current` (held in output 0 of `source`), with its count set to `count`. */
    const step = (current: Instance, source: Transaction, count: bigint) => {
      const next = current.next();
      next.count = count;
      const tx = spending(source, [{ lockingHex: next.lockingScript.toHex(), satoshis: amount }]);
      return { next, tx };
    };

    let current = genesis;
    let source = fund(genesis.lockingScript.toHex(), amount);
    for (const count of [1n, 2n]) {
      const { next, tx } = step(current, source, count);
      assert.equal(next.codePart, current.codePart, 'the code part stays, only the state changes');
      assert.notEqual(next.lockingScript.toHex(), current.lockingScript.toHex());

      // scrypt-ts runs increment() off-chain (checkPreimage, hashOutputs == hash256(buildStateOutput(value)))
      // against the transaction, then encodes the call: the injected preimage is the only argument.
      const unlocking = UnlockingScript.fromHex(
        current
          .getUnlockingScript((self) => {
            self.to = toScryptTs(tx);
            self.increment();
          })
          .toHex(),
      );
      assert.deepEqual(
        unlocking.chunks.map((c) => hex(c.data ?? [])),
        [preimage(tx)],
        'scrypt-ts pushes the BIP143 preimage @bsv/sdk computes',
      );
      tx.inputs[0].unlockingScript = unlocking;
      assert.equal(validate(tx), true, `increment() to count ${count}`);

      // Wrong next states: scrypt-ts refuses them off-chain, the script must refuse them on-chain.
      const wrong = (outputs: { lockingHex: string; satoshis: number }[], label: string) => {
        const bad = spending(source, outputs);
        bad.inputs[0].unlockingScript = encodeRaw(current, 'increment', [SigHashPreimage(preimage(bad))]);
        assert.notEqual(validate(bad), true, label);
        return bad;
      };
      const skip = current.next();
      skip.count = count + 1n;
      const skipped = wrong([{ lockingHex: skip.lockingScript.toHex(), satoshis: amount }], `count ${count - 1n} → ${count + 1n}`);
      assert.throws(
        () =>
          current.getUnlockingScript((self) => {
            self.to = toScryptTs(skipped);
            self.increment();
          }),
        /hashOutputs mismatch/,
      );
      wrong([{ lockingHex: current.lockingScript.toHex(), satoshis: amount }], 'the state unchanged');
      wrong([{ lockingHex: next.lockingScript.toHex(), satoshis: amount - 1 }], 'the right state with one satoshi less');
      wrong(
        [
          { lockingHex: next.lockingScript.toHex(), satoshis: amount },
          { lockingHex: '6a', satoshis: 0 },
        ],
        'an extra output',
      );

      // The right outputs, but the preimage of another transaction (different lockTime).
      const other = spending(source, [{ lockingHex: next.lockingScript.toHex(), satoshis: amount }], 1);
      const replay = spending(source, [{ lockingHex: next.lockingScript.toHex(), satoshis: amount }]);
      replay.inputs[0].unlockingScript = encodeRaw(current, 'increment', [SigHashPreimage(preimage(other))]);
      assert.notEqual(validate(replay), true, 'a preimage of another transaction');

      current = next;
      source = tx;
    }
  });
});
