import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { P2PKH, PrivateKey } from '@bsv/sdk';
import { DomainError } from '../../shared/errors.js';
import {
  MAX_DESTINATION_OUTPUTS,
  MAX_REFERENCE_LENGTH,
  parseBasicDestination,
  parseP2pDestination,
} from '../../main/engine/paymail/destination-answer.js';
import { runBatch } from '../../main/engine/tokens/send.js';
import { startHeadless } from '../helpers/headless.js';
import { createOrgWallet, orgCall, setUpOrg, type Org } from '../helpers/org.js';
import { startReceiver, type Receiver } from '../helpers/paymail-receiver.js';
import { tempDir } from '../helpers/tmp.js';
import { keystead } from '../helpers/cli.js';
import { until } from '../helpers/until.js';

/**
 * The payer decides what is paid (issue 24 §1). A paymail host names where the money goes, never how
 * much: its destination answer is checked before anything is quoted or signed. What is signed is what
 * was reviewed. A batch send never crashes on one receiver's answer, and a retry with the same
 * idempotency key never pays an item twice.
 */

const p2pkh = () => new P2PKH().lock(PrivateKey.fromRandom().toAddress()).toHex();
const WHO = 'shop@liar.test (host liar.test)';

const refusal = (fn: () => unknown, pattern: RegExp) =>
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof DomainError, `a DomainError, got ${String(err)}`);
    assert.equal(err.code, 'PAYMAIL_BAD_ANSWER');
    assert.match(err.message, /shop@liar\.test \(host liar\.test\)/, 'names the paymail and its host');
    assert.match(err.message, pattern);
    return true;
  });

