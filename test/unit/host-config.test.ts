import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { DEFAULT_PORT, defaultDataDir, parseHostArgs, UsageError } from '../../main/host/config.js';
import { KEY_FILE, resolvePassword } from '../../main/host/password.js';
import { tempDir } from '../helpers/tmp.js';

describe('headless arguments', () => {
  it('parses flags, with env as fallback and flags winning', () => {
    const c = parseHostArgs(['--data-dir', '/tmp/x', '--port', '0', '--password-file=/p'], { KEYSTEAD_PORT: '9000' })!;
    assert.equal(c.dataDir, path.resolve('/tmp/x'));
    assert.equal(c.port, 0);
    assert.equal(c.passwordFile, '/p');
    assert.equal(c.network, 'local');
    assert.equal(parseHostArgs([], { KEYSTEAD_PORT: '9000', KEYSTEAD_DATA_DIR: '/d' })!.port, 9000);
    assert.equal(parseHostArgs([], {})!.port, DEFAULT_PORT);
    assert.equal(parseHostArgs([], { KEYSTEAD_SESSION_TTL: '60' })!.sessionTtlSeconds, 60);
    assert.equal(parseHostArgs(['--help'], {}), null);
  });

  it('treats an empty or relative XDG_DATA_HOME as unset, never as a path relative to the working directory', () => {
    const fallback = path.join(os.homedir(), '.local', 'share', 'keystead');
    assert.equal(defaultDataDir({ XDG_DATA_HOME: '' }, 'linux'), fallback);
    assert.equal(defaultDataDir({ XDG_DATA_HOME: 'relative/dir' }, 'linux'), fallback);
    assert.equal(defaultDataDir({}, 'linux'), fallback);
    assert.equal(defaultDataDir({ XDG_DATA_HOME: '/srv/data' }, 'linux'), '/srv/data/keystead');
    assert.equal(parseHostArgs([], { XDG_DATA_HOME: '' })!.dataDir, fallback);
  });

  it('the public paymail listener is off unless asked for', () => {
    assert.equal(parseHostArgs([], {})!.paymailListen, undefined);
    const c = parseHostArgs(['--paymail-listen', '0.0.0.0:7490', '--paymail-public-url', 'https://pay.acme.com/'], {})!;
    assert.deepEqual([c.paymailListen, c.paymailPublicUrl], [{ host: '0.0.0.0', port: 7490 }, 'https://pay.acme.com']);
    assert.deepEqual(parseHostArgs([], { KEYSTEAD_PAYMAIL_LISTEN: '[::1]:7491' })!.paymailListen, { host: '::1', port: 7491 });
  });

  it('trusts no proxy unless named: --trust-proxy / KEYSTEAD_TRUST_PROXY, IP addresses only, with the listener', () => {
    assert.equal(parseHostArgs(['--paymail-listen', '127.0.0.1:7490'], {})!.trustProxy, undefined);
    assert.deepEqual(
      parseHostArgs(['--paymail-listen', '127.0.0.1:7490', '--trust-proxy', '127.0.0.1, ::1,::ffff:10.0.0.5'], {})!.trustProxy,
      ['127.0.0.1', '::1', '10.0.0.5'],
    );
    assert.deepEqual(parseHostArgs([], { KEYSTEAD_PAYMAIL_LISTEN: '127.0.0.1:7490', KEYSTEAD_TRUST_PROXY: '10.0.0.1' })!.trustProxy, [
      '10.0.0.1',
    ]);
    for (const bad of ['proxy.local', '10.0.0.0/8', '127.0.0.1,,nope', ' , ']) {
      assert.throws(() => parseHostArgs(['--paymail-listen', '127.0.0.1:7490', '--trust-proxy', bad], {}), UsageError, bad);
    }
    assert.throws(() => parseHostArgs(['--trust-proxy', '127.0.0.1'], {}), /needs --paymail-listen/);
  });

  it('rejects bad input with a usage error', () => {
    for (const argv of [
      ['--port', 'abc'],
      ['--port', '70000'],
      ['--port'],
      ['--bogus'],
      ['--network', 'moon'],
      ['--session-ttl', '0'],
      ['--paymail-listen', '7490'],
      ['--paymail-listen', 'a:99999'],
      ['--paymail-public-url', 'https://x.com'],
    ]) {
      assert.throws(() => parseHostArgs(argv, {}), UsageError, argv.join(' '));
    }
  });
});

describe('password resolution', () => {
  it('prefers the password file, then the environment', () => {
    const dir = tempDir();
    const file = path.join(dir, 'pw.txt');
    writeFileSync(file, 'from-file\n');
    assert.deepEqual(resolvePassword(dir, file, { KEYSTEAD_PASSWORD: 'from-env' }), { password: 'from-file', source: 'file' });
    assert.deepEqual(resolvePassword(dir, undefined, { KEYSTEAD_PASSWORD: 'from-env' }), { password: 'from-env', source: 'env' });
    writeFileSync(file, '');
    assert.throws(() => resolvePassword(dir, file, {}), /empty/);
    assert.throws(() => resolvePassword(dir, path.join(dir, 'missing'), {}), /Cannot read/);
  });

  it('creates a 0600 random key file on first run only, and reuses it', () => {
    const dir = tempDir();
    const first = resolvePassword(dir, undefined, {});
    assert.equal(first.source, 'new-keyfile');
    assert.match(first.password, /^[0-9a-f]{64}$/);
    const keyFile = path.join(dir, KEY_FILE);
    assert.equal(statSync(keyFile).mode & 0o777, 0o600);
    assert.deepEqual(resolvePassword(dir, undefined, {}), { password: first.password, source: 'keyfile' });
    chmodSync(keyFile, 0o644);
    assert.throws(() => resolvePassword(dir, undefined, {}), /readable by other users/);
  });

  it('creates the data directory for the key file on a first run', () => {
    const dir = path.join(tempDir(), 'not', 'there', 'yet');
    assert.equal(resolvePassword(dir, undefined, {}).source, 'new-keyfile');
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    assert.equal(statSync(path.join(dir, KEY_FILE)).mode & 0o777, 0o600);
  });

  it('never invents a key for an existing database', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'keystead.db'), 'x');
    assert.throws(() => resolvePassword(dir, undefined, {}), /exists but no password/);
    assert.equal(existsSync(path.join(dir, KEY_FILE)), false);
    assert.equal(readFileSync(path.join(dir, 'keystead.db'), 'utf8'), 'x');
  });
});
