import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LockingScript, P2PKH, PrivateKey, Transaction } from '@bsv/sdk';
import { B_PREFIX, bScript, dataPushesOf, dataScript, printable, pushData } from '../../main/engine/utilities/data-script.js';
import { decodeTransaction } from '../../main/engine/utilities/decode.js';
import { fileFromDataUrl, fileFromHttpUrl, mediaTypeOf } from '../../main/engine/utilities/fetch-file.js';
import type { Resolver } from '../../main/net/guarded-http.js';
import { bucketMetrics, periodStart, type MetricsRow } from '../../main/engine/utilities/metrics.js';
import { postScripts } from '../../main/engine/utilities/write.js';
import { buildSweep } from '../../main/engine/sweep/sweep-tx.js';
import { requiredFee } from '../../main/chain/policy.js';

const hex = (s: string) => Buffer.from(s).toString('hex');

describe('data outputs', () => {
  it('pushes bytes in their shortest form at each size boundary', () => {
    assert.equal(pushData(Buffer.alloc(0)), '00');
    assert.equal(pushData(Buffer.from([0xab])), '01ab');
    assert.equal(pushData(Buffer.alloc(75, 1)).slice(0, 2), '4b');
    assert.equal(pushData(Buffer.alloc(76, 1)).slice(0, 4), '4c4c');
    assert.equal(pushData(Buffer.alloc(256, 1)).slice(0, 6), '4d0001');
    assert.equal(pushData(Buffer.alloc(65_536, 1)).slice(0, 10), '4e00000100');
  });

  it('writes OP_FALSE OP_RETURN and reads its pushes back', () => {
    const script = dataScript([Buffer.from('hello'), Buffer.alloc(300, 7)]);
    assert.ok(script.startsWith('006a05' + hex('hello') + '4d2c01'));
    assert.deepEqual(dataPushesOf(script), [hex('hello'), Buffer.alloc(300, 7).toString('hex')]);
    assert.equal(dataPushesOf('76a914' + '00'.repeat(20) + '88ac'), null);
  });

  it('lays a file out as B:// (prefix, data, media type, encoding, file name)', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]);
    const pushes = dataPushesOf(bScript(png, 'image/png', 'a.png'))!;
    assert.deepEqual(pushes, [hex(B_PREFIX), png.toString('hex'), hex('image/png'), hex('binary'), hex('a.png')]);
    const text = dataPushesOf(bScript(Buffer.from('hi'), 'text/plain', null))!;
    assert.deepEqual(text, [hex(B_PREFIX), hex('hi'), hex('text/plain'), hex('utf-8')]);
  });

  it("builds post's outputs: one per dataArray item, each note a push (JSON for non-text)", () => {
    const [a, b] = postScripts({ dataArray: [{ notes: ['note one', { n: 2 }] }, { notes: ['x'] }], payload: undefined });
    assert.deepEqual(dataPushesOf(a), [hex('note one'), hex('{"n":2}')]);
    assert.deepEqual(dataPushesOf(b), [hex('x')]);
    assert.throws(() => postScripts({ dataArray: undefined, payload: undefined }), /Send what to write/);
    assert.throws(() => postScripts({ dataArray: undefined, payload: 'x'.repeat(100_001) }), /at most/);
  });

  it('shows text only when it is printable', () => {
    assert.equal(printable(hex('a\tb\nc')), 'a\tb\nc');
    assert.equal(printable('00ff'), null);
  });
});

describe('upload sources', () => {
  it('decodes data: URLs (base64 and percent-encoded) and bounds their size', () => {
    assert.deepEqual(fileFromDataUrl('data:image/png;base64,AAEC', 10), { bytes: Buffer.from([0, 1, 2]), contentType: 'image/png' });
    assert.deepEqual(fileFromDataUrl('data:,hello%20world', 100), { bytes: Buffer.from('hello world'), contentType: null });
    assert.throws(() => fileFromDataUrl('data:;base64,AAECAwQF', 3), /larger than 3 bytes/);
    assert.throws(() => fileFromDataUrl('nope', 3), /not a valid data: URL/);
  });

  it('refuses private, local and link-local addresses however written (the guarded client), and guesses media types from names', async () => {
    const refused = (url: string, resolve?: Resolver) =>
      fileFromHttpUrl(url, 100, { resolve, timeoutMs: 2_000 }).then(
        () => 'fetched',
        (e: { code?: string }) => e.code,
      );
    for (const host of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '0.0.0.0',
      '0x7f000001',
      '2130706433',
      '[::1]',
      '[fd00::1]',
      '[fe80::1]',
      '[::ffff:127.0.0.1]',
      '[::ffff:a9fe:a9fe]',
      '[::ffff:a00:1]',
      '[64:ff9b::7f00:1]',
      '[2002:a9fe:a9fe::]',
    ])
      assert.equal(await refused(`http://${host}:1/x`), 'FORBIDDEN', host);
    // A name: every address it resolves to must be public (one private answer among public ones is enough to refuse).
    const resolvesTo =
      (...addresses: string[]): Resolver =>
      async () =>
        addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    assert.equal(await refused('http://files.example.test/x', resolvesTo('::ffff:7f00:1')), 'FORBIDDEN');
    assert.equal(await refused('http://files.example.test/x', resolvesTo('93.184.215.14', '10.0.0.1')), 'FORBIDDEN');
    assert.equal(await refused('ftp://files.example.test/x'), 'VALIDATION_FAILED');
    assert.equal(await refused('http://user:pw@files.example.test/x', resolvesTo('93.184.215.14')), 'VALIDATION_FAILED');
    assert.equal(mediaTypeOf('photo.JPG'), 'image/jpeg');
    assert.equal(mediaTypeOf('noext'), null);
  });
});