describe('the P2P destination answer is checked before anything is signed (unit, fuzzed)', () => {
  const p2pkhArb = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => `76a914${Buffer.from(b).toString('hex')}88ac`);
  const outputsSumming = (total: number) =>
    fc.integer({ min: 1, max: Math.min(MAX_DESTINATION_OUTPUTS, total) }).chain((n) =>
      fc.array(p2pkhArb, { minLength: n, maxLength: n }).chain((scripts) =>
        fc.uniqueArray(fc.integer({ min: 1, max: total - 1 }), { minLength: n - 1, maxLength: n - 1 }).map((cuts) => {
          const points = [0, ...cuts.sort((a, b) => a - b), total];
          return scripts.map((script, i) => ({ script, satoshis: points[i + 1] - points[i] }));
        }),
      ),
    );

  it('accepts exactly the satoshis asked, in at most 10 P2PKH outputs, and nothing else', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 10, max: 21e14 }).chain((total) => fc.tuple(fc.constant(total), outputsSumming(total))),
        fc.string({ minLength: 1, maxLength: MAX_REFERENCE_LENGTH, unit: fc.constantFrom(...'abcdef0123456789-_ ABCXYZ'.split('')) }),
        ([total, outputs], reference) => {
          assert.deepEqual(parseP2pDestination({ outputs, reference }, total, WHO), { outputs, reference });
        },
      ),
    );
  });

  it('refuses any answer whose outputs do not add up to the satoshis asked, naming both amounts', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 10, max: 1e12 }).chain((total) => fc.tuple(fc.constant(total), outputsSumming(total))),
        fc.integer({ min: 1, max: 1e12 }).filter((n) => n !== 0),
        fc.boolean(),
        ([total, outputs], delta, more) => {
          const asked = more ? total - delta : total + delta;
          fc.pre(asked > 0 && asked !== total);
          refusal(
            () => parseP2pDestination({ outputs, reference: 'r' }, asked, WHO),
            new RegExp(`add up to ${total} satoshis, not the ${asked} asked`),
          );
        },
      ),
    );
    // The review's example: 5,000,000 sats answered for a 1,000-sat request.
    refusal(
      () => parseP2pDestination({ outputs: [{ script: p2pkh(), satoshis: 5_000_000 }], reference: 'r' }, 1_000, WHO),
      /5000000 satoshis, not the 1000 asked/,
    );
  });

  it('refuses satoshis that are not positive safe integers, even when the sum comes out right', () => {
    const bad = fc.oneof(
      fc.integer({ max: 0 }),
      fc.double({ noInteger: true }),
      fc.constantFrom(Number.NaN, Infinity, -Infinity, 2 ** 53, 1e300),
      fc.string(),
      fc.constant(null),
      fc.boolean(),
      fc.array(fc.integer()),
      fc.integer({ min: 1, max: 1e9 }).map(String),
    );
    fc.assert(
      fc.property(bad, (satoshis) => {
        refusal(
          () => parseP2pDestination({ outputs: [{ script: p2pkh(), satoshis }], reference: 'r' }, 1_000, WHO),
          /outputs\.0\.satoshis/,
        );
      }),
    );
    // A negative output that balances an inflated one, and fractions that add up: refused all the same.
    refusal(
      () =>
        parseP2pDestination(
          {
            outputs: [
              { script: p2pkh(), satoshis: 6_000 },
              { script: p2pkh(), satoshis: -5_000 },
            ],
            reference: 'r',
          },
          1_000,
          WHO,
        ),
      /outputs\.1\.satoshis: is not positive/,
    );
    refusal(
      () =>
        parseP2pDestination(
          {
            outputs: [
              { script: p2pkh(), satoshis: 999.5 },
              { script: p2pkh(), satoshis: 0.5 },
            ],
            reference: 'r',
          },
          1_000,
          WHO,
        ),
      /whole number/,
    );
  });

  it('refuses every script but P2PKH: OP_RETURN, OP_TRUE, P2SH, bare P2PK, a huge script, P2PKH with extra opcodes', () => {
    const notP2pkh = fc.oneof(
      fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('hex')),
      fc.uint8Array({ maxLength: 80 }).map((b) => `6a${Buffer.from(b).toString('hex')}`),
      fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => `a914${Buffer.from(b).toString('hex')}87`),
      fc.uint8Array({ minLength: 33, maxLength: 33 }).map((b) => `21${Buffer.from(b).toString('hex')}ac`),
      p2pkhArb.map((s) => `${s}ac`),
      p2pkhArb.map((s) => `51${s}`),
      fc.string(),
      fc.integer(),
    );
    fc.assert(
      fc.property(notP2pkh, (script) => {
        fc.pre(!/^76a914[0-9a-fA-F]{40}88ac$/.test(String(script)));
        refusal(() => parseP2pDestination({ outputs: [{ script, satoshis: 1_000 }], reference: 'r' }, 1_000, WHO), /outputs\.0\.script/);
        refusal(() => parseBasicDestination({ output: script }, WHO), /output/);
      }),
    );
    refusal(
      () => parseP2pDestination({ outputs: [{ script: '51', satoshis: 1_000 }], reference: 'r' }, 1_000, WHO),
      /is not a P2PKH script/,
    );
    refusal(
      () =>
        parseP2pDestination({ outputs: [{ script: `76a914${'ab'.repeat(500_000)}88ac`, satoshis: 1_000 }], reference: 'r' }, 1_000, WHO),
      /longer than 25 bytes/,
    );
    // Upper-case hex of a real P2PKH script is the same script.
    const s = p2pkh();
    assert.equal(parseBasicDestination({ output: s.toUpperCase() }, WHO), s);
  });

  it(`refuses more than ${MAX_DESTINATION_OUTPUTS} outputs, none, a missing, empty, huge or unprintable reference, and non-objects`, () => {
    fc.assert(
      fc.property(fc.integer({ min: MAX_DESTINATION_OUTPUTS + 1, max: 500 }), (n) => {
        const outputs = Array.from({ length: n }, () => ({ script: p2pkh(), satoshis: 100 }));
        refusal(
          () => parseP2pDestination({ outputs, reference: 'r' }, n * 100, WHO),
          new RegExp(`more than ${MAX_DESTINATION_OUTPUTS} outputs`),
        );
      }),
    );
    const one = [{ script: p2pkh(), satoshis: 1_000 }];
    refusal(() => parseP2pDestination({ outputs: [], reference: 'r' }, 1_000, WHO), /outputs: is empty/);
    refusal(() => parseP2pDestination({ outputs: one }, 1_000, WHO), /reference: is missing/);
    refusal(() => parseP2pDestination({ outputs: one, reference: '' }, 1_000, WHO), /reference: is empty/);
    refusal(() => parseP2pDestination({ outputs: one, reference: 'r'.repeat(MAX_REFERENCE_LENGTH + 1) }, 1_000, WHO), /longer than 256/);
    refusal(() => parseP2pDestination({ outputs: one, reference: 'ref\u0000\n' }, 1_000, WHO), /printable/);
    refusal(() => parseP2pDestination({ outputs: one, reference: 42 }, 1_000, WHO), /reference/);
    fc.assert(
      fc.property(fc.anything(), (answer) => {
        // Whatever the host answers: a checked destination of exactly 1,000 sats, or PAYMAIL_BAD_ANSWER.
        try {
          const d = parseP2pDestination(answer, 1_000, WHO);
          assert.equal(
            d.outputs.reduce((n, o) => n + o.satoshis, 0),
            1_000,
          );
        } catch (err) {
          assert.ok(err instanceof DomainError && err.code === 'PAYMAIL_BAD_ANSWER', String(err));
        }
      }),
    );
  });
});

