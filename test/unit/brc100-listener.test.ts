import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseHostArgs, UsageError } from '../../main/host/config.js';
import { AppGate } from '../../main/engine/apps/gate.js';
import { originatorOf } from '../../main/server/brc100-server.js';

describe('BRC-100 listener settings', () => {
  it('is off by default and waits 60 s for a decision', () => {
    const c = parseHostArgs([], {})!;
    assert.equal(c.brc100Listen, undefined);
    assert.equal(c.brc100WaitSeconds, 60);
  });

  it('takes a loopback address, from the flag or KEYSTEAD_BRC100_LISTEN', () => {
    assert.deepEqual(parseHostArgs(['--brc100-listen', '127.0.0.1:3321'], {})!.brc100Listen, { host: '127.0.0.1', port: 3321 });
    assert.deepEqual(parseHostArgs([], { KEYSTEAD_BRC100_LISTEN: '[::1]:3321' })!.brc100Listen, { host: '::1', port: 3321 });
    assert.equal(parseHostArgs(['--brc100-wait', '5'], {})!.brc100WaitSeconds, 5);
  });

  it('refuses a non-loopback address unless the operator allows it', () => {
    assert.throws(() => parseHostArgs(['--brc100-listen', '0.0.0.0:3321'], {}), UsageError);
    assert.throws(() => parseHostArgs(['--brc100-listen', '0.0.0.0:3321', '--brc100-allow-remote', 'no'], {}), UsageError);
    assert.deepEqual(parseHostArgs(['--brc100-listen', '0.0.0.0:3321', '--brc100-allow-remote', 'yes'], {})!.brc100Listen, {
      host: '0.0.0.0',
      port: 3321,
    });
    assert.throws(() => parseHostArgs(['--brc100-listen', 'nonsense'], {}), UsageError);
  });
});

describe('originators', () => {
  it('are the host an Origin or Originator header names', () => {
    assert.equal(originatorOf('https://App.Example'), 'app.example');
    // A process names itself (@bsv/sdk's HTTPWalletJSON in Node sends `Origin: http://<originator>`).
    assert.equal(originatorOf('http://App.Example'), 'app.example');
    assert.equal(originatorOf('ftp://app.example'), null);
    // A browser page over plain HTTP only from this machine (a development server): elsewhere anyone on the
    // network path writes the page.
    assert.equal(originatorOf('http://localhost:5173', true), 'localhost:5173');
    assert.equal(originatorOf('http://127.0.0.1:8080', true), '127.0.0.1:8080');
    assert.equal(originatorOf('http://App.Example', true), null);
    assert.equal(originatorOf('https://App.Example', true), 'app.example');
    assert.equal(originatorOf('https://app.example:8443/path'), 'app.example:8443');
    assert.equal(originatorOf('app.example'), 'app.example');
    assert.equal(originatorOf('localhost:8080'), 'localhost:8080');
  });

  it('are none for null, empty or non-host values', () => {
    for (const v of [undefined, '', 'null', 'file:///etc/passwd', 'not a host', ['a.example', 'b.example']])
      assert.equal(originatorOf(v), null, String(v));
  });
});

describe('the gate apps wait at', () => {
  it('wakes the calls of a decided app, and does not let more than its maximum wait', async () => {
    const gate = new AppGate(60_000, 2);
    const a = gate.wait('a.example');
    const b = gate.wait('a.example');
    assert.equal(await gate.wait('c.example'), false);
    gate.decided('a.example');
    assert.deepEqual(await Promise.all([a, b]), [true, true]);
    const c = gate.wait('c.example');
    gate.wakeAll();
    assert.equal(await c, true);
  });
});
