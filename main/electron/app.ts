import { app, BrowserWindow, ipcMain, net, protocol, session, shell } from 'electron';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseHostArgs } from '../host/config.js';
import { desktopEnv } from '../host/desktop-brc100.js';
import { appVersion, projectRoot } from '../host/version.js';
import { Vault } from '../host/vault.js';
import {
  APP_ENTRY,
  APP_SCHEME,
  DESKTOP_CSP,
  guardContents,
  guardSession,
  hardenedWebPreferences,
  resolveAppAsset,
  type GuardableSession,
} from './hardening.js';
import { registerIpc } from './ipc.js';
import { createLogger } from '../log/logger.js';

/**
 * The desktop host: Electron glue only. The engine and local API live in the Vault (plain Node); this
 * file wires the hardening rules to Electron's hooks, serves the bundle over app://, and quits cleanly.
 */
export function runDesktop(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  process.umask(0o077);
  const root = projectRoot();
  const uiDir = path.join(root, 'dist', 'renderer');
  // The same settings as the headless host, read from the environment (KEYSTEAD_*); the BRC-100 listener on by default.
  const cfg = parseHostArgs([], desktopEnv({ KEYSTEAD_DATA_DIR: app.getPath('userData'), ...process.env }))!;
  const vault = new Vault({
    ...cfg,
    network: cfg.chain.network,
    version: appVersion(),
    uiDir,
    // Set by scripts/start-desktop.mjs: the SQLCipher module built for Electron's ABI, kept apart from Node's.
    nativeBinding: process.env.KEYSTEAD_SQLITE_BINDING || undefined,
    logger: createLogger({ level: cfg.logLevel }),
  });

  app.on('web-contents-created', (_e, contents) => {
    guardContents(contents, { packaged: app.isPackaged, openExternal: (url) => void shell.openExternal(url) });
  });

  app.whenReady().then(() => {
    guardSession(session.defaultSession as unknown as GuardableSession);
    protocol.handle(APP_SCHEME, async (request) => {
      const file = resolveAppAsset(uiDir, request.url);
      if (!file) return new Response('Not found', { status: 404 });
      const response = await net.fetch(pathToFileURL(file).toString());
      const headers = new Headers(response.headers);
      headers.set('Content-Security-Policy', DESKTOP_CSP);
      headers.set('X-Content-Type-Options', 'nosniff');
      return new Response(response.body, { status: response.status, headers });
    });
    registerIpc(ipcMain, vault);
    createWindow(root, app.isPackaged);
  });

  app.on('second-instance', () => BrowserWindow.getAllWindows()[0]?.focus());
  app.on('window-all-closed', () => app.quit());

  let quitting = false;
  app.on('before-quit', (event) => {
    if (quitting) return;
    event.preventDefault();
    quitting = true;
    vault.close().finally(() => app.quit());
  });
}

function createWindow(root: string, packaged: boolean): void {
  const win = new BrowserWindow({
    width: 1200,
    height: 800,
    minWidth: 900,
    minHeight: 600,
    title: 'Keystead',
    show: false,
    icon: path.join(root, 'assets', 'icon.png'),
    webPreferences: hardenedWebPreferences(path.join(root, 'dist', 'preload', 'index.cjs'), { packaged }),
  });
  win.once('ready-to-show', () => win.show());
  void win.loadURL(APP_ENTRY);
}