describe('metrics per period', () => {
  const day = Date.UTC(2026, 10, 26, 12); // a Thursday
  const row = (over: Partial<MetricsRow>): MetricsRow => ({
    direction: 'in',
    amount: 0,
    fee: null,
    feePaidBy: null,
    state: 'seen',
    time: day,
    ...over,
  });

  it('starts days, weeks (Monday) and months in UTC', () => {
    assert.equal(new Date(periodStart(day, 'day')).toISOString(), '2026-11-26T00:00:00.000Z');
    assert.equal(new Date(periodStart(day, 'week')).toISOString(), '2026-11-23T00:00:00.000Z');
    assert.equal(new Date(periodStart(day, 'month')).toISOString(), '2026-11-01T00:00:00.000Z');
  });

  it('counts and sums what came in and went out, fees apart, failed ones left out', () => {
    const rows = [
      row({ direction: 'in', amount: 5000 }),
      row({ direction: 'out', amount: -1100, fee: 100, feePaidBy: 'wallet' }),
      row({ direction: 'out', amount: -700, fee: 50, feePaidBy: 'feeManager' }),
      row({ direction: 'self', amount: -20, fee: 20, feePaidBy: 'wallet' }),
      row({ direction: 'in', amount: 999, state: 'failed' }),
      row({ direction: 'in', amount: 300, time: day - 86_400_000 }),
      row({ direction: 'in', amount: 1, time: day - 40 * 86_400_000 }),
    ];
    const { periods, totals } = bucketMetrics(rows, 'day', 3, day);
    assert.equal(periods.length, 3);
    assert.deepEqual(periods[0], {
      start: '2026-11-26T00:00:00.000Z',
      received: { count: 1, satoshis: 5000 },
      sent: { count: 3, satoshis: 1000 + 700 + 0 },
      fees: 120,
      net: 5000 - 1100 - 700 - 20,
    });
    assert.equal(periods[1].received.satoshis, 300);
    assert.equal(periods[2].received.count, 0);
    assert.equal(totals.transactions, 6);
    assert.equal(totals.received.satoshis, 5301);
  });
});

describe('decoding a transaction', () => {
  const key = PrivateKey.fromRandom();
  const p2pkh = new P2PKH().lock(key.toAddress()).toHex();

  it('reads inputs with the outputs they spend, outputs with addresses, data and fee', async () => {
    const parent = new Transaction(1, [], [{ lockingScript: LockingScript.fromHex(p2pkh), satoshis: 10_000 }], 0);
    const tx = new Transaction(1, [], [], 0);
    tx.addInput({ sourceTransaction: parent, sourceOutputIndex: 0, unlockingScriptTemplate: new P2PKH().unlock(key) });
    tx.addOutput({ lockingScript: LockingScript.fromHex(dataScript([Buffer.from('hi')])), satoshis: 0 });
    tx.addOutput({ lockingScript: LockingScript.fromHex(p2pkh), satoshis: 9_900 });
    await tx.sign();
    const d = await decodeTransaction(tx.toHex(), {
      token: () => null,
      previous: async (txid, vout) => (txid === parent.id('hex') && vout === 0 ? { satoshis: 10_000, script: p2pkh } : null),
    });
    assert.equal(d.txid, tx.id('hex'));
    assert.equal(d.inputs[0].previous?.address, key.toAddress());
    assert.equal(d.outputs[0].kind, 'data');
    assert.deepEqual(d.outputs[0].text, ['hi']);
    assert.equal(d.outputs[1].address, key.toAddress());
    assert.equal(d.fee, 100);
    const unknown = await decodeTransaction(tx.toHex(), { token: () => null, previous: async () => null });
    assert.equal(unknown.inputs[0].previous, null);
    assert.equal(unknown.fee, null);
  });

  it('refuses what is not a transaction', async () => {
    await assert.rejects(decodeTransaction('00', { token: () => null, previous: async () => null }), /Not a transaction/);
  });
});

describe('the sweep transaction', () => {
  const key = PrivateKey.fromRandom();
  const script = new P2PKH().lock(key.toAddress()).toHex();
  const to = new P2PKH().lock(PrivateKey.fromRandom().toAddress()).toHex();
  const policy = { satoshis: 50, bytes: 1000, dustLimit: 1 };

  it('spends every coin to one output, paying the fee its signed size needs', async () => {
    const coins = [1, 2, 3].map((i) => ({ txid: String(i).repeat(64), vout: i, satoshis: 10_000 * i, script }));
    const r = await buildSweep(coins, key, to, policy);
    assert.ok(!('dust' in r));
    if ('dust' in r) return;
    assert.equal(r.tx.inputs.length, 3);
    assert.equal(r.tx.outputs.length, 1);
    assert.equal(r.amount + r.fee, 60_000);
    assert.ok(r.fee >= requiredFee(r.tx.toBinary().length, policy));
  });

  it('says dust when the fee would eat the coins', async () => {
    const r = await buildSweep([{ txid: 'a'.repeat(64), vout: 0, satoshis: 5, script }], key, to, policy);
    assert.ok('dust' in r);
  });
});
