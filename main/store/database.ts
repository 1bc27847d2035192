import Database from 'better-sqlite3-multiple-ciphers';
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { applyKey, derivedKey, firstPage, isNotADatabase, passwordOpens, type Cipher, type DbKey } from './key-check.js';
import { migrate, type Migration } from './migrations.js';
import { MIGRATIONS } from './schema.js';

export type Db = Database.Database;

export const DATABASE_FILE = 'keystead.db';

/** The password does not open the database in the data directory. Nothing was created or written. */
export class WrongPasswordError extends Error {
  constructor(file: string) {
    super(`The password does not unlock ${file}. Nothing was changed; check the password (or password file) and try again.`);
    this.name = 'WrongPasswordError';
  }
}

export interface OpenOptions {
  dataDir: string;
  /** The owner's password or the headless key; SQLCipher derives the page key from it (PBKDF2-SHA512). */
  password: string;
  migrations?: readonly Migration[];
  /** A SQLCipher binding built for another ABI (the desktop host's Electron build); Node's by default. */
  nativeBinding?: string;
  /** The file inside dataDir; the main database by default (the local chain keeps its own). */
  fileName?: string;
  /** How the file is encrypted (see key-check.ts); a SQLCipher file opened as another cipher is converted once. */
  cipher?: Cipher;
}

export interface Store {
  db: Db;
  file: string;
  /** True when this open created the database (first run). */
  created: boolean;
  close(): void;
}

/**
 * Opens (or, on first run, creates) the data directory's SQLCipher database. An existing file is opened
 * with `fileMustExist`, and the key is checked with a read before any pragma that writes, so a wrong
 * password leaves the file exactly as it was.
 */
export function openStore({
  dataDir,
  password,
  migrations = MIGRATIONS,
  nativeBinding,
  fileName = DATABASE_FILE,
  cipher = 'sqlcipher',
}: OpenOptions): Store {
  if (!password) throw new Error('A database password is required.');
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, fileName);
  const existed = existsSync(file);
  // The key is derived once; checked on a copy first: a wrong password must not change a single byte of the data directory.
  const page = existed ? firstPage(file) : null;
  const key = page ? derivedKey(page, password, cipher) : { password };
  if (page && !passwordOpens(page, key, cipher, nativeBinding)) {
    // Written before this file's cipher changed (the ledger was SQLCipher until AEGIS): converted once, if the password opens it.
    const before = cipher !== 'sqlcipher' ? derivedKey(page, password, 'sqlcipher') : null;
    if (!before || !passwordOpens(page, before, 'sqlcipher', nativeBinding)) throw new WrongPasswordError(file);
    convertFromSqlcipher(file, before, cipher, password, nativeBinding);
  }
  const db = new Database(file, { fileMustExist: existed, ...(nativeBinding ? { nativeBinding } : {}) });
  try {
    applyKey(db, key, cipher);
    try {
      db.prepare('SELECT count(*) FROM sqlite_master').get();
    } catch (err) {
      if (isNotADatabase(err)) throw new WrongPasswordError(file);
      throw err;
    }
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('synchronous = NORMAL');
    // 64 MiB of decrypted pages: an organisation's coins and history stay in memory between requests.
    db.pragma('cache_size = -65536');
    db.pragma('busy_timeout = 5000');
    migrate(db, migrations);
    restrictPermissions(file);
  } catch (err) {
    db.close();
    throw err;
  }
  return {
    db,
    file,
    created: !existed,
    close() {
      if (db.open) {
        // Fold the WAL back so the data dir is one file at rest; harmless if another handle still reads.
        try {
          db.pragma('wal_checkpoint(TRUNCATE)');
        } catch {
          /* closing anyway */
        }
        db.close();
      }
    },
  };
}

/**
 * Re-encrypts a SQLCipher file with another cipher, in place. The WAL is folded in first and the rekey runs
 * in rollback-journal mode (SQLite3 Multiple Ciphers rewrites every page in one journaled transaction, and
 * does not rekey in WAL mode); the caller's open turns WAL mode back on.
 */
function convertFromSqlcipher(file: string, key: DbKey, to: Cipher, password: string, nativeBinding?: string): void {
  const db = new Database(file, { fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
  try {
    applyKey(db, key, 'sqlcipher');
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.pragma('journal_mode = DELETE');
    db.pragma(`cipher = '${to}'`);
    db.rekey(Buffer.from(password, 'utf8'));
  } finally {
    db.close();
  }
}

/** The files are encrypted, but still nobody else's business: owner-only, like the key file. */
function restrictPermissions(file: string): void {
  if (process.platform === 'win32') return;
  for (const f of [file, `${file}-wal`, `${file}-shm`]) {
    if (existsSync(f)) chmodSync(f, 0o600);
  }
}
