import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { P2PKH, PrivateKey } from '@bsv/sdk';
import { openStore } from '../../main/store/database.js';
import { oracleAddress } from '../helpers/bip32-oracle.js';
import { meta, testEngine } from '../helpers/engine.js';
import { ADMIN } from '../helpers/http.js';

const PHRASE = 'legal winner thank year wave sausage worth useful legal winner thank yellow';

describe("addresses derived while a wallet's keys are open", () => {
  it('are the same addresses the public derivation gives (checked against an independent BIP32 implementation)', async () => {
    const t = testEngine();
    const { engine } = t;
    const s = (await engine.execute('setup', ADMIN, {}, meta)).output;
    const admin = { authToken: s.authToken, serviceId: s.serviceId };
    const w = (await engine.execute('createWallet', { walletTitle: 'Known', mnemonicPhrase: PHRASE }, admin, meta)).output.walletID;
    for (let i = 0; i < 3; i++) await engine.execute('faucet', { walletId: w, satoshis: 50_000 }, admin, meta);
    const to = new P2PKH().lock(PrivateKey.fromRandom().toAddress()).toHex();
    // Paying opens the keys; each payment claims a change address and derives the next ones with them open.
    for (let i = 0; i < 25; i++) await engine.execute('pay', { outputs: [{ script: to, satoshis: 1_000 }], walletId: w }, admin, meta);
    engine.close();
    const store = openStore({ dataDir: t.dataDir, password: 'test-password' });
    const rows = store.db
      .prepare<[string], { chain: number; idx: number; address: string }>(
        'SELECT a.chain, a.idx, a.address FROM addresses a JOIN wallets w ON w.id = a.wallet_row WHERE w.wallet_id = ? ORDER BY a.chain, a.idx',
      )
      .all(w);
    store.close();
    assert.ok(rows.filter((r) => r.chain === 1).length >= 45, 'change addresses were derived while paying');
    for (const r of rows) assert.equal(r.address, oracleAddress(PHRASE, `m/44'/236'/0'/${r.chain}/${r.idx}`), `${r.chain}/${r.idx}`);
  });
});
