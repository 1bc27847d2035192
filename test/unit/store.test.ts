import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { openStore, WrongPasswordError } from '../../main/store/database.js';
import type { Migration } from '../../main/store/migrations.js';
import { MIGRATIONS } from '../../main/store/schema.js';
import { LEDGER_MIGRATIONS, LEDGER_STORE } from '../../main/chain/local/ledger-schema.js';
import { LocalNode } from '../../main/chain/local/local-node.js';
import { PrivateKey } from '@bsv/sdk';
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
    const writer = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `
      import('${path.join(ROOT, 'main/store/database.ts').replace(/\\/g, '/')}').then(({ openStore }) => {
        const s = openStore({ dataDir: ${JSON.stringify(dir)}, password: 'right' });
        const put = s.db.prepare("INSERT INTO settings (key, value) VALUES (?, ?)");
        for (let i = 0; i < 200; i++) put.run('k' + i, 'v'.repeat(200));
        process.stdout.write('written\\n');
        setInterval(() => {}, 1000);
      });`,
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) => writer.stdout!.on('data', (d) => String(d).includes('written') && resolve()));
    writer.kill('SIGKILL');
    await new Promise((resolve) => writer.once('exit', resolve));
    const files = readdirSync(dir)
      .filter((f) => f.startsWith('keystead.db'))
      .sort();
    assert.deepEqual(files, ['keystead.db', 'keystead.db-shm', 'keystead.db-wal'], 'the crash left a WAL and its index');
    const snapshot = () => files.map((f) => [f, readFileSync(path.join(dir, f)).toString('base64'), statSync(path.join(dir, f)).mtimeMs]);
    const before = snapshot();
    assert.throws(() => openStore({ dataDir: dir, password: 'wrong' }), WrongPasswordError);
    assert.deepEqual(snapshot(), before, 'not a byte or a timestamp changed');
    assert.deepEqual(
      readdirSync(dir)
        .filter((f) => f.startsWith('keystead.db'))
        .sort(),
      files,
    );
    const s = openStore({ dataDir: dir, password: 'right' });
    assert.equal(
      s.db.prepare<[], { n: number }>("SELECT count(*) AS n FROM settings WHERE key LIKE 'k%'").get()!.n,
      200,
      'the right password recovers every write',
    );
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
    assert.equal(
      (s.db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'b'").get() as { n: number }).n,
      0,
      'failed migration left nothing',
    );
    s.close();
    const three: Migration[] = [m1, { version: 2, name: 'two', sql: 'CREATE TABLE b (y INTEGER);' }];
    openStore({ dataDir: dir, password: 'p', migrations: three }).close();
    assert.throws(() => openStore({ dataDir: dir, password: 'p', migrations: [m1] }), /newer Keystead/);
    assert.throws(() => openStore({ dataDir: dir, password: 'p', migrations: [m1, { ...m1, version: 3 }] }), /without gaps/);
  });

  describe("the local chain's ledger (AEGIS)", () => {
    const ledgerFile = (dir: string) => path.join(dir, LEDGER_STORE.fileName);

    it('is encrypted with AEGIS: the SQLCipher settings do not open it, the password with AEGIS does, nothing in plaintext', async () => {
      const dir = tempDir();
      const node = LocalNode.open({ dataDir: dir, password: 'ledger-pw' });
      const address = PrivateKey.fromRandom().toAddress();
      const paid = await node.faucet(address, 12_345);
      node.close();
      const bytes = readFileSync(ledgerFile(dir));
      assert.notEqual(bytes.subarray(0, 15).toString('latin1'), 'SQLite format 3');
      assert.equal(bytes.includes(Buffer.from(address)), false, 'no address in plaintext');
      assert.throws(
        () => openStore({ dataDir: dir, password: 'ledger-pw', fileName: LEDGER_STORE.fileName, migrations: LEDGER_MIGRATIONS }),
        WrongPasswordError,
      );
      assert.throws(() => openStore({ dataDir: dir, password: 'wrong', ...LEDGER_STORE }), WrongPasswordError);
      const again = LocalNode.open({ dataDir: dir, password: 'ledger-pw' });
      assert.equal(again.utxos(address)[0]?.txid, paid.txid);
      again.close();
    });

    it('converts a ledger written with SQLCipher once, keeping every row; a wrong password leaves it untouched', async () => {
      const dir = tempDir();
      // A ledger as the versions before AEGIS wrote it: SQLCipher, schema version 1.
      const old = openStore({
        dataDir: dir,
        password: 'ledger-pw',
        fileName: LEDGER_STORE.fileName,
        migrations: LEDGER_MIGRATIONS.slice(0, 1),
      });
      old.db.prepare("INSERT INTO meta (key, value) VALUES ('marker', 'kept')").run();
      old.db.prepare("INSERT INTO address_txs (address, txid) VALUES ('1Addr', 'ab')").run();
      old.close();
      const before = readFileSync(ledgerFile(dir));
      assert.throws(() => openStore({ dataDir: dir, password: 'wrong', ...LEDGER_STORE }), WrongPasswordError);
      assert.deepEqual(readFileSync(ledgerFile(dir)), before, 'a wrong password changed nothing');

      const s = openStore({ dataDir: dir, password: 'ledger-pw', ...LEDGER_STORE });
      assert.equal(s.db.pragma('user_version', { simple: true }), LEDGER_MIGRATIONS.length);
      assert.equal(s.db.pragma('journal_mode', { simple: true }), 'wal');
      assert.equal((s.db.prepare("SELECT value FROM meta WHERE key = 'marker'").get() as { value: string }).value, 'kept');
      assert.deepEqual(s.db.prepare('SELECT address, txid FROM address_txs').all(), [{ address: '1Addr', txid: 'ab' }]);
      s.close();
      // Now AEGIS: SQLCipher's settings no longer open it, and a second open converts nothing.
      assert.throws(
        () => openStore({ dataDir: dir, password: 'ledger-pw', fileName: LEDGER_STORE.fileName, migrations: LEDGER_MIGRATIONS }),
        WrongPasswordError,
      );
      const reopened = openStore({ dataDir: dir, password: 'ledger-pw', ...LEDGER_STORE });
      assert.equal((reopened.db.prepare("SELECT value FROM meta WHERE key = 'marker'").get() as { value: string }).value, 'kept');
      reopened.close();
    });
  });
});
