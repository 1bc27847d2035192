import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { LockingScript, MerklePath, P2PKH, PrivateKey, Spend, Transaction, UnlockingScript } from '@bsv/sdk';
import { LocalProvider } from '../../main/chain/local/local-provider.js';
import { ScriptVerifier, type Rejection, type SpentSource } from '../../main/chain/script-check.js';
import { scriptCost } from '../../main/chain/script-cost.js';
import { BadBeef, verifiedBeef, type ScriptChecker } from '../../main/engine/paymail/beef-check.js';
import { PaymailError } from '../../main/engine/paymail/host.js';
import { meta, testEngine, type TestEngine } from '../helpers/engine.js';
import { ADMIN, request, requestAs } from '../helpers/http.js';
import { freePort } from '../helpers/free-port.js';
import { startHeadless } from '../helpers/headless.js';
import { createOrgWallet, orgCall, setUpOrg, type Org } from '../helpers/org.js';
import { tempDir } from '../helpers/tmp.js';
import { until } from '../helpers/until.js';

/**
 * A stranger's BEEF and raw transactions are judged by cheap checks before any script runs (shape and
 * counts, then the proofs against the chain, then a budget of signature checks and script bytes), and
 * the scripts that do run never run on the main thread. Every @bsv/sdk Spend run in this process (the
 * main thread; workers have their own copy of the module) is counted, and a stand-in script checker
 * counts what is handed to the workers.
 */

let mainThreadSpends = 0;
const originalValidate = Spend.prototype.validate;
/** How many Spend checks ran on this thread while `work` ran. */
async function spendsDuring<T>(work: () => Promise<T>): Promise<{ result: T | undefined; error: unknown; spends: number }> {
  const before = mainThreadSpends;
  try {
    return { result: await work(), error: undefined, spends: mainThreadSpends - before };
  } catch (error) {
    return { result: undefined, error, spends: mainThreadSpends - before };
  }
}

/** Counts the transactions handed to it; runs them on the real workers when given some, else says "valid". */
function spyChecker(real?: ScriptVerifier): ScriptChecker & { calls: number } {
  const spy = {
    calls: 0,
    verify: async (raw: string, sources: readonly SpentSource[]): Promise<Rejection | null> => {
      spy.calls += 1;
      return real ? real.verify(raw, sources) : null;
    },
  };
  return spy;
}

const payer = PrivateKey.fromRandom();
const payerLock = new P2PKH().lock(payer.toAddress());
const hex = (s: string) => LockingScript.fromHex(s);

/** 1,000 signature checks, each of which passes with the payer's real signature (about 5 s of @bsv/sdk's interpreter). */
const THOUSAND_CHECKSIGS = '6ead'.repeat(999) + 'ac';

let t: TestEngine;
let chain: LocalProvider;
let workers: ScriptVerifier;
/** A coin of the payer's in a block, with its merkle path: the proven ancestor bombs are built on. */
let proven: Transaction;

async function provenCoin(satoshis: number): Promise<Transaction> {
  const f = await t.node.faucet(payer.toAddress(), satoshis);
  assert.equal(f.status, 'accepted');
  t.node.mine();
  const tx = Transaction.fromHex(t.node.txHex(f.txid!)!);
  tx.merklePath = MerklePath.fromHex((await chain.getTxStatus(f.txid!)).merklePath!);
  return tx;
}

const coinIndex = (tx: Transaction) => tx.outputs.findIndex((o) => o.lockingScript.toHex() === payerLock.toHex());

/** A transaction spending output `vout` of `source` (P2PKH-signed by the payer unless an unlocking script is given). */
async function spend(
  source: Transaction,
  vout: number,
  outputs: { lock: LockingScript; satoshis: number }[],
  unlocking?: UnlockingScript,
  version = 1,
): Promise<Transaction> {
  const tx = new Transaction(version);
  tx.addInput(
    unlocking
      ? { sourceTransaction: source, sourceOutputIndex: vout, unlockingScript: unlocking }
      : { sourceTransaction: source, sourceOutputIndex: vout, unlockingScriptTemplate: new P2PKH().unlock(payer) },
  );
  for (const o of outputs) tx.addOutput({ lockingScript: o.lock, satoshis: o.satoshis });
  await tx.sign();
  return tx;
}

