import type { SecurityLevel, WalletCounterparty, WalletProtocol } from '@bsv/sdk';
import { invalidParameter } from './werr.js';

/**
 * Checks of BRC-100 arguments as the reference wallets make them (WERR_INVALID_PARAMETER naming the
 * parameter), for the methods this listener serves: a bad argument is the app's mistake, answered 400.
 */
export type Args = Record<string, unknown>;

export function argsObject(body: unknown): Args {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw invalidParameter('args', 'an object');
  return body as Args;
}

const PUBKEY = /^0[23][0-9a-fA-F]{64}$/;

export function protocolID(args: Args, name = 'protocolID'): WalletProtocol {
  const p = args[name];
  if (!Array.isArray(p) || p.length !== 2) throw invalidParameter(name, 'an array of a security level (0, 1 or 2) and a protocol name');
  const [level, proto] = p as unknown[];
  if (level !== 0 && level !== 1 && level !== 2) throw invalidParameter(name, 'an array whose security level is 0, 1 or 2');
  if (typeof proto !== 'string') throw invalidParameter(name, 'an array whose protocol name is a string');
  const n = proto.toLowerCase().trim();
  // BRC-43: 5 to 400 characters of lower-case letters, digits and single spaces, not ending in " protocol".
  if (n.length < 5 || n.length > 400 || !/^[a-z0-9 ]+$/.test(n) || n.includes('  ') || n.endsWith(' protocol')) {
    throw invalidParameter(name, 'an array whose protocol name is 5 to 400 letters, digits and single spaces, not ending in " protocol"');
  }
  return [level as SecurityLevel, proto];
}

export function keyID(args: Args): string {
  const k = args.keyID;
  if (typeof k !== 'string' || k.length < 1 || k.length > 800) throw invalidParameter('keyID', 'a string of 1 to 800 characters');
  return k;
}

export function publicKeyHex(args: Args, name: string): string {
  const v = args[name];
  if (typeof v !== 'string' || !PUBKEY.test(v)) throw invalidParameter(name, 'a compressed public key in hex (66 characters)');
  return v;
}

export function counterparty(args: Args, fallback: 'self' | 'anyone'): WalletCounterparty {
  const c = args.counterparty;
  if (c === undefined || c === null) return fallback;
  if (c === 'self' || c === 'anyone') return c;
  if (typeof c === 'string' && PUBKEY.test(c)) return c;
  throw invalidParameter('counterparty', '"self", "anyone" or a compressed public key in hex');
}

export function bytes(args: Args, name: string, length?: number): number[] {
  const v = args[name];
  if (!Array.isArray(v) || !v.every((b) => Number.isInteger(b) && b >= 0 && b <= 255) || (length !== undefined && v.length !== length)) {
    throw invalidParameter(name, length === undefined ? 'an array of bytes (integers 0 to 255)' : `an array of ${length} bytes`);
  }
  return v as number[];
}

export function optionalBytes(args: Args, name: string, length?: number): number[] | undefined {
  return args[name] === undefined || args[name] === null ? undefined : bytes(args, name, length);
}

export function optionalBoolean(args: Args, name: string): boolean | undefined {
  const v = args[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw invalidParameter(name, 'true or false');
  return v;
}

export function height(args: Args): number {
  const h = args.height;
  if (typeof h !== 'number' || !Number.isInteger(h) || h < 0) throw invalidParameter('height', 'a whole number, 0 or more');
  return h;
}

/** Why an app asks for the privileged keys: optional, 5 to 50 characters when given, as the reference checks it. */
export function privilegedReason(args: Args): string | undefined {
  const r = args.privilegedReason;
  if (r === undefined || r === null) return undefined;
  if (typeof r !== 'string' || r.trim().length < 5 || r.length > 50)
    throw invalidParameter('privilegedReason', 'a string of 5 to 50 characters saying why the privileged keys are needed');
  return r.trim();
}