describe('a batch never crashes on one item (unit)', () => {
  it('an unexpected error in one item is that item INTERNAL error, logged; the item already paid is reported', async () => {
    const logged: unknown[] = [];
    const logger = { error: (o: unknown) => logged.push(o) } as never;
    const out = await runBatch(
      ['a', 'b', 'c'],
      async (item) => {
        if (item === 'b') throw new TypeError("Cannot read properties of undefined (reading 'script')");
        return [`tx-${item}`];
      },
      'send',
      logger,
    );
    assert.deepEqual(out.txIds, ['tx-a', 'tx-c']);
    assert.equal(out.status, 'partial success');
    assert.deepEqual(
      out.errors.map((e) => [e.index, e.code]),
      [[1, 'INTERNAL']],
    );
    assert.doesNotMatch(out.errors[0].msg, /Cannot read/, 'the cause stays in the log');
    assert.deepEqual(
      out.results?.map((r) => [r.index, r.txIds, r.code]),
      [
        [0, ['tx-a'], null],
        [1, [], 'INTERNAL'],
        [2, ['tx-c'], null],
      ],
    );
    assert.equal(logged.length, 1);
  });
});

/** What a lying host answers for one alias, given the satoshis asked. */
type Lie = (satoshis: number) => unknown;

/** Aliases of liar.test: each answers P2P destinations with one lie (or honestly, for `shop`). */
const LIES: Record<string, { lie: Lie; says: RegExp }> = {
  more: {
    lie: () => ({ outputs: [{ script: p2pkh(), satoshis: 5_000_000 }], reference: 'r1' }),
    says: /add up to 5000000 satoshis, not the 1000 asked/,
  },
  fewer: {
    lie: (s) => ({ outputs: [{ script: p2pkh(), satoshis: s - 1 }], reference: 'r1' }),
    says: /add up to 999 satoshis, not the 1000 asked/,
  },
  extra: {
    lie: (s) => ({
      outputs: [
        { script: p2pkh(), satoshis: s },
        { script: p2pkh(), satoshis: 4_000 },
      ],
      reference: 'r1',
    }),
    says: /add up to 5000 satoshis/,
  },
  many: {
    lie: (s) => ({ outputs: Array.from({ length: 20 }, () => ({ script: p2pkh(), satoshis: s / 20 })), reference: 'r1' }),
    says: /more than 10 outputs/,
  },
  opreturn: {
    lie: (s) => ({ outputs: [{ script: `006a${Buffer.from('hello').toString('hex')}`, satoshis: s }], reference: 'r1' }),
    says: /outputs\.0\.script: is not a P2PKH script/,
  },
  optrue: {
    lie: (s) => ({ outputs: [{ script: '51', satoshis: s }], reference: 'r1' }),
    says: /outputs\.0\.script: is not a P2PKH script/,
  },
  hugescript: {
    lie: (s) => ({ outputs: [{ script: 'ac'.repeat(200_000), satoshis: s }], reference: 'r1' }),
    says: /outputs\.0\.script: is not a P2PKH script \(longer than 25 bytes\)/,
  },
  negative: {
    lie: (s) => ({
      outputs: [
        { script: p2pkh(), satoshis: s + 9_000 },
        { script: p2pkh(), satoshis: -9_000 },
      ],
      reference: 'r1',
    }),
    says: /outputs\.1\.satoshis: is not positive/,
  },
  float: {
    lie: (s) => ({
      outputs: [
        { script: p2pkh(), satoshis: s - 0.5 },
        { script: p2pkh(), satoshis: 0.5 },
      ],
      reference: 'r1',
    }),
    says: /whole number of satoshis/,
  },
  string: {
    lie: (s) => ({ outputs: [{ script: p2pkh(), satoshis: String(s) }], reference: 'r1' }),
    says: /outputs\.0\.satoshis: is not a number/,
  },
  noref: { lie: (s) => ({ outputs: [{ script: p2pkh(), satoshis: s }] }), says: /reference: is missing/ },
  hugeref: {
    lie: (s) => ({ outputs: [{ script: p2pkh(), satoshis: s }], reference: 'r'.repeat(100_000) }),
    says: /reference: is longer than 256 characters/,
  },
  malformed: {
    lie: (s) => ({ outputs: [{ script: 12345, satoshis: s }], reference: 'r1' }),
    says: /outputs\.0\.script: is not a hex string/,
  },
};
/** Aliases of basic.test (basic address resolution only): each answers one output script. */
const BASIC_LIES: Record<string, { output: () => unknown; says: RegExp }> = {
  opreturn: { output: () => `006a${Buffer.from('x').toString('hex')}`, says: /output: is not a P2PKH script/ },
  p2sh: { output: () => `a914${'11'.repeat(20)}87`, says: /output: is not a P2PKH script/ },
  optrue: { output: () => '51', says: /output: is not a P2PKH script/ },
  trailing: { output: () => `${p2pkh()}ac`, says: /output: is not a P2PKH script/ },
  missing: { output: () => undefined, says: /output: is not a hex string/ },
};

