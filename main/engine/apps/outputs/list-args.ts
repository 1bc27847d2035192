import type { Args } from '../args.js';
import { invalidParameter } from '../werr.js';

/**
 * The arguments of listActions, listOutputs, relinquishOutput and internalizeAction, checked as @bsv/sdk's
 * validationHelpers (the reference's validateListActionsArgs …) check them: labels, tags and baskets are
 * trimmed and lower-cased, 1 to 300 bytes; limit 1 to 10,000 (default 10); a bad one is the app's mistake
 * (WERR_INVALID_PARAMETER naming it).
 */

const utf8Bytes = (s: string) => Buffer.byteLength(s, 'utf8');

function optionalBool(args: Args, name: string): boolean {
  const v = args[name];
  if (v === undefined || v === null) return false;
  if (typeof v !== 'boolean') throw invalidParameter(name, 'true or false');
  return v;
}

/** A basket, label or tag: trimmed, lower case, 1 to 300 bytes. */
export function identifier(v: unknown, name: string): string {
  if (typeof v !== 'string') throw invalidParameter(name, 'a string of 1 to 300 bytes');
  const s = v.trim().toLowerCase();
  const n = utf8Bytes(s);
  if (n < 1) throw invalidParameter(name, 'at least 1 length.');
  if (n > 300) throw invalidParameter(name, 'no more than 300 length.');
  return s;
}

function identifiers(args: Args, name: string, each: string): string[] {
  const v = args[name];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw invalidParameter(name, `an array of ${each}s`);
  if (v.length > 10_000) throw invalidParameter(name, `no more than 10000 ${each}s`);
  return [...new Set(v.map((x) => identifier(x, each)))];
}

function queryMode(args: Args, name: string): 'any' | 'all' {
  const v = args[name];
  if (v === undefined || v === null || v === 'any') return 'any';
  if (v === 'all') return 'all';
  throw invalidParameter(name, "undefined, 'any', or 'all'");
}

function integer(args: Args, name: string, fallback: number, min?: number, max?: number): number {
  const v = args[name];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw invalidParameter(name, 'an integer');
  if (min !== undefined && v < min) throw invalidParameter(name, `at least ${min}`);
  if (max !== undefined && v > max) throw invalidParameter(name, `no more than ${max}`);
  return v;
}

export const MAX_LIST_LIMIT = 10_000;

export interface ListActionsArgs {
  labels: string[];
  labelQueryMode: 'any' | 'all';
  includeLabels: boolean;
  includeInputs: boolean;
  includeInputSourceLockingScripts: boolean;
  includeInputUnlockingScripts: boolean;
  includeOutputs: boolean;
  includeOutputLockingScripts: boolean;
  limit: number;
  offset: number;
}

export function listActionsArgs(args: Args): ListActionsArgs {
  return {
    labels: identifiers(args, 'labels', 'label'),
    labelQueryMode: queryMode(args, 'labelQueryMode'),
    includeLabels: optionalBool(args, 'includeLabels'),
    includeInputs: optionalBool(args, 'includeInputs'),
    includeInputSourceLockingScripts: optionalBool(args, 'includeInputSourceLockingScripts'),
    includeInputUnlockingScripts: optionalBool(args, 'includeInputUnlockingScripts'),
    includeOutputs: optionalBool(args, 'includeOutputs'),
    includeOutputLockingScripts: optionalBool(args, 'includeOutputLockingScripts'),
    limit: integer(args, 'limit', 10, 1, MAX_LIST_LIMIT),
    offset: integer(args, 'offset', 0, 0),
  };
}

export interface ListOutputsArgs {
  basket: string;
  tags: string[];
  tagQueryMode: 'any' | 'all';
  includeLockingScripts: boolean;
  includeTransactions: boolean;
  includeCustomInstructions: boolean;
  includeTags: boolean;
  includeLabels: boolean;
  limit: number;
  /** Below zero: from the newest (-1 is the newest), as the reference allows. */
  offset: number;
}

export function listOutputsArgs(args: Args): ListOutputsArgs {
  const include = args.include;
  if (include !== undefined && include !== null && include !== 'locking scripts' && include !== 'entire transactions')
    throw invalidParameter('include', "'locking scripts' or 'entire transactions'");
  return {
    basket: identifier(args.basket, 'basket'),
    tags: identifiers(args, 'tags', 'tag'),
    tagQueryMode: queryMode(args, 'tagQueryMode'),
    includeLockingScripts: include === 'locking scripts',
    includeTransactions: include === 'entire transactions',
    includeCustomInstructions: optionalBool(args, 'includeCustomInstructions'),
    includeTags: optionalBool(args, 'includeTags'),
    includeLabels: optionalBool(args, 'includeLabels'),
    limit: integer(args, 'limit', 10, 1, MAX_LIST_LIMIT),
    offset: integer(args, 'offset', 0),
  };
}

const TXID = /^[0-9a-f]{64}$/;

