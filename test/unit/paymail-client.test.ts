import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PaymailClient } from '../../main/engine/paymail/client.js';

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
});
