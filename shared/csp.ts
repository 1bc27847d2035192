/**
 * The Content-Security-Policy of the UI, written once: the desktop's app:// responses, the headless
 * server's UI responses, the Vite dev server and the bundle's own <meta> tag all use it. Mantine sets
 * inline style attributes, hence style-src 'unsafe-inline'. img-src blob: lets the inscription viewer show image
 * bytes it fetched itself as an <img> (object URLs the page made; an SVG there runs no script). Nothing else is relaxed.
 */
const DIRECTIVES: readonly [string, string][] = [
  ['default-src', "'self'"],
  ['script-src', "'self'"],
  ['style-src', "'self' 'unsafe-inline'"],
  ['img-src', "'self' data: blob:"],
  ['font-src', "'self'"],
  ['connect-src', "'self'"],
  ['object-src', "'none'"],
  ['base-uri', "'none'"],
  ['form-action', "'none'"],
  ['frame-ancestors', "'none'"],
];

/** For HTTP headers. */
export const CONTENT_SECURITY_POLICY = DIRECTIVES.map(([k, v]) => `${k} ${v}`).join('; ');

/** For a <meta> tag, where browsers ignore frame-ancestors (the headers carry it). */
export const META_CONTENT_SECURITY_POLICY = DIRECTIVES.filter(([k]) => k !== 'frame-ancestors')
  .map(([k, v]) => `${k} ${v}`)
  .join('; ');