/** An outpoint `txid.vout`. */
export function outpoint(v: unknown, name: string): { txid: string; vout: number } {
  const parts = typeof v === 'string' ? v.split('.') : [];
  const vout = Number(parts[1]);
  if (parts.length !== 2 || !TXID.test(parts[0].toLowerCase()) || !/^\d+$/.test(parts[1]) || !Number.isSafeInteger(vout))
    throw invalidParameter(name, "txid as hex string and numeric output index joined with '.'");
  return { txid: parts[0].toLowerCase(), vout };
}

export function relinquishOutputArgs(args: Args): { basket: string; txid: string; vout: number } {
  return { basket: identifier(args.basket, 'basket'), ...outpoint(args.output, 'output') };
}

export interface WalletPayment {
  derivationPrefix: string;
  derivationSuffix: string;
  senderIdentityKey: string;
}

export interface BasketInsertion {
  basket: string;
  customInstructions: string | null;
  tags: string[];
}

export type InternalizeOutput =
  | { outputIndex: number; protocol: 'wallet payment'; paymentRemittance: WalletPayment }
  | { outputIndex: number; protocol: 'basket insertion'; insertionRemittance: BasketInsertion };

export interface InternalizeArgs {
  tx: number[];
  outputs: InternalizeOutput[];
  description: string;
  labels: string[];
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function base64(v: unknown, name: string): string {
  if (typeof v !== 'string' || v.length === 0 || v.length > 1000 || !BASE64.test(v)) throw invalidParameter(name, 'a base64 string');
  return v;
}

function remittance(v: unknown): WalletPayment {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw invalidParameter('paymentRemittance', 'given for a wallet payment');
  const r = v as Record<string, unknown>;
  const key = r.senderIdentityKey;
  if (typeof key !== 'string' || !/^0[23][0-9a-fA-F]{64}$/.test(key))
    throw invalidParameter('senderIdentityKey', 'a compressed public key in hex (66 characters)');
  return {
    derivationPrefix: base64(r.derivationPrefix, 'derivationPrefix'),
    derivationSuffix: base64(r.derivationSuffix, 'derivationSuffix'),
    senderIdentityKey: key.toLowerCase(),
  };
}

function insertion(v: unknown): BasketInsertion {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw invalidParameter('insertionRemittance', 'given for a basket insertion');
  const r = v as Record<string, unknown>;
  const ci = r.customInstructions;
  if (ci !== undefined && ci !== null && (typeof ci !== 'string' || utf8Bytes(ci) > 1000))
    throw invalidParameter('customInstructions', 'a string of at most 1000 bytes');
  return {
    basket: identifier(r.basket, 'basket'),
    customInstructions: typeof ci === 'string' ? ci : null,
    tags: identifiers(r, 'tags', 'tag'),
  };
}

/**
 * At most this many outputs in one internalization: each is a key derivation and, on the network, a question
 * to the chain's provider (is it unspent?); an app with more calls again.
 */
export const MAX_INTERNALIZE_OUTPUTS = 100;

export function internalizeArgs(args: Args): InternalizeArgs {
  const tx = args.tx;
  if (!Array.isArray(tx) || tx.length < 4 || !tx.every((b) => Number.isInteger(b) && b >= 0 && b <= 255))
    throw invalidParameter('tx', 'an Atomic BEEF (BRC-95) as an array of bytes');
  const description = args.description;
  if (typeof description !== 'string' || utf8Bytes(description) < 5 || utf8Bytes(description) > 2000)
    throw invalidParameter('description', 'a string of 5 to 2000 bytes');
  const outs = args.outputs;
  if (!Array.isArray(outs) || outs.length < 1) throw invalidParameter('outputs', 'at least one output to internalize from the transaction');
  if (outs.length > MAX_INTERNALIZE_OUTPUTS) throw invalidParameter('outputs', `no more than ${MAX_INTERNALIZE_OUTPUTS} outputs`);
  const seen = new Set<number>();
  const outputs = outs.map((o): InternalizeOutput => {
    if (typeof o !== 'object' || o === null) throw invalidParameter('outputs', 'an array of objects');
    const r = o as Record<string, unknown>;
    const outputIndex = r.outputIndex;
    if (typeof outputIndex !== 'number' || !Number.isSafeInteger(outputIndex) || outputIndex < 0)
      throw invalidParameter('outputIndex', 'an integer, 0 or more');
    if (seen.has(outputIndex)) throw invalidParameter('outputIndex', `named once; ${outputIndex} is named twice`);
    seen.add(outputIndex);
    if (r.protocol === 'wallet payment') return { outputIndex, protocol: r.protocol, paymentRemittance: remittance(r.paymentRemittance) };
    if (r.protocol === 'basket insertion')
      return { outputIndex, protocol: r.protocol, insertionRemittance: insertion(r.insertionRemittance) };
    throw invalidParameter('protocol', "'basket insertion' or 'wallet payment'");
  });
  return { tx: tx as number[], outputs, description, labels: identifiers(args, 'labels', 'label') };
}
