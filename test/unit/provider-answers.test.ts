import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isDustLimit, MAX_FEE_SATOSHIS_PER_BYTE, readMiningFee, readUsdRate } from '../../main/chain/network/answers.js';
import { MAX_USD_PER_BSV, MIN_USD_PER_BSV } from '../../main/chain/usd-rate-band.js';
import { judgeUsdRate, POLICY_RATE_MAX_AGE_MS, RATE_JUMP_WINDOW_MS, rateForPolicy } from '../../main/engine/rates/guard.js';
import type { RateRow } from '../../main/store/repos/rates.js';

const policy = (miningFee: unknown) => ({ policy: { miningFee } });
const HOUR = 3600_000;
const NOW = 1_700_000_000_000;

describe("ARC's fee policy answer is read strictly", () => {
  it('accepts real policies, including a fractional satoshi rate and the ceiling itself', () => {
    assert.deepEqual(readMiningFee(policy({ satoshis: 1, bytes: 1000 })), { ok: true, value: { satoshis: 1, bytes: 1000 } });
    assert.deepEqual(readMiningFee(policy({ satoshis: 0.5, bytes: 1000 })), { ok: true, value: { satoshis: 0.5, bytes: 1000 } });
    assert.equal(readMiningFee(policy({ satoshis: 1000 * MAX_FEE_SATOSHIS_PER_BYTE, bytes: 1000 })).ok, true);
    assert.equal(readMiningFee({ timestamp: 'x', policy: { maxtxsizepolicy: 1, miningFee: { satoshis: 1, bytes: 1000 } } }).ok, true);
  });

  it('refuses a rate above 1 satoshi per byte however it is written', () => {
    for (const fee of [
      { satoshis: 100_000, bytes: 1 },
      { satoshis: 2, bytes: 1 },
      { satoshis: 1001, bytes: 1000 },
      { satoshis: 1e300, bytes: 1000 },
      { satoshis: Number.MAX_SAFE_INTEGER, bytes: 1_000_000 },
    ])
      assert.match((readMiningFee(policy(fee)) as { reason: string }).reason, /ceiling|not a whole number/, JSON.stringify(fee));
  });

  it('refuses zero, negative, fractional, absurd, non-numeric and missing fields', () => {
    const bad: unknown[] = [
      { satoshis: 0, bytes: 1000 },
      { satoshis: -1, bytes: 1000 },
      { satoshis: 1, bytes: 0 },
      { satoshis: 1, bytes: -1000 },
      { satoshis: 1, bytes: 0.5 },
      { satoshis: 1, bytes: 1000.5 },
      { satoshis: 1, bytes: 1e7 },
      { satoshis: 1, bytes: Infinity },
      { satoshis: NaN, bytes: 1000 },
      { satoshis: Infinity, bytes: 1000 },
      { satoshis: '1', bytes: 1000 },
      { satoshis: 1, bytes: '1000' },
      { satoshis: null, bytes: 1000 },
      { satoshis: true, bytes: 1000 },
      { satoshis: [1], bytes: 1000 },
      { bytes: 1000 },
      { satoshis: 1 },
      {},
      [1, 1000],
      'fee',
      null,
    ];
    for (const fee of bad) assert.equal(readMiningFee(policy(fee)).ok, false, JSON.stringify(fee));
    for (const body of [null, 'policy', 42, [], {}, { policy: null }, { policy: [] }, { miningFee: { satoshis: 1, bytes: 1000 } }])
      assert.equal(readMiningFee(body).ok, false, JSON.stringify(body));
  });

  it('takes a configured dust limit only as a small whole number', () => {
    for (const ok of [0, 1, 546, 1000]) assert.equal(isDustLimit(ok), true);
    for (const bad of [-1, 0.5, 1001, 1e9, NaN, Infinity, '1', null]) assert.equal(isDustLimit(bad), false, String(bad));
  });
});

describe("WhatsOnChain's USD rate answer is read strictly", () => {
  it('accepts a plausible rate, with its time or the current one', () => {
    assert.deepEqual(readUsdRate({ currency: 'USD', rate: 42.5, time: 1_700_000_000 }, NOW), {
      ok: true,
      value: { rate: 42.5, time: new Date(1_700_000_000_000).toISOString() },
    });
    const noTime = readUsdRate({ rate: 42.5 }, NOW);
    assert.equal(noTime.ok && noTime.value.time, new Date(NOW).toISOString());
    for (const time of [1e300, -5, NaN, 'soon', null]) {
      const r = readUsdRate({ rate: 42.5, time }, NOW);
      assert.equal(r.ok && r.value.time, new Date(NOW).toISOString(), `time ${String(time)} never throws`);
    }
    assert.equal(readUsdRate({ rate: MIN_USD_PER_BSV }, NOW).ok, true);
    assert.equal(readUsdRate({ rate: MAX_USD_PER_BSV }, NOW).ok, true);
  });

  it('refuses huge, tiny, zero, negative, non-numeric and missing rates, and another currency', () => {
    for (const rate of [1_000_001, 1e300, Infinity, 0.000001, 0.0099, 0, -0, -40, NaN, '40', null, true, [40], { rate: 40 }, undefined])
      assert.equal(readUsdRate({ currency: 'USD', rate }, NOW).ok, false, String(rate));
    for (const body of [null, 40, '40', [], { currency: 'EUR', rate: 40 }, { currency: 5, rate: 40 }])
      assert.equal(readUsdRate(body, NOW).ok, false, JSON.stringify(body));
  });
});

