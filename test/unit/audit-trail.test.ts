import assert from 'node:assert/strict';
import { createHash, randomBytes, verify as nodeVerify } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { BigNumber, Signature } from '@bsv/sdk';
import { createLogger } from '../../main/log/logger.js';
import { openStore, type Store } from '../../main/store/database.js';
import { createRepos, type Repos } from '../../main/store/repos/index.js';
import { canonicalEntry, entryHash, GENESIS_HASH } from '../../main/store/repos/audit.js';
import { MIGRATIONS } from '../../main/store/schema.js';
import { AUDIT_KEY_SETTING, checkpointMessage } from '../../main/engine/audit/audit-key.js';
import { AuditTrail, type AnchorWriter } from '../../main/engine/audit/trail.js';
import { auditCsv } from '../../main/engine/audit/audit-log.js';
import { publicKeyOf, signDigest } from '../../main/crypto/secp256k1.js';
import { tempDir } from '../helpers/tmp.js';

const DAY = 86_400_000;
const T0 = Date.parse('2026-03-01T10:00:00Z');

interface Rig {
  store: Store;
  repos: Repos;
  trail: AuditTrail;
  clock: { now: number };
  anchors: { day: string; lastHash: string }[];
  logs: () => string;
}

function rig(anchor?: AnchorWriter, existing?: { store: Store; clock: { now: number } }): Rig {
  const store = existing?.store ?? openStore({ dataDir: tempDir(), password: 'pw-audit' });
  const clock = existing?.clock ?? { now: T0 };
  const repos = createRepos(store.db);
  const anchors: { day: string; lastHash: string }[] = [];
  let out = '';
  const logger = createLogger({
    level: 'debug',
    destination: new Writable({
      write(chunk, _enc, done) {
        out += String(chunk);
        done();
      },
    }),
  });
  const sealing = randomBytes(32);
  const trail = new AuditTrail({
    repos,
    db: store.db,
    now: () => clock.now,
    logger,
    sealingKey: () =>
      Buffer.from(
        repos.settings.getOrInit('wallet-sealing-key', () => sealing.toString('hex')),
        'hex',
      ),
    anchor:
      anchor ??
      (async (c) => {
        anchors.push({ day: c.day, lastHash: c.lastHash });
        return 'ab'.repeat(32);
      }),
  });
  trail.open();
  return { store, repos, trail, clock, anchors, logs: () => out };
}

const entry = (r: Rig, action: string, target: string | null = null) =>
  r.trail.append({
    at: r.clock.now,
    actorUid: 'u1',
    actorEmail: 'ada@acme.io',
    action,
    target,
    outcome: 'success',
    code: null,
    client: '127.0.0.1',
  });

const sql = (r: Rig, text: string, ...args: unknown[]) => r.store.db.prepare(text).run(...args);

