/**
 * How an inscription's content may be shown. The content type is whatever the inscriber wrote, so this is an
 * allow-list: these images become an <img> of a blob URL (an SVG loaded as an image runs no script and
 * reaches nothing), these texts become text React escapes, and everything else is only described and
 * offered as a download of opaque bytes. Nothing is ever put into the page as markup.
 */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/svg+xml']);
const TEXT_TYPES = new Set(['text/plain', 'text/markdown', 'application/json', 'application/bsv-20']);

export type ShowAs = 'image' | 'text' | 'download';

/** The media type alone, lower case: "Text/Plain; charset=utf-8" → "text/plain". */
export const mediaTypeOf = (contentType: string) => contentType.split(';')[0].trim().toLowerCase();

export function showAs(contentType: string): ShowAs {
  const media = mediaTypeOf(contentType);
  if (IMAGE_TYPES.has(media)) return 'image';
  if (TEXT_TYPES.has(media)) return 'text';
  return 'download';
}

export function bytesOfBase64(b64: string): Uint8Array<ArrayBuffer> {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** A size in words: "512 bytes", "1.5 KB". */
export function sizeWords(bytes: number): string {
  if (bytes < 1024) return `${bytes.toLocaleString('en-US')} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
