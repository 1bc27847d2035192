import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import { DATABASE_FILE } from '../store/database.js';
import { UsageError } from './config.js';

export const KEY_FILE = 'keystead.key';

export interface ResolvedPassword {
  password: string;
  source: 'file' | 'env' | 'keyfile' | 'new-keyfile';
}

/**
 * Where the headless host gets the database password: --password-file, then KEYSTEAD_PASSWORD, then a
 * key file in the data dir. Only on a first run with none of them does it create a random key file
 * (0600). A database without any of them is an error, never a reason to make a new key.
 */
export function resolvePassword(dataDir: string, passwordFile: string | undefined, env: NodeJS.ProcessEnv): ResolvedPassword {
  if (passwordFile) {
    let text: string;
    try {
      text = readFileSync(passwordFile, 'utf8');
    } catch (err) {
      throw new UsageError(`Cannot read the password file ${passwordFile}: ${(err as NodeJS.ErrnoException).code ?? 'error'}.`);
    }
    const password = text.replace(/\r?\n$/, '');
    if (!password) throw new UsageError(`The password file ${passwordFile} is empty.`);
    return { password, source: 'file' };
  }
  if (env.KEYSTEAD_PASSWORD) return { password: env.KEYSTEAD_PASSWORD, source: 'env' };

  const keyFile = path.join(dataDir, KEY_FILE);
  if (existsSync(keyFile)) {
    if (process.platform !== 'win32' && (statSync(keyFile).mode & 0o077) !== 0) {
      throw new UsageError(`${keyFile} is readable by other users; run: chmod 600 ${keyFile}`);
    }
    return { password: readFileSync(keyFile, 'utf8').trim(), source: 'keyfile' };
  }
  if (existsSync(path.join(dataDir, DATABASE_FILE))) {
    throw new UsageError(
      `${path.join(dataDir, DATABASE_FILE)} exists but no password was given. Use --password-file <file> or KEYSTEAD_PASSWORD.`,
    );
  }
  const key = randomBytes(32).toString('hex');
  mkdirSync(dataDir, { recursive: true, mode: 0o700 }); // a first run may be the first use of the data dir
  const fd = openSync(keyFile, 'wx', 0o600); // wx: never overwrite a key someone else just wrote
  try {
    writeSync(fd, `${key}\n`);
  } finally {
    closeSync(fd);
  }
  return { password: key, source: 'new-keyfile' };
}