/** A payment whose unproven parent locks its coin with `lock` (the payment unlocks it with the payer's signature and key). */
async function parentBomb(lock: string): Promise<string> {
  const parent = await spend(proven, coinIndex(proven), [{ lock: hex(lock), satoshis: 90_000 }]);
  return (await spend(parent, 0, [{ lock: payerLock, satoshis: 80_000 }])).toHexBEEF();
}

before(async () => {
  Spend.prototype.validate = function (this: Spend) {
    mainThreadSpends += 1;
    return originalValidate.call(this);
  };
  t = testEngine();
  chain = new LocalProvider(t.node, () => null);
  workers = new ScriptVerifier(2);
  proven = await provenCoin(100_000);
  const s = (await t.engine.execute('setup', ADMIN, {}, meta)).output;
  await t.engine.execute(
    'createWallet',
    { walletTitle: 'Shop', paymail: 'shop', paymailActivate: true },
    { authToken: s.authToken, serviceId: s.serviceId },
    meta,
  );
});
after(async () => {
  Spend.prototype.validate = originalValidate;
  await workers.close();
  t.engine.close();
  t.node.close();
});

/** Refused by verifiedBeef with `reason`, with nothing handed to the workers and nothing run on this thread. */
async function refusedBeforeScripts(beef: string, reason: RegExp): Promise<void> {
  const spy = spyChecker();
  const r = await spendsDuring(() => verifiedBeef(chain, beef, spy));
  assert.ok(r.error instanceof BadBeef, `refused as a bad BEEF, not ${String(r.error ?? 'accepted')}`);
  assert.match((r.error as Error).message, reason);
  assert.equal(spy.calls, 0, 'no script was handed to the workers');
  assert.equal(r.spends, 0, 'no script ran on the main thread');
}

