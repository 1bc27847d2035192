import { Utils } from '@bsv/sdk';

/**
 * Reads 1Sat Ordinals facts out of one output script: who owns it (a P2PKH part), the `ord` inscription it
 * carries, and the BSV-21 operation that inscription states. Every script is hostile: the parser never throws,
 * reads nothing past the bytes it was given, walks at most MAX_OPS operations, and keeps at most
 * `maxContentBytes` of an inscription's content (its full size is reported).
 *
 * Forms recognised (1Sat Ordinals protocol: the envelope is prepended or appended to the locking script):
 *   P2PKH ‖ envelope [‖ OP_RETURN …]
 *   envelope [‖ OP_CODESEPARATOR] ‖ P2PKH
 *   envelope alone, or with any other locking script (inscription read, owner null)
 * Envelope: OP_FALSE OP_IF "ord" (<field> <value>)* OP_0 <content>* OP_ENDIF, where field 1 is the content type.
 * Anything else (a truncated push, a non-push op inside the envelope, a second P2PKH) is not an envelope or
 * not owned: garbage yields nulls, never an error.
 */

/** A BSV-21 operation as stated by an inscription (its validity is the index's question, not the script's). */
export interface Bsv21Op {
  op: 'deploy+mint' | 'transfer' | 'burn';
  /** Transfer and burn: the token id `<txid>_<vout>`; deploy+mint: null (its id is its own outpoint). */
  id: string | null;
  /** Amount in the smallest unit: a canonical decimal string of an unsigned 64-bit integer. */
  amt: string;
  /** Deploy+mint only. */
  sym: string | null;
  /** Deploy+mint: decimal places 0–18 (0 when absent); transfer/burn: null. */
  dec: number | null;
  /** Deploy+mint only: an outpoint naming the icon inscription, or null. */
  icon: string | null;
}

export interface Inscription {
  /** As inscribed (trimmed, at most 255 characters of printable ASCII); '' when absent or unprintable. */
  contentType: string;
  /** At most `maxContentBytes` of the content. */
  content: Uint8Array;
  /** The content's full size in bytes. */
  size: number;
  /** True when `content` is shorter than `size`. */
  truncated: boolean;
}

export interface OrdOutputFacts {
  /** The P2PKH owner's address (Keystead's addresses are mainnet-form base58), or null when no P2PKH part owns it. */
  owner: string | null;
  /** The owner's public-key hash (hex), or null. */
  ownerPkh: string | null;
  inscription: Inscription | null;
  bsv21: Bsv21Op | null;
}

export interface ParseOptions {
  /** Content bytes kept (64 KiB by default, at most 10 MiB). */
  maxContentBytes?: number;
}

export const BSV20_CONTENT_TYPE = 'application/bsv-20';
export const U64_MAX = 2n ** 64n - 1n;
export const OUTPOINT_RE = /^[0-9a-f]{64}_(0|[1-9]\d{0,9})$/;

/** Scripts larger than this are not read at all (10 MiB of script; a hex string twice that). */
const MAX_SCRIPT_BYTES = 10 * 1024 * 1024;
const MAX_OPS = 10_000;
const MAX_FIELDS = 64;
const DEFAULT_CONTENT_CAP = 64 * 1024;
/** BSV-21 JSON is a few hundred bytes; anything larger is not read as one. */
const MAX_BSV21_JSON = 1024;

const EMPTY: OrdOutputFacts = Object.freeze({ owner: null, ownerPkh: null, inscription: null, bsv21: null }) as OrdOutputFacts;

const OP_0 = 0x00;
const OP_PUSHDATA1 = 0x4c;
const OP_PUSHDATA2 = 0x4d;
const OP_PUSHDATA4 = 0x4e;
const OP_1NEGATE = 0x4f;
const OP_1 = 0x51;
const OP_16 = 0x60;
const OP_IF = 0x63;
const OP_ENDIF = 0x68;
const OP_RETURN = 0x6a;
const OP_CODESEPARATOR = 0xab;

/** One script operation: its opcode and, for a push, where its data lies (never copied while walking). */
interface Op {
  code: number;
  start: number;
  end: number;
  /** Data offsets for pushes; -1 for other ops. */
  dataStart: number;
  dataEnd: number;
}

