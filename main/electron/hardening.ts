import path from 'node:path';

/**
 * The desktop window's security rules as pure functions (no electron import here), so each one is
 * unit-tested under plain Node. app.ts only wires them to Electron's hooks.
 */
export const APP_SCHEME = 'app';
export const APP_HOST = 'keystead';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY = `${APP_ORIGIN}/index.html`;

export interface HardenedWebPreferences {
  preload: string;
  contextIsolation: true;
  sandbox: true;
  nodeIntegration: false;
  nodeIntegrationInWorker: false;
  nodeIntegrationInSubFrames: false;
  webSecurity: true;
  allowRunningInsecureContent: false;
  experimentalFeatures: false;
  webviewTag: false;
  navigateOnDragDrop: false;
  spellcheck: false;
}

export function hardenedWebPreferences(preload: string): HardenedWebPreferences {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    spellcheck: false,
  };
}

function originOf(url: string | undefined | null): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === `${APP_SCHEME}:` ? `${u.protocol}//${u.host}` : u.origin;
  } catch {
    return null;
  }
}

/** The window may only ever show our own bundle. */
export function isAllowedNavigation(url: string): boolean {
  return originOf(url) === APP_ORIGIN;
}

/** IPC is answered only for frames showing our bundle (not an injected iframe or a navigated page). */
export function isTrustedSender(frameUrl: string | undefined | null): boolean {
  return originOf(frameUrl) === APP_ORIGIN;
}

/** Links the user clicks may open in the system browser: https only, no credentials in the URL. */
export function isSafeExternalUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' && u.username === '' && u.password === '' && u.hostname.includes('.');
  } catch {
    return false;
  }
}

/** New windows are always denied; a safe https link is handed to the system browser instead. */
export function windowOpenDecision(url: string): { action: 'deny'; openExternally: boolean } {
  return { action: 'deny', openExternally: isSafeExternalUrl(url) };
}

/** Web permissions (camera, geolocation, notifications, …): only writing to the clipboard, for copy buttons. */
export function isPermissionAllowed(permission: string): boolean {
  return permission === 'clipboard-sanitized-write';
}

/**
 * Maps an app:// request to a file inside the built renderer, or null. Rejects other hosts, traversal
 * (`..`, encoded or not), and absolute or drive paths, so nothing outside the bundle is ever served.
 */
export function resolveAppAsset(uiDir: string, requestUrl: string): string | null {
  let u: URL;
  try {
    u = new URL(requestUrl);
  } catch {
    return null;
  }
  if (u.protocol !== `${APP_SCHEME}:` || u.host !== APP_HOST) return null;
  let pathname: string;
  try {
    pathname = decodeURIComponent(u.pathname);
  } catch {
    return null;
  }
  if (pathname.includes('\0') || pathname.includes('\\')) return null;
  const relative = pathname === '/' ? 'index.html' : pathname.replace(/^\/+/, '');
  const root = path.resolve(uiDir);
  const full = path.resolve(root, relative);
  if (full !== root && !full.startsWith(root + path.sep)) return null;
  return full;
}

/** CSP sent with every app:// response (the bundle also carries it in a meta tag). */
export const DESKTOP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