describe('BEEF bombs: refused by the budget before any script runs', () => {
  const SHAPES: [string, () => Promise<string>, RegExp][] = [
    [
      "1,000 CHECKSIGs in the unproven parent's locking script",
      () => parentBomb(THOUSAND_CHECKSIGS),
      /1001 signature checks .*signature-check limit is 500/,
    ],
    ['CHECKMULTISIG stating 16 keys, 40 times', () => parentBomb('60ae'.repeat(40)), /641 signature checks/],
    ['CHECKMULTISIG with no key count before it (counted as 20), 30 times', () => parentBomb('76ae'.repeat(30)), /601 signature checks/],
    ['one CHECKMULTISIGVERIFY of 1,000 pushed keys', () => parentBomb('02e803af51'), /1001 signature checks/],
    ['a locking script of a million bytes', () => parentBomb('61'.repeat(1_000_000) + '51'), /script-bytes limit is 1000000/],
    [
      '600 CHECKSIGs in the unlocking script (a version 2 transaction runs it)',
      async () =>
        (
          await spend(proven, coinIndex(proven), [{ lock: payerLock, satoshis: 90_000 }], UnlockingScript.fromHex('ac'.repeat(600)), 2)
        ).toHexBEEF(),
      /601 signature checks/,
    ],
  ];
  for (const [name, build, reason] of SHAPES) {
    it(name, async () => {
      const beef = await build();
      await refusedBeforeScripts(beef, reason);
      // Through the paymail host as the public listener calls it: a 400 naming the limit.
      const r = await spendsDuring(() => t.engine.paymailHost.receiveBeef('shop@acme.test', { beef, reference: 'any' }));
      assert.ok(r.error instanceof PaymailError);
      assert.equal((r.error as PaymailError).status, 400);
      assert.equal((r.error as PaymailError).code, 'bad-beef');
      assert.match((r.error as PaymailError).message, reason);
      assert.equal(r.spends, 0);
    });
  }

  it('whatever mix of signature operations a script holds, it is counted, and refused past 500 without a script check', async () => {
    // Each piece: its bytes and the signature checks it counts for (pushes are data, never opcodes).
    const piece = fc.oneof(
      fc.constant({ hex: 'ac', n: 1 }),
      fc.constant({ hex: 'ad', n: 1 }),
      fc.integer({ min: 1, max: 16 }).map((k) => ({ hex: (0x50 + k).toString(16) + 'ae', n: k })),
      fc.integer({ min: 17, max: 2_000 }).map((k) => ({ hex: '02' + Buffer.from([k & 0xff, k >> 8]).toString('hex') + 'af', n: k })),
      fc.constant({ hex: '76ae', n: 20 }),
      fc.integer({ min: 1, max: 75 }).map((len) => ({ hex: len.toString(16).padStart(2, '0') + 'ac'.repeat(len), n: 0 })),
      fc.constant({ hex: '61', n: 0 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { minLength: 1, maxLength: 60 }), async (pieces) => {
        const lock = pieces.map((p) => p.hex).join('');
        const sigops = pieces.reduce((sum, p) => sum + p.n, 0);
        assert.equal(scriptCost(Buffer.from(lock, 'hex')).sigops, sigops);
        const beef = await parentBomb(lock);
        const total = sigops + 1; // and the parent's own P2PKH input
        if (total > 500) await refusedBeforeScripts(beef, new RegExp(`${total} signature checks`));
        else {
          const spy = spyChecker();
          const r = await spendsDuring(() => verifiedBeef(chain, beef, spy));
          assert.equal(r.error, undefined);
          assert.equal(spy.calls, 2, 'within the budget, both unproven transactions go to the workers');
          assert.equal(r.spends, 0);
        }
      }),
      { numRuns: 25 },
    );
  });
});

