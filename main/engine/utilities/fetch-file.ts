import { DomainError } from '../../../shared/errors.js';
import { guardedExchange, OutboundError, type OutboundExchange, type Resolver } from '../../net/guarded-http.js';

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

/** How long an upload's fetch may take in all (resolving, connecting, the answer's head and body). */
export const UPLOAD_FETCH_TIMEOUT_MS = 15_000;

/**
 * Fetches the file an http(s) URL names, once, for upload, through the guarded client (`main/net/guarded-http.ts`,
 * SECURITY.md boundary 3): the host is resolved there and every address it resolves to must be public (the
 * classifier reads IPv4-mapped, NAT64 and 6to4 IPv6 and every IPv4 spelling as the address inside), the connection
 * goes to the address that was checked (a second DNS answer cannot point it at this machine), no redirect is
 * followed, and no more than `max` bytes are read within the time limit. The server must not become a way to
 * read this machine or its network onto the chain.
 */
export async function fileFromHttpUrl(
  url: string,
  max: number,
  options: { timeoutMs?: number; resolve?: Resolver } = {},
): Promise<FetchedFile> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new DomainError('VALIDATION_FAILED', 'fileUrl: is not a URL');
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:')
    throw new DomainError('VALIDATION_FAILED', 'fileUrl: must be an http(s) or data: URL');
  let reply: OutboundExchange;
  try {
    reply = await guardedExchange(u.href, {
      method: 'GET',
      expect: 'any',
      limits: { timeoutMs: options.timeoutMs ?? UPLOAD_FETCH_TIMEOUT_MS, maxBytes: max, maxRedirects: 0 },
      // No origin is trusted and no loopback allowed: whoever asks for an upload is a remote party here.
      trusted: () => false,
      resolve: options.resolve,
    });
  } catch (err) {
    if (!(err instanceof OutboundError)) throw err;
    throw uploadFailure(err, u, max);
  }
  if (reply.status < 200 || reply.status > 299) throw new DomainError('FETCH_FAILED', `fileUrl: the server answered ${reply.status}`);
  return { bytes: reply.body, contentType: reply.contentType.split(';')[0].trim().toLowerCase() || null };
}

/** The guarded client's refusal as upload's error (its message is Keystead's own, never the host's text). */
function uploadFailure(err: OutboundError, u: URL, max: number): DomainError {
  switch (err.kind) {
    case 'address':
      return new DomainError(
        'FORBIDDEN',
        `fileUrl: ${u.hostname} is a private or local address, or resolves to one; upload fetches from public hosts only (send the file itself as "file", base64).`,
      );
    case 'url':
      return new DomainError('VALIDATION_FAILED', `fileUrl: ${err.message}`);
    case 'too-large':
      return tooLarge(max);
    case 'redirect':
      return new DomainError(
        'FETCH_FAILED',
        'fileUrl: the server answered with a redirect, which upload does not follow (give the final URL).',
      );
    default:
      return new DomainError('FETCH_FAILED', `fileUrl: the file could not be fetched: ${err.message}`);
  }
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