describe('audit hash chain', () => {
  let r: Rig;
  beforeEach(() => {
    r = rig();
  });
  afterEach(() => r.store.close());

  it('chains each entry to the one before from the genesis hash, over the documented canonical form', async () => {
    const a = entry(r, 'login');
    const b = entry(r, 'createUser', 'bob@acme.io');
    assert.equal(a.id, 1);
    assert.equal(a.prevHash, GENESIS_HASH);
    assert.equal(b.prevHash, a.hash);
    // The README's recipe, computed here independently of entryHash.
    const canonical = JSON.stringify([2, T0, 'u1', 'ada@acme.io', 'createUser', 'bob@acme.io', 'success', null, '127.0.0.1']);
    assert.equal(canonicalEntry(b), canonical);
    assert.equal(b.hash, createHash('sha256').update(`${a.hash}\n${canonical}`).digest('hex'));
    const stored = r.repos.audit.page(Number.MAX_SAFE_INTEGER, 10);
    assert.deepEqual(
      stored.map((e) => [e.id, e.prevHash, e.hash]),
      [
        [2, a.hash, b.hash],
        [1, GENESIS_HASH, a.hash],
      ],
    );
    const v = await r.trail.verify();
    assert.equal(v.ok, true, JSON.stringify(v.firstMismatch));
    assert.equal(v.entries, 2);
  });

  it('chains entries written before the chain existed, once, in id order, when the trail opens', async () => {
    for (const action of ['login', 'logout', 'login'])
      sql(r, "INSERT INTO audit_log (at, action, outcome, client) VALUES (?, ?, 'success', 'x')", T0, action);
    assert.equal((r.store.db.prepare('SELECT count(*) AS n FROM audit_log WHERE hash IS NULL').get() as { n: number }).n, 3);
    const reopened = rig(undefined, r);
    assert.equal((r.store.db.prepare('SELECT count(*) AS n FROM audit_log WHERE hash IS NULL').get() as { n: number }).n, 0);
    const next = entry(reopened, 'createUser');
    assert.equal(next.id, 4);
    assert.equal((await reopened.trail.verify()).ok, true);
  });

  it('chains a data dir written before migration 17 when it is opened with it', async () => {
    const dataDir = tempDir();
    const old = openStore({ dataDir, password: 'pw-old', migrations: MIGRATIONS.filter((m) => m.version < 17) });
    const insert = old.db.prepare(
      "INSERT INTO audit_log (at, actor_email, action, outcome, client) VALUES (?, 'ada@acme.io', ?, 'success', 'x')",
    );
    insert.run(T0 - 2 * DAY, 'setup');
    insert.run(T0 - DAY, 'login');
    old.close();
    const store = openStore({ dataDir, password: 'pw-old' });
    const upgraded = rig(undefined, { store, clock: { now: T0 } });
    try {
      const [first, second] = upgraded.repos.audit.after(0, 10);
      assert.equal(first.prevHash, GENESIS_HASH);
      assert.equal(first.hash, entryHash(GENESIS_HASH, first));
      assert.equal(second.prevHash, first.hash);
      // Both finished days are closed at open.
      assert.deepEqual(
        upgraded.repos.audit.checkpoints().map((c) => [c.day, c.lastId]),
        [
          ['2026-02-27', 1],
          ['2026-02-28', 2],
        ],
      );
      assert.equal((await upgraded.trail.verify()).ok, true);
    } finally {
      store.close();
    }
  });

  it('stays whole when a transaction that appended is rolled back', async () => {
    entry(r, 'login');
    assert.throws(() =>
      r.store.db.transaction(() => {
        entry(r, 'pay', 'txid-that-never-was');
        throw new Error('the payment failed after its audit entry');
      })(),
    );
    const after = entry(r, 'logout');
    assert.equal(after.id, 2);
    assert.equal((await r.trail.verify()).ok, true);
  });

  it('names an entry whose content was edited', async () => {
    for (const a of ['login', 'createUser', 'updateUser', 'logout']) entry(r, a);
    sql(r, "UPDATE audit_log SET action = 'listUsers' WHERE id = 2");
    const v = await r.trail.verify();
    assert.equal(v.ok, false);
    assert.equal(v.firstMismatch?.id, 2);
    assert.match(v.firstMismatch!.reason, /hash of entry 2 does not match its content/);
  });

  it('names a deleted entry, in the middle and at the end', async () => {
    for (const a of ['login', 'createUser', 'updateUser', 'logout']) entry(r, a);
    sql(r, 'DELETE FROM audit_log WHERE id = 4');
    let v = await r.trail.verify();
    assert.equal(v.firstMismatch?.id, 4);
    assert.match(v.firstMismatch!.reason, /entry 4 is missing/);
    sql(r, 'DELETE FROM audit_log WHERE id = 2');
    v = await r.trail.verify();
    assert.equal(v.firstMismatch?.id, 2);
    assert.match(v.firstMismatch!.reason, /entry 2 is missing \(ids jump from 1 to 3\)/);
    // The trail keeps going, and leaves the deleted last id missing rather than taking its place.
    assert.equal(entry(r, 'login').id, 5);
  });

  it('walks a long trail in slices and still names the first bad entry past the first slice', async () => {
    r.store.db.transaction(() => {
      for (let i = 0; i < 4500; i++) entry(r, 'login');
    })();
    assert.equal((await r.trail.verify()).entries, 4500);
    sql(r, "UPDATE audit_log SET outcome = 'error' WHERE id = 4321");
    const v = await r.trail.verify();
    assert.equal(v.entries, 4500);
    assert.equal(v.firstMismatch?.id, 4321);
  });

  it('names the entry after one that was edited and re-hashed', async () => {
    for (const a of ['login', 'createUser', 'updateUser', 'logout']) entry(r, a);
    const e2 = r.repos.audit.byId(2)!;
    const forged = { ...e2, action: 'listUsers' };
    sql(r, 'UPDATE audit_log SET action = ?, hash = ? WHERE id = 2', 'listUsers', entryHash(e2.prevHash!, forged));
    const v = await r.trail.verify();
    assert.equal(v.firstMismatch?.id, 3);
    assert.match(v.firstMismatch!.reason, /prev_hash of entry 3 does not match/);
  });
});

