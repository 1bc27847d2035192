/**
 * The compile, transpile and script worker pools survive anything a task does, and share the compiler
 * fairly between users (issue 24 §2). A hostile task fails alone, with a 4xx or a 503; its worker is
 * replaced; the process never exits; a task queued behind a stopped one is answered once a worker is free;
 * one user's flood delays another user by at most the compile already running.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { Piscina } from 'piscina';
import { CompilePool, PER_USER_QUEUED, PER_USER_RUNNING } from '../../main/engine/contracts/compile-pool.js';
import { FairQueue, QueueFull } from '../../main/engine/contracts/fair-queue.js';
import { ScriptVerifier } from '../../main/chain/local/script-pool.js';
import { createLogger } from '../../main/log/logger.js';
import { DomainError } from '../../shared/errors.js';
import { httpStatusOf } from '../../main/server/http-errors.js';
import { startHeadless, type Headless } from '../helpers/headless.js';
import { ADMIN, request, type Reply } from '../helpers/http.js';
import { tempDir } from '../helpers/tmp.js';
import { until } from '../helpers/until.js';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
const HOSTILE_COMPILER = path.join(FIXTURES, 'compile-workers', 'hostile.mjs');
const HOSTILE_SCRIPTS = path.join(FIXTURES, 'script-workers', 'hostile.mjs');

/** A logger whose lines the test can read. */
function capturedLogger() {
  const lines: string[] = [];
  return { lines, logger: createLogger({ level: 'warn', destination: { write: (s: string) => void lines.push(s) } as never }) };
}

/** The error a compile failed with, as its HTTP status and code; anything but a DomainError fails the test. */
async function refusal(p: Promise<unknown>): Promise<{ status: number; code: string; message: string }> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof DomainError, `not a DomainError: ${String(err)}`);
    return { status: httpStatusOf(err.code), code: err.code, message: err.message };
  }
  assert.fail('the compile succeeded');
}

const opts = (owner: string) => ({ file: 'c.scrypt', optimize: false, owner });

/**
 * Runs `fn` with piscina's idle workers running their event loops (PISCINA_DISABLE_ATOMICS, read by each
 * worker as it starts), so a timer a task left behind fires while the worker has no task: the way a worker
 * fails "outside any task", as one running out of memory while being stopped for its time limit does.
 */
async function withIdleEventLoops(fn: () => Promise<void>): Promise<void> {
  const was = process.env.PISCINA_DISABLE_ATOMICS;
  process.env.PISCINA_DISABLE_ATOMICS = '1';
  try {
    await fn();
  } finally {
    if (was === undefined) delete process.env.PISCINA_DISABLE_ATOMICS;
    else process.env.PISCINA_DISABLE_ATOMICS = was;
  }
}