describe('BEEF bombs: refused by their shape or their proofs before any script runs', () => {
  it('a chain of 30 unconfirmed ancestors (the limit is 25)', async () => {
    let tip = await spend(proven, coinIndex(proven), [{ lock: payerLock, satoshis: 99_000 }]);
    for (let i = 0; i < 30; i++) tip = await spend(tip, 0, [{ lock: payerLock, satoshis: 98_000 - i * 100 }]);
    await refusedBeforeScripts(tip.toHexBEEF(), /chain of unconfirmed ancestors is 30 deep; the limit is 25/);
  });

  it('a merkle proof of another block, of another transaction, or of a block the chain does not have: named, before any script', async () => {
    const other = await provenCoin(50_000); // mined in a later block
    const build = async (proof: MerklePath) => {
      const ancestor = Transaction.fromHex(proven.toHex());
      ancestor.merklePath = proof;
      const parent = await spend(ancestor, coinIndex(ancestor), [{ lock: payerLock, satoshis: 90_000 }]);
      return (await spend(parent, 0, [{ lock: payerLock, satoshis: 80_000 }])).toHexBEEF();
    };
    const id = proven.id('hex');
    const moved = MerklePath.fromHex(proven.merklePath!.toHex());
    moved.blockHeight = other.merklePath!.blockHeight;
    await refusedBeforeScripts(
      await build(moved),
      new RegExp(`merkle proof of ${id} does not match the chain's block ${moved.blockHeight}`),
    );
    const missing = MerklePath.fromHex(proven.merklePath!.toHex());
    missing.blockHeight = 1_000_000;
    await refusedBeforeScripts(
      await build(missing),
      new RegExp(`merkle proof of ${id} names block 1000000, which the chain does not have`),
    );
    await refusedBeforeScripts(await build(other.merklePath!), new RegExp(`merkle proof of ${id} is wrong: it does not contain ${id}`));
  });

  it('a compound merkle path of 250 txids (73 s of @bsv/sdk on the main thread) is checked in one pass and refused', async () => {
    // A self-consistent path of 250 txids of a 2^16-transaction block, none of them the chain's.
    const H = 16;
    const h2 = (a: Buffer, b: Buffer) =>
      createHash('sha256')
        .update(
          createHash('sha256')
            .update(Buffer.concat([a, b]))
            .digest(),
        )
        .digest();
    const levels: Buffer[][] = [Array.from({ length: 2 ** H }, () => randomBytes(32))];
    const id = proven.id('hex');
    levels[0][12_345] = Buffer.from(id, 'hex').reverse();
    for (let h = 1; h <= H; h++)
      levels.push(Array.from({ length: levels[h - 1].length / 2 }, (_, i) => h2(levels[h - 1][2 * i], levels[h - 1][2 * i + 1])));
    const display = (b: Buffer) => Buffer.from(b).reverse().toString('hex');
    const txids = new Set([12_345]);
    while (txids.size < 250) txids.add(Math.floor(Math.random() * 2 ** H));
    const path: { offset: number; hash?: string; txid?: boolean }[][] = Array.from({ length: H }, () => []);
    for (const o of txids) path[0].push({ offset: o, hash: display(levels[0][o]), txid: true });
    for (let h = 0; h < H; h++) {
      const here = new Set(path[h].map((l) => l.offset));
      const covered = new Set([...txids].map((o) => o >> h));
      for (const o of txids) {
        const sib = (o >> h) ^ 1;
        if (!here.has(sib) && !covered.has(sib)) {
          path[h].push({ offset: sib, hash: display(levels[h][sib]) });
          here.add(sib);
        }
      }
    }
    const bump = Object.create(MerklePath.prototype) as MerklePath; // built without @bsv/sdk's own (slow) check
    Object.assign(bump, {
      blockHeight: proven.merklePath!.blockHeight,
      path: path.map((level) => level.sort((a, b) => a.offset - b.offset)),
    });
    const ancestor = Transaction.fromHex(proven.toHex());
    ancestor.merklePath = bump;
    const parent = await spend(ancestor, coinIndex(ancestor), [{ lock: payerLock, satoshis: 90_000 }]);
    const beef = (await spend(parent, 0, [{ lock: payerLock, satoshis: 80_000 }])).toHexBEEF();
    await refusedBeforeScripts(beef, new RegExp(`merkle proof of ${id} does not match the chain's block`));
  });

  it('counts the bytes cannot hold, a count past the limit, and bytes after the end are refused as read', async () => {
    await refusedBeforeScripts('0100beef00fde903', /has 1001 transactions; the limit is 1000/);
    await refusedBeforeScripts('0100beef00fde703' + '00'.repeat(40), /announces 999 transactions but ends first/);
    await refusedBeforeScripts('0100beef00ff0000000000000001', /larger than any count/);
    await refusedBeforeScripts((await parentBomb('51')) + '00', /1 bytes follow the BEEF's last transaction/);
    // Any bytes after a BEEF's magic: refused as a bad BEEF (never another error, never a script check).
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 300 }),
        fc.constantFrom('0100beef', '0200beef', '01010101' + '00'.repeat(32) + '0100beef'),
        async (bytes, magic) => {
          const spy = spyChecker();
          const r = await spendsDuring(() => verifiedBeef(chain, magic + Buffer.from(bytes).toString('hex'), spy));
          assert.ok(r.error instanceof BadBeef, String(r.error));
          assert.equal(spy.calls + r.spends, 0);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a diamond chain (each transaction spending two outputs of the one before) is linked once per transaction and checked on the workers', async () => {
    let tip = await spend(proven, coinIndex(proven), [
      { lock: payerLock, satoshis: 45_000 },
      { lock: payerLock, satoshis: 45_000 },
    ]);
    for (let i = 0; i < 20; i++) {
      const next = new Transaction();
      for (const vout of [0, 1])
        next.addInput({ sourceTransaction: tip, sourceOutputIndex: vout, unlockingScriptTemplate: new P2PKH().unlock(payer) });
      next.addOutput({ lockingScript: payerLock, satoshis: 44_000 - i * 100 });
      next.addOutput({ lockingScript: payerLock, satoshis: 44_000 - i * 100 });
      await next.sign();
      tip = next;
    }
    const spy = spyChecker(workers);
    const r = await spendsDuring(() => verifiedBeef(chain, tip.toHexBEEF(), spy));
    assert.equal(r.error, undefined, String(r.error));
    assert.equal((r.result as Transaction).id('hex'), tip.id('hex'));
    assert.equal(spy.calls, 21, 'each unproven transaction checked once, on the workers');
    assert.equal(r.spends, 0, 'no script ran on the main thread');
  });
});

