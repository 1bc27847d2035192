import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { Utils } from '@bsv/sdk';
import type { Credentials } from '../../main/engine/context.js';
import type { Engine } from '../../main/engine/engine.js';
import { DEFAULT_WALLET_ID } from '../../shared/wallet-schemas.js';
import { rejectsWith } from '../helpers/assert-domain-error.js';
import { oracleAddress } from '../helpers/bip32-oracle.js';
import { meta, testEngine } from '../helpers/engine.js';
import { ADMIN } from '../helpers/http.js';
import { openStore } from '../../main/store/database.js';

const PHRASE = 'legal winner thank year wave sausage worth useful legal winner thank yellow';

function isValidAddress(a: string): boolean {
  try {
    const { prefix, data } = Utils.fromBase58Check(a);
    return (prefix as number[])[0] === 0 && (data as number[]).length === 20;
  } catch {
    return false;
  }
}

describe('engine: HD wallets and addresses', () => {
  let engine: Engine;
  let dataDir: string;
  let admin: Credentials;
  const run = <T>(p: Promise<{ output: T }>) => p.then((r) => r.output);

  beforeEach(async () => {
    ({ engine, dataDir } = testEngine());
    const s = (await engine.execute('setup', ADMIN, {}, meta)).output;
    admin = { authToken: s.authToken, serviceId: s.serviceId };
  });

  async function userWithRole(email: string, role: string): Promise<Credentials> {
    await engine.execute('createUser', { email, password: 'user-password-1', role }, admin, meta);
    const s = (await engine.execute('login', { email, password: 'user-password-1' }, {}, meta)).output;
    return { authToken: s.authToken, serviceId: s.serviceId };
  }

  it('creates the default wallet from walletTitle "default", once', async () => {
    const w = await run(engine.execute('createWallet', { walletTitle: 'default' }, admin, meta));
    assert.equal(w.walletID, DEFAULT_WALLET_ID);
    assert.equal(w.type, 'standard');
    assert.equal(w.derivationPath, "m/44'/236'/0'");
    await rejectsWith(engine.execute('createWallet', { walletTitle: 'Default' }, admin, meta), 'CONFLICT', /default wallet/);
    const other = await run(engine.execute('createWallet', { walletTitle: 'Payroll' }, admin, meta));
    assert.match(other.walletID, /^[0-9a-f-]{36}$/);
  });

  it('falls back to the default wallet, creating it on first use (once, even when raced)', async () => {
    const [a, b] = await Promise.all([
      run(engine.execute('walletAddress', {}, admin, meta)),
      run(engine.execute('walletAddresses', { walletId: '' }, admin, meta)),
    ]);
    assert.equal(a.walletID, DEFAULT_WALLET_ID);
    assert.equal(b.walletID, DEFAULT_WALLET_ID);
    assert.equal(a.address, b.addresses[0]);
    const list = await run(engine.execute('listWallets', {}, admin, meta));
    assert.equal(list.wallets.length, 1);
    assert.equal(list.wallets[0].walletTitle, 'default');
  });

  it('imports a mnemonic and derives the same addresses as the oracle, for both schemes', async () => {
    for (const [scheme, path] of [
      ['bip44-btc', "m/44'/0'/0'"],
      ['bip44-bsv', "m/44'/236'/0'"],
    ] as const) {
      const w = await run(
        engine.execute(
          'createWallet',
          { walletTitle: scheme, mnemonicPhrase: ` ${PHRASE.toUpperCase()} `, derivationPath: scheme },
          admin,
          meta,
        ),
      );
      const list = await run(engine.execute('walletAddresses', { walletId: w.walletID }, admin, meta));
      assert.equal(list.addresses.length, 20);
      assert.deepEqual(list.addressess, list.addresses, "Relysia's spelling carries the same list");
      assert.equal(new Set(list.addresses).size, 20);
      for (const [i, a] of list.addresses.entries()) {
        assert.ok(isValidAddress(a), a);
        if (i < 5) assert.equal(a, oracleAddress(PHRASE, `${path}/0/${i}`));
      }
      assert.equal((await run(engine.execute('walletAddress', { walletId: w.walletID }, admin, meta))).address, list.addresses[0]);
    }
  });

  it('the next address moves on once an address is used, keeping 20 unused', async () => {
    const w = await run(engine.execute('createWallet', { walletTitle: 'Ops', mnemonicPhrase: PHRASE }, admin, meta));
    const before = await run(engine.execute('walletAddresses', { walletId: w.walletID }, admin, meta));
    const store = openStore({ dataDir, password: 'test-password' });
    store.db.prepare('UPDATE addresses SET used = 1 WHERE address IN (?, ?)').run(before.addresses[0], before.addresses[1]);
    store.close();
    const after = await run(engine.execute('walletAddresses', { walletId: w.walletID }, admin, meta));
    assert.equal(after.addresses.length, 20);
    assert.equal(after.addresses[0], before.addresses[2]);
    assert.equal(after.addresses[19], oracleAddress(PHRASE, `m/44'/236'/0'/0/21`));
  });

  it('refuses bad input with clear 4xx errors', async () => {
    const cases: [object, string, RegExp][] = [
      [{}, 'VALIDATION_FAILED', /walletTitle: is required/],
      [{ walletTitle: 'x', mnemonicPhrase: PHRASE.replace('yellow', 'wallet') }, 'VALIDATION_FAILED', /not a valid BIP39/],
      [{ walletTitle: 'x', type: 'savings' }, 'VALIDATION_FAILED', /type: must be one of: standard, secure, escrow, shared/],
      [{ walletTitle: 'x', type: 'secure' }, 'VALIDATION_FAILED', /walletPassword: is required for a secure wallet/],
      [{ walletTitle: 'x', walletPassword: 'secret-pw-1' }, 'VALIDATION_FAILED', /only secure wallets take a password/],
      [{ walletTitle: 'x', members: ['ada@acme.io'] }, 'VALIDATION_FAILED', /only shared wallets have members/],
      [{ walletTitle: 'x', type: 'shared', members: ['nobody@acme.io'] }, 'VALIDATION_FAILED', /no user nobody@acme.io/],
      [{ walletTitle: 'x', derivationPath: "m/49'/x'/0'" }, 'VALIDATION_FAILED', /derivationPath/],
      [{ walletTitle: 'x', derivationPath: 'auto' }, 'VALIDATION_FAILED', /derivationPath: auto finds the path of an imported phrase/],
      [{ walletTitle: 'x', walletLogo: 'javascript:alert(1)' }, 'VALIDATION_FAILED', /walletLogo/],
      [{ walletTitle: 'x', paymail: 'Bad Alias!' }, 'VALIDATION_FAILED', /paymail: the alias/],
      [{ walletTitle: 'x', paymail: 'alice@elsewhere.com' }, 'VALIDATION_FAILED', /paymail: must be an alias at acme.test/],
      [{ walletTitle: 'x', paymailActivate: 'maybe' }, 'VALIDATION_FAILED', /paymailActivate: must be true or false/],
      [{ walletTitle: 'x', serviceId: 'another-org' }, 'SERVICE_MISMATCH', /serviceId/],
    ];
    for (const [input, code, msg] of cases) await rejectsWith(engine.execute('createWallet', input, admin, meta), code, msg);
    assert.equal((await run(engine.execute('listWallets', {}, admin, meta))).wallets.length, 0, 'nothing was half-created');
  });

  it('reserves paymail aliases, unique per domain', async () => {
    const a = await run(engine.execute('createWallet', { walletTitle: 'A', paymail: 'Alice', paymailActivate: 'true' }, admin, meta));
    assert.equal(a.paymail, 'alice@acme.test');
    await rejectsWith(
      engine.execute('createWallet', { walletTitle: 'B', paymail: 'alice@ACME.test' }, admin, meta),
      'CONFLICT',
      /alice@acme.test is taken/,
    );
    const n = await run(engine.execute('createWallet', { walletTitle: 'C', paymailActivate: true }, admin, meta));
    assert.match(n.paymail!, /^\d+@acme\.test$/, 'a numeric alias when none is asked for');
    const off = await run(engine.execute('createWallet', { walletTitle: 'D', paymail: 'dormant', paymailActivate: false }, admin, meta));
    assert.equal(off.paymail, 'dormant@acme.test');
    assert.equal(
      (await run(engine.execute('walletAddress', { walletId: off.walletID }, admin, meta))).paymail,
      null,
      'an inactive alias does not receive',
    );
    assert.equal((await run(engine.execute('walletAddress', { walletId: a.walletID }, admin, meta))).paymail, 'alice@acme.test');
    const byDefault = await run(engine.execute('createWallet', { walletTitle: 'E' }, admin, meta));
    assert.match(byDefault.paymail!, /^\d+@acme\.test$/, 'every new wallet gets an active alias, as on the public service');
    assert.equal((await run(engine.execute('walletAddress', { walletId: byDefault.walletID }, admin, meta))).paymail, byDefault.paymail);
    assert.equal(
      (await run(engine.execute('createWallet', { walletTitle: 'F', paymailActivate: false }, admin, meta))).paymail,
      null,
      'unless the request says no',
    );
  });

  it('secure wallets need their password to export the phrase; exports need the account password', async () => {
    const w = await run(
      engine.execute(
        'createWallet',
        { walletTitle: 'Vault', type: 'SECURE', walletPassword: 'vault-pass-1', mnemonicPhrase: PHRASE },
        admin,
        meta,
      ),
    );
    await rejectsWith(
      engine.execute('exportMnemonic', { walletId: w.walletID, password: ADMIN.password }, admin, meta),
      'WALLET_LOCKED',
      /send its walletPassword/,
    );
    await rejectsWith(
      engine.execute('exportMnemonic', { walletId: w.walletID, password: ADMIN.password, walletPassword: 'wrong-pass-1' }, admin, meta),
      'WALLET_LOCKED',
      /not correct/,
    );
    await rejectsWith(
      engine.execute('exportMnemonic', { walletId: w.walletID, password: 'not-my-password', walletPassword: 'vault-pass-1' }, admin, meta),
      'WRONG_PASSWORD',
    );
    const ok = await run(
      engine.execute('exportMnemonic', { walletId: w.walletID, password: ADMIN.password, walletPassword: 'vault-pass-1' }, admin, meta),
    );
    assert.equal(ok.mnemonic, PHRASE);
    const std = await run(engine.execute('createWallet', { walletTitle: 'Std' }, admin, meta));
    const phrase = (await run(engine.execute('exportMnemonic', { walletId: std.walletID, password: ADMIN.password }, admin, meta)))
      .mnemonic;
    assert.equal(phrase?.split(' ').length, 12);
    // Addresses of a secure wallet derive without its password (from the account xpub).
    assert.equal(
      (await run(engine.execute('walletAddress', { walletId: w.walletID }, admin, meta))).address,
      oracleAddress(PHRASE, "m/44'/236'/0'/0/0"),
    );
    for (const role of ['viewer', 'api_user']) {
      const c = await userWithRole(`${role}@acme.io`, role);
      await rejectsWith(engine.execute('exportMnemonic', { password: 'user-password-1' }, c, meta), 'ROLE_FORBIDDEN');
    }
  });

  it('a sealed seed only opens on its own wallet', async () => {
    const a = await run(engine.execute('createWallet', { walletTitle: 'A', mnemonicPhrase: PHRASE }, admin, meta));
    const b = await run(engine.execute('createWallet', { walletTitle: 'B' }, admin, meta));
    const store = openStore({ dataDir, password: 'test-password' });
    const sealed = (store.db.prepare('SELECT sealed_seed FROM wallets WHERE wallet_id = ?').get(a.walletID) as { sealed_seed: string })
      .sealed_seed;
    assert.equal(sealed.includes('legal'), false, 'the phrase is not stored in the clear');
    store.db.prepare('UPDATE wallets SET sealed_seed = ? WHERE wallet_id = ?').run(sealed, b.walletID);
    store.close();
    await assert.rejects(
      engine.execute('exportMnemonic', { walletId: b.walletID, password: ADMIN.password }, admin, meta),
      /failed to unseal/,
    );
  });

  it('shared wallets: members use them, only the owner deletes, exports or changes members', async () => {
    const op = await userWithRole('olga@acme.io', 'operator');
    const outsider = await userWithRole('otto@acme.io', 'operator');
    const w = await run(
      engine.execute('createWallet', { walletTitle: 'Team', type: 'shared', members: 'olga@acme.io, ada@acme.io' }, admin, meta),
    );
    const seen = (await run(engine.execute('listWallets', {}, op, meta))).wallets;
    assert.deepEqual(
      seen.map((x) => [x.walletID, x.access, x.owner, x.members]),
      [[w.walletID, 'member', ADMIN.email, ['olga@acme.io']]],
    );
    assert.equal((await run(engine.execute('walletAddress', { walletId: w.walletID }, op, meta))).walletID, w.walletID);
    await rejectsWith(engine.execute('walletAddress', { walletId: w.walletID }, outsider, meta), 'NOT_FOUND');
    await rejectsWith(engine.execute('deleteWallet', { walletId: w.walletID }, op, meta), 'FORBIDDEN', /Only the owner/);
    await rejectsWith(engine.execute('exportMnemonic', { walletId: w.walletID, password: 'user-password-1' }, op, meta), 'FORBIDDEN');
    await rejectsWith(engine.execute('setWalletMembers', { walletId: w.walletID, members: [] }, op, meta), 'FORBIDDEN');
    const members = await run(engine.execute('setWalletMembers', { walletId: w.walletID, members: ['otto@acme.io'] }, admin, meta));
    assert.deepEqual(members.members, ['otto@acme.io']);
    await rejectsWith(engine.execute('walletAddress', { walletId: w.walletID }, op, meta), 'NOT_FOUND');
  });

  it('deleting refuses a funded wallet unless forced, and removes its data in one go', async () => {
    const w = await run(engine.execute('createWallet', { walletTitle: 'Funded' }, admin, meta));
    const empty = await run(engine.execute('createWallet', { walletTitle: 'Empty' }, admin, meta));
    const store = openStore({ dataDir, password: 'test-password' });
    const row = (store.db.prepare('SELECT id FROM wallets WHERE wallet_id = ?').get(w.walletID) as { id: number }).id;
    store.db
      .prepare("INSERT INTO utxos (wallet_row, txid, vout, satoshis, script) VALUES (?, ?, 0, 5000, '76a9')")
      .run(row, 'ab'.repeat(32));
    store.close();
    await rejectsWith(engine.execute('deleteWallet', { walletId: w.walletID }, admin, meta), 'CONFLICT', /holds 5000 satoshis/);
    await rejectsWith(engine.execute('deleteAllWallets', {}, admin, meta), 'CONFLICT', /holds 5000 satoshis/);
    assert.equal((await run(engine.execute('listWallets', {}, admin, meta))).wallets.length, 2, 'all or nothing');
    assert.deepEqual(await run(engine.execute('deleteWallet', { walletId: empty.walletID }, admin, meta)), { walletId: empty.walletID });
    await run(engine.execute('deleteWallet', { walletId: w.walletID, force: 'true' }, admin, meta));
    const check = openStore({ dataDir, password: 'test-password' });
    for (const table of ['wallets', 'addresses', 'utxos']) {
      assert.equal((check.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n, 0, table);
    }
    check.close();
    await rejectsWith(engine.execute('deleteWallet', { walletId: w.walletID }, admin, meta), 'NOT_FOUND');
    await run(engine.execute('createWallet', { walletTitle: 'One' }, admin, meta));
    await run(engine.execute('createWallet', { walletTitle: 'Two' }, admin, meta));
    assert.equal((await run(engine.execute('deleteAllWallets', {}, admin, meta))).deleted.length, 2);
    assert.equal((await run(engine.execute('listWallets', {}, admin, meta))).wallets.length, 0);
  });

  it('viewers look but do not create; the address API is for managers', async () => {
    const viewer = await userWithRole('vera@acme.io', 'viewer');
    await run(engine.execute('createWallet', { walletTitle: 'Seen', type: 'shared', members: 'vera@acme.io' }, admin, meta));
    const looked = await run(engine.execute('listWallets', {}, viewer, meta));
    assert.deepEqual(
      looked.wallets.map((w) => w.walletTitle),
      ['Seen'],
      'a viewer looks at its wallets',
    );
    await rejectsWith(engine.execute('createWallet', { walletTitle: 'x' }, viewer, meta), 'ROLE_FORBIDDEN');
    await rejectsWith(engine.execute('addresses', {}, admin, meta), 'ROLE_FORBIDDEN');
    const manager = await userWithRole('max@acme.io', 'manager');
    const r = await run(engine.execute('addresses', {}, manager, meta));
    assert.equal(r.addresses.length, 20);
  });
});