/** Walks the script's operations; null when a push runs past the end (the script is malformed) or there are too many. */
function walk(bytes: Uint8Array): Op[] | null {
  const ops: Op[] = [];
  let i = 0;
  while (i < bytes.length) {
    if (ops.length >= MAX_OPS) return null;
    const start = i;
    const code = bytes[i++];
    let len = -1;
    if (code >= 0x01 && code <= 0x4b) len = code;
    else if (code === OP_PUSHDATA1) {
      if (i + 1 > bytes.length) return null;
      len = bytes[i];
      i += 1;
    } else if (code === OP_PUSHDATA2) {
      if (i + 2 > bytes.length) return null;
      len = bytes[i] | (bytes[i + 1] << 8);
      i += 2;
    } else if (code === OP_PUSHDATA4) {
      if (i + 4 > bytes.length) return null;
      len = (bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16)) + bytes[i + 3] * 0x1000000;
      i += 4;
    }
    if (len >= 0) {
      if (i + len > bytes.length) return null;
      ops.push({ code, start, end: i + len, dataStart: i, dataEnd: i + len });
      i += len;
    } else if (code === OP_RETURN) {
      // Everything after OP_RETURN is data the interpreter never reads; it need not even parse.
      ops.push({ code, start, end: bytes.length, dataStart: -1, dataEnd: -1 });
      break;
    } else ops.push({ code, start, end: i, dataStart: -1, dataEnd: -1 });
  }
  return ops;
}

const isPush = (op: Op) => op.dataStart >= 0 || op.code === OP_0 || op.code === OP_1NEGATE || (op.code >= OP_1 && op.code <= OP_16);

/** OP_DUP OP_HASH160 <20> OP_EQUALVERIFY OP_CHECKSIG starting at ops[k]: the PKH hex, or null. */
function p2pkhAt(bytes: Uint8Array, ops: Op[], k: number): string | null {
  if (k + 5 > ops.length) return null;
  const [dup, hash, push, eqv, chk] = ops.slice(k, k + 5);
  if (dup.code !== 0x76 || hash.code !== 0xa9 || push.code !== 0x14 || eqv.code !== 0x88 || chk.code !== 0xac) return null;
  return Buffer.from(bytes.subarray(push.dataStart, push.dataEnd)).toString('hex');
}

interface Envelope {
  /** Index of the op after OP_ENDIF. */
  next: number;
  inscription: Inscription;
}

/** An `ord` envelope starting at ops[k] (OP_FALSE OP_IF "ord" …), or null. */
function envelopeAt(bytes: Uint8Array, ops: Op[], k: number, cap: number): Envelope | null {
  if (k + 3 > ops.length) return null;
  const [f, iff, tag] = [ops[k], ops[k + 1], ops[k + 2]];
  if (f.code !== OP_0 || iff.code !== OP_IF || tag.dataStart < 0 || tag.dataEnd - tag.dataStart !== 3) return null;
  if (bytes[tag.dataStart] !== 0x6f || bytes[tag.dataStart + 1] !== 0x72 || bytes[tag.dataStart + 2] !== 0x64) return null;
  let i = k + 3;
  let contentType: string | null = null;
  let fields = 0;
  // Field/value pairs until OP_0 (the body tag). Field numbers are small-number ops or one-byte pushes.
  for (;;) {
    if (i >= ops.length) return null;
    const field = ops[i];
    if (field.code === OP_0) break;
    if (field.code === OP_ENDIF) return { next: i + 1, inscription: inscriptionOf(bytes, contentType, [], cap) };
    if (++fields > MAX_FIELDS || i + 1 >= ops.length) return null;
    const value = ops[i + 1];
    if (!isPush(field) || !isPush(value)) return null;
    const number = fieldNumber(bytes, field);
    if (number === 1 && contentType === null) contentType = value.dataStart >= 0 ? latin1(bytes, value.dataStart, value.dataEnd) : '';
    i += 2;
  }
  // Body: data pushes, concatenated, up to OP_ENDIF.
  const body: Op[] = [];
  for (i += 1; ; i++) {
    if (i >= ops.length) return null;
    const op = ops[i];
    if (op.code === OP_ENDIF) break;
    if (!isPush(op)) return null;
    body.push(op);
  }
  return { next: i + 1, inscription: inscriptionOf(bytes, contentType, body, cap) };
}

function fieldNumber(bytes: Uint8Array, op: Op): number | null {
  if (op.code >= OP_1 && op.code <= OP_16) return op.code - OP_1 + 1;
  if (op.dataStart >= 0 && op.dataEnd - op.dataStart === 1) return bytes[op.dataStart];
  return null;
}

