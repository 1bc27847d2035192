import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, scrypt } from 'node:crypto';
import { DomainError } from '../../../shared/errors.js';

/**
 * Seeds are sealed per wallet with AES-256-GCM, on top of the database's own encryption: under a key
 * derived (HKDF) from the data dir's sealing key for standard/escrow/shared wallets, and under a key
 * derived (scrypt) from the wallet password for secure ones. The wallet's identity is the associated
 * data, so a sealed seed moved onto another wallet does not open.
 */
interface Sealed {
  v: 1;
  kdf: 'vault' | 'scrypt';
  salt: string;
  iv: string;
  tag: string;
  ct: string;
}

const SCRYPT = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

function scryptKey(password: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, 32, SCRYPT, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

function vaultKey(sealingKey: Buffer, salt: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', sealingKey, salt, 'keystead wallet seed', 32));
}

function encrypt(key: Buffer, plaintext: string, aad: string, kdf: Sealed['kdf'], salt: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad));
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const sealed: Sealed = {
    v: 1,
    kdf,
    salt: salt.toString('base64'),
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    ct: ct.toString('base64'),
  };
  return JSON.stringify(sealed);
}

export async function seal(plaintext: string, aad: string, keys: { sealingKey: Buffer; walletPassword?: string }): Promise<string> {
  const salt = randomBytes(16);
  if (keys.walletPassword !== undefined) return encrypt(await scryptKey(keys.walletPassword, salt), plaintext, aad, 'scrypt', salt);
  return encrypt(vaultKey(keys.sealingKey, salt), plaintext, aad, 'vault', salt);
}

export function needsPassword(sealed: string): boolean {
  return (JSON.parse(sealed) as Sealed).kdf === 'scrypt';
}

export async function unseal(sealedText: string, aad: string, keys: { sealingKey: Buffer; walletPassword?: string }): Promise<string> {
  const sealed = JSON.parse(sealedText) as Sealed;
  const salt = Buffer.from(sealed.salt, 'base64');
  let key: Buffer;
  if (sealed.kdf === 'scrypt') {
    if (!keys.walletPassword) throw new DomainError('WALLET_LOCKED', 'This is a secure wallet: send its walletPassword.');
    key = await scryptKey(keys.walletPassword, salt);
  } else {
    key = vaultKey(keys.sealingKey, salt);
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
    decipher.setAAD(Buffer.from(aad));
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(sealed.ct, 'base64')), decipher.final()]).toString('utf8');
  } catch {
    if (sealed.kdf === 'scrypt') throw new DomainError('WALLET_LOCKED', 'The walletPassword is not correct.');
    throw new Error('wallet seed failed to unseal with the data dir key'); // corruption: a bug, not user error
  }
}