describe('compile pool: a compile that breaks its worker fails alone', () => {
  let pool: CompilePool;
  const log = capturedLogger();
  before(() => {
    pool = new CompilePool(
      { timeoutMs: 500, memoryMb: 64, maxSourceBytes: 10_000, workers: 1 },
      { logger: log.logger, workerFile: HOSTILE_COMPILER },
    );
  });
  after(() => pool.close());

  it('a worker that exits, throws, overflows its stack or exhausts its heap fails that compile with 422; the next compile works', async () => {
    // Filling 64 MB can take longer than half a second on a loaded machine: the heap case runs in a pool whose
    // time limit cannot come first, so it is the heap limit that stops it.
    const roomy = new CompilePool(
      { timeoutMs: 60_000, memoryMb: 64, maxSourceBytes: 10_000, workers: 1 },
      { logger: log.logger, workerFile: HOSTILE_COMPILER },
    );
    try {
      for (const [source, said] of [
        ['exit', /stopped on this source/],
        ['throw', /stopped on this source/],
        ['stack', /stack/],
        ['heap', /more than 64 MB/],
        ['hang', /longer than 0.5 s/],
      ] as const) {
        const used = source === 'heap' ? roomy : pool;
        const r = await refusal(used.compile(source, opts('u1')));
        assert.deepEqual([r.status, r.code], [422, 'COMPILE_LIMIT'], source);
        assert.match(r.message, said, source);
        assert.doesNotMatch(r.message, /internal compiler error/, 'the detail is for the log, not the caller');
        assert.equal((await used.compile('fine', opts('u1'))).hex, '51', `the pool compiles again after "${source}"`);
      }
    } finally {
      await roomy.close();
    }
    assert.ok(
      log.lines.some((l) => /an internal compiler error/.test(l)),
      'the detail is logged',
    );
  });

  it('a transpile shares the compiler with compiles: a user holding its share is refused as busy, with a retry time', async () => {
    const held = [pool.compile('hang', opts('t')), pool.compile('hang', opts('t')), pool.compile('hang', opts('t'))].map(refusal);
    for (const extra of [pool.transpile('fine', { file: 'a.sol', owner: 't' }), pool.compile('fine', opts('t'))]) {
      const r = await refusal(extra);
      assert.deepEqual([r.status, r.code], [503, 'BUSY']);
      assert.match(r.message, /1 compile running and 2 waiting/);
    }
    const served = (await pool.transpile('fine', { file: 'a.sol', owner: 'other' })) as unknown as { hex: string };
    assert.equal(served.hex, '51', 'another user is served, after the running compile');
    for (const r of await Promise.all(held)) assert.equal(r.code, 'COMPILE_LIMIT');
  });

  it('a worker that fails after answering (a throw from a timer, its heap exhausted) is logged and replaced; the process carries on', async () => {
    await withIdleEventLoops(async () => {
      const own = new CompilePool(
        { timeoutMs: 500, memoryMb: 64, maxSourceBytes: 10_000, workers: 1 },
        { logger: log.logger, workerFile: HOSTILE_COMPILER },
      );
      try {
        for (const source of ['throw-after-answer', 'heap-after-answer']) {
          const before = log.lines.length;
          assert.equal((await own.compile(source, opts('u1'))).hex, '51');
          // Nothing is sent to the worker meanwhile, so its failure belongs to no compile. Unheard, piscina's
          // 'error' event for it would end the test process here.
          await until(`the pool reports the worker that failed after "${source}"`, async () =>
            log.lines.slice(before).some((l) => /failed outside a compile/.test(l)) ? true : undefined,
          );
          assert.equal((await own.compile('fine', opts('u1'))).hex, '51');
        }
      } finally {
        await own.close();
      }
    });
  });

  it('a compile queued behind one stopped for its time limit is answered as soon as the worker is replaced', async () => {
    // One worker: the second compile waits in line. Nothing else arrives to wake the pool.
    const stopped = refusal(pool.compile('hang', opts('u1')));
    const queued = pool.compile('fine', opts('u2'));
    assert.equal((await queued).hex, '51');
    assert.equal((await stopped).code, 'COMPILE_LIMIT');
    const same = refusal(pool.compile('hang', opts('u3')));
    assert.equal((await pool.compile('fine', opts('u3'))).hex, '51', "the same user's next compile too");
    assert.equal((await same).code, 'COMPILE_LIMIT');
  });

  it('any mix of hostile and plain compiles from several users: each answered with a result, a 422 or a 503; never another failure', async () => {
    const kinds = ['exit', 'throw', 'stack', 'hang', 'fine', 'fine'];
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ kind: fc.constantFrom(...kinds), owner: fc.constantFrom('a', 'b', 'c') }), { minLength: 1, maxLength: 6 }),
        async (tasks) => {
          const outcomes = await Promise.allSettled(tasks.map((t) => pool.compile(t.kind, opts(t.owner))));
          outcomes.forEach((o, i) => {
            if (o.status === 'fulfilled') return assert.equal(o.value.hex, '51');
            assert.ok(o.reason instanceof DomainError, `${tasks[i].kind}: ${String(o.reason)}`);
            assert.ok(['COMPILE_LIMIT', 'BUSY'].includes(o.reason.code), `${tasks[i].kind}: ${o.reason.code}`);
            if (tasks[i].kind === 'fine') assert.equal(o.reason.code, 'BUSY', "a plain compile is refused only for its owner's share");
          });
          assert.equal((await pool.compile('fine', opts('z'))).hex, '51');
          assert.deepEqual(pool.load(), { running: 0, waiting: 0 });
        },
      ),
      { numRuns: 6 },
    );
  });
});

