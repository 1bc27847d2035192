import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { DomainError } from '../../../shared/errors.js';

export interface FetchedFile {
  bytes: Buffer;
  /** The media type the URL gave (a data: URL's, or the server's Content-Type), if any. */
  contentType: string | null;
}

const tooLarge = (max: number) =>
  new DomainError('PAYLOAD_TOO_LARGE', `The file is larger than ${max} bytes, the most upload writes on chain.`);

/** A `data:[<media type>][;base64],<data>` URL's bytes and media type. */
export function fileFromDataUrl(url: string, max: number): FetchedFile {
  const m = /^data:([^,]*?),(.*)$/is.exec(url);
  if (!m) throw new DomainError('VALIDATION_FAILED', 'fileUrl: is not a valid data: URL');
  const params = m[1].split(';').map((s) => s.trim());
  const base64 = params.includes('base64');
  const type = params[0] && params[0].includes('/') ? params[0].toLowerCase() : null;
  let bytes: Buffer;
  try {
    bytes = base64 ? Buffer.from(m[2].replace(/\s+/g, ''), 'base64') : Buffer.from(decodeURIComponent(m[2]), 'utf8');
  } catch {
    throw new DomainError('VALIDATION_FAILED', 'fileUrl: the data: URL does not decode');
  }
  if (bytes.length > max) throw tooLarge(max);
  return { bytes, contentType: type };
}

/** Addresses a server-side fetch must never reach: this machine, private networks, link-local (cloud metadata), multicast. */
export function isPrivateAddress(ip: string): boolean {
  const v = isIP(ip);
  if (v === 4) {
    const [a, b] = ip.split('.').map(Number);
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      a >= 224
    );
  }
  if (v === 6) {
    const s = ip.toLowerCase();
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(s);
    if (mapped) return isPrivateAddress(mapped[1]);
    return s === '::' || s === '::1' || /^f[cd]/.test(s) || /^fe[89ab]/.test(s) || s.startsWith('ff');
  }
  return true;
}

/**
 * Fetches the file an http(s) URL names, once, for upload: public hosts only (the server must not become a
 * way to read this machine or its network onto the chain), no redirects, a time limit, and no more than
 * `max` bytes read.
 */
export async function fileFromHttpUrl(url: string, max: number, timeoutMs = 15_000): Promise<FetchedFile> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new DomainError('VALIDATION_FAILED', 'fileUrl: is not a URL');
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:')
    throw new DomainError('VALIDATION_FAILED', 'fileUrl: must be an http(s) or data: URL');
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host)
    ? [host]
    : await lookup(host, { all: true }).then(
        (r) => r.map((a) => a.address),
        () => [],
      );
  if (!addresses.length) throw new DomainError('FETCH_FAILED', `fileUrl: ${host} does not resolve`);
  if (addresses.some(isPrivateAddress))
    throw new DomainError(
      'FORBIDDEN',
      `fileUrl: ${host} is a private or local address; upload fetches from public hosts only (send the file itself as "file", base64).`,
    );
  let res: Response;
  try {
    res = await fetch(u, { redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    throw new DomainError('FETCH_FAILED', `fileUrl: the file could not be fetched: ${(err as Error).message}`);
  }
  if (!res.ok || !res.body) throw new DomainError('FETCH_FAILED', `fileUrl: the server answered ${res.status}`);
  if (Number(res.headers.get('content-length') ?? 0) > max) throw tooLarge(max);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > max) throw tooLarge(max);
    chunks.push(Buffer.from(chunk));
  }
  return { bytes: Buffer.concat(chunks), contentType: res.headers.get('content-type')?.split(';')[0].trim().toLowerCase() || null };
}

const BY_EXTENSION: Record<string, string> = {
  txt: 'text/plain',
  md: 'text/markdown',
  html: 'text/html',
  htm: 'text/html',
  css: 'text/css',
  csv: 'text/csv',
  json: 'application/json',
  js: 'application/javascript',
  xml: 'application/xml',
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  mp3: 'audio/mpeg',
  mp4: 'video/mp4',
  zip: 'application/zip',
};

/** The media type a file name suggests, or null. */
export function mediaTypeOf(fileName: string | null | undefined): string | null {
  const ext = /\.([a-z0-9]+)$/i.exec(fileName ?? '')?.[1]?.toLowerCase();
  return (ext && BY_EXTENSION[ext]) ?? null;
}
