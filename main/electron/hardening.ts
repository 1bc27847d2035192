import path from 'node:path';
import { CONTENT_SECURITY_POLICY } from '../../shared/csp.js';

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
  /** Off in packaged builds: DevTools would let anyone at the keyboard script the unlocked wallet. */
  devTools: boolean;
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

export function hardenedWebPreferences(preload: string, opts: { packaged: boolean } = { packaged: true }): HardenedWebPreferences {
  return {
    preload,
    devTools: !opts.packaged,
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

/** The events and setters of Electron's WebContents the rules attach to (tested with a stand-in). */
export interface GuardableContents {
  on(event: string, listener: (...args: any[]) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
  closeDevTools(): void;
}

/** The parts of Electron's Session the rules attach to. */
export interface GuardableSession {
  on(event: string, listener: (...args: any[]) => void): unknown;
  setPermissionRequestHandler(handler: (webContents: unknown, permission: string, callback: (granted: boolean) => void) => void): void;
  setPermissionCheckHandler(handler: (webContents: unknown, permission: string) => boolean): void;
  setDevicePermissionHandler(handler: (details: unknown) => boolean): void;
  setDisplayMediaRequestHandler(handler: (request: unknown, callback: (streams: Record<string, never>) => void) => void): void;
}

type Preventable = { preventDefault(): void; url?: string };

/**
 * Every web contents (the window and anything it might create) may only show our bundle: navigations
 * of the page or of any frame, redirects, webviews and new windows are refused (a safe https link goes
 * to the system browser instead). In packaged builds DevTools are closed if anything opens them.
 */
export function guardContents(contents: GuardableContents, opts: { packaged: boolean; openExternal: (url: string) => void }): void {
  const denyUnlessOurs = (event: Preventable, url?: string) => {
    if (!isAllowedNavigation(url ?? event.url ?? '')) event.preventDefault();
  };
  contents.on('will-navigate', denyUnlessOurs);
  contents.on('will-redirect', denyUnlessOurs);
  contents.on('will-frame-navigate', (event: Preventable) => denyUnlessOurs(event, event.url));
  contents.on('will-attach-webview', (event: Preventable) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    const decision = windowOpenDecision(url);
    if (decision.openExternally) opts.openExternal(url);
    return { action: decision.action };
  });
  if (opts.packaged) contents.on('devtools-opened', () => contents.closeDevTools());
}

/** Device pickers Chromium may show; each is cancelled (the wallet uses no USB, HID, serial or Bluetooth device). */
export const DEVICE_SELECTION_EVENTS = ['select-hid-device', 'select-serial-port', 'select-usb-device', 'select-bluetooth-device'] as const;

/**
 * The session grants nothing: permission requests and checks are refused (clipboard writing excepted,
 * for copy buttons), device access is refused, device pickers are cancelled, and screen capture is denied.
 */
export function guardSession(session: GuardableSession): void {
  session.setPermissionRequestHandler((_wc, permission, callback) => callback(isPermissionAllowed(permission)));
  session.setPermissionCheckHandler((_wc, permission) => isPermissionAllowed(permission));
  session.setDevicePermissionHandler(() => false);
  session.setDisplayMediaRequestHandler((_request, callback) => callback({}));
  for (const event of DEVICE_SELECTION_EVENTS) {
    session.on(event, (e: Preventable, _list: unknown, callback?: (id: string) => void) => {
      e.preventDefault();
      callback?.('');
    });
  }
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
  if (pathname.endsWith('.map')) return null; // source maps are not shipped to the window
  const relative = pathname === '/' ? 'index.html' : pathname.replace(/^\/+/, '');
  const root = path.resolve(uiDir);
  const full = path.resolve(root, relative);
  if (full !== root && !full.startsWith(root + path.sep)) return null;
  return full;
}

/** CSP sent with every app:// response (the bundle also carries it in a meta tag). */
export const DESKTOP_CSP = CONTENT_SECURITY_POLICY;