describe('audit checkpoints', () => {
  let r: Rig;
  beforeEach(() => {
    r = rig();
  });
  afterEach(() => r.store.close());

  it('closes each finished day with a signature an auditor checks with openssl-compatible tools', async () => {
    entry(r, 'login');
    const last = entry(r, 'logout');
    assert.equal(r.repos.audit.checkpoints().length, 0, 'no checkpoint while the day runs');
    r.clock.now += DAY;
    entry(r, 'login');
    const [c] = r.repos.audit.checkpoints();
    assert.equal(c.day, '2026-03-01');
    assert.equal(c.lastId, last.id);
    assert.equal(c.lastHash, last.hash);
    const pem = r.trail.key.publicKey().pem;
    // Node's OpenSSL: ECDSA over SHA-256 of the documented message, DER signature, SPKI public key.
    const message = `keystead audit checkpoint v1\n2026-03-01\n${last.id}\n${last.hash}`;
    assert.equal(checkpointMessage(c), message);
    assert.equal(nodeVerify('sha256', Buffer.from(message), pem, Buffer.from(c.signature, 'hex')), true);
    assert.equal(nodeVerify('sha256', Buffer.from(message + 'x'), pem, Buffer.from(c.signature, 'hex')), false);
    const v = await r.trail.verify();
    assert.equal(v.ok, true, JSON.stringify(v.firstMismatch));
    assert.equal(v.checkpoints, 1);
    assert.equal(v.publicKey, c.publicKey);
  });

  it('closes days skipped while nothing ran at open and on verify, each once', async () => {
    entry(r, 'login');
    r.clock.now += 3 * DAY;
    const reopened = rig(undefined, r);
    assert.deepEqual(
      reopened.repos.audit.checkpoints().map((c) => c.day),
      ['2026-03-01'],
    );
    entry(reopened, 'login');
    r.clock.now += DAY;
    assert.equal((await reopened.trail.verify()).checkpoints, 2);
    assert.equal((await reopened.trail.verify()).checkpoints, 2);
  });

  it('keeps the audit key sealed: never the private key in the settings', async () => {
    entry(r, 'login');
    r.clock.now += DAY;
    entry(r, 'login');
    const sealed = r.repos.settings.get(AUDIT_KEY_SETTING)!;
    const parsed = JSON.parse(sealed) as Record<string, string>;
    assert.deepEqual(Object.keys(parsed).sort(), ['ct', 'iv', 'salt', 'tag', 'v']);
    // Recover nothing from the stored text: the ciphertext is not the key that signs.
    const ct = Buffer.from(parsed.ct, 'base64');
    assert.notEqual(Buffer.from(publicKeyOf(ct)).toString('hex'), r.trail.key.publicKey().hex);
  });

  it('reports a forged checkpoint: changed hash, another key, a rewritten chain', async () => {
    for (const a of ['login', 'createUser', 'logout']) entry(r, a);
    r.clock.now += DAY;
    entry(r, 'login');
    const [c] = r.repos.audit.checkpoints();

    // The last hash changed: the signature no longer covers it.
    sql(r, 'UPDATE audit_checkpoints SET last_hash = ? WHERE day = ?', 'f'.repeat(64), c.day);
    let v = await r.trail.verify();
    assert.equal(v.firstMismatch?.id, c.lastId);
    assert.match(v.firstMismatch!.reason, /checkpoint signature invalid/);
    sql(r, 'UPDATE audit_checkpoints SET last_hash = ? WHERE day = ?', c.lastHash, c.day);
    assert.equal((await r.trail.verify()).ok, true);

    // Entry 2 rewritten and every hash after it recomputed: the chain holds, the checkpoint does not.
    const rows = r.repos.audit.after(0, 1000);
    let prev = rows[0].hash!;
    for (const e of rows.slice(1)) {
      const changed = e.id === 2 ? { ...e, action: 'listUsers' } : e;
      const hash = entryHash(prev, changed);
      sql(r, 'UPDATE audit_log SET action = ?, prev_hash = ?, hash = ? WHERE id = ?', changed.action, prev, hash, e.id);
      prev = hash;
    }
    v = await r.trail.verify();
    assert.equal(v.firstMismatch?.id, c.lastId);
    assert.match(v.firstMismatch!.reason, /checkpoint does not match the chain/);
    assert.equal(v.firstMismatch!.day, c.day);

    // ...and re-signed with a key of the forger's own.
    const forger = randomBytes(32);
    const lastHash = r.repos.audit.byId(c.lastId)!.hash!;
    const digest = createHash('sha256')
      .update(checkpointMessage({ day: c.day, lastId: c.lastId, lastHash }))
      .digest();
    const { r: sr, s } = signDigest(digest, forger);
    const der = new Signature(new BigNumber([...sr]), new BigNumber([...s])).toDER('hex') as string;
    sql(
      r,
      'UPDATE audit_checkpoints SET last_hash = ?, signature = ?, public_key = ? WHERE day = ?',
      lastHash,
      der,
      Buffer.from(publicKeyOf(forger)).toString('hex'),
      c.day,
    );
    v = await r.trail.verify();
    assert.equal(v.firstMismatch?.id, c.lastId);
    assert.match(v.firstMismatch!.reason, /signed by another key/);
  });

  it('closes the day inside the appending transaction, and a rollback takes the checkpoint with it', async () => {
    entry(r, 'login');
    r.clock.now += DAY;
    assert.throws(() =>
      r.store.db.transaction(() => {
        entry(r, 'pay');
        throw new Error('rolled back');
      })(),
    );
    assert.equal(r.repos.audit.checkpoints().length, 0);
    assert.equal((await r.trail.verify()).checkpoints, 1, 'verify closes the day again');
  });

  it('exports CSV with the hashes, the checkpoint on its last entry', async () => {
    entry(r, 'login', '=cmd|calc');
    const last = entry(r, 'logout');
    r.clock.now += DAY;
    entry(r, 'login');
    const csv = auditCsv(r.repos.audit.after(0, 1000), r.repos.audit.checkpoints());
    const lines = csv.trimEnd().split('\r\n');
    assert.equal(lines.length, 4);
    assert.match(lines[0], /^id,at,actor_uid,actor_email,action,target,outcome,code,client,prev_hash,hash,checkpoint_day,/);
    assert.ok(lines[1].includes(`,'=cmd|calc,`), 'a formula is neutralised');
    assert.ok(lines[2].includes(`${last.hash},2026-03-01,`), lines[2]);
  });
});

