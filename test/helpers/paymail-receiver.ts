import { P2PKH, PrivateKey } from '@bsv/sdk';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A foreign paymail receiver on loopback, for attacks on the money path: it hands out P2P destinations
 * and answers receive-transaction however the test says (accept without broadcasting, name another txid,
 * refuse but keep the transaction, …). It never broadcasts; the test decides what reaches the chain.
 */
export type ReceiverAnswer = { status: number; body: unknown };

export interface Receiver {
  url: string;
  domain: string;
  paymail: string;
  /** Where it asks to be paid. */
  address: string;
  /** Every transaction hex it was handed. */
  received: string[];
  /** Sets how it answers receive-transaction; the default is 200 with the transaction's own txid. */
  answer(fn: (hex: string, txid: string) => ReceiverAnswer | Promise<ReceiverAnswer>): void;
  /** Sets the outputs it asks for when asked to be paid `satoshis`; the default is one output to `address`. */
  destinations(fn: (satoshis: number) => { script: string; satoshis: number }[]): void;
  close(): Promise<void>;
}

export async function startReceiver(domain = 'evil.test'): Promise<Receiver> {
  const address = PrivateKey.fromRandom().toAddress();
  const received: string[] = [];
  let answer = (_hex: string, txid: string): ReceiverAnswer | Promise<ReceiverAnswer> => ({ status: 200, body: { txid, note: 'thanks' } });
  let destinations = (satoshis: number) => [{ script: new P2PKH().lock(address).toHex(), satoshis }];
  let base = '';
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', async () => {
      const send = (status: number, payload: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
      const url = req.url ?? '';
      if (url === '/.well-known/bsvalias') {
        return send(200, {
          bsvalias: '1.0',
          capabilities: {
            '2a40af698840': `${base}/p2p/{alias}@{domain.tld}`,
            '5f1323cddf31': `${base}/receive/{alias}@{domain.tld}`,
            pki: `${base}/id/{alias}@{domain.tld}`,
          },
        });
      }
      if (url.startsWith('/p2p/')) {
        const { satoshis } = JSON.parse(body || '{}') as { satoshis: number };
        return send(200, {
          outputs: destinations(satoshis),
          reference: `ref-${received.length}-${Date.now()}`,
        });
      }
      if (url.startsWith('/receive/')) {
        const { hex } = JSON.parse(body) as { hex: string };
        received.push(hex);
        const { Transaction } = await import('@bsv/sdk');
        const a = await answer(hex, Transaction.fromHex(hex).id('hex'));
        return send(a.status, a.body);
      }
      send(404, { code: 'not-found', message: 'no such route' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    domain,
    paymail: `shop@${domain}`,
    address,
    received,
    answer(fn) {
      answer = fn;
    },
    destinations(fn) {
      destinations = fn;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
