import { HD, Mnemonic } from '@bsv/sdk';
import { pbkdf2Sync } from 'node:crypto';
import { DomainError } from '../../../shared/errors.js';

/**
 * Derivation schemes: the account node a wallet's addresses hang under (`<account>/0/i` receive,
 * `<account>/1/i` change). Chosen at creation so seeds from other wallets restore to the same addresses.
 */
export const DERIVATION_SCHEMES = {
  /** SLIP-44 coin type 236 (Bitcoin SV): the default for new wallets. */
  'bip44-bsv': "m/44'/236'/0'",
  /** Coin type 0: the public service the spec describes, Centbee, and other early BSV wallets. */
  'bip44-btc': "m/44'/0'/0'",
} as const;

export const DEFAULT_DERIVATION = DERIVATION_SCHEMES['bip44-bsv'];

/**
 * Accepts a scheme name or an account path (`m/44'/236'/0'`, `m/0'`, … up to 5 levels, `h` for `'`), and
 * returns the account path; its addresses are `<account>/0/i` (receive) and `<account>/1/i` (change).
 */
export function accountPathFrom(input: string | undefined): string {
  if (!input) return DEFAULT_DERIVATION;
  const named = DERIVATION_SCHEMES[input as keyof typeof DERIVATION_SCHEMES];
  if (named) return named;
  const parts = input.trim().replace(/h/gi, "'").split('/');
  const levels = parts.slice(1).map((p) => /^(\d{1,10})('?)$/.exec(p));
  if (parts[0] === 'm' && levels.length >= 1 && levels.length <= 5 && levels.every((m) => m && Number(m[1]) < 2 ** 31)) {
    return ['m', ...levels.map((m) => `${Number(m![1])}${m![2]}`)].join('/');
  }
  throw new DomainError(
    'VALIDATION_FAILED',
    `derivationPath: must be ${Object.keys(DERIVATION_SCHEMES).join(' or ')}, auto (when importing), or an account path like m/44'/236'/0'`,
  );
}

/** Normalises spacing and case and checks the BIP39 word list and checksum. */
export function checkedMnemonic(phrase: string): string {
  const words = phrase.trim().toLowerCase().split(/\s+/);
  if (![12, 15, 18, 21, 24].includes(words.length)) {
    throw new DomainError('VALIDATION_FAILED', `mnemonicPhrase: must have 12, 15, 18, 21 or 24 words, not ${words.length}`);
  }
  const normalised = words.join(' ');
  let valid: boolean;
  try {
    valid = Mnemonic.fromString(normalised).check();
  } catch {
    valid = false;
  }
  if (!valid) throw new DomainError('VALIDATION_FAILED', 'mnemonicPhrase: is not a valid BIP39 phrase (unknown word or wrong checksum)');
  return normalised;
}

export function newMnemonic(): string {
  return Mnemonic.fromRandom(128).toString();
}

/**
 * BIP39's seed of a checked phrase (no passphrase): PBKDF2-HMAC-SHA512 over 2,048 rounds, by node:crypto.
 * The same bytes as @bsv/sdk's `Mnemonic.toSeed()` (test/unit/wallet-keys.test.ts), whose JavaScript
 * PBKDF2 took about 40 ms of the thread per opened account.
 */
export function seedOf(mnemonic: string): Buffer {
  if (!Mnemonic.fromString(mnemonic).check())
    throw new Error('Mnemonic does not pass the check - was the mnemonic typed incorrectly? Are there extra spaces?');
  return pbkdf2Sync(Buffer.from(mnemonic.normalize('NFKD'), 'utf8'), Buffer.from('mnemonic', 'utf8'), 2048, 64, 'sha512');
}

/** The private account node (needs the seed; used to create wallets and, later, to sign). */
export function accountNode(mnemonic: string, accountPath: string): HD {
  const seed = seedOf(mnemonic);
  try {
    return HD.fromSeed([...seed]).derive(accountPath);
  } finally {
    seed.fill(0);
  }
}
