import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PrivateKey } from '@bsv/sdk';
import fc from 'fast-check';
import { parsePaymentUri } from '../../main/engine/payments/uri.js';
import { decimalAmount, satoshisOfBsv } from '../../shared/amount-schema.js';
import { amountText, parseAmount } from '../../shared/amounts.js';
import { MAX_SATOSHIS, satoshisOfBsvText, satoshisOfText, type AmountProblem } from '../../shared/satoshis.js';

const ADDR = PrivateKey.fromRandom().toAddress();

/** What the BIP21 path makes of an amount: satoshis, or null when it refuses it. */
function viaUri(amount: string): number | null {
  try {
    return parsePaymentUri(`bitcoin:${ADDR}?amount=${encodeURIComponent(amount)}`).satoshis;
  } catch {
    return null;
  }
}

const reading = (text: string) => {
  const r = satoshisOfBsvText(text);
  return r.ok ? r.satoshis : r.problem;
};

describe('the one exact reading of BSV text', () => {
  it('takes plain decimals with at most 8 decimals, exactly', () => {
    const accepted: [string, number][] = [
      ['0', 0],
      ['1', 100_000_000],
      ['0.00000001', 1],
      ['0.00015', 15_000],
      ['0.1', 10_000_000],
      ['1.5', 150_000_000],
      ['007.50', 750_000_000],
      ['5.10000000', 510_000_000],
      ['20999999.99999999', 2_099_999_999_999_999],
      ['21000000', MAX_SATOSHIS],
      ['0.29', 29_000_000],
      ['1.13', 113_000_000],
    ];
    for (const [text, sats] of accepted) assert.equal(reading(text), sats, text);
  });

  it('refuses anything else, and says which way it is wrong', () => {
    const refused: [string, AmountProblem][] = [
      ['', 'format'],
      ['.5', 'format'],
      ['5.', 'format'],
      ['-1', 'format'],
      ['+1', 'format'],
      ['1e3', 'format'],
      ['1E-8', 'format'],
      ['0x10', 'format'],
      [' 1', 'format'],
      ['1 000', 'format'],
      ['1,000', 'format'],
      ['1.2.3', 'format'],
      ['NaN', 'format'],
      ['Infinity', 'format'],
      ['١', 'format'],
      ['0.000000005', 'fraction'],
      ['0.000000010', 'fraction'],
      ['1.123456789', 'fraction'],
      ['21000000.00000001', 'too-large'],
      ['21000001', 'too-large'],
      ['99999999999999999999', 'too-large'],
    ];
    for (const [text, problem] of refused) assert.equal(reading(text), problem, JSON.stringify(text));
  });

  it('reads satoshis as digits only', () => {
    assert.deepEqual(satoshisOfText('15000'), { ok: true, satoshis: 15_000 });
    assert.deepEqual(satoshisOfText('0'), { ok: true, satoshis: 0 });
    assert.deepEqual(satoshisOfText(String(MAX_SATOSHIS)), { ok: true, satoshis: MAX_SATOSHIS });
    for (const text of ['', '1.5', '1.0', '-1', '1e3', ' 7', '0x10'])
      assert.deepEqual(satoshisOfText(text), { ok: false, problem: 'format' }, text);
    assert.deepEqual(satoshisOfText(String(MAX_SATOSHIS + 1)), { ok: false, problem: 'too-large' });
  });

  it('is the inverse of amountText, over the whole range (fast-check)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_SATOSHIS }), (n) => {
        assert.equal(reading(amountText(n, 'BSV')), n);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('every path that reads BSV text agrees: BIP21 URIs, what people type, the API', () => {
  const samples = [
    '0.0001',
    '1',
    '0.00000001',
    '0.00015',
    '20999999.99999999',
    '21000000',
    '0.29',
    '1.13',
    '123.456',
    '0.000000005',
    '1.123456789',
    '21000000.00000001',
    '21000001',
    '1e3',
    '-1',
    '0x10',
    '1.2.3',
    'abc',
  ];

  it('the URI path refuses what the shared reading refuses, and reads the same satoshis otherwise', () => {
    for (const text of samples) {
      const r = satoshisOfBsvText(text);
      assert.equal(viaUri(text), r.ok ? r.satoshis : null, text);
    }
  });

  it('what people type (parseAmount) and the API (decimalAmount, satoshisOfBsv) read the same satoshis as the URI', () => {
    for (const text of samples) {
      const uri = viaUri(text);
      const typed = parseAmount(text, 'BSV');
      assert.equal(typed.ok ? typed.satoshis : null, uri, `typed ${text}`);
      const api = decimalAmount.safeParse(text);
      if (uri !== null && uri > 0) assert.equal(api.success && satoshisOfBsv(api.data), uri, `api ${text}`);
      else assert.ok(!api.success || satoshisOfBsv(api.data) === null, `api ${text}`);
    }
  });

  it('agree on generated amounts too (fast-check)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_SATOSHIS }), fc.integer({ min: 0, max: 3 }), (n, extra) => {
        // The amount, plus a few digits finer than a satoshi that every path must refuse.
        const text = amountText(n, 'BSV');
        const finer = `${text}${text.includes('.') ? '' : '.'}${'0'.repeat(Math.max(0, 8 - (text.split('.')[1]?.length ?? 0)))}${'5'.repeat(extra)}`;
        const expected = extra === 0 ? n : null;
        assert.equal(viaUri(finer), expected, finer);
        const typed = parseAmount(finer, 'BSV');
        assert.equal(typed.ok ? typed.satoshis : null, expected, finer);
        assert.equal(satoshisOfBsv(decimalAmount.parse(finer)), expected, finer);
      }),
      { numRuns: 500 },
    );
  });
});