describe('BEEF within the budget: its scripts run on the workers only', () => {
  it('a good payment verifies and a forged one is refused, with no script run on the main thread', async () => {
    const parent = await spend(proven, coinIndex(proven), [{ lock: payerLock, satoshis: 90_000 }]);
    const good = await spend(parent, 0, [{ lock: payerLock, satoshis: 80_000 }]);
    const spy = spyChecker(workers);
    const ok = await spendsDuring(() => verifiedBeef(chain, good.toHexBEEF(), spy));
    assert.equal(ok.error, undefined, String(ok.error));
    assert.equal(spy.calls, 2);
    assert.equal(ok.spends, 0);

    const forged = new Transaction();
    forged.addInput({
      sourceTransaction: parent,
      sourceOutputIndex: 0,
      unlockingScriptTemplate: new P2PKH().unlock(PrivateKey.fromRandom()),
    });
    forged.addOutput({ lockingScript: payerLock, satoshis: 80_000 });
    await forged.sign();
    const bad = await spendsDuring(() => verifiedBeef(chain, forged.toHexBEEF(), spyChecker(workers)));
    assert.ok(bad.error instanceof BadBeef);
    assert.match((bad.error as Error).message, new RegExp(`does not verify: ${forged.id('hex')}: Input 0 does not unlock`));
    assert.equal(bad.spends, 0);
  });
});

