import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3-multiple-ciphers';
import { groupedCommits } from '../../main/store/grouped-commits.js';

/**
 * Writes that share a commit (main/store/grouped-commits.ts) must each keep what a transaction of their own
 * gives: all or nothing, their caller told only after the commit, and a neighbour's failure never theirs.
 */
describe('grouped commits', () => {
  let dir: string;
  let file: string;
  let db: Database.Database;
  let reader: Database.Database;
  // A scheduler the test runs by hand, so that "the same turn" is exact.
  let pending: (() => void)[] = [];
  const turn = () => {
    const run = pending;
    pending = [];
    for (const r of run) r();
  };
  let outerTransactions = 0;
  // The database's transaction, counting the outer ones (a nested call is a savepoint).
  const counted: Pick<Database.Database, 'transaction' | 'inTransaction'> = {
    get inTransaction() {
      return db.inTransaction;
    },
    transaction: ((fn: () => unknown) => {
      const t = db.transaction(fn);
      return () => {
        if (!db.inTransaction) outerTransactions++;
        return t();
      };
    }) as unknown as Database.Database['transaction'],
  };
  const rows = (d: Database.Database) => (d.prepare('SELECT name FROM t ORDER BY name').all() as { name: string }[]).map((r) => r.name);

  before(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'keystead-grouped-'));
    file = path.join(dir, 'g.db');
    db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.exec(`CREATE TABLE parent (id INTEGER PRIMARY KEY);
      CREATE TABLE t (name TEXT PRIMARY KEY, parent INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)`);
    reader = new Database(file, { readonly: true });
  });
  after(() => {
    reader.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const reset = () => {
    db.exec('DELETE FROM t');
    outerTransactions = 0;
  };

  it('runs the writes of one turn in one transaction, in the order they were asked, each seeing those before it', async () => {
    reset();
    const commits = groupedCommits(counted, (run) => pending.push(run));
    const a = commits.write(() => db.prepare("INSERT INTO t (name) VALUES ('a')").run().changes);
    const b = commits.write(() => rows(db));
    assert.deepEqual(rows(db), [], 'nothing runs before the turn ends');
    turn();
    assert.equal(await a, 1);
    assert.deepEqual(await b, ['a']);
    assert.equal(outerTransactions, 1, 'one commit for both');
  });

  it('tells each caller only once its write is committed: another connection already sees it', async () => {
    reset();
    const commits = groupedCommits(counted, (run) => pending.push(run));
    const seen = commits
      .write(() => db.prepare("INSERT INTO t (name) VALUES ('c')").run())
      .then(() => ({
        open: db.inTransaction,
        other: rows(reader),
      }));
    turn();
    assert.deepEqual(await seen, { open: false, other: ['c'] });
  });

  it("undoes a failing write's own changes only, and gives its caller that error; the others commit", async () => {
    reset();
    const commits = groupedCommits(counted, (run) => pending.push(run));
    const first = commits.write(() => db.prepare("INSERT INTO t (name) VALUES ('x')").run());
    const failing = commits.write(() => {
      db.prepare("INSERT INTO t (name) VALUES ('half-written')").run();
      throw new Error('refused halfway');
    });
    const duplicate = commits.write(() => db.prepare("INSERT INTO t (name) VALUES ('x')").run());
    const last = commits.write(() => db.prepare("INSERT INTO t (name) VALUES ('y')").run());
    turn();
    await first;
    await assert.rejects(failing, /refused halfway/);
    await assert.rejects(duplicate, /UNIQUE constraint failed/);
    await last;
    assert.deepEqual(rows(reader), ['x', 'y']);
    assert.equal(outerTransactions, 1);
  });

  it('fails every write of the turn, and writes none, when the commit itself fails', async () => {
    reset();
    const commits = groupedCommits(counted, (run) => pending.push(run));
    const fine = commits.write(() => db.prepare("INSERT INTO t (name) VALUES ('fine')").run());
    // A deferred foreign key is checked at the commit, not when the savepoint is released.
    const orphan = commits.write(() => db.prepare("INSERT INTO t (name, parent) VALUES ('orphan', 42)").run());
    turn();
    await assert.rejects(fine, /FOREIGN KEY constraint failed/);
    await assert.rejects(orphan, /FOREIGN KEY constraint failed/);
    assert.deepEqual(rows(reader), []);
    assert.equal(db.inTransaction, false, 'the connection is usable again');
    const again = groupedCommits(counted, (run) => pending.push(run)).write(() =>
      db.prepare("INSERT INTO t (name) VALUES ('after')").run(),
    );
    turn();
    await again;
    assert.deepEqual(rows(reader), ['after']);
  });

  /** A database of its own that may grow by three pages only. */
  const nearlyFull = (name: string) => {
    const full = new Database(path.join(dir, name));
    full.exec('CREATE TABLE t (v TEXT)');
    full.pragma(`max_page_count = ${(full.pragma('page_count', { simple: true }) as number) + 3}`);
    return { full, insert: full.prepare('INSERT INTO t (v) VALUES (?)') };
  };

  it('when the database itself ends the transaction midway (disk full), runs nothing after it and tells every caller that nothing was written', async () => {
    // A database of its own that may grow by three pages only: the second write fills it. SQLite then rolls
    // back the whole transaction, the first write with it; a third write run after that would have committed
    // by itself while its caller heard of a failure.
    const { full, insert } = nearlyFull('full.db');
    try {
      const commits = groupedCommits(full, (run) => pending.push(run));
      let ranAfter = false;
      const results = Promise.allSettled([
        commits.write(() => insert.run('before')),
        commits.write(() => {
          for (let i = 0; i < 100; i++) insert.run('x'.repeat(3000));
        }),
        commits.write(() => {
          ranAfter = true;
          return insert.run('after');
        }),
      ]);
      turn();
      const settled = await results;
      assert.deepEqual(
        settled.map((r) => r.status),
        ['rejected', 'rejected', 'rejected'],
      );
      for (const r of settled) assert.match(String((r as PromiseRejectedResult).reason), /full/);
      assert.equal(ranAfter, false, 'nothing runs once the transaction is gone');
      assert.deepEqual(full.prepare('SELECT v FROM t WHERE length(v) < 10').all(), [], 'nothing of the batch on disk');
      assert.equal(full.inTransaction, false);
      // And the connection serves the next turn once there is room.
      full.pragma('max_page_count = 100000');
      const next = commits.write(() => insert.run('next'));
      turn();
      await next;
      assert.deepEqual(full.prepare('SELECT v FROM t').all(), [{ v: 'next' }]);
    } finally {
      full.close();
    }
  });

  it('fails the batch, rather than claim a commit, when a write swallowed the error that ended the transaction', async () => {
    const { full, insert } = nearlyFull('full2.db');
    try {
      const commits = groupedCommits(full, (run) => pending.push(run));
      const first = commits.write(() => insert.run('first'));
      const swallowing = commits.write(() => {
        try {
          for (let i = 0; i < 100; i++) insert.run('x'.repeat(3000));
        } catch {
          /* a careless write that carries on */
        }
        return 'claims success';
      });
      const later = commits.write(() => insert.run('later'));
      turn();
      const settled = await Promise.allSettled([first, swallowing, later]);
      assert.deepEqual(
        settled.map((r) => r.status),
        ['rejected', 'rejected', 'rejected'],
      );
      // Its savepoint went with the transaction: releasing it is what fails.
      for (const r of settled) assert.match(String((r as PromiseRejectedResult).reason), /no such savepoint|ended the shared transaction/);
      assert.deepEqual(full.prepare('SELECT v FROM t WHERE length(v) < 10').all(), []);
    } finally {
      full.close();
    }
  });

  it('commits each turn apart: a write asked for while a turn runs waits for the next', async () => {
    reset();
    const commits = groupedCommits(counted, (run) => pending.push(run));
    let inner: Promise<unknown> | null = null;
    const outer = commits.write(() => {
      inner = commits.write(() => db.prepare("INSERT INTO t (name) VALUES ('next turn')").run());
      return db.prepare("INSERT INTO t (name) VALUES ('this turn')").run();
    });
    turn();
    await outer;
    assert.deepEqual(rows(reader), ['this turn']);
    turn();
    await inner;
    assert.deepEqual(rows(reader), ['next turn', 'this turn']);
    assert.equal(outerTransactions, 2);
  });

  it('with the default scheduler, a lone write commits by itself at the end of the turn; flush runs what is queued at once', async () => {
    reset();
    const commits = groupedCommits(counted);
    assert.equal((await commits.write(() => db.prepare("INSERT INTO t (name) VALUES ('lone')").run())).changes, 1);
    assert.deepEqual(rows(reader), ['lone']);
    const queued = commits.write(() => db.prepare("INSERT INTO t (name) VALUES ('flushed')").run());
    commits.flush();
    assert.deepEqual(rows(reader), ['flushed', 'lone'], 'written before flush returns');
    await queued;
  });
});
