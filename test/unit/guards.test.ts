import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { credentialsFromHeaders, isAllowedFetchSite, isAllowedHost, isAllowedOrigin } from '../../main/server/guards.js';

describe('server guards', () => {
  it('allows only loopback Host headers on our port', () => {
    for (const h of ['127.0.0.1:7480', 'localhost:7480', '[::1]:7480', 'LOCALHOST:7480']) assert.ok(isAllowedHost(h, 7480), h);
    for (const h of [
      undefined,
      '',
      'evil.com',
      'evil.com:7480',
      '127.0.0.1',
      '127.0.0.1:7481',
      'localhost.evil.com:7480',
      '0.0.0.0:7480',
    ]) {
      assert.equal(isAllowedHost(h, 7480), false, String(h));
    }
  });

  it('refuses foreign origins but lets scripts (no Origin) and our own UI through', () => {
    assert.ok(isAllowedOrigin(undefined, 7480));
    assert.ok(isAllowedOrigin('http://127.0.0.1:7480', 7480));
    assert.ok(isAllowedOrigin('http://localhost:7480', 7480));
    for (const o of [
      'null',
      'http://evil.com',
      'https://127.0.0.1:7480',
      'http://127.0.0.1:9999',
      'http://127.0.0.1.evil.com:7480',
      'file://',
      'garbage',
    ]) {
      assert.equal(isAllowedOrigin(o, 7480), false, o);
    }
  });

  it('refuses cross-site browser fetches', () => {
    assert.ok(isAllowedFetchSite(undefined));
    assert.ok(isAllowedFetchSite('same-origin'));
    assert.ok(isAllowedFetchSite('none'));
    assert.equal(isAllowedFetchSite('cross-site'), false);
    assert.equal(isAllowedFetchSite('same-site'), false);
  });

  it('reads every credential form', () => {
    assert.deepEqual(credentialsFromHeaders({ authtoken: 'a', serviceid: 's' }), {
      authToken: 'a',
      uid: undefined,
      apiKey: undefined,
      serviceId: 's',
    });
    assert.equal(credentialsFromHeaders({ authorization: 'Bearer tok' }).authToken, 'tok');
    assert.equal(credentialsFromHeaders({ authorization: 'bearer tok' }).authToken, 'tok');
    assert.equal(credentialsFromHeaders({ authorization: 'Basic abc' }).authToken, undefined);
    assert.equal(credentialsFromHeaders({ authtoken: 'header-wins', authorization: 'Bearer other' }).authToken, 'header-wins');
    assert.deepEqual(credentialsFromHeaders({ uid: 'u', apikey: 'k' }), {
      authToken: undefined,
      uid: 'u',
      apiKey: 'k',
      serviceId: undefined,
    });
    assert.equal(credentialsFromHeaders({ authtoken: '' }).authToken, undefined);
  });
});