describe('a fetched USD rate may not jump against the stored one', () => {
  const stored = (rate: number, age: number, source = 'whatsonchain'): RateRow => ({ currency: 'USD', rate, source, updatedAt: NOW - age });

  it('accepts a first rate, a rate replacing the starting table or a typed one, and a small move', () => {
    assert.deepEqual(judgeUsdRate(null, 40, NOW), { accept: true, note: null });
    assert.deepEqual(judgeUsdRate(stored(40, 0, 'default'), 400, NOW), { accept: true, note: null });
    assert.deepEqual(judgeUsdRate(stored(40, 0, 'manual'), 400, NOW), { accept: true, note: null });
    assert.deepEqual(judgeUsdRate(stored(40, 10 * 60_000), 40.1, NOW), { accept: true, note: null });
    assert.deepEqual(judgeUsdRate(stored(40, 3 * HOUR), 45, NOW), { accept: true, note: null });
  });

  it('refuses a jump of more than 50% up or down while the stored rate is younger than the window', () => {
    for (const rate of [61, 100, 400, 26, 10, 1])
      for (const age of [0, 5 * 60_000, HOUR, RATE_JUMP_WINDOW_MS - 1])
        assert.equal(judgeUsdRate(stored(40, age), rate, NOW).accept, false, `${rate} after ${age} ms`);
  });

  it('refuses implausible rates whatever is stored', () => {
    for (const rate of [0, -1, NaN, Infinity, 1e7, 0.000001])
      for (const s of [null, stored(40, 10 * HOUR), stored(40, 0, 'default')]) assert.equal(judgeUsdRate(s, rate, NOW).accept, false);
  });

  it('bounds a provider that lies a little at every refresh: at most 50% per window', () => {
    let row = stored(40, 0);
    let now = NOW;
    for (let i = 0; i < 72; i++) {
      // Every five minutes, ask for 10% more than the stored rate, then the most the rule allows.
      now += 5 * 60_000;
      if (judgeUsdRate(row, row.rate * 1.1, now).accept) row = { ...row, rate: row.rate * 1.1, updatedAt: now };
      else {
        let lo = row.rate;
        let hi = row.rate * 1.1;
        for (let j = 0; j < 40; j++) {
          const mid = (lo + hi) / 2;
          if (judgeUsdRate(row, mid, now).accept) lo = mid;
          else hi = mid;
        }
        row = { ...row, rate: lo, updatedAt: now };
      }
    }
    assert.ok(row.rate <= 40 * 1.5 + 1e-6, `six hours of small lies reach ${row.rate}, not more than 60`);
  });

  it('accepts (with a note to log) a big move once the stored rate is older than the window', () => {
    const v = judgeUsdRate(stored(40, RATE_JUMP_WINDOW_MS), 100, NOW);
    assert.equal(v.accept, true);
    assert.match((v as { note: string }).note, /accepted a jump of 40 → 100/);
    assert.deepEqual(judgeUsdRate(stored(40, RATE_JUMP_WINDOW_MS), 41, NOW), { accept: true, note: null });
  });
});

describe('the rate a policy measures a currency limit with has a maximum age', () => {
  const repo = (row: RateRow | null) => ({ get: (c: string) => (row && row.currency === c ? row : null) });

  it('gives a fresh provider rate, and the typed or starting table at any age', () => {
    const fresh: RateRow = { currency: 'USD', rate: 40, source: 'whatsonchain', updatedAt: NOW - POLICY_RATE_MAX_AGE_MS };
    assert.equal(rateForPolicy(repo(fresh), 'usd', NOW), fresh);
    for (const source of ['manual', 'default']) {
      const row: RateRow = { currency: 'EUR', rate: 37, source, updatedAt: 0 };
      assert.equal(rateForPolicy(repo(row), 'EUR', NOW), row);
    }
  });

  it('gives nothing for a stale provider rate, a missing one, or a stored nonsense value', () => {
    assert.equal(
      rateForPolicy(repo({ currency: 'USD', rate: 40, source: 'whatsonchain', updatedAt: NOW - POLICY_RATE_MAX_AGE_MS - 1 }), 'USD', NOW),
      null,
    );
    assert.equal(rateForPolicy(repo({ currency: 'USD', rate: 40, source: 'whatsonchain', updatedAt: NaN }), 'USD', NOW), null);
    assert.equal(rateForPolicy(repo(null), 'USD', NOW), null);
    for (const rate of [0, -1, NaN, Infinity])
      assert.equal(rateForPolicy(repo({ currency: 'USD', rate, source: 'manual', updatedAt: NOW }), 'USD', NOW), null);
  });
});