function latin1(bytes: Uint8Array, start: number, end: number): string {
  if (end - start > 255) return '';
  let s = '';
  for (let i = start; i < end; i++) {
    const c = bytes[i];
    // Printable ASCII only: the content type goes into an HTTP header and the UI.
    if (c < 0x20 || c > 0x7e) return '';
    s += String.fromCharCode(c);
  }
  return s.trim();
}

function inscriptionOf(bytes: Uint8Array, contentType: string | null, body: Op[], cap: number): Inscription {
  let size = 0;
  for (const op of body) size += op.dataStart >= 0 ? op.dataEnd - op.dataStart : 0;
  const kept = Math.min(size, cap);
  const content = new Uint8Array(kept);
  let at = 0;
  for (const op of body) {
    if (at >= kept || op.dataStart < 0) continue;
    const take = Math.min(op.dataEnd - op.dataStart, kept - at);
    content.set(bytes.subarray(op.dataStart, op.dataStart + take), at);
    at += take;
  }
  return { contentType: contentType ?? '', content, size, truncated: kept < size };
}

/** Reads one output script. Never throws; unknown or malformed scripts give nulls. */
export function parseOrdOutput(scriptHex: string, options: ParseOptions = {}): OrdOutputFacts {
  try {
    if (typeof scriptHex !== 'string' || scriptHex.length % 2 !== 0 || scriptHex.length > MAX_SCRIPT_BYTES * 2) return EMPTY;
    if (!/^[0-9a-fA-F]*$/.test(scriptHex)) return EMPTY;
    const cap = Math.max(0, Math.min(options.maxContentBytes ?? DEFAULT_CONTENT_CAP, MAX_SCRIPT_BYTES));
    return parseBytes(Buffer.from(scriptHex, 'hex'), cap);
  } catch {
    // Defence in depth: nothing above should throw, and a hostile script must never take a sync down.
    return EMPTY;
  }
}

function parseBytes(bytes: Uint8Array, cap: number): OrdOutputFacts {
  const ops = walk(bytes);
  if (!ops || ops.length === 0) return EMPTY;
  let pkh: string | null = null;
  let envelope: Envelope | null = null;
  const lead = p2pkhAt(bytes, ops, 0);
  if (lead !== null) {
    // P2PKH first: nothing, an envelope, or an envelope then OP_RETURN data may follow.
    if (ops.length === 5) pkh = lead;
    else {
      envelope = envelopeAt(bytes, ops, 5, cap);
      if (envelope && (envelope.next === ops.length || (envelope.next === ops.length - 1 && ops[envelope.next].code === OP_RETURN)))
        pkh = lead;
      else if (!envelope && ops[5].code === OP_RETURN && ops.length === 6) pkh = lead;
    }
  } else {
    envelope = envelopeAt(bytes, ops, 0, cap);
    if (envelope) {
      let k = envelope.next;
      if (k < ops.length && ops[k].code === OP_CODESEPARATOR) k++;
      const tail = p2pkhAt(bytes, ops, k);
      if (tail !== null && k + 5 === ops.length) pkh = tail;
    }
  }
  const inscription = envelope?.inscription ?? null;
  return {
    owner: pkh === null ? null : addressOfPkh(pkh),
    ownerPkh: pkh,
    inscription,
    bsv21: inscription ? bsv21Of(inscription) : null,
  };
}

/** The mainnet-form address of a PKH (the form Keystead's wallets use). */
export function addressOfPkh(pkh: string): string {
  return Utils.toBase58Check(Utils.toArray(pkh, 'hex'), [0x00]);
}

/** A canonical unsigned 64-bit decimal string (no sign, no leading zeros, no exponent), or null. */
export function u64String(value: unknown): string | null {
  if (typeof value !== 'string' || !/^(0|[1-9]\d{0,19})$/.test(value)) return null;
  return BigInt(value) <= U64_MAX ? value : null;
}

/** The media type without parameters, lower case (`Application/BSV-20; charset=utf-8` → `application/bsv-20`). */
export function mediaType(contentType: string): string {
  return contentType.split(';')[0].trim().toLowerCase();
}

