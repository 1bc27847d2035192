import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { Credentials } from '../../main/engine/context.js';
import type { Engine } from '../../main/engine/engine.js';
import { oracleAddress } from '../helpers/bip32-oracle.js';
import { meta, testEngine, type TestEngine } from '../helpers/engine.js';
import { ADMIN } from '../helpers/http.js';
import { rejectsWith } from '../helpers/assert-domain-error.js';

const PHRASE = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';

/** A phrase from another wallet: its coins are found wherever that wallet put them, and the import uses that path. */
describe('importing a recovery phrase finds its funds on the common derivation paths', () => {
  let engine: Engine;
  let t: TestEngine;
  let admin: Credentials;
  const run = <T>(p: Promise<{ output: T }>) => p.then((r) => r.output);
  const fund = (path: string, satoshis: number) =>
    run(engine.execute('faucet', { address: oracleAddress(PHRASE, path), satoshis }, admin, meta));

  beforeEach(async () => {
    t = testEngine();
    ({ engine } = t);
    const s = (await engine.execute('setup', ADMIN, {}, meta)).output;
    admin = { authToken: s.authToken, serviceId: s.serviceId };
  });

  it("reports each path's coins (receive and change chains, past a gap), and suggests the richest", async () => {
    await fund("m/44'/0'/0'/0/3", 7_000);
    await fund("m/44'/0'/0'/1/0", 2_000);
    await fund("m/0'/0/0", 500);
    await fund("m/44'/145'/0'/0/1", 900);
    const scan = await run(engine.execute('scanRecoveryPhrase', { mnemonicPhrase: PHRASE, derivationPath: 'm/44h/145h/0h' }, admin, meta));
    const byPath = Object.fromEntries(scan.paths.map((p) => [p.derivationPath, [p.usedAddresses, p.transactions, p.satoshis]]));
    assert.deepEqual(byPath, {
      "m/44'/236'/0'": [0, 0, 0],
      "m/44'/0'/0'": [2, 2, 9_000],
      "m/0'": [1, 1, 500],
      "m/44'/145'/0'": [1, 1, 900],
    });
    assert.equal(scan.suggested, "m/44'/0'/0'");
    assert.equal(scan.paths.find((p) => p.derivationPath === "m/44'/145'/0'")?.label, 'The path you gave');
  });

  it("createWallet with derivationPath auto imports on the path holding the coins; the wallet's balance shows them", async () => {
    await fund("m/0'/0/4", 12_345);
    const w = await run(
      engine.execute('createWallet', { walletTitle: 'Old wallet', mnemonicPhrase: PHRASE, derivationPath: 'auto' }, admin, meta),
    );
    assert.equal(w.derivationPath, "m/0'");
    const listed = (await run(engine.execute('listWallets', {}, admin, meta))).wallets.find((x) => x.walletID === w.walletID)!;
    assert.equal(listed.balance.confirmed + listed.balance.unconfirmed, 12_345);
  });

  it("one transaction paying 300 of the phrase's addresses is booked whole, past the gap limit of the first scan", async () => {
    const { HD, Mnemonic, P2PKH, PrivateKey, SatoshisPerKilobyte, Transaction } = await import('@bsv/sdk');
    const chain = HD.fromSeed(Mnemonic.fromString(PHRASE).toSeed()).derive("m/44'/236'/0'").deriveChild(0);
    const { node } = t;
    const funder = PrivateKey.fromRandom();
    const f = await node.faucet(funder.toAddress(), 300 * 1_000 + 5_000);
    const parent = Transaction.fromHex(node.txHex(f.txid!)!);
    const payout = new Transaction();
    payout.addInput({
      sourceTransaction: parent,
      sourceOutputIndex: parent.outputs.findIndex((o) => o.satoshis === 305_000),
      unlockingScriptTemplate: new P2PKH().unlock(funder),
    });
    for (let i = 0; i < 300; i++)
      payout.addOutput({ lockingScript: new P2PKH().lock(chain.deriveChild(i).pubKey.toAddress()), satoshis: 1_000 });
    payout.addOutput({ lockingScript: new P2PKH().lock(funder.toAddress()), change: true });
    await payout.fee(new SatoshisPerKilobyte(1));
    await payout.sign();
    assert.equal(node.submit(payout.toHex()).status, 'accepted');
    const w = await run(engine.execute('createWallet', { walletTitle: 'Payroll archive', mnemonicPhrase: PHRASE }, admin, meta));
    const listed = (await run(engine.execute('listWallets', {}, admin, meta))).wallets.find((x) => x.walletID === w.walletID)!;
    assert.equal(listed.balance.confirmed + listed.balance.unconfirmed, 300_000, 'every output to the wallet is on the books');
    const history = (await run(engine.execute('history', { walletId: w.walletID }, admin, meta))).history;
    assert.deepEqual(
      history.map((h) => [h.txid, h.amount]),
      [[payout.id('hex'), 300_000]],
    );
  });

  it('auto without coins anywhere uses the default path; auto without a phrase is refused', async () => {
    const w = await run(
      engine.execute('createWallet', { walletTitle: 'Empty', mnemonicPhrase: PHRASE, derivationPath: 'auto' }, admin, meta),
    );
    assert.equal(w.derivationPath, "m/44'/236'/0'");
    await rejectsWith(
      engine.execute('scanRecoveryPhrase', { mnemonicPhrase: 'not a phrase' }, admin, meta),
      'VALIDATION_FAILED',
      /mnemonicPhrase/,
    );
    await rejectsWith(
      engine.execute('scanRecoveryPhrase', { mnemonicPhrase: PHRASE, derivationPath: 'm/x' }, admin, meta),
      'VALIDATION_FAILED',
      /derivationPath/,
    );
  });
});
