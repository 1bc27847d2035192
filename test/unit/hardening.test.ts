import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { EventEmitter } from 'node:events';
import {
  APP_ENTRY,
  DESKTOP_CSP,
  DEVICE_SELECTION_EVENTS,
  guardContents,
  guardSession,
  hardenedWebPreferences,
  isAllowedNavigation,
  isPermissionAllowed,
  isSafeExternalUrl,
  isTrustedSender,
  resolveAppAsset,
  windowOpenDecision,
} from '../../main/electron/hardening.js';

function preventable(url?: string) {
  return {
    url,
    prevented: false,
    preventDefault() {
      this.prevented = true;
    },
  };
}

function fakeContents() {
  const emitter = new EventEmitter();
  return Object.assign(emitter, {
    devToolsClosed: 0,
    openHandler: null as ((d: { url: string }) => { action: 'deny' }) | null,
    setWindowOpenHandler(handler: (d: { url: string }) => { action: 'deny' }) {
      this.openHandler = handler;
    },
    closeDevTools() {
      this.devToolsClosed += 1;
    },
  });
}

function fakeSession() {
  const handlers: {
    request?: (wc: unknown, permission: string, cb: (g: boolean) => void) => void;
    check?: (wc: unknown, permission: string) => boolean;
    device?: (d: unknown) => boolean;
    display?: (r: unknown, cb: (s: Record<string, never>) => void) => void;
  } = {};
  return Object.assign(new EventEmitter(), {
    handlers,
    setPermissionRequestHandler: (h: typeof handlers.request) => (handlers.request = h),
    setPermissionCheckHandler: (h: typeof handlers.check) => (handlers.check = h),
    setDevicePermissionHandler: (h: typeof handlers.device) => (handlers.device = h),
    setDisplayMediaRequestHandler: (h: typeof handlers.display) => (handlers.display = h),
  });
}