describe('raw transactions from a stranger spending costly outputs already on the chain', () => {
  const COSTLY: [string, string, (lock: LockingScript) => UnlockingScript | undefined][] = [
    ['1,000 CHECKSIGs', THOUSAND_CHECKSIGS, () => undefined],
    // A 1 MB element grown by OP_CAT, hashed 100 times: 100 MB of SHA-256 from a 330-byte script.
    [
      'an OP_CAT-grown element hashed again and again',
      '51' + '767e'.repeat(20) + '76a875'.repeat(100) + '7551',
      () => new UnlockingScript(),
    ],
  ];
  for (const [name, lock, unlocking] of COSTLY) {
    it(`a small transaction spending ${name} is checked on the workers, never on the main thread`, async () => {
      const coin = await provenCoin(100_000);
      const costly = await spend(coin, coinIndex(coin), [{ lock: hex(lock), satoshis: 95_000 }]);
      assert.equal(t.node.submit(costly.toHex()).status, 'accepted', 'on the chain (put there by a trusted caller)');
      t.clock.now += 2_000; // past the destination rate limit
      const dest = t.engine.paymailHost.p2pDestination('shop@acme.test', { satoshis: 5_000 });
      const pay = await spend(
        costly,
        0,
        [
          { lock: hex(dest.outputs[0].script), satoshis: 5_000 },
          { lock: payerLock, satoshis: 85_000 },
        ],
        unlocking(hex(lock)),
      );
      assert.ok(pay.toHex().length / 2 <= 1_000 && pay.inputs.length <= 4, 'small enough that the node used to check it on its own thread');
      const r = await spendsDuring(() =>
        t.engine.paymailHost.receiveTransaction('shop@acme.test', { hex: pay.toHex(), reference: dest.reference }),
      );
      assert.equal(r.error, undefined, String(r.error));
      assert.equal((r.result as { txid: string }).txid, pay.id('hex'), 'accepted: its scripts are valid');
      assert.equal(r.spends, 0, 'its scripts ran on the workers');
      // The same shape spending a plain P2PKH coin may be checked at once on this thread: it is when the
      // thread is idle, but whether it is idle depends on the machine's load (othersWaiting), so only the
      // bound is asserted: at most its one input here, never the costly path's refusal.
      const coin2 = await provenCoin(100_000);
      const cheap = await spend(coin2, coinIndex(coin2), [{ lock: payerLock, satoshis: 95_000 }]);
      const c = await spendsDuring(() => t.node.accept(cheap.toHex()));
      assert.equal((c.result as { status: string }).status, 'accepted');
      assert.ok(c.spends <= 1, `a cheap small transaction is checked inline or on the workers, once (${c.spends})`);
    });
  }

  it('a raw transaction whose own unlocking scripts exceed the budget is refused before the chain is asked', async () => {
    const coin = await provenCoin(100_000);
    t.clock.now += 2_000;
    const dest = t.engine.paymailHost.p2pDestination('shop@acme.test', { satoshis: 5_000 });
    const tx = await spend(
      coin,
      coinIndex(coin),
      [{ lock: hex(dest.outputs[0].script), satoshis: 5_000 }],
      UnlockingScript.fromHex('ac'.repeat(600)),
      2,
    );
    const r = await spendsDuring(() =>
      t.engine.paymailHost.receiveTransaction('shop@acme.test', { hex: tx.toHex(), reference: dest.reference }),
    );
    assert.ok(r.error instanceof PaymailError);
    assert.equal((r.error as PaymailError).status, 400);
    assert.match((r.error as PaymailError).message, /600 signature checks; the signature-check limit is 500/);
    assert.equal(r.spends, 0);
    assert.equal(t.node.txStatus(tx.id('hex')).state, 'unknown', 'never broadcast');
  });
});

