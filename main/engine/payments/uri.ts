import { Utils } from '@bsv/sdk';
import { DomainError } from '../../../shared/errors.js';
import { satoshisOfBsvText, satoshisOfText } from '../../../shared/satoshis.js';

/** A payment URI, taken apart: who is paid, how much, and why. */
export type ParsedUri =
  | { kind: 'paymail'; paymail: string; satoshis: number | null; purpose: string | null; multi: boolean }
  | { kind: 'address'; address: string; satoshis: number | null; purpose: string | null; bip21: boolean };

const PAYMAIL = /^[a-z0-9._-]+@[a-z0-9-]+(\.[a-z0-9-]+)*$/i;

const bad = (msg: string) => new DomainError('VALIDATION_FAILED', `uri: ${msg}`);

export function isAddress(value: string): boolean {
  try {
    const { prefix, data } = Utils.fromBase58Check(value);
    return (prefix as number[])[0] === 0 && (data as number[]).length === 20;
  } catch {
    return false;
  }
}

/** BIP21's amount: "0.0001" BSV → 10000 satoshis, by the one exact reading (at most 8 decimals). */
export function bsvToSatoshis(text: string): number {
  const r = satoshisOfBsvText(text.trim());
  if (r.ok) return r.satoshis;
  throw bad(r.problem === 'too-large' ? 'amount is too large' : `amount "${text}" is not a BSV amount (up to 8 decimals)`);
}

/** payto:'s amount, in satoshis. */
function satoshisParam(text: string | null): number | null {
  if (text === null || text === '') return null;
  const r = satoshisOfText(text);
  if (r.ok) return r.satoshis;
  throw bad(r.problem === 'too-large' ? 'amount is too large' : `amount "${text}" must be a whole number of satoshis`);
}

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw bad(`"${part.slice(0, 80)}" has a malformed %-escape`);
  }
}

function query(rest: string): URLSearchParams {
  const q = rest.indexOf('?');
  return new URLSearchParams(q === -1 ? '' : rest.slice(q + 1));
}

/**
 * Parses `payto:<paymail>?amount=<sats>&purpose=…`, a bare paymail, `bitcoin:<address>?amount=<BSV>`
 * (BIP21) and a plain address. Anything else is refused with the reason.
 */
export function parsePaymentUri(input: string): ParsedUri {
  const uri = input.trim();
  if (!uri) throw bad('is required');
  if (uri.length > 2000) throw bad('is too long');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(uri)?.[1]?.toLowerCase();
  if (scheme === 'payto') {
    const rest = uri.slice('payto:'.length);
    const target = decode(rest.split('?')[0]).toLowerCase();
    if (!PAYMAIL.test(target)) throw bad(`"${target}" is not a paymail (alias@domain)`);
    const q = query(rest);
    return {
      kind: 'paymail',
      paymail: target,
      satoshis: satoshisParam(q.get('amount')),
      purpose: q.get('purpose'),
      multi: q.get('multi') === 'true',
    };
  }
  if (scheme === 'bitcoin' || scheme === 'bitcoinsv' || scheme === 'bsv') {
    const rest = uri.slice(scheme.length + 1);
    const address = rest.split('?')[0];
    if (!isAddress(address)) throw bad(`"${address}" is not a valid address`);
    const q = query(rest);
    const amount = q.get('amount');
    return {
      kind: 'address',
      address,
      satoshis: amount ? bsvToSatoshis(amount) : null,
      purpose: q.get('message') ?? q.get('label'),
      bip21: true,
    };
  }
  if (scheme) throw bad(`the "${scheme}:" scheme is not supported (use payto:, bitcoin:, a paymail or an address)`);
  if (PAYMAIL.test(uri)) return { kind: 'paymail', paymail: uri.toLowerCase(), satoshis: null, purpose: null, multi: false };
  if (isAddress(uri)) return { kind: 'address', address: uri, satoshis: null, purpose: null, bip21: false };
  throw bad(`"${uri.slice(0, 80)}" is not a payment URI, paymail or address`);
}
