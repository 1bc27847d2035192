import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { Credentials } from '../../main/engine/context.js';
import type { Engine } from '../../main/engine/engine.js';
import type { LocalNode } from '../../main/chain/local/local-node.js';
import { rejectsWith } from '../helpers/assert-domain-error.js';
import { oracleAddress } from '../helpers/bip32-oracle.js';
import { meta, testEngine } from '../helpers/engine.js';
import { ADMIN } from '../helpers/http.js';

const PHRASE = 'letter advice cage absurd amount doctor acoustic avoid letter advice cage above';

describe('wallet sync on the local node', () => {
  let engine: Engine;
  let node: LocalNode;
  let admin: Credentials;
  const run = <T>(p: Promise<{ output: T }>) => p.then((r) => r.output);
  const balanceOf = async (walletId: string) =>
    (await run(engine.execute('listWallets', {}, admin, meta))).wallets.find((w) => w.walletID === walletId)!.balance;

  beforeEach(async () => {
    ({ engine, node } = testEngine());
    const s = (await engine.execute('setup', ADMIN, {}, meta)).output;
    admin = { authToken: s.authToken, serviceId: s.serviceId };
  });

  it('faucet coins show as unconfirmed at once, confirmed after a block, and use up the address', async () => {
    const w = await run(engine.execute('createWallet', { walletTitle: 'Ops' }, admin, meta));
    const first = (await run(engine.execute('walletAddress', { walletId: w.walletID }, admin, meta))).address;
    const f = await run(engine.execute('faucet', { walletId: w.walletID, satoshis: 50_000 }, admin, meta));
    assert.equal(f.address, first);
    assert.deepEqual(await balanceOf(w.walletID), { confirmed: 0, unconfirmed: 50_000 });
    const next = (await run(engine.execute('walletAddress', { walletId: w.walletID }, admin, meta))).address;
    assert.notEqual(next, first, 'a used address is no longer offered');
    assert.equal(
      (await run(engine.execute('walletAddresses', { walletId: w.walletID }, admin, meta))).addresses.length,
      20,
      'the gap stays 20',
    );
    const mined = await run(engine.execute('mineBlock', {}, admin, meta));
    assert.ok(mined.txCount >= 2);
    assert.deepEqual(await balanceOf(w.walletID), { confirmed: 50_000, unconfirmed: 0 });
    await rejectsWith(
      engine.execute('faucet', { walletId: w.walletID, satoshis: 2_000_000_000 }, admin, meta),
      'VALIDATION_FAILED',
      /at most/,
    );
    await rejectsWith(engine.execute('faucet', { address: 'not-an-address', satoshis: 1 }, admin, meta), 'VALIDATION_FAILED', /address/);
  });

  it('importing a seed scans both chains with a gap limit of 20', async () => {
    const pay = async (path: string, satoshis: number) => node.faucet(oracleAddress(PHRASE, path), satoshis);
    await pay("m/44'/236'/0'/0/5", 1_000);
    await pay("m/44'/236'/0'/0/22", 2_000); // found: within 20 of index 5
    await pay("m/44'/236'/0'/1/3", 4_000); // change chain
    await pay("m/44'/236'/0'/0/60", 8_000); // beyond the gap: not found, as BIP44 prescribes
    node.mine();
    const w = await run(engine.execute('createWallet', { walletTitle: 'Restored', mnemonicPhrase: PHRASE }, admin, meta));
    await engine.execute('walletAddress', { walletId: w.walletID }, admin, meta);
    assert.deepEqual(await balanceOf(w.walletID), { confirmed: 7_000, unconfirmed: 0 });
    const next = (await run(engine.execute('walletAddress', { walletId: w.walletID }, admin, meta))).address;
    assert.equal(next, oracleAddress(PHRASE, "m/44'/236'/0'/0/0"), 'unused index 0 is still offered first');
  });

  it('converts amounts with the rate table, and refuses unknown currencies', async () => {
    const usd = await run(engine.execute('convertAmount', { satoshis: 250_000_000, currency: 'usd' }, admin, meta));
    assert.deepEqual([usd.currency, usd.amount, usd.rate], ['USD', 100, 40]);
    await run(engine.execute('setRate', { currency: 'nzd', rate: '66.5' }, admin, meta));
    assert.equal((await run(engine.execute('convertAmount', { satoshis: 100_000_000, currency: 'NZD' }, admin, meta))).amount, 66.5);
    await rejectsWith(
      engine.execute('convertAmount', { satoshis: 1, currency: 'XYZ' }, admin, meta),
      'VALIDATION_FAILED',
      /XYZ is not in the rate table/,
    );
    await run(engine.execute('setRate', { currency: 'NZD', rate: null }, admin, meta));
    await rejectsWith(engine.execute('convertAmount', { satoshis: 1, currency: 'NZD' }, admin, meta), 'VALIDATION_FAILED');
    await rejectsWith(engine.execute('setRate', { currency: 'EUR', rate: -1 }, admin, meta), 'VALIDATION_FAILED', /rate/);
    const rates = await run(engine.execute('listRates', {}, admin, meta));
    assert.ok(rates.rates.find((r) => r.currency === 'EUR' && r.source === 'default'));
  });

  it('reports the network: tip, mempool, policy, faucet', async () => {
    await node.faucet(node.faucetAddress, 1000);
    const s = await run(engine.execute('networkStatus', {}, admin, meta));
    assert.equal(s.network, 'local');
    assert.equal(s.faucet, true);
    assert.equal(s.mempoolSize, 1);
    assert.deepEqual(s.feePolicy, { satoshis: 1, bytes: 1000, dustLimit: 1 });
    assert.equal(s.tip!.height, node.tip().height);
    assert.equal(s.rates!.currency, 'USD');
  });
});