/** The BSV-21 operation an inscription states, or null (BSV-20 v1 `tick` operations and anything malformed included). */
export function bsv21Of(inscription: Inscription): Bsv21Op | null {
  if (mediaType(inscription.contentType) !== BSV20_CONTENT_TYPE) return null;
  if (inscription.truncated || inscription.size > MAX_BSV21_JSON) return null;
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(inscription.content));
  } catch {
    return null;
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return null;
  const o = json as Record<string, unknown>;
  if (o.p !== 'bsv-20' || 'tick' in o) return null;
  const amt = u64String(o.amt);
  if (amt === null) return null;
  if (o.op === 'deploy+mint') {
    if (amt === '0' || 'id' in o) return null;
    const dec = decimalsOf(o.dec);
    if (dec === null) return null;
    const sym = o.sym === undefined ? null : typeof o.sym === 'string' && isPrintable(o.sym, 64) ? o.sym : undefined;
    if (sym === undefined) return null;
    const icon = typeof o.icon === 'string' && OUTPOINT_RE.test(o.icon) ? o.icon : null;
    return { op: 'deploy+mint', id: null, amt, sym, dec, icon };
  }
  if (o.op === 'transfer' || o.op === 'burn') {
    if (typeof o.id !== 'string' || !OUTPOINT_RE.test(o.id)) return null;
    return { op: o.op, id: o.id, amt, sym: null, dec: null, icon: null };
  }
  return null;
}

/** `dec`: absent → 0; a digit string or an integer 0–18; anything else invalidates the deploy. */
function decimalsOf(value: unknown): number | null {
  if (value === undefined) return 0;
  const n = typeof value === 'string' && /^\d{1,2}$/.test(value) ? Number(value) : typeof value === 'number' ? value : NaN;
  return Number.isInteger(n) && n >= 0 && n <= 18 ? n : null;
}

function isPrintable(s: string, max: number): boolean {
  // No control characters (including bidi overrides) in a symbol shown to people.
  if (s.length === 0 || s.length > max) return false;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (
      c < 0x20 ||
      (c >= 0x7f && c <= 0x9f) ||
      c === 0x200e ||
      c === 0x200f ||
      (c >= 0x202a && c <= 0x202e) ||
      (c >= 0x2066 && c <= 0x2069)
    )
      return false;
  }
  return true;
}

/** Push data for `buf`, minimal encoding. */
function pushData(buf: Uint8Array): Buffer {
  const n = buf.length;
  if (n === 0) return Buffer.from([OP_0]);
  if (n <= 0x4b) return Buffer.concat([Buffer.from([n]), buf]);
  if (n <= 0xff) return Buffer.concat([Buffer.from([OP_PUSHDATA1, n]), buf]);
  if (n <= 0xffff) return Buffer.concat([Buffer.from([OP_PUSHDATA2, n & 0xff, n >> 8]), buf]);
  const len = Buffer.alloc(4);
  len.writeUInt32LE(n);
  return Buffer.concat([Buffer.from([OP_PUSHDATA4]), len, buf]);
}

/**
 * A P2PKH to `pkh` followed by an inscription envelope, as hex: the form Keystead writes (the 1Sat protocol
 * allows the envelope before or after the locking script; with the P2PKH first, indexes that link an output to
 * the address whose P2PKH starts its script, as the local node does, find it in the address's history).
 */
export function ordP2pkhScript(pkh: string, contentType: string, content: Uint8Array): string {
  if (!/^[0-9a-f]{40}$/.test(pkh)) throw new TypeError('a PKH is 20 bytes of hex');
  const envelope = Buffer.concat([
    Buffer.from([OP_0, OP_IF]),
    pushData(Buffer.from('ord', 'latin1')),
    Buffer.from([OP_1]),
    pushData(Buffer.from(contentType, 'latin1')),
    Buffer.from([OP_0]),
    pushData(content),
    Buffer.from([OP_ENDIF]),
  ]);
  return Buffer.concat([Buffer.from(`76a914${pkh}88ac`, 'hex'), envelope]).toString('hex');
}

/** The JSON of a BSV-21 inscription (key order as the specification's examples). */
export function bsv21Json(op: Pick<Bsv21Op, 'op' | 'amt'> & Partial<Bsv21Op>): Uint8Array {
  const o: Record<string, string> = { p: 'bsv-20', op: op.op };
  if (op.op === 'deploy+mint') {
    if (op.sym) o.sym = op.sym;
    if (op.icon) o.icon = op.icon;
    o.amt = op.amt;
    if (op.dec) o.dec = String(op.dec);
  } else {
    o.id = op.id!;
    o.amt = op.amt;
  }
  return Buffer.from(JSON.stringify(o), 'utf8');
}
