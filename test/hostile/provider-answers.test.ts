import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it, mock } from 'node:test';
import { NetworkProvider } from '../../main/chain/network/network-provider.js';
import { selectCoins } from '../../main/engine/payments/coin-select.js';
import { rateFor, refreshRates } from '../../main/engine/rates/rates.js';
import { rateForPolicy } from '../../main/engine/rates/guard.js';
import type { RateServices } from '../../main/engine/rates/services.js';
import type { RateRow } from '../../main/store/repos/rates.js';
import { createLogger } from '../../main/log/logger.js';

/**
 * Answers to Keystead's own requests are as hostile as any input. ARC's fee policy and WhatsOnChain's USD
 * rate set how much a payment spends, what an invoice asks and what a USD policy limit allows: a lying
 * provider must not move them, and the last good value stays in use.
 */

/** A stand-in ARC + WhatsOnChain whose answers the test sets (raw text, so non-JSON can be sent too). */
let server: Server;
let url = '';
let policyAnswer = '';
let rateAnswer = '';
before(async () => {
  server = createServer((req, res) => {
    req.resume();
    const body = req.url === '/v1/policy' ? policyAnswer : req.url === '/exchangerate' ? rateAnswer : null;
    if (body === null) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((r) => server.close(() => r())));

function capture() {
  const lines: { level: number; msg: string }[] = [];
  const logger = createLogger({ level: 'info', destination: { write: (s: string) => void lines.push(JSON.parse(s)) } as never });
  return { lines, logger, warnings: () => lines.filter((l) => l.level === 40).map((l) => l.msg) };
}

const provider = (logger: ReturnType<typeof capture>['logger']) =>
  new NetworkProvider({ network: 'testnet', arcUrl: url, wocUrl: url, logger, http: { retries: 0, backoffMs: 1, timeoutMs: 2_000 } });

/** Hostile fee policies, as ARC might send them. */
const HOSTILE_POLICIES = [
  '{"policy":{"miningFee":{"satoshis":100000,"bytes":1}}}',
  '{"policy":{"miningFee":{"satoshis":1001,"bytes":1000}}}',
  '{"policy":{"miningFee":{"satoshis":1e300,"bytes":1000}}}',
  '{"policy":{"miningFee":{"satoshis":0,"bytes":1000}}}',
  '{"policy":{"miningFee":{"satoshis":-1,"bytes":1000}}}',
  '{"policy":{"miningFee":{"satoshis":1,"bytes":0.5}}}',
  '{"policy":{"miningFee":{"satoshis":1,"bytes":-1000}}}',
  '{"policy":{"miningFee":{"satoshis":1,"bytes":100000000}}}',
  '{"policy":{"miningFee":{"satoshis":"1","bytes":1000}}}',
  '{"policy":{"miningFee":{"satoshis":1,"bytes":"1000"}}}',
  '{"policy":{"miningFee":{"satoshis":null,"bytes":1000}}}',
  '{"policy":{"miningFee":{"bytes":1000}}}',
  '{"policy":{"miningFee":{"satoshis":1}}}',
  '{"policy":{}}',
  '{"miningFee":{"satoshis":1,"bytes":1000}}',
  '{"policy":{"miningFee":{"satoshis":NaN,"bytes":1000}}}',
  'null',
  '[]',
];

/** The reviewer's repro: a 10,000-satoshi payment from one 1 BSV coin. */
const feeOf10k = (policy: Parameters<typeof selectCoins>[2]) => {
  const coins = [{ txid: 'a'.repeat(64), vout: 0, satoshis: 100_000_000 }];
  const outs = [{ script: '76a914' + '11'.repeat(20) + '88ac', satoshis: 10_000 }];
  const r = selectCoins(coins, outs, policy);
  assert.ok(r.ok);
  return r.selection.fee;
};

describe("ARC's fee policy: a lying answer never sets the fee", () => {
  it('uses the default policy, logged, while ARC has never answered sanely; the repro pays 1 satoshi, not 22,600,000', async () => {
    const log = capture();
    const p = provider(log.logger);
    for (const answer of HOSTILE_POLICIES) {
      policyAnswer = answer;
      const policy = await p.getFeePolicy();
      assert.deepEqual(policy, { satoshis: 1, bytes: 1000, dustLimit: 1 }, answer);
      assert.ok(feeOf10k(policy) <= 1, answer);
    }
    assert.equal(log.warnings().length, HOSTILE_POLICIES.length);
    assert.ok(log.warnings().every((m) => /^refused ARC's fee policy: .*keeping the default policy$/.test(m)));
  });

  it('accepts a sane answer, then keeps it against every hostile one after the cache expires', async (t) => {
    mock.timers.enable({ apis: ['Date'], now: 1_700_000_000_000 });
    t.after(() => mock.timers.reset());
    const log = capture();
    const p = provider(log.logger);
    policyAnswer = '{"policy":{"miningFee":{"satoshis":5,"bytes":1000}},"timestamp":"2024-01-01T00:00:00Z"}';
    const good = await p.getFeePolicy();
    assert.deepEqual(good, { satoshis: 5, bytes: 1000, dustLimit: 1 });
    assert.equal(feeOf10k(good), 2);
    for (const answer of HOSTILE_POLICIES) {
      mock.timers.tick(11 * 60_000);
      policyAnswer = answer;
      assert.deepEqual(await p.getFeePolicy(), good, answer);
    }
    assert.equal(log.warnings().length, HOSTILE_POLICIES.length);
    assert.ok(log.warnings().every((m) => /keeping the last good policy$/.test(m)));
    // The refusals did not replace it: a later sane answer is read again, and is the one used from then on.
    mock.timers.tick(11 * 60_000);
    policyAnswer = '{"policy":{"miningFee":{"satoshis":1000,"bytes":1000}}}';
    assert.deepEqual(await p.getFeePolicy(), { satoshis: 1000, bytes: 1000, dustLimit: 1 }, 'the ceiling itself is accepted');
    policyAnswer = HOSTILE_POLICIES[0]!;
    assert.deepEqual(await p.getFeePolicy(), { satoshis: 1000, bytes: 1000, dustLimit: 1 }, 'cached for 10 minutes');
  });

  it('refuses a configured dust limit that is not a small whole number', () => {
    for (const dustLimit of [-1, 0.5, 1e9, NaN])
      assert.throws(() => new NetworkProvider({ network: 'testnet', arcUrl: url, wocUrl: url, dustLimit }), RangeError);
  });
});

/** A rate table in memory, and the services `refreshRates` reads: a testnet provider, a clock, a logger. */
function rateWorld() {
  const rows = new Map<string, RateRow>([['USD', { currency: 'USD', rate: 40, source: 'default', updatedAt: 0 }]]);
  const log = capture();
  const clock = { now: 1_700_000_000_000 };
  const published: unknown[] = [];
  const services = {
    chain: provider(log.logger),
    repos: {
      rates: {
        get: (c: string) => rows.get(c) ?? null,
        all: () => [...rows.values()],
        set: (r: RateRow) => void rows.set(r.currency, { ...r }),
        remove: (c: string) => rows.delete(c),
      },
    },
    now: () => clock.now,
    logger: log.logger,
    events: { publish: (...args: unknown[]) => void published.push(args) },
  } as unknown as RateServices;
  return { rows, log, clock, services, published, usd: () => rows.get('USD')! };
}

/** What an invoice of $100 asks, as invoices/create.ts computes it from `rateFor`. */
const satoshisFor100Usd = async (services: RateServices) => Math.round((100 / (await rateFor(services, 'USD')).rate) * 1e8);

describe("WhatsOnChain's USD rate: an implausible or jumping answer keeps the last good rate", () => {
  it('accepts a sane first rate, then refuses huge, tiny, zero, negative, non-numeric, missing and jumping ones', async () => {
    const w = rateWorld();
    rateAnswer = '{"currency":"USD","rate":42,"time":1700000000}';
    await refreshRates(w.services);
    assert.deepEqual(w.usd(), { currency: 'USD', rate: 42, source: 'whatsonchain', updatedAt: w.clock.now });
    assert.equal(await satoshisFor100Usd(w.services), 238_095_238);
    const hostile = [
      '{"currency":"USD","rate":1000000.5}',
      '{"currency":"USD","rate":1e300}',
      '{"currency":"USD","rate":0.000001}',
      '{"currency":"USD","rate":0}',
      '{"currency":"USD","rate":-42}',
      '{"currency":"USD","rate":"42"}',
      '{"currency":"USD","rate":null}',
      '{"currency":"USD","rate":NaN}',
      '{"currency":"USD"}',
      '{"currency":"EUR","rate":42}',
      '"42"',
      '{"currency":"USD","rate":100}', // plausible, but a jump of 138%
      '{"currency":"USD","rate":20}', // down by more than half
      '{"currency":"USD","rate":63.5}', // 51% up, with the stored rate 5 hours old
    ];
    for (const answer of hostile) {
      w.clock.now += answer.includes('63.5') ? 3 * 3600_000 : 10 * 60_000;
      rateAnswer = answer;
      const logged = w.log.warnings().length;
      await refreshRates(w.services);
      assert.equal(w.log.warnings().length, logged + 1, `the refusal of ${answer} is logged`);
      assert.equal(w.usd().rate, 42, answer);
      assert.equal(await satoshisFor100Usd(w.services), 238_095_238, answer);
    }
    assert.equal(w.published.length, 1, 'only the first, good rate was announced');
  });

  it("accepts a sane small move, and a big one only after the window, with a warning; the policy's rate has a maximum age", async () => {
    const w = rateWorld();
    rateAnswer = '{"currency":"USD","rate":42}';
    await refreshRates(w.services);
    w.clock.now += 3600_000;
    rateAnswer = '{"currency":"USD","rate":44}';
    await refreshRates(w.services);
    assert.equal(w.usd().rate, 44);
    assert.equal(w.log.warnings().length, 0);
    assert.equal(rateForPolicy(w.services.repos.rates, 'USD', w.clock.now), w.usd());
    // Nothing refreshed it for a while: a policy no longer measures with it (it fails closed instead).
    w.clock.now += 7 * 3600_000;
    assert.equal(rateForPolicy(w.services.repos.rates, 'USD', w.clock.now), null);
    // After the window a real crash is accepted, and logged.
    rateAnswer = '{"currency":"USD","rate":11}';
    await refreshRates(w.services);
    assert.equal(w.usd().rate, 11);
    assert.match(w.log.warnings()[0]!, /accepted a jump of 44 → 11/);
    assert.equal(rateForPolicy(w.services.repos.rates, 'USD', w.clock.now)?.rate, 11);
  });

  it('a direct getUsdRate refuses an implausible answer with a warning and no value', async () => {
    const log = capture();
    const p = provider(log.logger);
    rateAnswer = '{"currency":"USD","rate":1000000000}';
    assert.equal(await p.getUsdRate(), null);
    rateAnswer = '{"currency":"USD","rate":42.17,"time":1e300}';
    assert.equal((await p.getUsdRate())?.rate, 42.17);
    assert.equal(log.warnings().length, 1);
  });
});
