import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { openStore, WrongPasswordError } from '../../main/store/database.js';
import type { Migration } from '../../main/store/migrations.js';
import { MIGRATIONS } from '../../main/store/schema.js';
import { tempDir } from '../helpers/tmp.js';

describe('encrypted store', () => {
  it('creates an SQLCipher file that is not plain SQLite, with the schema applied', () => {
    const dir = tempDir();
    const store = openStore({ dataDir: dir, password: 'pw-1' });
    assert.equal(store.created, true);
    assert.equal(store.db.pragma('user_version', { simple: true }), MIGRATIONS.length);
    assert.equal(store.db.pragma('journal_mode', { simple: true }), 'wal');
    assert.equal(store.db.pragma('foreign_keys', { simple: true }), 1);
    store.db.prepare("INSERT INTO organisation VALUES (1, 'svc', 'Secret Org Name', 0)").run();
    store.close();
    const bytes = readFileSync(store.file);
    assert.notEqual(bytes.subarray(0, 15).toString('latin1'), 'SQLite format 3');
    assert.equal(bytes.includes(Buffer.from('Secret Org Name')), false);
    if (process.platform !== 'win32') assert.equal(statSync(store.file).mode & 0o777, 0o600);
  });

  it('reopens with the right password and keeps the data', () => {
    const dir = tempDir();
    const a = openStore({ dataDir: dir, password: "it's a pass'word" });
    a.db.prepare("INSERT INTO organisation VALUES (1, 'svc', 'Org', 0)").run();
    a.close();
    const b = openStore({ dataDir: dir, password: "it's a pass'word" });
    assert.equal(b.created, false);
    assert.equal((b.db.prepare('SELECT name FROM organisation').get() as { name: string }).name, 'Org');
    b.close();
  });

  it('refuses a wrong password without changing a byte', () => {
    const dir = tempDir();
    openStore({ dataDir: dir, password: 'right' }).close();
    const file = path.join(dir, 'keystead.db');
    const before = readFileSync(file);
    assert.throws(() => openStore({ dataDir: dir, password: 'wrong' }), WrongPasswordError);
    assert.deepEqual(readFileSync(file), before);
    openStore({ dataDir: dir, password: 'right' }).close();
  });

  it('applies migrations in order, atomically, and refuses a newer database', () => {
    const dir = tempDir();
    const m1: Migration = { version: 1, name: 'one', sql: 'CREATE TABLE a (x INTEGER);' };
    const bad: Migration = { version: 2, name: 'two', sql: 'CREATE TABLE b (y INTEGER); INSERT INTO nowhere VALUES (1);' };
    openStore({ dataDir: dir, password: 'p', migrations: [m1] }).close();
    assert.throws(() => openStore({ dataDir: dir, password: 'p', migrations: [m1, bad] }), /nowhere/);
    const s = openStore({ dataDir: dir, password: 'p', migrations: [m1] });
    assert.equal(s.db.pragma('user_version', { simple: true }), 1);
    assert.equal((s.db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'b'").get() as { n: number }).n, 0, 'failed migration left nothing');
    s.close();
    const three: Migration[] = [m1, { version: 2, name: 'two', sql: 'CREATE TABLE b (y INTEGER);' }];
    openStore({ dataDir: dir, password: 'p', migrations: three }).close();
    assert.throws(() => openStore({ dataDir: dir, password: 'p', migrations: [m1] }), /newer Keystead/);
    assert.throws(() => openStore({ dataDir: dir, password: 'p', migrations: [m1, { ...m1, version: 3 }] }), /without gaps/);
  });
});
