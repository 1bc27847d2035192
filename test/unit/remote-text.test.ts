import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { cleanRemoteText, txidOf } from '../../shared/remote-text.js';

/** What must never survive cleaning: C0 controls, DEL, C1 controls, bidi embeddings/overrides/isolates, line separators. */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

describe('cleanRemoteText: a counterparty’s text as one inert line', () => {
  it('leaves ordinary text alone (accents, emoji, right-to-left scripts, quotes)', () => {
    for (const s of ['Order 12', 'Café für Zoë — ok', 'Thanks 🙏🏽 for the 🍕', 'שלום עולם', 'مرحبا', '"quoted" & <b>'])
      assert.equal(cleanRemoteText(s, 500), s);
  });

  it('a newline cannot forge a history line: line breaks become spaces', () => {
    const forged = 'x\n2026-01-01T00:00:00Z  confirmed in +1000.00000000 BSV ' + 'a'.repeat(64);
    const clean = cleanRemoteText(forged, 500);
    assert.equal(clean, 'x 2026-01-01T00:00:00Z  confirmed in +1000.00000000 BSV ' + 'a'.repeat(64));
    for (const brk of ['\r', '\r\n', '\v', '\f', '\u0085', '\u2028', '\u2029'])
      assert.equal(cleanRemoteText(`a${brk}b`, 50).replace(/ +/g, ' '), 'a b', JSON.stringify(brk));
    assert.equal(cleanRemoteText('a\tb', 50), 'a b', 'a tab becomes a space');
  });

  it('removes terminal escape sequences’ introducers: ESC, 8-bit CSI and OSC, BEL', () => {
    assert.equal(cleanRemoteText('\x1b[2J\x1b[31mred\x1b[0m', 100), '[2J[31mred[0m');
    assert.equal(cleanRemoteText('\x1b]0;owned\x07title', 100), ']0;ownedtitle');
    assert.equal(cleanRemoteText('\u009b31mred\u009d0;x\u009c', 100), '31mred0;x');
    assert.equal(cleanRemoteText('a\u007fb\bc', 100), 'abc', 'DEL and backspace are gone');
  });

  it('removes bidi overrides and isolates (a "Trojan Source" reordering)', () => {
    assert.equal(cleanRemoteText('pay \u202eecnalab\u202c now', 100), 'pay ecnalab now');
    for (const c of ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'])
      assert.equal(cleanRemoteText(`a${c}b`, 10), 'ab', `U+${c.charCodeAt(0).toString(16)}`);
  });

  it('removes NUL, and text made only of controls is empty', () => {
    assert.equal(cleanRemoteText('abc\u0000def', 100), 'abcdef');
    assert.equal(cleanRemoteText('\u0000\u001b\u202e\n\t ', 100), '');
  });

  it('trims and cuts to the limit without splitting a surrogate pair; lone surrogates become U+FFFD', () => {
    assert.equal(cleanRemoteText('   padded   ', 100), 'padded');
    assert.equal(cleanRemoteText('x'.repeat(10_000), 500).length, 500);
    assert.equal(cleanRemoteText('ab🍕', 3), 'ab', 'the pizza does not fit whole, so it is left out, not halved');
    assert.equal(cleanRemoteText('a\ud800b\udc00c', 10), 'a\ufffdb\ufffdc');
    assert.equal(cleanRemoteText('a'.repeat(1_000_000) + '\n', 500), 'a'.repeat(500), 'a megabyte is cut quickly');
  });

  it('property: nothing unsafe survives, the limit holds, and clean text is a fixed point', () => {
    const hostile = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 300 }),
      fc
        .array(fc.constantFrom('a', ' ', '\n', '\r', '\t', '\x1b', '[', '\u009b', '\u202e', '\u2066', '\u0000', '🍕', '\ud800', 'é'), {
          maxLength: 300,
        })
        .map((a) => a.join('')),
    );
    fc.assert(
      fc.property(hostile, fc.integer({ min: 1, max: 400 }), (s, max) => {
        const clean = cleanRemoteText(s, max);
        assert.ok(!UNSAFE.test(clean), JSON.stringify(clean));
        assert.ok(clean.length <= max);
        assert.equal(clean, clean.trim());
        assert.equal(cleanRemoteText(clean, max), clean);
        assert.ok(!/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(clean), 'no lone surrogate');
      }),
    );
  });
});

describe('txidOf: a counterparty’s txid is a txid or nothing', () => {
  it('takes 64 hex digits, lower-cased', () => {
    const t = 'ab'.repeat(32);
    assert.equal(txidOf(t), t);
    assert.equal(txidOf(t.toUpperCase()), t);
  });

  it('refuses anything else: short, long, non-hex, padded, with a newline, not a string', () => {
    const t = 'ab'.repeat(32);
    for (const bad of [
      t.slice(1),
      `${t}0`,
      `${t.slice(1)}g`,
      ` ${t}`,
      `${t}\n`,
      `${t}\nforged`,
      'f'.repeat(1_000_000),
      '',
      42,
      null,
      undefined,
    ])
      assert.equal(txidOf(bad), null, JSON.stringify(bad)?.slice(0, 80));
  });
});
