import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { beforeEach, describe, it } from 'node:test';
import { HD, Hash, Mnemonic, PrivateKey, Utils } from '@bsv/sdk';
import type { Credentials } from '../../main/engine/context.js';
import type { Engine } from '../../main/engine/engine.js';
import { Throttle } from '../../main/engine/auth/throttle.js';
import { RootKeys } from '../../main/engine/apps/root-key.js';
import { checkedRootKey } from '../../main/engine/wallets/secret.js';
import { createRepos } from '../../main/store/repos/index.js';
import type { Store } from '../../main/store/database.js';
import { rejectsWith } from '../helpers/assert-domain-error.js';
import { meta, testEngine } from '../helpers/engine.js';
import { ADMIN } from '../helpers/http.js';

/** A fixed key, and its WIF (mainnet, compressed) computed here with @bsv/sdk alone. */
const KEY = PrivateKey.fromHex('8f2a55949038a9610f50fb23b5883af3b4ecb3c3bb792cbcefbd1542c692be63');
const HEX = KEY.toHex().padStart(64, '0');
const WIF = KEY.toWif();
const PHRASE = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
const N = 'fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141';

/** The documented HD seed of a root-key wallet (README): HMAC-SHA512 keyed with the domain string over the key's bytes. */
const documentedAccountXpub = (hex: string, path = "m/44'/236'/0'") =>
  HD.fromSeed([...createHmac('sha512', 'keystead/brc100-root-key/hd-seed/v1').update(Buffer.from(hex, 'hex')).digest()])
    .derive(path)
    .toPublic()
    .toString();