interface Liar {
  url: string;
  /** The bodies of the P2P destination requests it got, by alias. */
  asked: { alias: string; body: Record<string, unknown> }[];
  /** Transactions handed to its receive-transaction endpoint: must stay empty. */
  received: unknown[];
  /** Makes an alias answer honestly from now on. */
  reform(alias: string): void;
  close(): Promise<void>;
}

/** A paymail host that lies in its destination answers, one lie per alias; `shop` and reformed aliases answer honestly. */
async function startLiar(p2p: boolean): Promise<Liar> {
  const asked: Liar['asked'] = [];
  const received: unknown[] = [];
  const reformed = new Set<string>(['shop']);
  let base = '';
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (d) => (text += d));
    req.on('end', () => {
      const send = (status: number, payload: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
      const url = req.url ?? '';
      const body = (JSON.parse(text || '{}') ?? {}) as Record<string, unknown>;
      if (url === '/.well-known/bsvalias') {
        const caps: Record<string, string> = p2p
          ? { '2a40af698840': `${base}/p2p/{alias}@{domain.tld}`, '5f1323cddf31': `${base}/receive/{alias}@{domain.tld}` }
          : { paymentDestination: `${base}/address/{alias}@{domain.tld}` };
        return send(200, { bsvalias: '1.0', capabilities: caps });
      }
      const alias = decodeURIComponent(url.split('/')[2] ?? '').split('@')[0];
      if (url.startsWith('/p2p/')) {
        asked.push({ alias, body });
        const satoshis = body.satoshis as number;
        if (reformed.has(alias)) return send(200, { outputs: [{ script: p2pkh(), satoshis }], reference: `honest-${asked.length}` });
        return send(200, LIES[alias].lie(satoshis));
      }
      if (url.startsWith('/address/')) return send(200, reformed.has(alias) ? { output: p2pkh() } : { output: BASIC_LIES[alias].output() });
      if (url.startsWith('/receive/')) {
        received.push(body);
        return send(200, { txid: '00'.repeat(32) });
      }
      send(404, { message: 'no such route' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    asked,
    received,
    reform: (a) => reformed.add(a),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('a lying paymail host is never paid what it asks instead of what the payer asked', () => {
  let org: Org;
  let liar: Liar;
  let basic: Liar;
  let honest: Receiver;
  const call = (method: string, p: string, opts: { body?: unknown; headers?: Record<string, string> } = {}) =>
    orgCall(org, method, p, opts);

  /** A funded wallet of its own for each test, so each measures only its own payments. */
  async function fundedWallet(title: string, satoshis: number): Promise<string> {
    const w = await createOrgWallet(org, { walletTitle: title });
    const f = await call('POST', '/chain/faucet', { body: { walletId: w, satoshis } });
    assert.equal(f.status, 200, JSON.stringify(f.body));
    return w;
  }
  const balanceOf = async (walletID: string) => {
    const w = (await call('GET', '/v1/wallets')).body.data.wallets.find((x: { walletID: string }) => x.walletID === walletID);
    return w.balance.confirmed + w.balance.unconfirmed;
  };
  const outgoing = async (walletID: string) =>
    (await call('GET', '/v1/history', { headers: { walletID, maxResults: '200' } })).body.data.history.filter(
      (h: { direction: string }) => h.direction === 'out',
    ) as { txid: string; amount: number }[];
  /** What a private key's address holds on the chain (satoshis), by the lookup route. */
  const heldAt = async (key: PrivateKey) => {
    const r = await call('POST', '/v1/lookup', { body: { privateKey: key.toWif(), type: 'BSV' } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return (r.body.data.coins as { protocol: string; balance: number }[])
      .filter((c) => c.protocol === 'BSV')
      .reduce((n, c) => n + c.balance, 0);
  };

  before(async () => {
    liar = await startLiar(true);
    basic = await startLiar(false);
    honest = await startReceiver('honest.test');
    const host = await startHeadless({
      dataDir: tempDir(),
      password: 'pw-payer',
      args: [
        '--mine-interval',
        '0',
        '--paymail-domain',
        'payer.test',
        '--paymail-hosts',
        `liar.test=${liar.url},basic.test=${basic.url},honest.test=${honest.url}`,
      ],
    });
    org = await setUpOrg(host);
  });
  after(async () => {
    await org?.host.stop();
    await liar?.close();
    await basic?.close();
    await honest?.close();
  });

  it('/v1/URI (GET and POST) refuses every lie with 422 PAYMAIL_BAD_ANSWER naming the paymail, its host and what was wrong; nothing is signed', async () => {
    const w = await fundedWallet('Resolver', 10_000_000);
    for (const [alias, { says }] of Object.entries(LIES)) {
      for (const r of [
        await call('GET', '/v1/URI', { headers: { walletID: w, uri: `payto:${alias}@liar.test?amount=1000` } }),
        await call('POST', '/v1/URI', { headers: { walletID: w }, body: { uri: `${alias}@liar.test`, amount: 1000 } }),
      ]) {
        assert.equal(r.status, 422, `${alias}: ${JSON.stringify(r.body).slice(0, 300)}`);
        assert.equal(r.body.data.code, 'PAYMAIL_BAD_ANSWER', alias);
        assert.match(r.body.data.msg, new RegExp(`${alias}@liar\\.test \\(host 127\\.0\\.0\\.1:\\d+\\)`), alias);
        assert.match(r.body.data.msg, says, alias);
      }
    }
    for (const [alias, { says }] of Object.entries(BASIC_LIES)) {
      const r = await call('POST', '/v1/URI', { headers: { walletID: w }, body: { uri: `${alias}@basic.test`, amount: 1000 } });
      assert.equal(r.status, 422, `${alias}: ${JSON.stringify(r.body).slice(0, 300)}`);
      assert.equal(r.body.data.code, 'PAYMAIL_BAD_ANSWER');
      assert.match(r.body.data.msg, new RegExp(`${alias}@basic\\.test \\(host 127\\.0\\.0\\.1:\\d+\\)`));
      assert.match(r.body.data.msg, says, alias);
    }
    // The honest answers still resolve, and pay exactly what was asked.
    const ok = await call('POST', '/v1/URI', { headers: { walletID: w }, body: { uri: 'shop@liar.test', amount: 1000 } });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.deepEqual(
      ok.body.data.data.outputs.map((o: { satoshis: number }) => o.satoshis),
      [1000],
    );
    const okBasic = await call('POST', '/v1/URI', { headers: { walletID: w }, body: { uri: 'shop@basic.test', amount: 1000 } });
    assert.equal(okBasic.status, 200, JSON.stringify(okBasic.body));
    assert.equal(liar.received.length, 0, 'no transaction reached the liar');
    assert.equal(await balanceOf(w), 10_000_000, 'nothing left the wallet');
    assert.deepEqual(await outgoing(w), []);
  });

  it("a URI's amount never overrides the caller's: when both are given they must agree", async () => {
    const w = await fundedWallet('Amounts', 100_000);
    const address = PrivateKey.fromRandom().toAddress();
    for (const uri of [`bitcoin:${address}?amount=5`, `bitcoin:${address}?amount=0.00002`, 'payto:shop@honest.test?amount=3000']) {
      const r = await call('POST', '/v1/URI', { headers: { walletID: w }, body: { uri, amount: 1000 } });
      assert.equal(r.status, 400, `${uri}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.data.code, 'VALIDATION_FAILED');
      assert.match(r.body.data.msg, /the URI asks for \d+ satoshis and the request says 1000/);
    }
    const same = await call('POST', '/v1/URI', {
      headers: { walletID: w },
      body: { uri: `bitcoin:${address}?amount=0.00001`, amount: 1000 },
    });
    assert.equal(same.status, 200, JSON.stringify(same.body));
    assert.equal(same.body.data.data.outputs[0].satoshis, 1000);
    const onlyUri = await call('POST', '/v1/URI', { headers: { walletID: w }, body: { uri: `bitcoin:${address}?amount=0.00002` } });
    assert.equal(onlyUri.body.data.data.outputs[0].satoshis, 2000);
    const onlyCaller = await call('POST', '/v1/URI', { headers: { walletID: w }, body: { uri: `bitcoin:${address}`, amount: 1500 } });
    assert.equal(onlyCaller.body.data.data.outputs[0].satoshis, 1500);
    assert.equal(await balanceOf(w), 100_000, 'nothing was paid');
  });

  it('/v1/pay pays exactly the reviewed request: a changed output, receiver or wallet is 409 and nothing is paid', async () => {
    const w = await fundedWallet('Reviewer', 1_000_000);
    const other = await fundedWallet('Other', 100_000);
    const resolved = (await call('POST', '/v1/URI', { headers: { walletID: w }, body: { uri: 'shop@honest.test', amount: 2_000 } })).body
      .data.data;
    const quote = await call('POST', '/v1/pay/quote', { headers: { walletID: w }, body: resolved });
    assert.equal(quote.status, 200, JSON.stringify(quote.body));
    const { reviewId } = quote.body.data;
    assert.match(reviewId, /^[0-9a-f]{64}$/);
    const tampered = [
      { ...resolved, outputs: [{ ...resolved.outputs[0], satoshis: 900_000 }] },
      { ...resolved, outputs: [{ script: p2pkh(), satoshis: 2_000 }] },
      { ...resolved, outputs: [...resolved.outputs, { script: p2pkh(), satoshis: 1_000 }] },
      { ...resolved, peerData: 'another-reference' },
      { ...resolved, peer: `${liar.url}/receive/shop@liar.test` },
      // Where the signed transaction goes, how, with which note, under which name: all part of the review.
      { ...resolved, peerBeef: `${liar.url}/beef/shop@liar.test` },
      { ...resolved, peerProtocol: null },
      { ...resolved, memo: 'paid in full, do not chase' },
      { ...resolved, uri: 'payto:partner@trusted.test' },
    ];
    for (const body of tampered) {
      const r = await call('POST', '/v1/pay', { headers: { walletID: w }, body: { ...body, reviewId } });
      assert.equal(r.status, 409, JSON.stringify(r.body));
      assert.equal(r.body.data.code, 'CONFLICT');
      assert.match(r.body.data.msg, /not the one that was reviewed/);
    }
    const otherWallet = await call('POST', '/v1/pay', { headers: { walletID: other }, body: { ...resolved, reviewId } });
    assert.equal(otherWallet.status, 409, 'the review was for another wallet');
    const junk = await call('POST', '/v1/pay', { headers: { walletID: w }, body: { ...resolved, reviewId: 'not-a-review' } });
    assert.equal(junk.status, 400);
    assert.equal(await balanceOf(w), 1_000_000, 'nothing was paid');
    assert.equal(await balanceOf(other), 100_000);
    assert.equal(honest.received.length, 0);
    const paid = await call('POST', '/v1/pay', { headers: { walletID: w }, body: { ...resolved, reviewId } });
    assert.equal(paid.status, 200, JSON.stringify(paid.body));
    assert.equal(honest.received.length, 1);
    const out = await outgoing(w);
    assert.equal(out.length, 1);
    assert.equal(out[0].amount, -(2_000 + paid.body.data.fee), 'exactly the reviewed amount (and the quoted fee) left');
    assert.equal(paid.body.data.fee, quote.body.data.fee);
  });

  it('/v1/send with BSV items: a lying host among honest ones is that item error; the honest items are paid and reported; no 5xx', async () => {
    const w = await fundedWallet('Sender', 10_000_000);
    const toKey = PrivateKey.fromRandom();
    const r = await call('POST', '/v1/send', {
      headers: { walletID: w },
      body: {
        dataArray: [
          { to: toKey.toAddress(), satoshis: 1_000 },
          { to: 'more@liar.test', satoshis: 1_000 },
          { to: 'shop@honest.test', satoshis: 1_000 },
          { to: 'malformed@liar.test', satoshis: 1_000 },
          { to: 'opreturn@basic.test', satoshis: 1_000 },
        ],
      },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 500));
    assert.equal(r.body.data.status, 'partial success');
    assert.deepEqual(
      r.body.data.errors.map((e: { index: number; code: string }) => [e.index, e.code]),
      [
        [1, 'PAYMAIL_BAD_ANSWER'],
        [3, 'PAYMAIL_BAD_ANSWER'],
        [4, 'PAYMAIL_BAD_ANSWER'],
      ],
    );
    assert.match(r.body.data.errors[0].msg, /more@liar\.test .*5000000 satoshis, not the 1000 asked/);
    assert.equal(r.body.data.txIds.length, 2);
    assert.deepEqual(
      r.body.data.results.map((x: { index: number; txIds: string[] }) => [x.index, x.txIds.length]),
      [
        [0, 1],
        [1, 0],
        [2, 1],
        [3, 0],
        [4, 0],
      ],
    );
    const out = await outgoing(w);
    assert.deepEqual(out.map((o) => o.txid).sort(), [...r.body.data.txIds].sort());
    const fees = (await Promise.all(out.map((o) => o.amount))).reduce((n, a) => n + a, 0);
    assert.ok(-fees < 2_000 + 1_000, `only the two honest items (2,000 sats) and their fees left: ${-fees}`);
    assert.equal(await heldAt(toKey), 1_000);
    assert.equal(liar.received.length, 0);

    // Every item lying: 400 with each error, never a 5xx.
    const all = await call('POST', '/v1/send', {
      headers: { walletID: w },
      body: { dataArray: ['more', 'fewer', 'many', 'hugeref'].map((a) => ({ to: `${a}@liar.test`, satoshis: 1_000 })) },
    });
    assert.equal(all.status, 400, JSON.stringify(all.body).slice(0, 300));
    assert.deepEqual(
      all.body.data.errors.map((e: { code: string }) => e.code),
      ['PAYMAIL_BAD_ANSWER', 'PAYMAIL_BAD_ANSWER', 'PAYMAIL_BAD_ANSWER', 'PAYMAIL_BAD_ANSWER'],
    );
    assert.equal((await outgoing(w)).length, 2, 'nothing more was paid');
  });

  it('token sends ask the host for a token destination and refuse its lies; the honest token item goes through', async () => {
    const w = await fundedWallet('Treasury', 1_000_000);
    const issued = await call('POST', '/api/v1/issue', {
      headers: { walletID: w },
      body: { name: 'Points', protocolId: 'KST-20', symbol: 'PTL', tokenSupply: 1_000, satsPerToken: 1 },
    });
    assert.equal(issued.status, 200, JSON.stringify(issued.body));
    const { tokenId } = issued.body.data;
    const before = liar.asked.length;
    const handed = liar.received.length;
    const r = await call('POST', '/v1/send', {
      headers: { walletID: w },
      body: {
        dataArray: [
          { to: PrivateKey.fromRandom().toAddress(), amount: 10, tokenId },
          { to: 'more@liar.test', amount: 10, tokenId },
          { to: 'optrue@liar.test', amount: 10, tokenId },
          { to: 'p2sh@basic.test', amount: 10, tokenId },
          // Last: its change stays pending while the receiver holds it (it never broadcasts).
          { to: 'shop@liar.test', amount: 10, tokenId },
        ],
      },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 500));
    assert.deepEqual(
      r.body.data.errors.map((e: { index: number; code: string }) => [e.index, e.code]),
      [
        [1, 'PAYMAIL_BAD_ANSWER'],
        [2, 'PAYMAIL_BAD_ANSWER'],
        [3, 'PAYMAIL_BAD_ANSWER'],
      ],
    );
    assert.match(r.body.data.errors[0].msg, /add up to 5000000 satoshis, not the 10 asked/);
    assert.equal(r.body.data.txIds.length, 2);
    const asks = liar.asked.slice(before);
    assert.ok(asks.length >= 3);
    for (const a of asks)
      assert.deepEqual(
        a.body,
        { satoshis: 10, token: { tokenId, protocol: 'KST-20' } },
        'the request names the token (a Keystead extension)',
      );
    const held = (await call('GET', '/v1/balance', { headers: { walletID: w } })).body.data.coins.find(
      (c: { tokenId?: string }) => c.tokenId === tokenId,
    );
    // The item to the address is booked; the one handed to the (non-broadcasting) host stays pending until the chain has it.
    assert.equal(held.amount, 990, 'only the honest items left (one booked, one pending)');
    assert.equal(liar.received.length, handed + 1, 'only the honest answer got a transaction');
    assert.match(String((liar.received.at(-1) as { reference: string }).reference), /^honest-/);
  });

  it('/v1/send retried with the same Idempotency-Key pays each item once (BSV and tokens), runs only the rest, and refuses the key for another body', async () => {
    const w = await fundedWallet('Retry', 1_000_000);
    const issued = await call('POST', '/api/v1/issue', {
      headers: { walletID: w },
      body: { name: 'Again', protocolId: 'KST-20', symbol: 'AGN', tokenSupply: 100, satsPerToken: 1 },
    });
    assert.equal(issued.status, 200, JSON.stringify(issued.body));
    const { tokenId } = issued.body.data;
    const bsvKey = PrivateKey.fromRandom();
    const body = {
      dataArray: [
        { to: bsvKey.toAddress(), satoshis: 3_000 },
        { to: PrivateKey.fromRandom().toAddress(), amount: 7, tokenId },
        { to: 'fewer@liar.test', satoshis: 1_000 },
      ],
    };
    const headers = { walletID: w, 'idempotency-key': 'batch-42' };
    const first = await call('POST', '/v1/send', { headers, body });
    assert.equal(first.status, 200, JSON.stringify(first.body).slice(0, 500));
    assert.deepEqual(
      first.body.data.errors.map((e: { index: number }) => e.index),
      [2],
    );
    const [bsvTx, tokenTx] = first.body.data.results.slice(0, 2).map((x: { txIds: string[] }) => x.txIds.at(-1));

    const again = await call('POST', '/v1/send', { headers, body });
    assert.equal(again.status, 200, JSON.stringify(again.body).slice(0, 500));
    assert.deepEqual(
      again.body.data.results.slice(0, 2).map((x: { txIds: string[]; replayed?: boolean }) => [x.txIds, x.replayed]),
      [
        [[bsvTx], true],
        [[tokenTx], true],
      ],
      'the first results, nothing paid again',
    );
    assert.deepEqual(
      again.body.data.errors.map((e: { index: number }) => e.index),
      [2],
    );

    // The host mends its ways: the retry runs only the item not yet paid.
    liar.reform('fewer');
    const third = await call('POST', '/v1/send', { headers, body });
    assert.equal(third.status, 200, JSON.stringify(third.body).slice(0, 500));
    assert.deepEqual(third.body.data.errors, []);
    assert.deepEqual(
      third.body.data.results.map((x: { replayed?: boolean }) => x.replayed ?? false),
      [true, true, false],
    );
    const fourth = await call('POST', '/v1/send', { headers, body });
    assert.deepEqual(
      fourth.body.data.results.map((x: { replayed?: boolean }) => x.replayed ?? false),
      [true, true, true],
    );
    assert.deepEqual(fourth.body.data.txIds, third.body.data.txIds);

    const out = await outgoing(w);
    assert.equal(out.filter((o) => o.txid === bsvTx).length, 1);
    assert.equal(out.filter((o) => o.txid === tokenTx).length, 1);
    assert.equal(await heldAt(bsvKey), 3_000, 'the chain holds one payment to the address, not two');
    const held = (await call('GET', '/v1/balance', { headers: { walletID: w } })).body.data.coins.find(
      (c: { tokenId?: string }) => c.tokenId === tokenId,
    );
    assert.equal(held.amount, 93, 'the token item was sent once');

    const reused = await call('POST', '/v1/send', { headers, body: { dataArray: [{ to: bsvKey.toAddress(), satoshis: 9_000 }] } });
    assert.equal(reused.status, 409, JSON.stringify(reused.body));
    assert.match(reused.body.data.msg, /idempotency-key was used for a different send/);
    assert.equal(await heldAt(bsvKey), 3_000);
  });

  it('keystead pay --yes refuses a lying host, and pays exactly the outputs it printed (a changed request is refused)', async () => {
    const w = await fundedWallet('Cli', 10_000_000);
    const env = { KEYSTEAD_URL: org.host.url, KEYSTEAD_TOKEN: org.auth.authToken };
    const lied = await keystead(['pay', 'more@liar.test', '--sats', '1000', '--wallet', w, '--yes'], env);
    assert.equal(lied.code, 1, lied.stderr);
    assert.match(
      lied.stderr,
      /more@liar\.test \(host 127\.0\.0\.1:\d+\) answered a P2P destination whose outputs add up to 5000000 satoshis, not the 1000 asked.*\(PAYMAIL_BAD_ANSWER\)/,
    );
    const basicLie = await keystead(['pay', 'p2sh@basic.test', '--sats', '1000', '--wallet', w, '--yes'], env);
    assert.equal(basicLie.code, 1);
    assert.match(basicLie.stderr, /output: is not a P2PKH script.*\(PAYMAIL_BAD_ANSWER\)/);
    assert.equal(await balanceOf(w), 10_000_000);

    // Something between the review and the payment changes what is paid: the API refuses it.
    const proxy = createServer((req, res) => {
      let text = '';
      req.on('data', (d) => (text += d));
      req.on('end', async () => {
        let body = text;
        if (req.url === '/v1/pay') {
          const b = JSON.parse(text);
          b.outputs = [{ script: p2pkh(), satoshis: 5_000_000 }];
          body = JSON.stringify(b);
        }
        const headers = Object.fromEntries(
          Object.entries(req.headers).filter(([k]) => !['host', 'content-length', 'connection'].includes(k)),
        ) as Record<string, string>;
        const r = await fetch(org.host.url + req.url, { method: req.method, headers, body: req.method === 'GET' ? undefined : body });
        res.writeHead(r.status, { 'content-type': 'application/json' }).end(await r.text());
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const via = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      const to = PrivateKey.fromRandom().toAddress();
      const changed = await keystead(['pay', to, '--sats', '1000', '--wallet', w, '--yes', '--url', via], env);
      assert.equal(changed.code, 1, changed.stdout);
      assert.match(changed.stderr, new RegExp(`To\\s+${to}\\s+0\\.00001 BSV`), 'it printed what it was asked');
      assert.match(changed.stderr, /not the one that was reviewed.*\(CONFLICT\)/);
      assert.equal(await balanceOf(w), 10_000_000, 'nothing was paid');
    } finally {
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
    const handed = liar.received.length;
    const ok = await keystead(['pay', 'shop@liar.test', '--sats', '1000', '--wallet', w, '--yes'], env);
    assert.equal(ok.code, 0, ok.stderr);
    await until('the payment shows in history', async () => ((await outgoing(w)).length === 1 ? true : undefined));
    assert.equal(liar.received.length, handed + 1, 'the honest answer was paid once');
  });
});
