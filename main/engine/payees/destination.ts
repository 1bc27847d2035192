import { PublicKey, Utils } from '@bsv/sdk';
import type { PayeeKindName } from '../../../shared/contracts/payees.js';
import { DomainError } from '../../../shared/errors.js';

/**
 * A payee's destination, checked and put in the one form the book stores and matches on: a paymail
 * lower-case (alias@domain, as payments/uri.ts reads one), a P2PKH address as given (base58 is case-sensitive),
 * an identity key as the lower-case hex of a compressed public key that is a point of the curve.
 */
export interface PayeeDestination {
  kind: PayeeKindName;
  destination: string;
}

// The same paymail shape payments/uri.ts accepts (this capability is below payments, so it cannot import it).
const PAYMAIL = /^[a-z0-9._-]+@[a-z0-9-]+(\.[a-z0-9-]+)*$/i;
const COMPRESSED_KEY = /^0[23][0-9a-f]{64}$/;

export const normalisePaymail = (value: string): string => value.trim().toLowerCase();
export const normaliseIdentityKey = (value: string): string => value.trim().toLowerCase();

export function isPaymail(value: string): boolean {
  return PAYMAIL.test(value);
}

/**
 * A P2PKH address of the version payments accept (payments/uri.ts isAddress): Keystead's wallets use the
 * main-network version on every network (local, testnet, mainnet), and pay only such addresses.
 */
export function isP2pkhAddress(value: string): boolean {
  try {
    const { prefix, data } = Utils.fromBase58Check(value);
    return (prefix as number[])[0] === 0 && (data as number[]).length === 20;
  } catch {
    return false;
  }
}

/** 33 bytes, 02 or 03 then x, and x really on the curve (the SDK would quietly reduce an x beyond the field). */
export function isIdentityKey(hex: string): boolean {
  if (!COMPRESSED_KEY.test(hex)) return false;
  try {
    return PublicKey.fromString(hex).toString() === hex;
  } catch {
    return false;
  }
}

const bad = (msg: string) => new DomainError('VALIDATION_FAILED', `destination: ${msg}`);

/** The kind a destination reads as, when the caller did not say. */
function kindOf(text: string): PayeeKindName {
  if (text.includes('@')) return 'paymail';
  if (/^0[23][0-9a-fA-F]{64}$/.test(text)) return 'identity_key';
  return 'address';
}

/** Checks a destination (of the given kind, or the kind it reads as) and returns it normalised, or a 400 saying why. */
export function parseDestination(text: string, kind?: PayeeKindName): PayeeDestination {
  const value = text.trim();
  if (!value) throw bad('is required');
  const k = kind ?? kindOf(value);
  const shown = value.length > 80 ? `${value.slice(0, 80)}…` : value;
  switch (k) {
    case 'paymail': {
      const paymail = normalisePaymail(value);
      if (!isPaymail(paymail)) throw bad(`"${shown}" is not a paymail (alias@domain)`);
      return { kind: k, destination: paymail };
    }
    case 'address':
      if (!isP2pkhAddress(value)) {
        throw bad(
          kind
            ? `"${shown}" is not a valid P2PKH address`
            : `"${shown}" is not a paymail (alias@domain), a P2PKH address or an identity key (a compressed public key, 66 hex digits)`,
        );
      }
      return { kind: k, destination: value };
    case 'identity_key': {
      const key = normaliseIdentityKey(value);
      if (!isIdentityKey(key))
        throw bad(`"${shown}" is not an identity key (a compressed public key: 66 hex digits starting 02 or 03, on the curve)`);
      return { kind: k, destination: key };
    }
  }
}
