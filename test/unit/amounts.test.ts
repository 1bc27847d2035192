import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { amountText, parseAmount } from '../../shared/amounts.js';

describe('amounts as people type them: exact or refused, never rounded', () => {
  it('reads BSV and satoshis exactly', () => {
    assert.deepEqual(parseAmount('0.00015', 'BSV'), { ok: true, satoshis: 15_000 });
    assert.deepEqual(parseAmount(' 1,000.5 ', 'BSV'), { ok: true, satoshis: 100_050_000_000 });
    assert.deepEqual(parseAmount('0.00000001', 'BSV'), { ok: true, satoshis: 1 });
    assert.deepEqual(parseAmount('0.000000010', 'BSV'), { ok: true, satoshis: 1 }, 'trailing zeros past 8 decimals change nothing');
    assert.deepEqual(parseAmount('15,000', 'sat'), { ok: true, satoshis: 15_000 });
    assert.deepEqual(parseAmount('12.0', 'sat'), { ok: true, satoshis: 12 });
    assert.deepEqual(parseAmount('5.', 'BSV'), { ok: true, satoshis: 500_000_000 });
  });

  it('refuses half satoshis, in both units, with the reason', () => {
    const half = parseAmount('0.000000005', 'BSV');
    assert.equal(half.ok, false);
    assert.match((half as { error: string }).error, /not a whole number of satoshis.*at most 8 decimals/);
    assert.match((parseAmount('0.5', 'sat') as { error: string }).error, /cannot be split/);
  });

  it('refuses what is not an amount', () => {
    for (const [text, unit] of [
      ['', 'BSV'],
      ['-1', 'BSV'],
      ['1e3', 'sat'],
      ['0x10', 'sat'],
      ['1.2.3', 'BSV'],
      ['abc', 'sat'],
      ['21000001', 'BSV'],
    ] as const) {
      assert.equal(parseAmount(text, unit).ok, false, `${text} ${unit}`);
    }
  });

  it('writes back what it reads', () => {
    for (const sats of [0, 1, 15_000, 100_000_000, 123_456_789, 2_100_000_000_000_000]) {
      for (const unit of ['BSV', 'sat'] as const) assert.deepEqual(parseAmount(amountText(sats, unit), unit), { ok: true, satoshis: sats });
    }
    assert.equal(amountText(15_000, 'BSV'), '0.00015');
  });
});