describe('fair queue: users take turns, each holds a bounded share', () => {
  type Event = { op: 'acquire'; owner: number } | { op: 'release'; pick: number };
  const event = fc.oneof(
    fc.record({ op: fc.constant('acquire' as const), owner: fc.nat(3) }),
    fc.record({ op: fc.constant('release' as const), pick: fc.nat(20) }),
  );

  it("never more than the slots or an owner's share; a slot is never idle while a task may start; no owner overtakes another twice", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 3 }), fc.array(event, { maxLength: 80 }), async (slots, events: Event[]) => {
        const q = new FairQueue({ slots, perOwnerRunning: 1, perOwnerQueued: 2, maxQueued: 6 });
        const running: { owner: number; release: () => void }[] = [];
        const waitingOf = new Map<number, number>();
        const overtaken = new Map<string, number>();
        const started = (owner: number) => {
          // Every other owner that could have started (waiting, nothing running) was overtaken once more.
          for (const [other, n] of waitingOf) {
            if (other === owner || n === 0 || running.some((r) => r.owner === other)) continue;
            const key = `${other}<${owner}`;
            overtaken.set(key, (overtaken.get(key) ?? 0) + 1);
            assert.ok(overtaken.get(key)! <= 1, `owner ${owner} started twice while owner ${other} waited`);
          }
          for (const key of [...overtaken.keys()]) if (key.startsWith(`${owner}<`)) overtaken.delete(key);
        };
        for (const e of events) {
          if (e.op === 'acquire') {
            const load = q.load(String(e.owner));
            const p = q.acquire(String(e.owner));
            let refused: unknown = null;
            p.then(
              (release) => {
                waitingOf.set(e.owner, (waitingOf.get(e.owner) ?? 1) - 1);
                started(e.owner);
                running.push({ owner: e.owner, release });
              },
              (err) => (refused = err),
            );
            waitingOf.set(e.owner, (waitingOf.get(e.owner) ?? 0) + 1);
            await Promise.resolve();
            await Promise.resolve();
            if (refused) {
              waitingOf.set(e.owner, waitingOf.get(e.owner)! - 1);
              assert.ok(refused instanceof QueueFull);
              assert.ok(load.waiting >= 2 || q.load().waiting >= 6, "refused only beyond the owner's or everyone's share");
            }
          } else if (running.length) {
            const [r] = running.splice(e.pick % running.length, 1);
            r.release();
            r.release(); // twice is harmless
            await Promise.resolve();
            await Promise.resolve();
          }
          const all = q.load();
          assert.equal(all.running, running.length);
          assert.ok(all.running <= slots);
          for (let o = 0; o <= 3; o++) {
            const mine = q.load(String(o));
            assert.ok(mine.running <= 1 && mine.waiting <= 2, `owner ${o}: ${JSON.stringify(mine)}`);
            if (all.running < slots) assert.ok(mine.waiting === 0 || mine.running === 1, 'a free slot while a task could start');
          }
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('a waiting task whose wait is given up leaves the line; its owner may queue again', async () => {
    const q = new FairQueue({ slots: 1, perOwnerRunning: 1, perOwnerQueued: 1, maxQueued: 4 });
    const first = await q.acquire('a');
    const giveUp = new AbortController();
    const waiting = q.acquire('b', giveUp.signal);
    await assert.rejects(q.acquire('b'), QueueFull);
    giveUp.abort();
    await assert.rejects(waiting, /gave up/);
    const again = q.acquire('b');
    first();
    (await again)();
    assert.deepEqual(q.load(), { running: 0, waiting: 0 });
  });
});

describe('script workers: a hostile script fails its check alone', () => {
  it('a worker that exits, overflows its stack or fails after answering is replaced; the checks go on', async () => {
    const source = [{ satoshis: 1, script: '51' }];
    const verifier = new ScriptVerifier(1, HOSTILE_SCRIPTS, 5_000);
    try {
      for (const raw of ['exit', 'stack']) {
        await assert.rejects(
          verifier.verify(raw, source),
          (err: Error & { closing?: boolean }) => err.name === 'ScriptCheckUnavailable' && err.closing === false,
          raw,
        );
        assert.equal(await verifier.verify('fine', source), null, `checks work again after "${raw}"`);
      }
    } finally {
      await verifier.close();
    }
    await withIdleEventLoops(async () => {
      const idle = new ScriptVerifier(1, HOSTILE_SCRIPTS, 5_000);
      try {
        for (const raw of ['throw-after-answer', 'heap-after-answer']) {
          assert.equal(await idle.verify(raw, source), null);
          // The worker that answered fails with no task of its own (nothing is sent to it meanwhile):
          // unheard, piscina's 'error' event for it would end the test process.
          const [worker] = (idle as unknown as { pool: Piscina }).pool.threads;
          let exited = false;
          worker.once('exit', () => (exited = true));
          await until(`the worker fails after "${raw}"`, async () => (exited ? true : undefined));
          assert.equal(await idle.verify('fine', source), null, `checks work again after "${raw}"`);
        }
      } finally {
        await idle.close();
      }
    });
  });

  it('a check queued behind one stopped for its time limit is answered, not left waiting for the next transaction', async () => {
    const verifier = new ScriptVerifier(1, HOSTILE_SCRIPTS, 3_000);
    const source = [{ satoshis: 1, script: '51' }];
    const marker = path.join(tempDir(), 'running');
    try {
      // The first check works half its time limit, then hangs; the second is queued once it is running.
      const stopped = verifier.verify(`hang ${marker} 1500`, source).then(
        () => assert.fail('the hanging check was answered'),
        (err: Error & { timedOut?: boolean }) => err,
      );
      await until('the first check is running', async () => (existsSync(marker) ? true : undefined));
      const queued = verifier.verify('fine', source);
      assert.equal(await queued, null);
      assert.equal((await stopped).timedOut, true);
    } finally {
      await verifier.close();
    }
  });
});

/** Each function calls the previous one twice, `depth` deep: the compiler's inlining doubles at each level. */
function exponentialInlining(depth: number, fanOut = 2): string {
  let fns = 'static function f0(int x) : int { return x + 1; }\n';
  for (let i = 1; i <= depth; i++)
    fns += `static function f${i}(int x) : int { return ${Array.from({ length: fanOut }, () => `C.f${i - 1}(x)`).join(' + ')}; }\n`;
  return `contract C {\n${fns}public function main(int x) { require(C.f${depth}(x) > 0); } }`;
}

/** About 3 s of compiling; the host's limit stops it after 1 s. */
function slowSource(): string {
  let body = '';
  for (let i = 0; i < 40_000; i++) body += `int v${i} = x + ${i};\n`;
  return `contract C { public function f(int x) { ${body} require(v0 > 0); } }`;
}

const b64 = (s: string) => Buffer.from(s).toString('base64');
const TRIVIAL = b64('contract T { public function f(int x) { require(x == 1); } }');

describe('the headless host: hostile compiles never take it down, and users share the compiler fairly', () => {
  let host: Headless;
  let admin: Record<string, string> = {};
  let viewer: Record<string, string> = {};
  const call = (auth: Record<string, string>, method: string, p: string, body?: unknown): Promise<Reply> =>
    request(host.url, method, p, { body, headers: auth });
  const assertUp = async (after: string) => {
    assert.equal(host.proc.exitCode, null, `the process exited after ${after}\n${host.stderr().slice(-2000)}`);
    assert.equal((await request(host.url, 'GET', '/health')).status, 200, `/health after ${after}`);
  };

  before(async () => {
    host = await startHeadless({
      dataDir: tempDir(),
      password: 'pw-worker-pools',
      args: [
        '--compile-timeout',
        '1',
        '--compile-memory',
        '64',
        '--compile-workers',
        '1',
        '--compile-max-source',
        '2000000',
        '--log-level',
        'warn',
      ],
    });
    const s = await request(host.url, 'POST', '/api/v1/setup', { body: ADMIN });
    admin = { authToken: s.body.data.authToken, serviceid: s.body.data.serviceId };
    const made = await call(admin, 'POST', '/api/v1/createUser', { email: 'vic@acme.io', password: 'viewer-pass-1', role: 'viewer' });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const v = await request(host.url, 'POST', '/api/v1/login', { body: { email: 'vic@acme.io', password: 'viewer-pass-1' } });
    viewer = { authToken: v.body.data.authToken };
  });
  after(async () => {
    await host.stop();
  });

  it(
    'exponential-inlining sources are stopped with 422 COMPILE_LIMIT; the process stays up and compiles again',
    { timeout: 120_000 },
    async () => {
      for (const [depth, fanOut] of [
        [30, 2],
        [24, 2],
        [20, 3],
        [16, 4],
      ]) {
        const r = await call(viewer, 'POST', '/v1/compile', { sourceCode: b64(exponentialInlining(depth, fanOut)) });
        assert.equal(r.status, 422, JSON.stringify(r.body));
        assert.equal(r.body.data.code, 'COMPILE_LIMIT');
        await assertUp(`an exponential source of depth ${depth}, fan-out ${fanOut}`);
      }
      assert.equal((await call(viewer, 'POST', '/v1/compile', { sourceCode: TRIVIAL })).status, 200);
    },
  );

  it('a compile queued behind one stopped for its limits is answered without another compile arriving', { timeout: 90_000 }, async () => {
    // The second compile must reach the host while the first runs: if it overtook the first (two
    // connections, no order), it was not queued behind it, and the pair is sent again.
    for (let attempt = 1; ; attempt++) {
      let stoppedDone = false;
      const stopped = call(admin, 'POST', '/v1/compile', { sourceCode: b64(exponentialInlining(30)) }).then((r) => {
        stoppedDone = true;
        return r;
      });
      const queued = await call(admin, 'POST', '/v1/compile', { sourceCode: TRIVIAL });
      const queuedBehind = stoppedDone;
      assert.equal(queued.status, 200, JSON.stringify(queued.body));
      assert.equal((await stopped).body.data.code, 'COMPILE_LIMIT');
      await assertUp('a stopped compile');
      if (queuedBehind) break;
      assert.ok(attempt < 5, 'the second compile never reached the host after the first');
    }
  });

  it(
    "a viewer's flood of slow compiles: the excess is refused as busy, and the admin's compile is answered before most of the flood",
    { timeout: 120_000 },
    async () => {
      const FLOOD = 10;
      const slow = b64(slowSource());
      const answers: { who: string; status: number; code?: string; retryAfter?: number }[] = [];
      const record = (who: string) => (r: Reply) =>
        answers.push({ who, status: r.status, code: r.body?.data?.code, retryAfter: r.body?.data?.retryAfter });
      const flood = Array.from({ length: FLOOD }, () => call(viewer, 'POST', '/v1/compile', { sourceCode: slow }).then(record('viewer')));
      // The flood has reached the host once the first of it is answered.
      await until('the first answer to the flood', async () => (answers.length ? true : undefined), 60_000);
      const adminsTurn = await call(admin, 'POST', '/v1/compile', { sourceCode: TRIVIAL }).then((r) => {
        record('admin')(r);
        return r;
      });
      assert.equal(adminsTurn.status, 200, JSON.stringify(adminsTurn.body));
      await Promise.all(flood);

      const viewers = answers.filter((a) => a.who === 'viewer');
      const refused = viewers.filter((a) => a.code === 'BUSY');
      assert.equal(refused.length, FLOOD - PER_USER_RUNNING - PER_USER_QUEUED, JSON.stringify(viewers));
      for (const r of refused) assert.ok(r.status === 503 && typeof r.retryAfter === 'number' && r.retryAfter > 0, JSON.stringify(r));
      // Before the admin's: only the viewer's compile already running when it arrived (two if the first
      // ended before the admin's request reached the host), never the rest of the line.
      const adminAt = answers.findIndex((a) => a.who === 'admin');
      const viewerWorkBefore = answers.slice(0, adminAt).filter((a) => a.who === 'viewer' && a.code !== 'BUSY').length;
      const viewerWorkAfter = answers.slice(adminAt).filter((a) => a.who === 'viewer' && a.code !== 'BUSY').length;
      assert.ok(
        viewerWorkBefore <= 2 && viewerWorkAfter >= 1,
        `viewer compiles answered before the admin's: ${viewerWorkBefore}, after: ${viewerWorkAfter}`,
      );
      await assertUp('the flood');
    },
  );
});

describe('compile answers: a few lines cannot make a 100 MB answer', () => {
  it('refuses an answer over the limit with a positioned error naming the sizes; a normal answer is unchanged', async () => {
    const { withinAnswerLimit, MAX_ANSWER_CHARS } = await import('../../main/contracts/compile-worker.js');
    const { compileScrypt } = await import('../../main/contracts/scrypt/compile.js');
    const unrolled = (n: number) => `contract C { public function f(int x) { int y = x; loop (${n}) { y = y + 1; } require(y > 0); } }`;
    const small = compileScrypt(unrolled(10), { file: 'c.scrypt' });
    assert.ok(small.hex, JSON.stringify(small.diagnostics));
    assert.equal(withinAnswerLimit(small, 'c.scrypt'), small, 'well under the limit: the same result');
    const big = compileScrypt(unrolled(2_000), { file: 'c.scrypt' });
    const size = big.asm!.length + 2 * big.hex!.length;
    for (const limit of [size - 1, Math.floor(size / 2), 0]) {
      const r = withinAnswerLimit(big, 'c.scrypt', limit);
      assert.deepEqual([r.artifact, r.asm, r.hex], [null, null, null], `limit ${limit}`);
      assert.equal(r.diagnostics.length, 1);
      assert.deepEqual([r.diagnostics[0].file, r.diagnostics[0].line, r.diagnostics[0].column], ['c.scrypt', 1, 1]);
      assert.match(r.diagnostics[0].message, /answer .* would be [\d.]+ MB; the API returns at most [\d.]+ MB/);
    }
    assert.equal(withinAnswerLimit(big, 'c.scrypt', size), big, 'exactly at the limit: answered');
    assert.equal(MAX_ANSWER_CHARS, 64 * 1024 * 1024);
  });
});