describe('desktop window hardening', () => {
  it('isolates and sandboxes the renderer', () => {
    const prefs = hardenedWebPreferences('/app/preload.cjs');
    assert.equal(prefs.contextIsolation, true);
    assert.equal(prefs.sandbox, true);
    assert.equal(prefs.nodeIntegration, false);
    assert.equal(prefs.nodeIntegrationInWorker, false);
    assert.equal(prefs.nodeIntegrationInSubFrames, false);
    assert.equal(prefs.webSecurity, true);
    assert.equal(prefs.allowRunningInsecureContent, false);
    assert.equal(prefs.experimentalFeatures, false);
    assert.equal(prefs.webviewTag, false);
    assert.equal(prefs.preload, '/app/preload.cjs');
  });

  it('allows navigation only within the app bundle', () => {
    assert.ok(isAllowedNavigation(APP_ENTRY));
    assert.ok(isAllowedNavigation('app://keystead/index.html#/overview'));
    for (const u of [
      'https://evil.com',
      'app://evil/index.html',
      'app://keystead.evil.com/',
      'file:///etc/passwd',
      'http://127.0.0.1:7480/',
      'javascript:alert(1)',
      'not a url',
    ]) {
      assert.equal(isAllowedNavigation(u), false, u);
    }
  });

  it('answers IPC only from frames showing the app bundle', () => {
    assert.ok(isTrustedSender('app://keystead/index.html'));
    for (const u of [undefined, null, '', 'https://evil.com/', 'app://other/', 'file:///index.html', 'about:blank'])
      assert.equal(isTrustedSender(u), false, String(u));
  });

  it('denies every new window and opens only safe https links externally', () => {
    assert.deepEqual(windowOpenDecision('https://whatsonchain.com/tx/ab'), { action: 'deny', openExternally: true });
    for (const u of [
      'http://example.com',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://host/share',
      'https://user:pw@example.com',
      'https://localhost',
    ]) {
      assert.deepEqual(windowOpenDecision(u), { action: 'deny', openExternally: false }, u);
      assert.equal(isSafeExternalUrl(u), false, u);
    }
  });

  it('grants no web permission but clipboard writes', () => {
    assert.ok(isPermissionAllowed('clipboard-sanitized-write'));
    for (const p of ['media', 'geolocation', 'notifications', 'openExternal', 'hid', 'clipboard-read'])
      assert.equal(isPermissionAllowed(p), false, p);
  });

  it('serves only files inside the bundle over app://', () => {
    const ui = path.resolve('/srv/ui');
    assert.equal(resolveAppAsset(ui, 'app://keystead/'), path.join(ui, 'index.html'));
    assert.equal(resolveAppAsset(ui, 'app://keystead/assets/x.js'), path.join(ui, 'assets', 'x.js'));
    for (const u of [
      'app://keystead/../secret',
      'app://keystead/%2e%2e/secret',
      'app://keystead/assets/%2e%2e%2f%2e%2e%2fsecret',
      'app://keystead/..%5csecret',
      'app://keystead/%00',
      'app://other/index.html',
      'file:///etc/passwd',
      'app://keystead/%E0%A4%A',
    ]) {
      const r = resolveAppAsset(ui, u);
      assert.ok(r === null || r.startsWith(ui + path.sep), `${u} -> ${r}`);
    }
    assert.equal(resolveAppAsset(ui, 'app://other/index.html'), null);
  });

  it('never serves source maps over app://', () => {
    assert.equal(resolveAppAsset(path.resolve('/srv/ui'), 'app://keystead/assets/index-abc.js.map'), null);
  });

  it('turns DevTools off in packaged builds, and closes them if anything opens them', () => {
    assert.equal(hardenedWebPreferences('/p', { packaged: true }).devTools, false);
    assert.equal(hardenedWebPreferences('/p', { packaged: false }).devTools, true);
    const packaged = fakeContents();
    guardContents(packaged, { packaged: true, openExternal: () => undefined });
    packaged.emit('devtools-opened');
    assert.equal(packaged.devToolsClosed, 1);
    const dev = fakeContents();
    guardContents(dev, { packaged: false, openExternal: () => undefined });
    dev.emit('devtools-opened');
    assert.equal(dev.devToolsClosed, 0);
  });

  it('wires every navigation hook: page, redirect, any frame (will-frame-navigate), webviews and new windows', () => {
    const opened: string[] = [];
    const contents = fakeContents();
    guardContents(contents, { packaged: true, openExternal: (url) => opened.push(url) });
    const navigate = (event: string, url: string, asParam: boolean) => {
      const e = preventable(asParam ? undefined : url);
      if (asParam) contents.emit(event, e, url);
      else contents.emit(event, e);
      return e.prevented;
    };
    for (const event of ['will-navigate', 'will-redirect']) {
      assert.equal(navigate(event, 'https://evil.example/', true), true, event);
      assert.equal(navigate(event, APP_ENTRY, true), false, event);
    }
    assert.equal(navigate('will-frame-navigate', 'https://evil.example/frame', false), true, 'a subframe cannot navigate away');
    assert.equal(navigate('will-frame-navigate', 'app://keystead/index.html#/send', false), false);
    const webview = preventable();
    contents.emit('will-attach-webview', webview);
    assert.equal(webview.prevented, true);
    assert.deepEqual(contents.openHandler!({ url: 'https://docs.example.com/x' }), { action: 'deny' });
    assert.deepEqual(contents.openHandler!({ url: 'http://plain.example.com/' }), { action: 'deny' });
    assert.deepEqual(opened, ['https://docs.example.com/x'], 'only the safe link went to the system browser');
  });

  it('denies every permission request and check, device access, device pickers and screen capture', () => {
    const session = fakeSession();
    guardSession(session);
    for (const p of [
      'media',
      'geolocation',
      'notifications',
      'hid',
      'usb',
      'serial',
      'display-capture',
      'clipboard-read',
      'fullscreen',
      'pointerLock',
    ]) {
      let granted: boolean | null = null;
      session.handlers.request!(null, p, (g) => (granted = g));
      assert.equal(granted, false, `request ${p}`);
      assert.equal(session.handlers.check!(null, p), false, `check ${p}`);
    }
    assert.equal(session.handlers.check!(null, 'clipboard-sanitized-write'), true, 'copy buttons may write the clipboard');
    assert.equal(session.handlers.device!({ deviceType: 'usb', origin: APP_ENTRY }), false);
    let streams: unknown = 'untouched';
    session.handlers.display!({ frame: null }, (s) => (streams = s));
    assert.deepEqual(streams, {}, 'no video, no audio: the request is refused');
    for (const event of DEVICE_SELECTION_EVENTS) {
      const e = preventable();
      let chosen: string | null = null;
      session.emit(event, e, [{ deviceId: 'dev-1' }], (id: string) => (chosen = id));
      assert.equal(e.prevented, true, event);
      assert.equal(chosen, '', `${event}: nothing chosen`);
    }
  });

  it('has a strict CSP', () => {
    assert.match(DESKTOP_CSP, /script-src 'self'(;|$)/);
    assert.match(DESKTOP_CSP, /object-src 'none'/);
    assert.doesNotMatch(DESKTOP_CSP, /unsafe-eval/);
  });
});