describe('audit anchoring', () => {
  it('anchors each new checkpoint after the commit when on; never when off', async () => {
    const r = rig();
    try {
      entry(r, 'login');
      r.clock.now += DAY;
      entry(r, 'login');
      await r.trail.anchorsSettled();
      assert.equal(r.anchors.length, 0, 'off by default');
      r.trail.setAnchor(true);
      r.clock.now += DAY;
      entry(r, 'login');
      await new Promise((resolve) => setImmediate(resolve));
      await r.trail.anchorsSettled();
      assert.deepEqual(
        r.anchors.map((a) => a.day),
        ['2026-03-02'],
      );
      assert.equal(r.repos.audit.checkpoint('2026-03-02')!.anchorTxid, 'ab'.repeat(32));
      const v = await r.trail.verify();
      assert.equal(v.anchored, 1);
      assert.deepEqual(v.unanchored, ['2026-03-01']);
    } finally {
      r.store.close();
    }
  });

  it('leaves a checkpoint unanchored, logs why, and never fails the append, when the fee manager cannot pay', async () => {
    const r = rig(async () => {
      throw new Error('The fee manager is not set up');
    });
    try {
      r.trail.setAnchor(true);
      entry(r, 'login');
      r.clock.now += DAY;
      const appended = entry(r, 'login');
      assert.equal(appended.id, 2);
      await new Promise((resolve) => setImmediate(resolve));
      await r.trail.anchorsSettled();
      assert.equal(r.repos.audit.checkpoint('2026-03-01')!.anchorTxid, null);
      assert.match(r.logs(), /audit checkpoint not anchored/);
      assert.deepEqual((await r.trail.verify()).unanchored, ['2026-03-01']);
      assert.equal((await r.trail.verify()).ok, true);
      assert.doesNotMatch(r.logs(), /"ct"|BEGIN/);
    } finally {
      r.store.close();
    }
  });
});
