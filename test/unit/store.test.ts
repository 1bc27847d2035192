import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { openStore, WrongPasswordError } from '../../main/store/database.js';
import type { Migration } from '../../main/store/migrations.js';
import { MIGRATIONS } from '../../main/store/schema.js';
import { ROOT } from '../helpers/headless.js';
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

  it('refuses a wrong password after a crash (kill -9) without touching -wal or -shm, and the right one recovers', async () => {
    const dir = tempDir();
    // A writer killed mid-flight leaves a WAL and its index behind, as after a power cut.
    const writer = spawn(process.execPath, ['--import', 'tsx', '-e', `
      import('${path.join(ROOT, 'main/store/database.ts').replace(/\\/g, '/')}').then(({ openStore }) => {
        const s = openStore({ dataDir: ${JSON.stringify(dir)}, password: 'right' });
        const put = s.db.prepare("INSERT INTO settings (key, value) VALUES (?, ?)");
        for (let i = 0; i < 200; i++) put.run('k' + i, 'v'.repeat(200));
        process.stdout.write('written\\n');
        setInterval(() => {}, 1000);
      });`], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => writer.stdout!.on('data', (d) => String(d).includes('written') && resolve()));
    writer.kill('SIGKILL');
    await new Promise((resolve) => writer.once('exit', resolve));
    const files = readdirSync(dir).filter((f) => f.startsWith('keystead.db')).sort();
    assert.deepEqual(files, ['keystead.db', 'keystead.db-shm', 'keystead.db-wal'], 'the crash left a WAL and its index');
    const snapshot = () => files.map((f) => [f, readFileSync(path.join(dir, f)).toString('base64'), statSync(path.join(dir, f)).mtimeMs]);
    const before = snapshot();
    assert.throws(() => openStore({ dataDir: dir, password: 'wrong' }), WrongPasswordError);
    assert.deepEqual(snapshot(), before, 'not a byte or a timestamp changed');
    assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith('keystead.db')).sort(), files);
    const s = openStore({ dataDir: dir, password: 'right' });
    assert.equal(s.db.prepare<[], { n: number }>("SELECT count(*) AS n FROM settings WHERE key LIKE 'k%'").get()!.n, 200, 'the right password recovers every write');
    s.close();
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
