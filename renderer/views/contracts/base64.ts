/** UTF-8 source → base64, in the browser (the compile and transpile APIs take sources in base64). */
export function toBase64(text: string): string {
  let binary = '';
  for (const b of new TextEncoder().encode(text)) binary += String.fromCharCode(b);
  return btoa(binary);
}