describe('the real process under BEEF bombs: /health answers and the process lives', () => {
  let org: Org;
  let pub: string;
  const handle = 'shop@acme.test';
  before(async () => {
    const port = await freePort();
    pub = `http://127.0.0.1:${port}`;
    org = await setUpOrg(
      await startHeadless({
        dataDir: tempDir(),
        password: 'pw',
        args: ['--mine-interval', '0', '--paymail-domain', 'acme.test', '--paymail-listen', `127.0.0.1:${port}`],
      }),
    );
    await createOrgWallet(org, { walletTitle: 'Shop', paymail: 'shop', paymailActivate: true });
  });
  after(() => org.host.stop());

  /** A mined coin of the payer's from the process's chain, with its merkle path. */
  async function remoteCoin(): Promise<Transaction> {
    const f = await orgCall(org, 'POST', '/chain/faucet', { body: { address: payer.toAddress(), satoshis: 100_000 } });
    assert.equal(f.status, 200, JSON.stringify(f.body));
    await orgCall(org, 'POST', '/chain/mine', { body: {} });
    const tx = Transaction.fromHex(
      (await request(org.host.url, 'GET', `/chain/woc/v1/bsv/local/tx/${f.body.data.txid}/hex`)).body as string,
    );
    tx.merklePath = MerklePath.fromHex(
      ((await request(org.host.url, 'GET', `/chain/arc/v1/tx/${f.body.data.txid}`)).body as { merklePath: string }).merklePath,
    );
    return tx;
  }

  it('bombs of every shape and a costly raw receive at once: each bomb is refused naming its limit, /health answers meanwhile', async () => {
    const coin = await remoteCoin();
    const holding = async (lock: string) =>
      (
        await spend(await spend(coin, coinIndex(coin), [{ lock: hex(lock), satoshis: 90_000 }]), 0, [{ lock: payerLock, satoshis: 80_000 }])
      ).toHexBEEF();
    let deep = await spend(coin, coinIndex(coin), [{ lock: payerLock, satoshis: 99_000 }]);
    for (let i = 0; i < 30; i++) deep = await spend(deep, 0, [{ lock: payerLock, satoshis: 98_000 - i * 100 }]);
    const elsewhere = Transaction.fromHex(coin.toHex());
    elsewhere.merklePath = MerklePath.fromHex(coin.merklePath!.toHex());
    elsewhere.merklePath.blockHeight = 0;
    const bombs: [string, RegExp][] = [
      [await holding(THOUSAND_CHECKSIGS), /signature-check limit is 500/],
      [await holding('76ae'.repeat(30)), /signature-check limit is 500/],
      [
        (
          await spend(coin, coinIndex(coin), [{ lock: payerLock, satoshis: 90_000 }], UnlockingScript.fromHex('ac'.repeat(600)), 2)
        ).toHexBEEF(),
        /signature-check limit is 500/,
      ],
      [await holding('61'.repeat(1_000_000) + '51'), /script-bytes limit/],
      [deep.toHexBEEF(), /unconfirmed ancestors is 30 deep/],
      [
        (
          await spend(await spend(elsewhere, coinIndex(elsewhere), [{ lock: payerLock, satoshis: 90_000 }]), 0, [
            { lock: payerLock, satoshis: 80_000 },
          ])
        ).toHexBEEF(),
        /merkle proof of [0-9a-f]{64} does not match the chain's block 0/,
      ],
      ['0100beef00fe00e1f505', /the limit is 1000/],
    ];
    // A costly output already on the chain, and a small payment spending it, delivered as raw hex.
    const second = await remoteCoin();
    const costly = await spend(second, coinIndex(second), [{ lock: hex(THOUSAND_CHECKSIGS), satoshis: 95_000 }]);
    assert.equal((await request(org.host.url, 'POST', '/chain/arc/v1/tx', { body: { rawTx: costly.toHex() } })).status, 200);
    const dest = (
      await requestAs('pay.acme.test', pub, 'POST', `/api/bsvalias/p2p-payment-destination/${handle}`, { body: { satoshis: 5_000 } })
    ).body as { outputs: { script: string }[]; reference: string };
    const pay = await spend(costly, 0, [
      { lock: hex(dest.outputs[0].script), satoshis: 5_000 },
      { lock: payerLock, satoshis: 85_000 },
    ]);

    let settled = false;
    const attack = Promise.all([
      ...bombs.flatMap(([beef]) =>
        [0, 1].map(() =>
          requestAs('pay.acme.test', pub, 'POST', `/api/bsvalias/beef/${handle}`, { body: { beef, reference: dest.reference } }),
        ),
      ),
      requestAs('pay.acme.test', pub, 'POST', `/api/bsvalias/receive-transaction/${handle}`, {
        body: { hex: pay.toHex(), reference: dest.reference },
      }),
    ]).finally(() => (settled = true));
    // /health answers while the attack is still being handled (the costly receive takes seconds on a worker).
    const answeredDuring = await until('/health to answer', async () =>
      (await request(org.host.url, 'GET', '/health')).status === 200 ? !settled : undefined,
    );
    const replies = await attack;
    assert.equal(answeredDuring, true, '/health answered before the attack was over');
    bombs.forEach(([, reason], k) => {
      for (const r of replies.slice(2 * k, 2 * k + 2)) {
        assert.equal(r.status, 400, JSON.stringify(r.body));
        assert.equal(r.body.code, 'bad-beef');
        assert.match(r.body.message, reason);
      }
    });
    const raw = replies[replies.length - 1];
    assert.equal(raw.status, 200, JSON.stringify(raw.body));
    assert.equal(raw.body.txid, pay.id('hex'));
    assert.equal(org.host.proc.exitCode, null, 'the process lives');
    assert.equal((await request(org.host.url, 'GET', '/health')).status, 200);
  });
});
