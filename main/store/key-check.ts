import Database from 'better-sqlite3-multiple-ciphers';
import { pbkdf2Sync } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** SQLCipher 4's page size (we never change it): the first page carries the salt and the key check. */
const FIRST_PAGE = 4096;

/** SQLCipher 4's key derivation: PBKDF2-HMAC-SHA512 over the password with the file's 16-byte salt. */
const KDF_ITERATIONS = 256_000;
const SALT_BYTES = 16;

/**
 * How a database file is encrypted. `sqlcipher` (SQLCipher 4: AES-256-CBC with an HMAC-SHA512 per page,
 * PBKDF2 key) for the organisation's database; `aegis` (AEGIS-256 authenticated encryption, Argon2id key)
 * for the local chain's ledger, which commits once per accepted transaction: AEGIS runs on the CPU's AES
 * instructions and authenticates each page without a separate hash, so a commit costs a third as much.
 */
export type Cipher = 'sqlcipher' | 'aegis';

/** The key material for a database: its password (the cipher derives the key), or a SQLCipher key derived already. */
export type DbKey = { password: string } | { raw: Buffer };

export function applyKey(db: Database.Database, key: DbKey, cipher: Cipher = 'sqlcipher'): void {
  db.pragma(`cipher = '${cipher}'`);
  if (cipher === 'sqlcipher') db.pragma('legacy = 4');
  if ('raw' in key) {
    if (cipher !== 'sqlcipher') throw new Error('a raw key is a SQLCipher key');
    db.pragma(`key = "x'${key.raw.toString('hex')}'"`);
  } else db.key(Buffer.from(key.password, 'utf8'));
}

/** The start of an existing database file: its first page (or less, for a short file). */
export function firstPage(file: string): Buffer {
  const page = Buffer.alloc(FIRST_PAGE);
  const fd = openSync(file, 'r');
  try {
    return page.subarray(0, readSync(fd, page, 0, FIRST_PAGE, 0));
  } finally {
    closeSync(fd);
  }
}

/**
 * The raw key of an existing database, derived once the way SQLCipher 4 would (from the salt at the start
 * of its first page). Checking the password and opening the database then cost one derivation, not one
 * each: the derivation is the slow part of a start (about 130 ms per database file on a 2-core machine).
 */
export function derivedKey(page: Buffer, password: string, cipher: Cipher = 'sqlcipher'): DbKey {
  if (cipher !== 'sqlcipher' || page.length < SALT_BYTES) return { password };
  return { raw: pbkdf2Sync(Buffer.from(password, 'utf8'), page.subarray(0, SALT_BYTES), KDF_ITERATIONS, 32, 'sha512') };
}

export function isNotADatabase(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  return code === 'SQLITE_NOTADB' || /not a database/i.test(String((err as Error).message));
}

/**
 * Whether the key opens an existing database (given its `firstPage`), decided without touching its files.
 * Opening the file itself would run WAL recovery (after a crash SQLite rewrites the `-shm` index) before
 * the key is ever checked; so a copy of its first page is opened in a private temporary directory instead. SQLCipher
 * authenticates every page it reads, so a wrong key fails on that page with "not a database"; the right
 * one decrypts it (anything it then cannot find beyond the one page is not about the key).
 */
export function passwordOpens(page: Buffer, key: DbKey, cipher: Cipher, nativeBinding?: string): boolean {
  if (page.length === 0) return true; // an empty file holds nothing a wrong key could damage
  const dir = mkdtempSync(path.join(os.tmpdir(), 'keystead-key-check-'));
  try {
    const probe = path.join(dir, 'probe.db');
    writeFileSync(probe, page, { mode: 0o600 });
    const db = new Database(probe, { fileMustExist: true, readonly: true, ...(nativeBinding ? { nativeBinding } : {}) });
    try {
      applyKey(db, key, cipher);
      db.prepare('SELECT count(*) FROM sqlite_master').get();
      return true;
    } catch (err) {
      return !isNotADatabase(err);
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
