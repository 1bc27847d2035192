import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import {
  APP_ENTRY,
  DESKTOP_CSP,
  hardenedWebPreferences,
  isAllowedNavigation,
  isPermissionAllowed,
  isSafeExternalUrl,
  isTrustedSender,
  resolveAppAsset,
  windowOpenDecision,
} from '../../main/electron/hardening.js';

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
    for (const u of ['https://evil.com', 'app://evil/index.html', 'app://keystead.evil.com/', 'file:///etc/passwd', 'http://127.0.0.1:7480/', 'javascript:alert(1)', 'not a url']) {
      assert.equal(isAllowedNavigation(u), false, u);
    }
  });

  it('answers IPC only from frames showing the app bundle', () => {
    assert.ok(isTrustedSender('app://keystead/index.html'));
    for (const u of [undefined, null, '', 'https://evil.com/', 'app://other/', 'file:///index.html', 'about:blank']) assert.equal(isTrustedSender(u), false, String(u));
  });

  it('denies every new window and opens only safe https links externally', () => {
    assert.deepEqual(windowOpenDecision('https://whatsonchain.com/tx/ab'), { action: 'deny', openExternally: true });
    for (const u of ['http://example.com', 'file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'https://user:pw@example.com', 'https://localhost']) {
      assert.deepEqual(windowOpenDecision(u), { action: 'deny', openExternally: false }, u);
      assert.equal(isSafeExternalUrl(u), false, u);
    }
  });

  it('grants no web permission but clipboard writes', () => {
    assert.ok(isPermissionAllowed('clipboard-sanitized-write'));
    for (const p of ['media', 'geolocation', 'notifications', 'openExternal', 'hid', 'clipboard-read']) assert.equal(isPermissionAllowed(p), false, p);
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

  it('has a strict CSP', () => {
    assert.match(DESKTOP_CSP, /script-src 'self'(;|$)/);
    assert.match(DESKTOP_CSP, /object-src 'none'/);
    assert.doesNotMatch(DESKTOP_CSP, /unsafe-eval/);
  });
});
