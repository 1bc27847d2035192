import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { PrivateKey, ProtoWallet } from '@bsv/sdk';
import { requestIssuance, type IssuanceNet } from '../../main/engine/apps/certificates/issuance.js';
import { relinquishAppCertificate } from '../../main/engine/apps/certificates/manage.js';
import type { OpContext } from '../../main/engine/context.js';
import type { AppCertificatesServices } from '../../main/engine/apps/services.js';
import { WalletErr } from '../../main/engine/apps/werr.js';
import { guardedFetch, type GuardedFetchRule } from '../../main/net/guarded-fetch.js';
import { OutboundError, type OutboundFailure } from '../../main/net/guarded-http.js';
import { openStore, type Store } from '../../main/store/database.js';
import { createRepos } from '../../main/store/repos/index.js';
import { tempDir } from '../helpers/tmp.js';

/** A loopback server whose every request is answered by `handler`; `hits` counts the requests it received. */
async function serve(
  handler: http.RequestListener,
): Promise<{ url: string; port: number; hits: () => number; close: () => Promise<void> }> {
  let hits = 0;
  const server = http.createServer((req, res) => {
    hits++;
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    hits: () => hits,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const LIMITS = { timeoutMs: 500, maxBytes: 64 * 1024, maxRedirects: 0 };
const LOCAL: GuardedFetchRule = { limits: LIMITS, trusted: () => false, allowLoopback: true };

const refusedAs = (kind: OutboundFailure, pattern?: RegExp) => (err: unknown) => {
  assert.ok(err instanceof OutboundError, String(err));
  assert.equal(err.kind, kind, err.message);
  if (pattern) assert.match(err.message, pattern);
  return true;
};

describe('guardedFetch: a fetch for libraries, over the guarded client', () => {
  const servers: { close: () => Promise<void> }[] = [];
  const start = async (handler: http.RequestListener) => {
    const s = await serve(handler);
    servers.push(s);
    return s;
  };
  after(async () => {
    for (const s of servers) await s.close();
  });

  it('answers status, every header and the body as bytes, and sends the body it is given', async () => {
    let received = '';
    const s = await start((req, res) => {
      req.on('data', (c: Buffer) => (received += c.toString('utf8')));
      req.on('end', () => {
        res.writeHead(201, [
          ['Content-Type', 'application/octet-stream'],
          ['X-Bsv-Auth-Identity-Key', '02ab'],
          ['X-Bsv-Custom', 'one'],
        ]);
        res.end(Buffer.from([0, 255, 1, 254]));
      });
    });
    const res = await guardedFetch(LOCAL)(`${s.url}/x?y=1`, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'hello' });
    assert.equal(res.status, 201);
    assert.equal(res.headers.get('x-bsv-auth-identity-key'), '02ab');
    assert.equal(res.headers.get('x-bsv-custom'), 'one');
    assert.deepEqual([...new Uint8Array(await res.arrayBuffer())], [0, 255, 1, 254]);
    assert.equal(received, 'hello');
  });

  it('refuses an answer larger than the cap, declared or streamed', async () => {
    const declared = await start((_req, res) => res.writeHead(200, { 'content-length': String(LIMITS.maxBytes + 1) }).end());
    await assert.rejects(
      guardedFetch(LOCAL)(declared.url, { method: 'POST', body: '{}' }),
      refusedAs('too-large', /more than 65536 bytes/),
    );
    const streamed = await start((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      // No length announced: the cap is met while reading.
      for (let i = 0; i < 20; i++) res.write(Buffer.alloc(8 * 1024, 0x61));
      res.end();
    });
    await assert.rejects(guardedFetch(LOCAL)(streamed.url, { method: 'POST', body: '{}' }), refusedAs('too-large'));
  });

  it('gives up on an answer that does not come, or never finishes', async () => {
    const silent = await start(() => undefined);
    await assert.rejects(guardedFetch(LOCAL)(silent.url, { method: 'POST', body: '{}' }), refusedAs('timeout'));
    const trickle = await start((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"certificate":');
    });
    await assert.rejects(guardedFetch(LOCAL)(trickle.url, { method: 'POST', body: '{}' }), refusedAs('timeout'));
  });

  it('follows no redirect of a POST, and checks a GET redirect target like the first', async () => {
    const elsewhere = await start((_req, res) => res.writeHead(200, { 'x-bsv-auth-identity-key': '02cd' }).end('{}'));
    const redirecting = await start((_req, res) => res.writeHead(307, { location: `http://localhost:${elsewhere.port}/` }).end());
    await assert.rejects(guardedFetch(LOCAL)(redirecting.url, { method: 'POST', body: '{}' }), refusedAs('redirect', /not followed/));
    assert.equal(elsewhere.hits(), 0, 'the other host was not contacted');
    await assert.rejects(guardedFetch(LOCAL)(redirecting.url), refusedAs('redirect', /more than 0 times/));
    // With redirects allowed, each target is checked again: a private address is refused, not contacted.
    const toPrivate = await start((_req, res) => res.writeHead(302, { location: 'http://10.0.0.7/latest/meta-data' }).end());
    const follow = { ...LOCAL, limits: { ...LIMITS, maxRedirects: 2 } };
    await assert.rejects(guardedFetch(follow)(toPrivate.url), refusedAs('address', /private/));
    assert.equal((await guardedFetch(follow)(redirecting.url)).status, 200);
    assert.equal(elsewhere.hits(), 1);
  });

  it('refuses other schemes, credentials, methods, and addresses outside the rule', async () => {
    const s = await start((_req, res) => res.end('{}'));
    const f = guardedFetch(LOCAL);
    for (const url of ['file:///etc/passwd', 'ftp://127.0.0.1/', 'data:text/plain,hi', `http://user:pw@127.0.0.1:${s.port}/`])
      await assert.rejects(f(url, { method: 'POST', body: '{}' }), refusedAs('url'), url);
    await assert.rejects(f(s.url, { method: 'PUT', body: '{}' }), refusedAs('url', /only GET and POST/));
    // Loopback only when the rule allows it; private, link-local and the unspecified address never.
    await assert.rejects(guardedFetch({ ...LOCAL, allowLoopback: false })(s.url), refusedAs('address', /loopback/));
    for (const url of ['http://10.1.2.3/', 'http://169.254.169.254/', 'http://0.0.0.0/', 'http://[fe80::1]/'])
      await assert.rejects(f(url), refusedAs('address'), url);
    // A name is resolved and every address checked.
    const resolvesPrivate = guardedFetch({ ...LOCAL, resolve: async () => [{ address: '192.168.1.1', family: 4 }] });
    await assert.rejects(resolvesPrivate('http://certifier.example/'), refusedAs('address', /resolves to a private address/));
    assert.equal(s.hits(), 0, 'nothing refused was sent');
  });
});

describe('certificate issuance over the guarded fetch: hostile certifiers are refused with a WERR', () => {
  const wallet = new ProtoWallet(PrivateKey.fromRandom());
  const CERTIFIER = PrivateKey.fromRandom().toPublicKey().toString();
  const net: IssuanceNet = { allowLoopback: true, limits: LIMITS };
  const ask = (certifierUrl: string, n: IssuanceNet = net) =>
    requestIssuance(
      wallet,
      { type: 'AGfk/WrT1eBDXpz3mcw386Zww2HmqcIn3uY6x4Af1eo=', certifier: CERTIFIER, certifierUrl, fields: { name: 'Ada' } },
      n,
    );
  const werr = (name: string, pattern: RegExp, parameter?: string) => (err: unknown) => {
    assert.ok(err instanceof WalletErr, String(err));
    assert.equal(err.name, name, err.message);
    assert.match(err.message, pattern);
    if (parameter) assert.equal(err.parameter, parameter);
    return true;
  };
  const servers: { close: () => Promise<void> }[] = [];
  const start = async (handler: http.RequestListener) => {
    const s = await serve(handler);
    servers.push(s);
    return s;
  };
  after(async () => {
    for (const s of servers) await s.close();
  });

  it('refuses an oversized handshake answer', async () => {
    const s = await start((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ pad: 'x'.repeat(100_000) })),
    );
    await assert.rejects(ask(s.url), werr('WERR_INVALID_OPERATION', /could not be reached over BRC-103: .*more than 65536 bytes/));
    assert.equal(s.hits(), 1);
  });

  it('refuses a certifier that does not answer in time', async () => {
    const s = await start(() => undefined);
    await assert.rejects(ask(s.url), werr('WERR_INVALID_OPERATION', /timed out after 500 ms/));
  });

  it('refuses a redirect to another host without contacting it', async () => {
    const other = await start((_req, res) => res.end('{}'));
    const s = await start((_req, res) => res.writeHead(308, { location: `http://localhost:${other.port}/.well-known/auth` }).end());
    await assert.rejects(ask(s.url), werr('WERR_INVALID_OPERATION', /redirect, which is not followed/));
    assert.equal(other.hits(), 0);
  });

  it('refuses a host that is not a BRC-103 peer, without quoting its answer to the app', async () => {
    const s = await start((_req, res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('INTRANET-SECRET page body'));
    await assert.rejects(ask(s.url), (err: unknown) => {
      werr('WERR_INVALID_OPERATION', /could not be reached over BRC-103/)(err);
      assert.ok(!(err as Error).message.includes('INTRANET-SECRET'), (err as Error).message);
      return true;
    });
  });

  it('refuses URLs it must not contact before computing or sending anything', async () => {
    const s = await start((_req, res) => res.end('{}'));
    for (const url of ['ftp://127.0.0.1/', 'file:///etc/passwd', 'not a url'])
      await assert.rejects(ask(url), werr('WERR_INVALID_PARAMETER', /an http or https URL/, 'certifierUrl'), url);
    await assert.rejects(ask(`http://user:pw@127.0.0.1:${s.port}`), werr('WERR_INVALID_PARAMETER', /without credentials/, 'certifierUrl'));
    for (const url of ['http://10.0.0.1', 'http://169.254.169.254', 'http://[::ffff:192.168.0.1]'])
      await assert.rejects(ask(url), werr('WERR_INVALID_PARAMETER', /certifier Keystead may contact/, 'certifierUrl'), url);
    // Loopback only for an app calling from this machine.
    await assert.rejects(ask(s.url, { ...net, allowLoopback: false }), werr('WERR_INVALID_PARAMETER', /loopback/, 'certifierUrl'));
    await assert.rejects(
      ask('http://certifier.example', { ...net, resolve: async () => [{ address: '10.9.8.7', family: 4 }] }),
      werr('WERR_INVALID_PARAMETER', /resolves to a private address/, 'certifierUrl'),
    );
    assert.equal(s.hits(), 0);
  });
});

describe('an admin relinquishing a certificate from the Apps view', () => {
  let store: Store;
  after(() => store?.close());
  before(() => {
    store = openStore({ dataDir: tempDir(), password: 'pw' });
  });

  it('tells other open windows (the apps live event)', async () => {
    const repos = createRepos(store.db);
    repos.users.insert({
      uid: 'uid-admin',
      email: 'ada@acme.io',
      passwordHash: 'x',
      role: 'admin',
      firstName: 'Ada',
      lastName: 'L',
      title: '',
      createdAt: 0,
      updatedAt: 0,
    });
    const walletRow = repos.wallets.insert({
      walletId: 'w1',
      ownerUid: 'uid-admin',
      title: 'Identity',
      logo: '',
      type: 'standard',
      derivationPath: "m/44'/236'/0'",
      accountXpub: 'xpub',
      sealedSeed: 'sealed',
      paymailAlias: null,
      paymailDomain: null,
      paymailActive: false,
      createdAt: 0,
    });
    repos.apps.seen('shop.example', 1);
    repos.apps.decide('shop.example', 'allowed', 'w1', 'uid-admin', 2);
    repos.appCertificates.put(walletRow, {
      type: 'AGfk/WrT1eBDXpz3mcw386Zww2HmqcIn3uY6x4Af1eo=',
      serialNumber: 'c2VyaWFs',
      certifier: CERTIFIER_KEY,
      subject: CERTIFIER_KEY,
      revealer: CERTIFIER_KEY,
      revocationOutpoint: `${'ab'.repeat(32)}.0`,
      signature: '3006020101020101',
      fields: { name: 'enc' },
      masterKeyring: { name: 'key' },
      originator: 'shop.example',
      protocol: 'direct',
      acquiredAt: 3,
    });
    const published: { type: string; payload: unknown }[] = [];
    const ctx = {
      services: {
        repos,
        now: () => 4,
        logger: { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} },
        events: { publish: (type: string, payload: unknown) => published.push({ type, payload }) },
      },
    } as unknown as OpContext<AppCertificatesServices>;
    const [held] = repos.appCertificates.summaries();
    const out = relinquishAppCertificate(ctx, { id: held.id } as never);
    assert.equal(out.relinquished, true);
    assert.deepEqual(published, [{ type: 'apps', payload: { originator: 'shop.example', state: 'allowed' } }]);
  });
});

const CERTIFIER_KEY = PrivateKey.fromRandom().toPublicKey().toString();