describe('wallets created from a BRC-100 root key', () => {
  let engine: Engine;
  let store: Store;
  let admin: Credentials;
  let rootKeys: RootKeys;
  const run = <T>(p: Promise<{ output: T }>) => p.then((r) => r.output);

  const rowOf = (walletId: string) => {
    const repos = createRepos(store.db);
    const row = repos.wallets.visibleTo(repos.users.activeByEmail(ADMIN.email)!.uid).find((w) => w.walletId === walletId);
    assert.ok(row, walletId);
    return row;
  };

  beforeEach(async () => {
    ({ engine, store } = testEngine());
    const s = (await engine.execute('setup', ADMIN, {}, meta)).output;
    admin = { authToken: s.authToken, serviceId: s.serviceId };
    const repos = createRepos(store.db);
    // The same sealing key the engine seals wallets under (it lives in the encrypted database's settings).
    const sealingKey = () =>
      Buffer.from(
        repos.settings.getOrInit('wallet-sealing-key', () => 'unused'),
        'hex',
      );
    rootKeys = new RootKeys({ throttle: new Throttle(), sealingKey });
  });

  it("answers apps with exactly the given key, and derives the wallet's addresses from it as documented", async () => {
    const w = await run(engine.execute('createWallet', { walletTitle: 'From BRC-100', rootKey: HEX }, admin, meta));
    assert.equal(w.type, 'standard');
    assert.equal(w.derivationPath, "m/44'/236'/0'");
    const row = rowOf(w.walletID);
    assert.equal((await rootKeys.of(row)).toHex().padStart(64, '0'), HEX);
    assert.equal((await rootKeys.of(row)).toPublicKey().toString(), KEY.toPublicKey().toString());
    assert.equal(row.accountXpub, documentedAccountXpub(HEX));
    // Its addresses are those of that account node, not of the key itself.
    const { address } = await run(engine.execute('walletAddress', { walletId: w.walletID }, admin, meta));
    assert.equal(address, HD.fromString(row.accountXpub).derive('m/0/0').pubKey.toAddress());
    assert.notEqual(address, KEY.toAddress());
  });

  it('gives the same wallet from the WIF of the same key, and another wallet for another key', async () => {
    const a = await run(engine.execute('createWallet', { walletTitle: 'Hex', rootKey: HEX.toUpperCase() }, admin, meta));
    const b = await run(engine.execute('createWallet', { walletTitle: 'Wif', rootKey: ` ${WIF} ` }, admin, meta));
    const c = await run(engine.execute('createWallet', { walletTitle: 'Other', rootKey: PrivateKey.fromRandom().toWif() }, admin, meta));
    assert.equal(rowOf(a.walletID).accountXpub, rowOf(b.walletID).accountXpub);
    assert.notEqual(rowOf(a.walletID).accountXpub, rowOf(c.walletID).accountXpub);
    assert.equal((await rootKeys.of(rowOf(b.walletID))).toHex().padStart(64, '0'), HEX);
    const testnet = Utils.toBase58Check([...Utils.toArray(HEX, 'hex'), 1], [0xef]);
    assert.equal(checkedRootKey(testnet), HEX, 'testnet WIF');
    const uncompressed = Utils.toBase58Check(Utils.toArray(HEX, 'hex'), [0x80]);
    assert.equal(checkedRootKey(uncompressed), HEX, 'uncompressed WIF');
  });

  it('backs up as the root key, never a made-up phrase', async () => {
    const w = await run(engine.execute('createWallet', { walletTitle: 'Backup', rootKey: WIF }, admin, meta));
    const out = await run(engine.execute('exportMnemonic', { walletId: w.walletID, password: ADMIN.password }, admin, meta));
    assert.equal(out.rootKey, HEX);
    assert.equal(out.mnemonic, undefined);
    const phrase = await run(engine.execute('createWallet', { walletTitle: 'Phrase', mnemonicPhrase: PHRASE }, admin, meta));
    const back = await run(engine.execute('exportMnemonic', { walletId: phrase.walletID, password: ADMIN.password }, admin, meta));
    assert.deepEqual([back.mnemonic, back.rootKey], [PHRASE, undefined]);
  });

  it("keeps a phrase wallet's root key at <account>/3'", async () => {
    const w = await run(
      engine.execute('createWallet', { walletTitle: 'Phrase', mnemonicPhrase: PHRASE, derivationPath: 'bip44-bsv' }, admin, meta),
    );
    const expected = HD.fromSeed(Mnemonic.fromString(PHRASE).toSeed()).derive("m/44'/236'/0'/3'").privKey;
    assert.equal((await rootKeys.of(rowOf(w.walletID))).toHex(), expected.toHex());
  });

  it('refuses keys that are not private keys, and root keys with a phrase or on other wallet types', async () => {
    const create = (input: object) => engine.execute('createWallet', { walletTitle: 'Bad', ...input }, admin, meta);
    await rejectsWith(create({ rootKey: HEX.slice(2) }), 'VALIDATION_FAILED', /rootKey: must be a private key/);
    await rejectsWith(create({ rootKey: `${HEX}00` }), 'VALIDATION_FAILED', /rootKey: must be a private key/);
    await rejectsWith(create({ rootKey: 'zz'.repeat(32) }), 'VALIDATION_FAILED', /rootKey: must be a private key/);
    await rejectsWith(create({ rootKey: '0'.repeat(64) }), 'VALIDATION_FAILED', /rootKey: is out of range/);
    await rejectsWith(create({ rootKey: N }), 'VALIDATION_FAILED', /rootKey: is out of range/);
    const badChecksum = WIF.slice(0, -1) + (WIF.endsWith('1') ? '2' : '1');
    await rejectsWith(create({ rootKey: badChecksum }), 'VALIDATION_FAILED', /rootKey: is not valid WIF/);
    // A base58check string of the right length that is an address-like payload, not a key.
    const notKey = Utils.toBase58Check([...Hash.sha256(Utils.toArray('x', 'utf8')), 1], [0x00]);
    await rejectsWith(create({ rootKey: notKey }), 'VALIDATION_FAILED', /rootKey: is base58 but not a WIF private key/);
    await rejectsWith(create({ rootKey: HEX, mnemonicPhrase: PHRASE }), 'VALIDATION_FAILED', /not both/);
    await rejectsWith(
      create({ rootKey: HEX, type: 'secure', walletPassword: 'wallet-pass-1' }),
      'VALIDATION_FAILED',
      /only standard wallets/,
    );
    await rejectsWith(create({ rootKey: HEX, derivationPath: 'auto' }), 'VALIDATION_FAILED', /derivationPath: auto/);
    const list = await run(engine.execute('listWallets', {}, admin, meta));
    assert.equal(list.wallets.length, 0, 'nothing was created');
  });
});
