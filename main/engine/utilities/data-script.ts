import { readPushes } from '../token-templates/script-bytes.js';

/**
 * Data carriers: OP_FALSE OP_RETURN followed by pushes (the unspendable data output every BSV indexer reads),
 * and the B:// file layout (`19HxigV4QyBv3tHpQVcUEQyq1pzZVdoAut <data> <media type> <encoding> [file name]`).
 */

/** The B:// protocol prefix (Bitcom address), pushed first. */
export const B_PREFIX = '19HxigV4QyBv3tHpQVcUEQyq1pzZVdoAut';

/** The push of `bytes` in its shortest form (OP_0 for none; OP_PUSHDATA1/2/4 as the length needs). */
export function pushData(bytes: Buffer): string {
  const n = bytes.length;
  if (n === 0) return '00';
  let head: Buffer;
  if (n <= 0x4b) head = Buffer.from([n]);
  else if (n <= 0xff) head = Buffer.from([0x4c, n]);
  else if (n <= 0xffff) head = Buffer.from([0x4d, n & 0xff, n >> 8]);
  else {
    head = Buffer.alloc(5);
    head[0] = 0x4e;
    head.writeUInt32LE(n, 1);
  }
  return head.toString('hex') + bytes.toString('hex');
}

/** OP_FALSE OP_RETURN <push>…: an output no one can spend, carrying the pushes. */
export function dataScript(pushes: readonly Buffer[]): string {
  return '006a' + pushes.map(pushData).join('');
}

/** A note as bytes: text as UTF-8, anything else as its JSON. */
export function noteBytes(note: unknown): Buffer {
  return Buffer.from(typeof note === 'string' ? note : JSON.stringify(note ?? null), 'utf8');
}

/** The encoding B:// names: text media types are UTF-8, the rest binary. */
export function bEncoding(contentType: string): 'utf-8' | 'binary' {
  return /^text\/|^application\/(json|javascript|xml)|\+json$|\+xml$|charset=utf-?8/i.test(contentType) ? 'utf-8' : 'binary';
}

/** The B:// output for a file: prefix, data, media type, encoding and (when given) the file name. */
export function bScript(data: Buffer, contentType: string, fileName: string | null): string {
  const fields = [Buffer.from(B_PREFIX), data, Buffer.from(contentType), Buffer.from(bEncoding(contentType))];
  if (fileName) fields.push(Buffer.from(fileName, 'utf8'));
  return dataScript(fields);
}

/** The pushes of a data output (after OP_RETURN, or OP_FALSE OP_RETURN), hex; null when it is not one, or not pushes only. */
export function dataPushesOf(scriptHex: string): string[] | null {
  const at = scriptHex.startsWith('006a') ? 2 : scriptHex.startsWith('6a') ? 1 : -1;
  return at < 0 ? null : readPushes(scriptHex, at);
}

/** A push as text when it is printable UTF-8 (tabs and newlines allowed), else null. */
export function printable(hex: string): string | null {
  const buf = Buffer.from(hex, 'hex');
  const text = buf.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(buf)) return null;
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text) ? null : text;
}
