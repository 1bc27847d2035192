import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatUnits, parseUnits } from '../../renderer/views/tokens/bsv21-amount.js';
import { validityWords, VALIDITY_BADGE } from '../../renderer/views/tokens/bsv21-words.js';
import { showAs } from '../../renderer/views/tokens/inscription-content.js';

/** The Tokens view's pure helpers: how inscription content may be shown, and BSV-21 amounts past 2^53. */
describe('tokens view helpers', () => {
  it('shows only allow-listed images as images and listed texts as text; everything else is a download', () => {
    for (const t of ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/svg+xml', 'IMAGE/PNG; x=1'])
      assert.equal(showAs(t), 'image', t);
    for (const t of ['text/plain', 'text/plain;charset=utf-8', 'text/markdown', 'application/json', 'application/bsv-20'])
      assert.equal(showAs(t), 'text', t);
    for (const t of [
      'text/html',
      'application/javascript',
      'text/javascript',
      'image/svg',
      'application/xhtml+xml',
      'text/xml',
      '',
      'image/x-icon',
    ])
      assert.equal(showAs(t), 'download', t);
  });

  it('reads and writes BSV-21 units exactly, beyond a number’s safe range', () => {
    assert.equal(formatUnits('18446744073709551615', 0), '18,446,744,073,709,551,615');
    assert.equal(formatUnits('123450', 2), '1,234.50');
    assert.equal(formatUnits('5', 3), '0.005');
    assert.equal(parseUnits('1,234.5', 2), '123450');
    assert.equal(parseUnits('18446744073709551615', 0), '18446744073709551615');
    assert.equal(parseUnits('0.001', 2), null, 'more decimals than the token has');
    assert.equal(parseUnits('0', 2), null);
    assert.equal(parseUnits('-1', 0), null);
    assert.equal(parseUnits('1e3', 0), null);
  });

  it('says why a balance is unverified or invalid, and calls pending "unverified"', () => {
    assert.equal(VALIDITY_BADGE.pending.label, 'unverified');
    const words = validityWords({
      id: `${'a'.repeat(64)}_0`,
      sym: 'ORDX',
      dec: 2,
      amount: '100',
      pendingAmount: '250',
      invalidAmount: '1000',
      validity: 'pending',
      outputs: 3,
    });
    assert.match(words, /2\.50 ORDX in outputs not traced yet/);
    assert.match(words, /10\.00 ORDX in outputs that do not trace back/);
  });
});
