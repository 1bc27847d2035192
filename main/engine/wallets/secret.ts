import { HD, Utils } from '@bsv/sdk';
import { createHmac } from 'node:crypto';
import { DomainError } from '../../../shared/errors.js';
import { seedOf } from './keys.js';

/**
 * What a wallet's sealed secret holds: a BIP39 recovery phrase (`{mnemonic}`, most wallets), or a BRC-100
 * root private key (`{rootKey}`, 64 hex digits) for a wallet created from one. Every place that opens a
 * sealed secret reads it through `walletSecretOf`, so both forms open everywhere.
 */
export type WalletSecret = { mnemonic: string; rootKey?: undefined } | { rootKey: string; mnemonic?: undefined };

export function walletSecretOf(opened: string): WalletSecret {
  const parsed = JSON.parse(opened) as { mnemonic?: unknown; rootKey?: unknown };
  if (typeof parsed.rootKey === 'string') return { rootKey: parsed.rootKey };
  if (typeof parsed.mnemonic === 'string') return { mnemonic: parsed.mnemonic };
  throw new Error('a sealed wallet secret holds neither a phrase nor a root key'); // corruption: a bug, not user error
}

/** The plaintext sealed for a wallet (seal.ts). */
export function sealedText(secret: WalletSecret): string {
  return JSON.stringify(secret.rootKey !== undefined ? { rootKey: secret.rootKey } : { mnemonic: secret.mnemonic });
}

/** The curve order n: a private key is 1 … n - 1. */
const N = BigInt('0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141');

const ROOT_KEY_FORM = 'rootKey: must be a private key, as 64 hex digits or in WIF (base58, starting with 5, K, L, c or 9)';

/**
 * Checks a root private key given as 64 hex digits or as WIF (mainnet 0x80 or testnet 0xef, compressed or
 * not), and returns it as 64 lowercase hex digits. Out-of-range values (0, ≥ n) are refused, never reduced:
 * a reduced key would be another wallet than the one the user meant.
 */
export function checkedRootKey(input: string): string {
  const text = input.trim();
  let hex: string;
  if (/^[0-9a-fA-F]{64}$/.test(text)) {
    hex = text.toLowerCase();
  } else if (/^[1-9A-HJ-NP-Za-km-z]{51,52}$/.test(text)) {
    let decoded: { data: number[]; prefix: number[] };
    try {
      decoded = Utils.fromBase58Check(text) as { data: number[]; prefix: number[] };
    } catch {
      throw new DomainError('VALIDATION_FAILED', 'rootKey: is not valid WIF (its checksum does not match)');
    }
    const { data, prefix } = decoded;
    const compressed = data.length === 33 && data[32] === 1;
    if (![0x80, 0xef].includes(prefix[0]) || !(data.length === 32 || compressed)) {
      throw new DomainError('VALIDATION_FAILED', 'rootKey: is base58 but not a WIF private key (wrong version byte or length)');
    }
    hex = Buffer.from(data.slice(0, 32)).toString('hex');
  } else {
    throw new DomainError('VALIDATION_FAILED', ROOT_KEY_FORM);
  }
  const k = BigInt(`0x${hex}`);
  if (k === 0n || k >= N)
    throw new DomainError('VALIDATION_FAILED', 'rootKey: is out of range (must be between 1 and the curve order n - 1)');
  return hex;
}

/** The domain string that keys the HMAC of a root-key wallet's HD seed (see `rootKeySeed`). */
export const ROOT_KEY_SEED_DOMAIN = 'keystead/brc100-root-key/hd-seed/v1';

/**
 * The 64-byte HD seed of a wallet created from a root key: HMAC-SHA512 keyed with `ROOT_KEY_SEED_DOMAIN`
 * over the key's 32 bytes. Its BIP32 master (HMAC-SHA512 "Bitcoin seed") and account path follow as for any
 * BIP39 seed, so the same key always gives the same addresses. The HMAC is one-way: the addresses' keys
 * never reveal the root key, and the root key alone is the backup.
 */
export function rootKeySeed(rootKeyHex: string): Buffer {
  const key = Buffer.from(rootKeyHex, 'hex');
  try {
    return createHmac('sha512', ROOT_KEY_SEED_DOMAIN).update(key).digest();
  } finally {
    key.fill(0);
  }
}

/** The HD seed behind a wallet's addresses, either form. */
export function seedOfSecret(secret: WalletSecret): Buffer {
  return secret.rootKey !== undefined ? rootKeySeed(secret.rootKey) : seedOf(secret.mnemonic);
}

/** The private account node of either form (to create a wallet). */
export function accountNodeOf(secret: WalletSecret, accountPath: string): HD {
  const seed = seedOfSecret(secret);
  try {
    return HD.fromSeed([...seed]).derive(accountPath);
  } finally {
    seed.fill(0);
  }
}
