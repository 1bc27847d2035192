import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Time-based one-time passwords (RFC 6238) over HOTP (RFC 4226), with node:crypto only. What every
 * authenticator app expects by default: HMAC-SHA-1, 6 digits, a 30-second step from the Unix epoch.
 * The other algorithms and lengths exist for the RFC's own test vectors.
 */
export type TotpAlgorithm = 'sha1' | 'sha256' | 'sha512';

export interface TotpOptions {
  algorithm: TotpAlgorithm;
  digits: number;
  /** Seconds per step. */
  period: number;
}

export const TOTP_DEFAULTS: TotpOptions = { algorithm: 'sha1', digits: 6, period: 30 };

/** 160 bits, the HMAC-SHA-1 block's natural key length (RFC 4226 §4 asks for at least 128). */
export const SECRET_BYTES = 20;

/** RFC 4226 §5.3: HMAC of the 8-byte big-endian counter, dynamic truncation, modulo 10^digits. */
export function hotp(key: Buffer, counter: number | bigint, digits = 6, algorithm: TotpAlgorithm = 'sha1'): string {
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac(algorithm, key).update(msg).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The step a moment falls in: floor(unix seconds / period). */
export function stepAt(timeMs: number, period = TOTP_DEFAULTS.period): number {
  return Math.floor(timeMs / 1000 / period);
}

export function totp(key: Buffer, timeMs: number, opts: Partial<TotpOptions> = {}): string {
  const o = { ...TOTP_DEFAULTS, ...opts };
  return hotp(key, stepAt(timeMs, o.period), o.digits, o.algorithm);
}

/**
 * The step whose code matches, within `window` steps either side of now (clock drift between the phone
 * and this computer), or null. Steps at or before `afterStep` are refused: a code once accepted cannot be
 * replayed, nor can an older one. Every candidate is compared, in constant time.
 */
export function matchTotp(
  key: Buffer,
  code: string,
  timeMs: number,
  { window = 1, afterStep = -1, ...opts }: Partial<TotpOptions> & { window?: number; afterStep?: number } = {},
): number | null {
  const o = { ...TOTP_DEFAULTS, ...opts };
  if (!new RegExp(`^\\d{${o.digits}}$`).test(code)) return null;
  const now = stepAt(timeMs, o.period);
  const given = Buffer.from(code);
  let found: number | null = null;
  for (let step = now - window; step <= now + window; step++) {
    if (step < 0) continue;
    const same = timingSafeEqual(given, Buffer.from(hotp(key, step, o.digits, o.algorithm)));
    if (same && step > afterStep && found === null) found = step;
  }
  return found;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding: the form authenticator apps take a secret in. */
export function base32Encode(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= 0xff; // only the bits not yet written matter
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

/** Reads base32 as people copy it: any case, spaces, hyphens and padding ignored. Throws on other characters. */
export function base32Decode(text: string): Buffer {
  const clean = text.toUpperCase().replace(/[\s=-]/g, '');
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of clean) {
    const v = ALPHABET.indexOf(ch);
    if (v < 0) throw new Error('not base32');
    value = ((value << 5) | v) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/**
 * The enrolment URI apps scan as a QR code (Google Authenticator's Key URI Format): the label is
 * `issuer:account`, and the issuer is repeated as a parameter for apps that read only that.
 */
export function otpauthUri(args: { issuer: string; account: string; secret: string }, opts: TotpOptions = TOTP_DEFAULTS): string {
  const label = `${encodeURIComponent(args.issuer)}:${encodeURIComponent(args.account)}`;
  const params = new URLSearchParams({
    secret: args.secret,
    issuer: args.issuer,
    algorithm: opts.algorithm.toUpperCase(),
    digits: String(opts.digits),
    period: String(opts.period),
  });
  return `otpauth://totp/${label}?${params.toString().replace(/\+/g, '%20')}`;
}
