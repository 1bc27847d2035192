import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { bsv21Json, ordP2pkhScript, parseOrdOutput, u64String } from '../../main/chain/ordinal-envelope.js';
import { inscriptionHeaders } from '../../shared/contracts/ordinals.js';

const PKH = '11'.repeat(20);
const P2PKH = `76a914${PKH}88ac`;
const hex = (s: string) => Buffer.from(s, 'utf8').toString('hex');
const push = (h: string) => {
  const n = h.length / 2;
  if (n <= 75) return n.toString(16).padStart(2, '0') + h;
  if (n <= 255) return '4c' + n.toString(16).padStart(2, '0') + h;
  return '4d' + Buffer.from([n & 0xff, n >> 8]).toString('hex') + h;
};
/** OP_FALSE OP_IF "ord" OP_1 <type> OP_0 <content> OP_ENDIF */
const envelope = (type: string, content: string) => `0063${push(hex('ord'))}51${push(hex(type))}00${push(hex(content))}68`;
const ID = `${'ab'.repeat(32)}_0`;

describe('ordinals: the envelope parser', () => {
  it('reads an inscription after the P2PKH, before it, and before it with OP_CODESEPARATOR', () => {
    for (const script of [
      P2PKH + envelope('text/plain', 'hello'),
      envelope('text/plain', 'hello') + P2PKH,
      envelope('text/plain', 'hello') + 'ab' + P2PKH,
    ]) {
      const f = parseOrdOutput(script);
      assert.equal(f.ownerPkh, PKH, script);
      assert.match(f.owner!, /^1[1-9A-HJ-NP-Za-km-z]{25,34}$/);
      assert.equal(f.inscription?.contentType, 'text/plain');
      assert.equal(Buffer.from(f.inscription!.content).toString(), 'hello');
      assert.equal(f.inscription?.size, 5);
      assert.equal(f.bsv21, null);
    }
    assert.deepEqual(parseOrdOutput(P2PKH), { owner: parseOrdOutput(P2PKH).owner, ownerPkh: PKH, inscription: null, bsv21: null });
  });

  it('writes what it reads (Keystead writes P2PKH first)', () => {
    const script = ordP2pkhScript(PKH, 'application/bsv-20', bsv21Json({ op: 'deploy+mint', amt: '1000', sym: 'GEM', dec: 2, icon: null }));
    assert.ok(script.startsWith(P2PKH));
    const f = parseOrdOutput(script);
    assert.deepEqual(f.bsv21, { op: 'deploy+mint', id: null, amt: '1000', sym: 'GEM', dec: 2, icon: null });
    const big = ordP2pkhScript(PKH, 'image/png', new Uint8Array(70_000).fill(7));
    const g = parseOrdOutput(big, { maxContentBytes: 1000 });
    assert.deepEqual([g.inscription?.size, g.inscription?.content.length, g.inscription?.truncated], [70_000, 1000, true]);
  });

  it('reads BSV-21 operations strictly: amounts as canonical u64 decimal strings, ids as outpoints', () => {
    const op = (json: string) => parseOrdOutput(P2PKH + envelope('application/bsv-20', json)).bsv21;
    assert.deepEqual(op(`{"p":"bsv-20","op":"transfer","id":"${ID}","amt":"18446744073709551615"}`), {
      op: 'transfer',
      id: ID,
      amt: '18446744073709551615',
      sym: null,
      dec: null,
      icon: null,
    });
    assert.equal(op(`{"p":"bsv-20","op":"burn","id":"${ID}","amt":"5"}`)?.op, 'burn');
    assert.equal(op('{"p":"bsv-20","op":"deploy+mint","amt":"10","dec":"18"}')?.dec, 18);
    for (const bad of [
      `{"p":"bsv-20","op":"transfer","id":"${ID}","amt":"18446744073709551616"}`, // 2^64
      `{"p":"bsv-20","op":"transfer","id":"${ID}","amt":5}`, // a JSON number
      `{"p":"bsv-20","op":"transfer","id":"${ID}","amt":"-5"}`,
      `{"p":"bsv-20","op":"transfer","id":"${ID}","amt":"05"}`,
      `{"p":"bsv-20","op":"transfer","id":"${ID}","amt":"1e3"}`,
      `{"p":"bsv-20","op":"transfer","id":"${ID}","amt":"1.5"}`,
      `{"p":"bsv-20","op":"transfer","id":"nope","amt":"5"}`,
      `{"p":"bsv-20","op":"transfer","amt":"5"}`,
      `{"p":"bsv-20","op":"transfer","tick":"PEPE","amt":"5"}`, // BSV-20 v1: not BSV-21
      '{"p":"bsv-20","op":"deploy+mint","amt":"0"}',
      '{"p":"bsv-20","op":"deploy+mint","amt":"10","dec":"19"}',
      '{"p":"bsv-20","op":"deploy+mint","amt":"10","sym":"\u202eXYZ"}',
      '{"p":"bsv-20","op":"mint","amt":"10"}',
      '{"p":"brc-20","op":"deploy+mint","amt":"10"}',
      '["p","bsv-20"]',
      'not json',
    ])
      assert.equal(op(bad), null, bad);
    // Another content type: not a token, whatever the JSON says.
    assert.equal(parseOrdOutput(P2PKH + envelope('text/plain', `{"p":"bsv-20","op":"deploy+mint","amt":"10"}`)).bsv21, null);
    assert.equal(u64String('18446744073709551615'), '18446744073709551615');
    assert.equal(u64String('184467440737095516150'), null);
  });

  it('never throws on hostile scripts and owns nothing it cannot spend as P2PKH', () => {
    const hostile = [
      '',
      'zz',
      'abc',
      '4e', // PUSHDATA4 with no length
      '4effffffff00', // PUSHDATA4 past the end
      '0063036f7264', // envelope never closed
      '0063036f726451', // field with no value
      '0063036f72645104746578740061', // a non-push op inside the envelope (OP_NOP)
      P2PKH + P2PKH,
      P2PKH + envelope('text/plain', 'x') + '76', // something after the envelope
      envelope('text/plain', 'x') + P2PKH + '00', // something after the P2PKH
      '6a' + envelope('text/plain', 'x'),
      'ff'.repeat(20_000),
    ];
    for (const s of hostile) {
      const f = parseOrdOutput(s);
      assert.equal(f.owner, null, s.slice(0, 40));
    }
    assert.equal(
      parseOrdOutput(P2PKH + envelope('text/plain', 'x') + '6a0401020304').owner !== null,
      true,
      'OP_RETURN data after it is fine',
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), (bytes) => {
        const s = Buffer.from(bytes).toString('hex');
        const f = parseOrdOutput(s);
        assert.ok(f.inscription === null || f.inscription.content.length <= f.inscription.size);
        parseOrdOutput(P2PKH + s);
        parseOrdOutput(`0063036f7264${s}`);
      }),
      { numRuns: 2000 },
    );
    assert.equal(parseOrdOutput(undefined as unknown as string).owner, null);
  });

  it('an inscription is served sandboxed: images and plain text inline, everything else as a download', () => {
    const png = inscriptionHeaders('image/png');
    assert.equal(png['content-type'], 'image/png');
    assert.equal(png['content-security-policy'], "sandbox; default-src 'none'");
    assert.equal(png['x-content-type-options'], 'nosniff');
    assert.equal(png['content-disposition'], undefined);
    assert.equal(inscriptionHeaders('text/plain;charset=latin1')['content-type'], 'text/plain; charset=utf-8');
    for (const t of ['text/html', 'image/svg+xml', 'application/javascript', '', 'text/html; x=image/png']) {
      const h = inscriptionHeaders(t);
      assert.equal(h['content-disposition'], 'attachment', t);
      assert.equal(h['content-type'], 'application/octet-stream', t);
    }
  });
});
