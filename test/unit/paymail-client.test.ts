import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { CAP, PaymailClient } from '../../main/engine/paymail/client.js';

describe('paymail host discovery', () => {
  it('uses the host map first, then DNS SRV (best priority), then the domain itself', async () => {
    const asked: string[] = [];
    const srv = async (name: string) => {
      asked.push(name);
      if (name === '_bsvalias._tcp.srv.test') {
        return [
          { name: 'backup.srv.test.', port: 8443, priority: 20, weight: 1 },
          { name: 'paymail.srv.test.', port: 443, priority: 10, weight: 5 },
        ];
      }
      throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    const client = new PaymailClient(() => new Map([['mapped.test', 'http://127.0.0.1:9999/']]), srv);
    assert.equal(await client.hostFor('mapped.test'), 'http://127.0.0.1:9999');
    assert.equal(await client.hostFor('srv.test'), 'https://paymail.srv.test:443');
    assert.equal(await client.hostFor('plain.test'), 'https://plain.test');
    assert.deepEqual(asked, ['_bsvalias._tcp.srv.test', '_bsvalias._tcp.plain.test'], 'mapped domains never reach DNS');
  });

  it('keeps only the capabilities it uses, and asks nothing of a domain that is not a host name', async () => {
    let asked = 0;
    const server = createServer((req, res) => {
      asked++;
      const junk = Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`k${i}`, 'x'.repeat(100)]));
      const capabilities = {
        ...junk,
        [CAP.p2pDestination]: 'http://h/p2p/{alias}@{domain.tld}',
        [CAP.pki]: 'y'.repeat(5_000),
        [CAP.beef]: true,
      };
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ bsvalias: '1.0', capabilities }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const client = new PaymailClient(
        () => new Map([['big.test', url]]),
        async () => [],
      );
      assert.deepEqual(await client.capabilities('big.test'), {
        [CAP.p2pDestination]: 'http://h/p2p/{alias}@{domain.tld}',
        [CAP.beef]: true,
      });
      assert.deepEqual(await client.capabilities('BIG.test'), await client.capabilities('big.test'), 'one entry per host name');
      assert.equal(asked, 1, 'remembered');
      for (const domain of ['big.test/1', 'big.test?2', 'big.test#3', 'big.test:80', 'user@big.test', '-big.test', ''])
        await assert.rejects(client.capabilities(domain), /is not a paymail domain/, domain);
      assert.equal(asked, 1, 'nothing asked for a domain that is not a host name');
    } finally {
      server.close();
    }
  });
});
