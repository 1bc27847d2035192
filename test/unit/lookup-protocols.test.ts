import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PrivateKey, Utils } from '@bsv/sdk';
import { KST20 } from '../../main/engine/token-templates/kst.js';
import { meta, testEngine } from '../helpers/engine.js';
import { ADMIN } from '../helpers/http.js';

describe('lookup counts each coin under its real protocol', () => {
  it("a token output a provider lists among the address's coins is not BSV", async () => {
    const key = PrivateKey.fromRandom();
    const pkh = Utils.toHex(Utils.fromBase58Check(key.toAddress()).data as number[]);
    const tokenScript = KST20.lock({ owner: pkh, redemption: pkh, symbol: 'TST', data: [], splittable: true });
    // A provider (WhatsOnChain-like) that returns the token output with the plain coins.
    const t = testEngine({
      chain: (local) =>
        Object.assign(Object.create(local), {
          getUtxos: async (a: string) => [
            ...(await local.getUtxos(a)),
            { txid: 'ab'.repeat(32), vout: 0, satoshis: 1_000, script: tokenScript, height: 5 },
          ],
        }),
    });
    const s = (await t.engine.execute('setup', ADMIN, {}, meta)).output;
    const admin = { authToken: s.authToken, serviceId: s.serviceId };
    await t.node.faucet(key.toAddress(), 4_000);
    const compact = (await t.engine.execute('lookup', { privateKey: key.toWif() }, admin, meta)).output;
    assert.deepEqual(compact.coins, [{ protocol: 'BSV', balance: 4_000, address: key.toAddress() }]);
    const full = (await t.engine.execute('lookup', { privateKey: key.toWif(), compact: 'false' }, admin, meta)).output;
    assert.deepEqual(
      full.coins.filter((c) => c.protocol === 'BSV' && c.txid).map((c) => c.balance),
      [4_000],
    );
    t.engine.close();
  });
});
