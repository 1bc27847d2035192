import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { Hash, LockingScript, MerklePath, P2PKH, PrivateKey, ProtoWallet, Random, Transaction, Utils } from '@bsv/sdk';
import { ordP2pkhScript } from '../../main/chain/ordinal-envelope.js';
import { classifyHost } from '../../main/net/address-class.js';
import { p2pkhAddressOf } from '../../main/chain/script.js';
import type { ChainProvider, ChainUtxo, TxStatus } from '../../main/chain/types.js';
import type { Credentials } from '../../main/engine/context.js';
import { meta, testEngine, type TestEngine } from '../helpers/engine.js';
import { BRC29 } from '../helpers/brc29.js';
import { LocalNode } from '../../main/chain/local/local-node.js';
import { LocalProvider } from '../../main/chain/local/local-provider.js';
import { createEngine } from '../../main/engine/engine.js';
import { openStore } from '../../main/store/database.js';
import { tempDir } from '../helpers/tmp.js';
import { setUpEngineOrg, type EngineOrg } from '../helpers/engine-org.js';
import { ADMIN } from '../helpers/http.js';

/**
 * Review 1128 (2026-11-28): attacks the earlier reviews did not cover. A test marked `todo: 'finding N'` asserts
 * the safe behaviour and fails today (the report names the code at fault); the others prove an attack is refused.
 *
 *   1. upload's fileUrl: SSRF to this machine and its network (IPv4-mapped IPv6 literals; DNS rebinding), the
 *      answer written on chain (main/engine/utilities/fetch-file.ts, not the guarded client).
 *   2. internalizeAction books a BRC-29 payment no node accepted (ARC "stored"/"accepted"), and keeps it.
 *   3. deleteWallet without force discards a wallet that holds tokens (or basket outputs) but no plain satoshis.
 *   4. one operator's invoices add a provider question per invoice to every scan, for ever (no cap).
 *   5. inscriptionContent resolves the holder by walletId alone: another user's default wallet is "yours".
 *   6. an app sends (sendWith) or aborts another app's noSend action in a shared wallet.
 *   7. the payment policy never counts fees: data writes burn past any limit, from the fee manager too.
 */

const run = <T>(p: Promise<{ output: T }>) => p.then((r) => r.output);

/** An HTTP server on loopback that counts what reaches it (a service of this machine an SSRF would read). */
async function loopbackSecret(): Promise<{ server: Server; port: number; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((q, s) => {
    hits.push(q.url ?? '');
    s.setHeader('content-type', 'text/plain');
    s.end('internal-secret-42');
  }).listen(0, '127.0.0.1');
  await new Promise((ok) => server.once('listening', ok));
  return { server, port: (server.address() as AddressInfo).port, hits };
}

describe('finding 1: upload’s fileUrl reaches this machine through an IPv4-mapped IPv6 literal', () => {
  let s: EngineOrg;
  let local: Awaited<ReturnType<typeof loopbackSecret>>;
  beforeEach(async () => {
    s = await setUpEngineOrg();
    local = await loopbackSecret();
  });
  afterEach(() => {
    local.server.close();
    s.t.engine.close();
  });

  it('refused: http://127.0.0.1 (the control the existing test has)', async () => {
    const op = await s.userWithRole('op@acme.io', 'operator');
    await assert.rejects(
      s.t.engine.execute('upload', { fileUrl: `http://127.0.0.1:${local.port}/a`, fileName: 'a.txt' }, op, meta),
      (e: { code?: string }) => e.code === 'FORBIDDEN',
    );
    await assert.rejects(
      s.t.engine.execute('upload', { fileUrl: `http://0x7f000001:${local.port}/b`, fileName: 'b.txt' }, op, meta),
      (e: { code?: string }) => e.code === 'FORBIDDEN',
    );
    await assert.rejects(
      s.t.engine.execute('upload', { fileUrl: `http://localhost:${local.port}/c`, fileName: 'c.txt' }, op, meta),
      (e: { code?: string }) => e.code === 'FORBIDDEN',
    );
    assert.deepEqual(local.hits, [], 'nothing reached the loopback service');
  });

  it('an operator’s upload of http://[::ffff:127.0.0.1]:port/ is refused and never reaches the loopback service', async () => {
    const op = await s.userWithRole('op@acme.io', 'operator');
    // Fund the operator's default wallet, so the fetched bytes would be written on chain (readable by anyone).
    const addr = (await run(s.t.engine.execute('walletAddress', {}, op, meta))).address;
    await s.t.node.faucet(addr, 200_000);
    const url = `http://[::ffff:127.0.0.1]:${local.port}/admin/secret`;
    const r = await s.t.engine.execute('upload', { fileUrl: url, fileName: 'x.txt' }, op, meta).then(
      (x) => ({ ok: true as const, out: x.output as { txid: string } }),
      (e: { code?: string }) => ({ ok: false as const, code: e.code }),
    );
    const leaked = r.ok ? (await run(s.t.engine.execute('rawtx', { txid: r.out.txid }, op, meta))).rawtx : '';
    assert.ok(
      !leaked.includes(Buffer.from('internal-secret-42').toString('hex')),
      `the loopback service's answer was written on chain in ${r.ok ? r.out.txid : '-'} (requests it got: ${JSON.stringify(local.hits)})`,
    );
    assert.deepEqual(local.hits, [], `the loopback service was reached: ${JSON.stringify(local.hits)}`);
    assert.equal(r.ok ? 'written' : r.code, 'FORBIDDEN');
  });

  it('refused (FORBIDDEN), nothing contacted: the other spellings of this machine, its network and cloud metadata', async () => {
    const op = await s.userWithRole('op@acme.io', 'operator');
    for (const host of [
      '[::ffff:7f00:1]',
      '[0:0:0:0:0:ffff:127.0.0.1]',
      '[::ffff:a9fe:a9fe]',
      '[::ffff:a00:1]',
      '[::ffff:c0a8:101]',
      '[64:ff9b::7f00:1]',
      '[64:ff9b::a9fe:a9fe]',
      '[2002:7f00:1::]',
      '[2002:a9fe:a9fe::]',
      '[::7f00:1]',
      '127.1',
      '0177.0.0.1',
      '2130706433',
    ]) {
      const code = await s.t.engine.execute('upload', { fileUrl: `http://${host}:${local.port}/m`, fileName: 'm.txt' }, op, meta).then(
        () => 'written',
        (e: { code?: string }) => e.code,
      );
      assert.equal(code, 'FORBIDDEN', host);
    }
    assert.deepEqual(local.hits, [], 'nothing reached the loopback service');
  });
});

/**
 * A polled chain (as on the network: no events) whose ARC answers for some transactions what it answers for any
 * transaction it merely stored (`mempool`, seenOnNetwork false: RECEIVED, STORED, ANNOUNCED_TO_NETWORK) and whose
 * WhatsOnChain lists their outputs among an address's coins. SECURITY.md: ARC's "stored" vouches for nothing.
 */
function storedOnly(phantoms: Map<string, { address: string; utxo: ChainUtxo; hex: string }>) {
  return (local: ChainProvider): ChainProvider => {
    const c = Object.create(local) as ChainProvider & { events?: unknown };
    Object.assign(c, {
      events: undefined,
      async getTxStatus(txid: string): Promise<TxStatus> {
        if (phantoms.has(txid))
          return { txid, state: 'mempool', blockHeight: null, blockHash: null, merklePath: null, seenOnNetwork: false };
        return local.getTxStatus(txid);
      },
      async broadcast(hex: string) {
        const txid = Transaction.fromHex(hex).id('hex');
        // ARC answers "accepted" for what it stores; it never reaches a node.
        if (phantoms.has(txid)) return { status: 'accepted' as const, txid };
        return local.broadcast(hex);
      },
      async getTransactionHex(txid: string): Promise<string | null> {
        return phantoms.get(txid)?.hex ?? local.getTransactionHex(txid);
      },
      async getUtxos(address: string): Promise<ChainUtxo[]> {
        const listed = await local.getUtxos(address);
        for (const p of phantoms.values()) if (p.address === address) listed.push(p.utxo);
        return listed;
      },
    });
    return c;
  };
}

describe('finding 2: internalizeAction books a wallet payment no node accepted (ARC only stored it)', () => {
  const phantoms = new Map<string, { address: string; utxo: ChainUtxo; hex: string }>();
  let t: TestEngine;
  let admin: Credentials;
  const exec = (op: string, input: object, as: Credentials = admin) =>
    t.engine.execute(op as never, input, as, meta).then((r) => r.output) as Promise<any>;
  const app = (method: string, args: object) => t.engine.brc100.call('shop.example', method, args, '127.0.0.1');
  const spendable = async (walletId: string) =>
    ((await exec('balance', { walletId, type: 'ALL' })).coins as { tokenId?: string; balance: number }[]).find((c) => !c.tokenId)!.balance;

  beforeEach(async () => {
    phantoms.clear();
    t = testEngine({ chain: storedOnly(phantoms) });
    const s = (await t.engine.execute('setup', ADMIN, {}, meta)).output;
    admin = { authToken: s.authToken, serviceId: s.serviceId };
    t.engine.brc100.setWait(50);
  });
  afterEach(() => t.engine.close());

  /** A BRC-29 payment of 90,000 to the app's wallet that double-spends a coin the chain already saw spent elsewhere. */
  async function doubleSpentPayment(identity: string, doubleSpent = true) {
    const sender = PrivateKey.fromRandom();
    const f = await t.node.faucet(sender.toAddress(), 100_000);
    assert.equal(f.status, 'accepted');
    t.node.mine();
    const source = Transaction.fromHex(t.node.txHex(f.txid)!);
    source.merklePath = MerklePath.fromHex(t.node.txStatus(f.txid).merklePath!);
    const vout = source.outputs.findIndex((o) => o.satoshis === 100_000);
    // The coin goes elsewhere first, and the chain takes that.
    const elsewhere = new Transaction();
    elsewhere.addInput({ sourceTransaction: source, sourceOutputIndex: vout, unlockingScriptTemplate: new P2PKH().unlock(sender) });
    elsewhere.addOutput({ lockingScript: new P2PKH().lock(PrivateKey.fromRandom().toAddress()), satoshis: 99_000 });
    await elsewhere.sign();
    if (doubleSpent) assert.equal(t.node.submit(elsewhere.toHex()).status, 'accepted');
    // Then the same coin "pays" the wallet: valid scripts, proven parent, and never on the chain.
    const [derivationPrefix, derivationSuffix] = [Utils.toBase64(Random(8)), Utils.toBase64(Random(8))];
    const { publicKey } = await new ProtoWallet(sender).getPublicKey({
      protocolID: BRC29,
      keyID: `${derivationPrefix} ${derivationSuffix}`,
      counterparty: identity,
    });
    const lock = new P2PKH().lock(Hash.hash160(Utils.toArray(publicKey, 'hex')));
    const tx = new Transaction();
    tx.addInput({ sourceTransaction: source, sourceOutputIndex: vout, unlockingScriptTemplate: new P2PKH().unlock(sender) });
    tx.addOutput({ lockingScript: lock, satoshis: 90_000 });
    await tx.sign();
    const txid = tx.id('hex');
    const address = p2pkhAddressOf(lock.toHex())!;
    return {
      tx,
      txid,
      address,
      lockHex: lock.toHex(),
      remittance: { derivationPrefix, derivationSuffix, senderIdentityKey: sender.toPublicKey().toString() },
    };
  }

  it('a payment whose only word is ARC’s "stored" is not booked as a coin of the wallet', async () => {
    const walletId = (await exec('createWallet', { walletTitle: 'Shop' })).walletID as string;
    await exec('decideApp', { originator: 'shop.example', allow: true, walletId });
    const identity = ((await app('getPublicKey', { identityKey: true })) as { publicKey: string }).publicKey;
    const p = await doubleSpentPayment(identity);
    // The address WhatsOnChain is asked about is whatever the output's script pays: list the phantom there.
    phantoms.set(p.txid, {
      address: p.address,
      utxo: { txid: p.txid, vout: 0, satoshis: 90_000, script: p.lockHex, height: null },
      hex: p.tx.toHex(),
    });
    assert.equal(t.node.txStatus(p.txid).state, 'unknown', 'the chain does not have it (it never will: its coin is spent)');
    const before = await spendable(walletId);
    const r = await app('internalizeAction', {
      tx: p.tx.toAtomicBEEF(),
      outputs: [{ outputIndex: 0, protocol: 'wallet payment', paymentRemittance: p.remittance }],
      description: 'a payment for an order',
    }).then(
      () => 'accepted',
      (e: Error) => e.message,
    );
    // Reconciling, a broadcast window and more later, keeps it: WhatsOnChain still returns it.
    for (let i = 0; i < 3; i++) {
      t.clock.now += 60_000;
      await t.engine.reconcile();
    }
    const after = await spendable(walletId);
    assert.equal(after, before, `the books hold ${after - before} satoshis the chain does not (internalize: ${r})`);
    assert.notEqual(r, 'accepted');
  });

  it('a control: the same payment, taken by a node of the network, is booked', async () => {
    const walletId = (await exec('createWallet', { walletTitle: 'Shop' })).walletID as string;
    await exec('decideApp', { originator: 'shop.example', allow: true, walletId });
    const identity = ((await app('getPublicKey', { identityKey: true })) as { publicKey: string }).publicKey;
    const p = await doubleSpentPayment(identity, false);
    const before = await spendable(walletId);
    await app('internalizeAction', {
      tx: p.tx.toAtomicBEEF(),
      outputs: [{ outputIndex: 0, protocol: 'wallet payment', paymentRemittance: p.remittance }],
      description: 'a payment for an order',
    });
    assert.equal(t.node.txStatus(p.txid).state, 'mempool', 'sent to the chain, which took it');
    assert.equal((await spendable(walletId)) - before, 90_000);
  });
});

describe('finding 3: deleting a wallet that holds tokens (and no BSV) needs no force', () => {
  let s: EngineOrg;
  const exec = (op: string, input: object, as: Credentials) =>
    s.t.engine.execute(op as never, input, as, meta).then((r) => r.output) as Promise<any>;
  beforeEach(async () => {
    s = await setUpEngineOrg();
  });
  afterEach(() => s.t.engine.close());

  /** An operator's wallet holding 400 GOLD tokens and no plain satoshis. */
  async function tokensOnly() {
    const issuer = (await exec('createWallet', { walletTitle: 'Treasury' }, s.admin)).walletID as string;
    await exec('faucet', { walletId: issuer, satoshis: 100_000 }, s.admin);
    const gold = await exec(
      'issueToken',
      { walletId: issuer, name: 'Gold', protocolId: 'KST-20', symbol: 'GOLD', tokenSupply: 1000, satsPerToken: 1 },
      s.admin,
    );
    const op = await s.userWithRole('op@acme.io', 'operator');
    const vault = (await exec('createWallet', { walletTitle: 'Vault' }, op)).walletID as string;
    const to = (await exec('walletAddress', { walletId: vault }, op)).address as string;
    await exec('send', { walletId: issuer, dataArray: [{ to, amount: 400, tokenId: gold.tokenId }] }, s.admin);
    const coins = (await exec('balance', { walletId: vault, type: 'ALL' }, op)).coins as {
      tokenId?: string;
      balance?: number;
      amount?: number;
    }[];
    assert.equal(coins.find((c) => !c.tokenId)?.balance, 0, 'no plain satoshis');
    assert.equal(coins.find((c) => c.tokenId === gold.tokenId)?.amount, 400, `the vault holds the tokens: ${JSON.stringify(coins)}`);
    return { op, vault, tokenId: gold.tokenId as string };
  }

  it('a control: a wallet holding satoshis is not deleted without force', async () => {
    const op = await s.userWithRole('op2@acme.io', 'operator');
    const w = (await exec('createWallet', { walletTitle: 'Petty cash' }, op)).walletID as string;
    await exec('faucet', { walletId: w, satoshis: 5_000 }, s.admin).catch(async () => {
      const to = (await exec('walletAddress', { walletId: w }, op)).address as string;
      await s.t.node.faucet(to, 5_000);
    });
    await assert.rejects(exec('deleteWallet', { walletId: w }, op), (e: { code?: string }) => e.code === 'CONFLICT');
  });

  it('a wallet holding only tokens is refused (CONFLICT) without force, like one holding satoshis', async () => {
    const { op, vault } = await tokensOnly();
    const r = await exec('deleteWallet', { walletId: vault }, op).then(
      () => 'deleted',
      (e: { code?: string }) => e.code,
    );
    const left = (await exec('listWallets', {}, op)).wallets as { walletID: string }[];
    assert.equal(r, 'CONFLICT', 'the tokens’ keys were discarded without force: 400 GOLD are gone from the books and unspendable');
    assert.ok(left.some((w) => w.walletID === vault));
  });

  it('the refusal names what the wallet holds; with force the wallet goes, its tokens with it', async () => {
    const { op, vault } = await tokensOnly();
    await assert.rejects(
      exec('deleteWallet', { walletId: vault }, op),
      (e: { code?: string; message?: string }) => e.code === 'CONFLICT' && /token output/.test(e.message ?? ''),
    );
    await exec('deleteWallet', { walletId: vault, force: true }, op);
    const left = (await exec('listWallets', {}, op)).wallets as { walletID: string }[];
    assert.ok(!left.some((w) => w.walletID === vault));
    const rows = s.t.store.db.prepare('SELECT count(*) AS n FROM token_utxos WHERE wallet_row NOT IN (SELECT id FROM wallets)').get() as {
      n: number;
    };
    assert.equal(rows.n, 0, 'no token rows left without their wallet');
  });
});

describe('finding 4: one operator’s invoices make every scan of the organisation ask about one more address each, for ever', () => {
  it('500 invoices of one operator (all expired) do not add 500 provider questions to every scan', async () => {
    const dataDir = tempDir();
    const node = LocalNode.open({ dataDir, password: 'pw' });
    let asked = 0;
    const polled: ChainProvider = Object.assign(Object.create(new LocalProvider(node, () => null)) as ChainProvider, {
      events: undefined,
      getHistory(this: ChainProvider, address: string) {
        asked++;
        return Object.getPrototypeOf(this).getHistory.call(this, address);
      },
    });
    const clock = { now: Date.parse('2026-01-01T00:00:00Z') };
    const config = { version: 'test', network: 'local', sessionTtlMs: 3600_000, paymailDomain: 'acme.test', broadcastWindowMs: 30_000 };
    const open = async () => {
      const engine = createEngine({
        store: openStore({ dataDir, password: 'pw' }),
        chain: polled,
        config,
        syncIntervalMs: 0,
        now: () => clock.now,
      });
      await engine.ready;
      return engine;
    };
    let engine = await open();
    try {
      const s = (await engine.execute('setup', ADMIN, {}, meta)).output;
      const admin = { authToken: s.authToken, serviceId: s.serviceId };
      await engine.execute('createUser', { email: 'op@acme.io', password: 'user-password-1', role: 'operator' }, admin, meta);
      const l = (await engine.execute('login', { email: 'op@acme.io', password: 'user-password-1' }, {}, meta)).output;
      const op = { authToken: l.authToken, serviceId: l.serviceId };
      const walletID = (await engine.execute('createWallet', { walletTitle: 'Stall' }, op, meta)).output.walletID;
      engine.close();
      asked = 0;
      engine = await open();
      const baseline = asked;
      let refused: string | null = null;
      for (let i = 0; i < 500 && !refused; i++)
        await engine
          .execute('createInvoice', { walletID, satoshis: 1_000, expiresInMinutes: 1 }, op, meta)
          .catch((e: { code?: string }) => {
            refused = e.code ?? 'ERROR';
          });
      clock.now += 24 * 3600_000; // every one expired a day ago
      engine.close();
      asked = 0;
      engine = await open();
      const after = asked;
      assert.ok(
        refused !== null || after - baseline < 100,
        `one operator's expired invoices add ${after - baseline} WhatsOnChain questions to every scan (${baseline} before, ${after} after), for good`,
      );
    } finally {
      engine.close();
      node.close();
    }
  });

  const attempt = (p: Promise<{ output: { invoiceId: string } }>) =>
    p.then(
      (r) => ({ ok: true as const, id: r.output.invoiceId }),
      (e: { code?: string; message?: string }) => ({ ok: false as const, code: e.code, message: e.message ?? '' }),
    );

  it('one user: the 101st open invoice is refused (CONFLICT, saying why); a cancelled or expired one frees a place', async () => {
    const s = await setUpEngineOrg();
    try {
      const op = await s.userWithRole('op@acme.io', 'operator');
      const create = (minutes = 60) =>
        attempt(s.t.engine.execute('createInvoice', { satoshis: 1_000, expiresInMinutes: minutes }, op, meta));
      const made = [];
      for (let i = 0; i < 100; i++) made.push(await create(i === 0 ? 1 : 60));
      assert.ok(made.every((m) => m.ok));
      const over = await create();
      assert.equal(over.ok ? 'created' : over.code, 'CONFLICT');
      assert.match(over.ok ? '' : over.message, /100 open invoices/);
      const first = made[1] as { id: string };
      await s.t.engine.execute('cancelInvoice', { invoiceId: first.id }, op, meta);
      assert.ok((await create()).ok, 'a cancelled invoice frees a place');
      assert.equal((await create()).ok, false);
      s.t.clock.now += 2 * 60_000; // the 1-minute one expires
      assert.ok((await create()).ok, 'an expired invoice frees a place');
    } finally {
      s.t.engine.close();
    }
  });

  it('one wallet: three members of a shared wallet stop at 200 open invoices together; a burst at once holds the cap too', async () => {
    const s = await setUpEngineOrg();
    try {
      const ops: Credentials[] = [];
      for (const name of ['a', 'b', 'c']) ops.push(await s.userWithRole(`${name}@acme.io`, 'operator'));
      const members = ['a@acme.io', 'b@acme.io', 'c@acme.io'];
      const walletID = (await s.t.engine.execute('createWallet', { walletTitle: 'Till', type: 'shared', members }, s.admin, meta)).output
        .walletID;
      const create = (who: Credentials) => attempt(s.t.engine.execute('createInvoice', { walletID, satoshis: 1_000 }, who, meta));
      // a, all at once: 150 asked, 100 made (the per-user cap holds against concurrent requests).
      const burst = await Promise.all(Array.from({ length: 150 }, () => create(ops[0])));
      assert.equal(burst.filter((r) => r.ok).length, 100);
      for (let i = 0; i < 100; i++) assert.ok((await create(ops[1])).ok);
      const third = await create(ops[2]);
      assert.equal(third.ok ? 'created' : third.code, 'CONFLICT', 'the wallet’s 201st open invoice');
      assert.match(third.ok ? '' : third.message, /This wallet has 200 open invoices/);
    } finally {
      s.t.engine.close();
    }
  });

  it('past the gap, dormant invoice addresses are asked about in turn: at most 20 a turn, every one in time; live ones every scan', async () => {
    const { InvoiceScanPlan, TURN_MS, DORMANT_AFTER_MS } = await import('../../main/engine/sync/invoice-scan-plan.js');
    const { createAddressRepo } = await import('../../main/store/repos/addresses.js');
    const { createInvoiceRepo } = await import('../../main/store/repos/invoices.js');
    const s = await setUpEngineOrg();
    try {
      const walletID = (await s.t.engine.execute('createWallet', { walletTitle: 'Shop' }, s.admin, meta)).output.walletID;
      const create = (minutes: number) =>
        s.t.engine.execute('createInvoice', { walletID, satoshis: 1_000, expiresInMinutes: minutes }, s.admin, meta).then((r) => r.output);
      const expired = [];
      for (let i = 0; i < 80; i++) expired.push(await create(1)); // 20 within the gap, 60 past it
      const cancelled = await create(600);
      await s.t.engine.execute('cancelInvoice', { invoiceId: cancelled.invoiceId }, s.admin, meta);
      const recent = await create(61); // closes a minute before the plan is asked: asked at every scan for an hour yet
      const open = await create(600);
      s.t.clock.now += DORMANT_AFTER_MS + 2 * 60_000;
      const repos = { addresses: createAddressRepo(s.t.store.db), invoices: createInvoiceRepo(s.t.store.db) };
      const plan = new InvoiceScanPlan({ now: () => s.t.clock.now, repos }, 20);
      const walletRow = repos.invoices.byId(open.invoiceId)!.walletRow;
      const dormant = [...expired.slice(20), cancelled].map((i) => i.address);
      const seen = new Set<string>();
      for (let turn = 0; turn < 4; turn++) {
        const asked = dormant.filter((a) => plan.asks(walletRow, a, true));
        assert.ok(asked.length <= 20, `${asked.length} dormant addresses asked in one turn`);
        for (const a of asked) seen.add(a);
        assert.deepEqual(
          dormant.filter((a) => plan.asks(walletRow, a, true)),
          asked,
          'scans within a turn ask the same ones',
        );
        for (const live of [open.address, recent.address]) assert.ok(plan.asks(walletRow, live, true), 'a live invoice address');
        assert.ok(
          dormant.every((a) => plan.asks(walletRow, a, false)),
          'within the gap every address is asked',
        );
        s.t.clock.now += TURN_MS;
      }
      assert.equal(seen.size, dormant.length, 'every dormant address was asked about within four turns');
      // Once a dormant address received something (booked: used), it is asked about at every scan again.
      repos.addresses.markUsed(walletRow, dormant[0]);
      for (let turn = 0; turn < 4; turn++, s.t.clock.now += TURN_MS) assert.ok(plan.asks(walletRow, dormant[0], true));
    } finally {
      s.t.engine.close();
    }
  });

  it('the scan asks about dormant invoice addresses in turn, and still books a late payment to one (paid while closed)', async () => {
    const { TURN_MS, DORMANT_AFTER_MS } = await import('../../main/engine/sync/invoice-scan-plan.js');
    const dataDir = tempDir();
    const node = LocalNode.open({ dataDir, password: 'pw' });
    let asked = 0;
    const polled: ChainProvider = Object.assign(Object.create(new LocalProvider(node, () => null)) as ChainProvider, {
      events: undefined,
      getHistory(this: ChainProvider, address: string) {
        asked++;
        return Object.getPrototypeOf(this).getHistory.call(this, address);
      },
    });
    const clock = { now: Date.parse('2026-01-01T00:00:00Z') };
    const config = { version: 'test', network: 'local', sessionTtlMs: 3600_000, paymailDomain: 'acme.test', broadcastWindowMs: 30_000 };
    const open = async () => {
      asked = 0;
      const e = createEngine({
        store: openStore({ dataDir, password: 'pw' }),
        chain: polled,
        config,
        syncIntervalMs: 0,
        now: () => clock.now,
      });
      await e.ready;
      return e;
    };
    let engine = await open();
    try {
      const s = (await engine.execute('setup', ADMIN, {}, meta)).output;
      const who = { authToken: s.authToken, serviceId: s.serviceId };
      const walletID = (await engine.execute('createWallet', { walletTitle: 'Shop' }, who, meta)).output.walletID;
      engine.close();
      engine = await open();
      const baseline = asked;
      let last = null;
      for (let i = 0; i < 100; i++)
        last = (await engine.execute('createInvoice', { walletID, satoshis: 1_000, expiresInMinutes: 1 }, who, meta)).output;
      engine.close();
      clock.now += DORMANT_AFTER_MS + 2 * 60_000; // all 100 closed unpaid over an hour ago: 80 dormant past the gap
      const late = await node.faucet(last!.address, 5_000);
      assert.equal(late.status, 'accepted');
      let booked = false;
      for (let start = 0; start < 6 && !booked; start++, clock.now += TURN_MS) {
        engine = await open();
        assert.ok(asked - baseline <= 40, `start ${start}: ${asked - baseline} more questions than before the invoices`);
        const l = (await engine.execute('login', { email: ADMIN.email, password: ADMIN.password }, {}, meta)).output;
        const history = (await engine.execute('history', { walletId: walletID }, { authToken: l.authToken, serviceId: l.serviceId }, meta))
          .output.history;
        booked = history.some((h: { txid: string }) => h.txid === late.txid);
        engine.close();
      }
      assert.ok(booked, 'the late payment to a dormant invoice address was booked within a few scans');
    } finally {
      engine.close();
      node.close();
    }
  });
});

describe('finding 5: inscription content of another user’s default wallet is served to anyone', () => {
  let s: EngineOrg;
  const exec = (op: string, input: object, as: Credentials) =>
    s.t.engine.execute(op as never, input, as, meta).then((r) => r.output) as Promise<any>;
  beforeEach(async () => {
    s = await setUpEngineOrg();
  });
  afterEach(() => s.t.engine.close());

  /** A stranger inscribes a private text onto an address of the wallet `walletId` of `owner`; answers its outpoint. */
  async function inscribedTo(owner: Credentials, walletId: string | undefined, text: string): Promise<string> {
    const address = (await exec('walletAddress', walletId ? { walletId } : {}, owner)).address as string;
    const pkh = Utils.toHex(Utils.fromBase58Check(address).data as number[]);
    const outside = PrivateKey.fromRandom();
    const f = await s.t.node.faucet(outside.toAddress(), 20_000);
    const parent = Transaction.fromHex(s.t.node.txHex(f.txid!)!);
    const tx = new Transaction();
    tx.addInput({
      sourceTransaction: parent,
      sourceOutputIndex: parent.outputs.findIndex((o) => o.satoshis === 20_000),
      unlockingScriptTemplate: new P2PKH().unlock(outside),
    });
    tx.addOutput({ lockingScript: LockingScript.fromHex(ordP2pkhScript(pkh, 'text/plain', Buffer.from(text))), satoshis: 1 });
    tx.addOutput({ lockingScript: new P2PKH().lock(outside.toAddress()), change: true });
    await tx.fee(300);
    await tx.sign();
    assert.equal(s.t.node.submit(tx.toHex()).status, 'accepted');
    const outpoint = `${tx.id('hex')}_0`;
    for (let i = 0; i < 100; i++) {
      const l = await exec('listOrdinals', walletId ? { walletId } : {}, owner);
      if ((l.inscriptions as { outpoint: string }[]).some((x) => x.outpoint === outpoint)) return outpoint;
      await new Promise((ok) => setTimeout(ok, 50));
    }
    throw new Error('the inscription was never listed');
  }

  it('refused: a viewer asking for an inscription in another user’s named wallet', async () => {
    const viewer = await s.userWithRole('vic@acme.io', 'viewer');
    const board = (await exec('createWallet', { walletTitle: 'Board' }, s.admin)).walletID as string;
    const outpoint = await inscribedTo(s.admin, board, 'board minutes: confidential');
    await assert.rejects(exec('inscriptionContent', { outpoint }, viewer), (e: { code?: string }) => e.code === 'NOT_FOUND');
    assert.equal(
      Buffer.from((await exec('inscriptionContent', { outpoint }, s.admin)).contentBase64, 'base64').toString(),
      'board minutes: confidential',
    );
  });

  it('a viewer asking for an inscription in the admin’s default wallet is refused (NOT_FOUND)', async () => {
    const viewer = await s.userWithRole('vic@acme.io', 'viewer');
    const outpoint = await inscribedTo(s.admin, undefined, 'payroll: confidential');
    const r = await exec('inscriptionContent', { outpoint }, viewer).then(
      (x: { contentBase64: string }) => Buffer.from(x.contentBase64, 'base64').toString(),
      (e: { code?: string }) => e.code,
    );
    assert.equal(r, 'NOT_FOUND', `the viewer read the admin's inscription: ${r}`);
  });

  it('refused: an operator whose own default wallet has the same walletId; the answer is the one for an outpoint nobody holds', async () => {
    const op = await s.userWithRole('op@acme.io', 'operator');
    await exec('walletAddress', {}, op); // the operator's own default wallet: the id every default wallet has
    const outpoint = await inscribedTo(s.admin, undefined, 'salaries: confidential');
    const refusal = await exec('inscriptionContent', { outpoint }, op).then(
      () => null,
      (e: { code?: string; message?: string }) => ({ code: e.code, message: e.message?.replace(outpoint, '<outpoint>') }),
    );
    const nobody = `${'ab'.repeat(32)}_0`;
    const none = await exec('inscriptionContent', { outpoint: nobody }, op).then(
      () => null,
      (e: { code?: string; message?: string }) => ({ code: e.code, message: e.message?.replace(nobody, '<outpoint>') }),
    );
    assert.deepEqual(refusal, none, 'another user’s inscription reads as one no wallet holds');
    assert.equal(refusal?.code, 'NOT_FOUND');
  });

  it('asking creates nothing: a viewer without a wallet has none afterwards', async () => {
    const viewer = await s.userWithRole('vic@acme.io', 'viewer');
    const outpoint = await inscribedTo(s.admin, undefined, 'minutes');
    const before = (await exec('listWallets', {}, viewer)).wallets.length as number;
    await exec('inscriptionContent', { outpoint }, viewer).catch(() => undefined);
    assert.equal((await exec('listWallets', {}, viewer)).wallets.length, before, 'a wallet was created for the viewer');
  });

  it('a control: the owner and a shared wallet’s member read it; the admin is refused an operator’s default wallet', async () => {
    const op = await s.userWithRole('op@acme.io', 'operator');
    const mine = await inscribedTo(op, undefined, 'the operator’s own');
    assert.equal(
      Buffer.from((await exec('inscriptionContent', { outpoint: mine }, op)).contentBase64, 'base64').toString(),
      'the operator’s own',
    );
    await assert.rejects(exec('inscriptionContent', { outpoint: mine }, s.admin), (e: { code?: string }) => e.code === 'NOT_FOUND');
    const team = (await exec('createWallet', { walletTitle: 'Team', type: 'shared', members: ['op@acme.io'] }, s.admin)).walletID as string;
    const shared = await inscribedTo(s.admin, team, 'team notes');
    assert.equal(
      Buffer.from((await exec('inscriptionContent', { outpoint: shared }, op)).contentBase64, 'base64').toString(),
      'team notes',
    );
  });
});

describe('refused: attacks tried that the rule holds against', () => {
  let s: EngineOrg;
  const exec = (op: string, input: object, as: Credentials) =>
    s.t.engine.execute(op as never, input, as, meta).then((r) => r.output) as Promise<any>;
  const code = (p: Promise<unknown>) =>
    p.then(
      () => 'ok',
      (e: { code?: string; name?: string }) => e.code ?? e.name ?? 'ERROR',
    );
  beforeEach(async () => {
    s = await setUpEngineOrg();
  });
  afterEach(() => s.t.engine.close());

  it('a viewer or an operator names another user’s wallet by its id: NOT_FOUND for reads, addresses and payments', async () => {
    const board = (await exec('createWallet', { walletTitle: 'Board' }, s.admin)).walletID as string;
    await exec('faucet', { walletId: board, satoshis: 50_000 }, s.admin);
    const viewer = await s.userWithRole('vic@acme.io', 'viewer');
    const op = await s.userWithRole('op@acme.io', 'operator');
    const to = new P2PKH().lock(PrivateKey.fromRandom().toAddress()).toHex();
    for (const who of [viewer, op]) {
      for (const [name, input] of [
        ['history', { walletId: board }],
        ['walletAddress', { walletId: board }],
        ['walletAddresses', { walletId: board }],
        ['balance', { walletId: board, type: 'ALL' }],
        ['listOrdinals', { walletId: board }],
        ['listOffers', { walletId: board }],
        ['listInvoices', { walletId: board }],
      ] as const)
        assert.equal(await code(exec(name, input, who)), 'NOT_FOUND', `${name} on another's wallet`);
    }
    assert.equal(await code(exec('pay', { walletId: board, outputs: [{ script: to, satoshis: 1_000 }] }, op)), 'NOT_FOUND');
    assert.equal(await code(exec('createInvoice', { walletID: board, satoshis: 1_000 }, op)), 'NOT_FOUND');
    const boardAddress = (await exec('walletAddress', { walletId: board }, s.admin)).address as string;
    assert.equal(await code(exec('createInvoice', { address: boardAddress, satoshis: 1_000 }, op)), 'VALIDATION_FAILED');
    assert.equal(await code(exec('deleteWallet', { walletId: board, force: true }, op)), 'NOT_FOUND');
    assert.equal(await code(exec('exportMnemonic', { walletId: board, password: 'user-password-1' }, op)), 'NOT_FOUND');
    assert.equal(await code(exec('pay', { walletId: board, outputs: [{ script: to, satoshis: 1_000 }] }, viewer)), 'ROLE_FORBIDDEN');
    assert.equal(await code(exec('createUser', { email: 'x@acme.io', password: 'user-password-1', role: 'admin' }, op)), 'ROLE_FORBIDDEN');
    assert.equal(await code(exec('updateUser', { userId: 'any', role: 'admin' }, viewer)), 'ROLE_FORBIDDEN');
  });

  it('the guarded client’s classifier (paymail, certifiers) reads IPv4-mapped, NAT64 and 6to4 literals as the IPv4 inside', async () => {
    for (const host of [
      '[::ffff:7f00:1]',
      '[::ffff:a9fe:a9fe]',
      '[64:ff9b::a00:1]',
      '[2002:7f00:1::]',
      '[::7f00:1]',
      '0x7f000001',
      'localhost.',
    ])
      assert.notEqual(classifyHost(new URL(`http://${host}/`).hostname), 'public', host);
  });

  it('an idempotency key is the caller’s own: another user with the same key pays their own request', async () => {
    const a = await s.userWithRole('a@acme.io', 'operator');
    const b = await s.userWithRole('b@acme.io', 'operator');
    const wa = (await exec('createWallet', { walletTitle: 'A' }, a)).walletID as string;
    const wb = (await exec('createWallet', { walletTitle: 'B' }, b)).walletID as string;
    await s.t.node.faucet((await exec('walletAddress', { walletId: wa }, a)).address, 50_000);
    await s.t.node.faucet((await exec('walletAddress', { walletId: wb }, b)).address, 50_000);
    const to = () => new P2PKH().lock(PrivateKey.fromRandom().toAddress()).toHex();
    const first = await exec('pay', { walletId: wa, outputs: [{ script: to(), satoshis: 1_000 }], idempotencyKey: 'order-1' }, a);
    const second = await exec('pay', { walletId: wb, outputs: [{ script: to(), satoshis: 2_000 }], idempotencyKey: 'order-1' }, b);
    assert.notEqual(second.txid, first.txid, 'b is not answered with a’s payment');
    assert.equal(second.walletID, wb);
    // And a's retry with another request under its key is refused, not paid.
    assert.equal(
      await code(exec('pay', { walletId: wa, outputs: [{ script: to(), satoshis: 9_000 }], idempotencyKey: 'order-1' }, a)),
      'CONFLICT',
    );
  });

  it('an app’s outputs with negative, fractional, huge or stringly satoshis are refused before anything is reserved', async () => {
    const w = (await exec('createWallet', { walletTitle: 'App' }, s.admin)).walletID as string;
    await exec('faucet', { walletId: w, satoshis: 100_000 }, s.admin);
    await exec('decideApp', { originator: 'greedy.example', allow: true, walletId: w }, s.admin);
    s.t.engine.brc100.setWait(50);
    const lockingScript = new P2PKH().lock(PrivateKey.fromRandom().toAddress()).toHex();
    for (const satoshis of [-1, 0.5, 21e14 + 1, '1000', 1e300, Number.NaN, null]) {
      const r = await s.t.engine.brc100
        .call(
          'greedy.example',
          'createAction',
          { description: 'a payment', outputs: [{ lockingScript, satoshis, outputDescription: 'a payee' }] },
          '127.0.0.1',
        )
        .then(
          () => 'ok',
          (e: { name?: string }) => e.name,
        );
      assert.equal(r, 'WERR_INVALID_PARAMETER', `satoshis ${String(satoshis)}`);
    }
    for (const basket of ['default', ' Default ', 'admin stuff'])
      assert.notEqual(
        await s.t.engine.brc100
          .call(
            'greedy.example',
            'createAction',
            { description: 'a basket', outputs: [{ lockingScript, satoshis: 1, basket, outputDescription: 'a thing' }] },
            '127.0.0.1',
          )
          .then(
            () => 'ok',
            (e: { name?: string }) => e.name,
          ),
        'ok',
        `basket ${basket}`,
      );
    const coins = (await exec('balance', { walletId: w, type: 'ALL' }, s.admin)).coins as { tokenId?: string; balance: number }[];
    assert.equal(coins.find((c) => !c.tokenId)!.balance, 100_000, 'nothing left the wallet');
  });

  it('a P2P delivery for a reference issued to another paymail, or paying another script, is refused before broadcasting', async () => {
    await exec('createWallet', { walletTitle: 'Shop', paymail: 'shop', paymailActive: true }, s.admin);
    await exec('createWallet', { walletTitle: 'Till', paymail: 'till', paymailActive: true }, s.admin);
    const host = s.t.engine.paymailHost;
    const dest = host.p2pDestination('shop@acme.test', { satoshis: 5_000 });
    const payer = PrivateKey.fromRandom();
    const f = await s.t.node.faucet(payer.toAddress(), 20_000);
    const parent = Transaction.fromHex(s.t.node.txHex(f.txid!)!);
    const build = async (script: string) => {
      const tx = new Transaction();
      tx.addInput({
        sourceTransaction: parent,
        sourceOutputIndex: parent.outputs.findIndex((o) => o.satoshis === 20_000),
        unlockingScriptTemplate: new P2PKH().unlock(payer),
      });
      tx.addOutput({ lockingScript: LockingScript.fromHex(script), satoshis: 5_000 });
      tx.addOutput({ lockingScript: new P2PKH().lock(payer.toAddress()), change: true });
      await tx.fee(300);
      await tx.sign();
      return tx.toHex();
    };
    const good = await build(dest.outputs[0].script);
    const other = await build(new P2PKH().lock(PrivateKey.fromRandom().toAddress()).toHex());
    const refusal = (p: Promise<unknown>) =>
      p.then(
        () => 'ok',
        (e: { code?: string }) => e.code,
      );
    assert.equal(await refusal(host.receiveTransaction('till@acme.test', { hex: good, reference: dest.reference })), 'not-found');
    assert.equal(await refusal(host.receiveTransaction('shop@acme.test', { hex: other, reference: dest.reference })), 'wrong-outputs');
    assert.equal(s.t.node.txStatus(Transaction.fromHex(good).id('hex')).state, 'unknown', 'nothing was broadcast');
    const ok = (await host.receiveTransaction('shop@acme.test', { hex: good, reference: dest.reference })) as { txid: string };
    assert.equal(ok.txid, Transaction.fromHex(good).id('hex'), 'a control: the right delivery is taken');
  });
});

describe('finding 1 (b): upload checks one resolution of the name and connects by another (DNS rebinding)', () => {
  let s: EngineOrg;
  let local: Awaited<ReturnType<typeof loopbackSecret>>;
  const restore: (() => void)[] = [];
  beforeEach(async () => {
    s = await setUpEngineOrg();
    local = await loopbackSecret();
  });
  afterEach(async () => {
    for (const r of restore.splice(0)) r();
    const { syncBuiltinESMExports } = await import('node:module');
    syncBuiltinESMExports();
    local.server.close();
    s.t.engine.close();
  });

  it('a name that answers a public address when checked and 127.0.0.1 when connected is never fetched', async () => {
    const dns = (await import('node:dns')).default;
    const { syncBuiltinESMExports } = await import('node:module');
    // A rebinding resolver: the first answer (the check) is public, every later one (the connection) is loopback.
    const promisesLookup = dns.promises.lookup;
    const callbackLookup = dns.lookup;
    const isRebind = (h: unknown) => h === 'rebind.attacker.test';
    (dns.promises as { lookup: unknown }).lookup = (async (host: string, opts?: unknown) =>
      isRebind(host) ? [{ address: '93.184.215.14', family: 4 }] : promisesLookup(host, opts as never)) as never;
    (dns as { lookup: unknown }).lookup = ((host: string, opts: unknown, cb?: unknown) => {
      if (!isRebind(host)) return (callbackLookup as (...a: unknown[]) => void)(host, opts, cb);
      const done = (typeof opts === 'function' ? opts : cb) as (...a: unknown[]) => void;
      const all = typeof opts === 'object' && opts !== null && (opts as { all?: boolean }).all;
      process.nextTick(() => (all ? done(null, [{ address: '127.0.0.1', family: 4 }]) : done(null, '127.0.0.1', 4)));
    }) as never;
    restore.push(() => {
      (dns.promises as { lookup: unknown }).lookup = promisesLookup;
      (dns as { lookup: unknown }).lookup = callbackLookup;
    });
    syncBuiltinESMExports();
    const op = await s.userWithRole('op@acme.io', 'operator');
    await s.t.engine
      .execute('upload', { fileUrl: `http://rebind.attacker.test:${local.port}/rebound`, fileName: 'x.txt' }, op, meta)
      .catch(() => undefined);
    assert.deepEqual(local.hits, [], `the loopback service was reached through a name checked as public: ${JSON.stringify(local.hits)}`);
  });

  it('a name answering with a loopback address in IPv4-mapped form (::ffff:7f00:1) is refused before connecting', async () => {
    const dns = (await import('node:dns')).default;
    const { syncBuiltinESMExports } = await import('node:module');
    const promisesLookup = dns.promises.lookup;
    (dns.promises as { lookup: unknown }).lookup = (async (host: string, opts?: unknown) =>
      host === 'mapped.attacker.test' ? [{ address: '::ffff:7f00:1', family: 6 }] : promisesLookup(host, opts as never)) as never;
    restore.push(() => ((dns.promises as { lookup: unknown }).lookup = promisesLookup));
    syncBuiltinESMExports();
    const op = await s.userWithRole('op@acme.io', 'operator');
    const code = await s.t.engine
      .execute('upload', { fileUrl: `http://mapped.attacker.test:${local.port}/m`, fileName: 'm.txt' }, op, meta)
      .then(
        () => 'written',
        (e: { code?: string }) => e.code,
      );
    assert.equal(code, 'FORBIDDEN');
    assert.deepEqual(local.hits, []);
  });

  it('nothing is looked up or fetched for a caller whose wallet is not theirs: the wallet is checked first', async () => {
    const dns = (await import('node:dns')).default;
    const { syncBuiltinESMExports } = await import('node:module');
    const promisesLookup = dns.promises.lookup;
    const looked: string[] = [];
    (dns.promises as { lookup: unknown }).lookup = (async (host: string, opts?: unknown) => {
      if (host !== 'probe.attacker.test') return promisesLookup(host, opts as never);
      looked.push(host);
      return [{ address: '10.0.0.1', family: 4 }];
    }) as never;
    restore.push(() => ((dns.promises as { lookup: unknown }).lookup = promisesLookup));
    syncBuiltinESMExports();
    const board = (await s.t.engine.execute('createWallet', { walletTitle: 'Board' }, s.admin, meta)).output.walletID;
    const op = await s.userWithRole('op@acme.io', 'operator');
    const code = await s.t.engine
      .execute('upload', { walletId: board, fileUrl: 'http://probe.attacker.test/x', fileName: 'x.txt' }, op, meta)
      .then(
        () => 'written',
        (e: { code?: string }) => e.code,
      );
    assert.equal(code, 'NOT_FOUND');
    assert.deepEqual(looked, [], 'the name was resolved for a caller who may not use the wallet');
  });
});

describe('refused: a signed-in user cannot pile up sessions or password hashes by logging in again and again', () => {
  let s: EngineOrg;
  beforeEach(async () => {
    s = await setUpEngineOrg();
  });
  afterEach(() => s.t.engine.close());

  it('a viewer’s 60 logins at once: most are RATE_LIMITED before the hash, few live sessions', async () => {
    await s.userWithRole('vic@acme.io', 'viewer');
    const tokens: string[] = [];
    const started = Date.now();
    const logins = await Promise.all(
      Array.from({ length: 60 }, () =>
        s.t.engine.execute('login', { email: 'vic@acme.io', password: 'user-password-1' }, {}, { clientId: '127.0.0.1' }).then(
          (r) => r.output.authToken as string,
          (e: { code?: string }) => e.code ?? 'ERROR',
        ),
      ),
    );
    const ms = Date.now() - started;
    for (const l of logins) if (/^kst/.test(l)) tokens.push(l);
    let live = 0;
    for (const authToken of tokens)
      if (
        await s.t.engine.execute('me', {}, { authToken, serviceId: s.admin.serviceId }, meta).then(
          () => true,
          () => false,
        )
      )
        live++;
    assert.ok(logins.filter((l) => l === 'RATE_LIMITED').length >= 40, 'throttled');
    assert.ok(live <= 20, `${live} live sessions for one viewer (60 scrypt hashes of 32 MiB in ${ms} ms, none throttled)`);
  });
});

describe('finding 6: an app sends or aborts another app’s held-back (noSend) action in a shared wallet by naming its txid', () => {
  let s: EngineOrg;
  const exec = (op: string, input: object, as: Credentials) =>
    s.t.engine.execute(op as never, input, as, meta).then((r) => r.output) as Promise<any>;
  const app = (originator: string) => (method: string, args: object) => s.t.engine.brc100.call(originator, method, args, '127.0.0.1');
  beforeEach(async () => {
    s = await setUpEngineOrg();
    s.t.engine.brc100.setWait(50);
  });
  afterEach(() => s.t.engine.close());

  async function twoAppsOneWallet() {
    const walletId = (await exec('createWallet', { walletTitle: 'Shared by apps' }, s.admin)).walletID as string;
    await exec('faucet', { walletId, satoshis: 200_000 }, s.admin);
    for (const originator of ['shop.example', 'rival.example']) {
      await exec('decideApp', { originator, allow: true, walletId }, s.admin);
      await exec('setAppSpendingLimit', { originator, limit: { satoshis: 1_000_000 } }, s.admin);
    }
    const shop = app('shop.example');
    const rival = app('rival.example');
    const payee = new P2PKH().lock(PrivateKey.fromRandom().toAddress()).toHex();
    const made = (await shop('createAction', {
      description: 'an order, sent later with sendWith',
      outputs: [{ lockingScript: payee, satoshis: 30_000, outputDescription: 'the supplier' }],
      options: { noSend: true },
    })) as { txid: string };
    return { shop, rival, made };
  }

  it('app B cannot send app A’s noSend action with sendWith: A held it back', async () => {
    const { rival, made } = await twoAppsOneWallet();
    const listed = (await rival('listActions', { labels: [], includeLabels: false })) as { actions: { txid: string }[] };
    assert.ok(
      listed.actions.some((a) => a.txid === made.txid),
      'the rival sees the shop’s action (documented)',
    );
    const r = await rival('createAction', { description: 'send theirs', options: { sendWith: [made.txid] } }).then(
      () => 'sent',
      (e: { name?: string }) => e.name,
    );
    const onChain = s.t.node.txStatus(made.txid).state;
    assert.equal(onChain, 'unknown', `the rival app broadcast the shop’s held-back payment of 30,000 satoshis (${r}, chain: ${onChain})`);
  });

  it('app B cannot abort app A’s noSend action (found through listActions)', async () => {
    const { rival, made } = await twoAppsOneWallet();
    const listed = (await rival('listActions', { labels: [], includeLabels: false })) as { actions: { txid: string }[] };
    assert.ok(
      listed.actions.some((a) => a.txid === made.txid),
      'the rival sees the shop’s action (documented)',
    );
    const r = await rival('abortAction', { reference: made.txid }).then(
      () => 'aborted',
      (e: { name?: string }) => e.name,
    );
    assert.notEqual(r, 'aborted', 'the rival app aborted the shop’s action: its coins were given back and its sendWith will fail');
  });

  it('app B cannot fund its own action with app A’s held-back change; A still sends its action itself', async () => {
    const { shop, rival, made } = await twoAppsOneWallet();
    const change = (made as { noSendChange?: string[] }).noSendChange ?? [];
    assert.ok(change.length > 0, 'the shop’s action has change held back with it');
    const payee = new P2PKH().lock(PrivateKey.fromRandom().toAddress()).toHex();
    const r = await rival('createAction', {
      description: 'spend their change',
      outputs: [{ lockingScript: payee, satoshis: 1_000, outputDescription: 'elsewhere' }],
      options: { noSendChange: change, noSend: true },
    }).then(
      () => 'spent',
      (e: { name?: string }) => e.name ?? 'refused',
    );
    assert.notEqual(r, 'spent', 'the rival spent the change of the shop’s unsent action');
    await shop('createAction', { description: 'send my order', options: { sendWith: [made.txid] } });
    assert.notEqual(s.t.node.txStatus(made.txid).state, 'unknown', 'the shop sends its own held-back action');
  });
});

describe('finding 7: the payment policy never counts fees, so data writes burn past any limit (the fee manager’s coins too)', () => {
  let t: TestEngine;
  let admin: Credentials;
  const exec = (op: string, input: object, as: Credentials = admin) =>
    t.engine.execute(op as never, input, as, meta).then((r) => r.output) as Promise<any>;
  beforeEach(async () => {
    // ARC's fee policy at the most the guard accepts (1 satoshi a byte, main/chain/network/answers.ts).
    t = testEngine({
      chain: (local) =>
        Object.assign(Object.create(local) as ChainProvider, { getFeePolicy: async () => ({ satoshis: 1, bytes: 1, dustLimit: 1 }) }),
    });
    const s = (await t.engine.execute('setup', ADMIN, {}, meta)).output;
    admin = { authToken: s.authToken, serviceId: s.serviceId };
  });
  afterEach(() => t.engine.close());

  it('an operator held to 1,000 satoshis a day cannot make the fee manager pay 300,000 in fees', async () => {
    await exec('createUser', { email: 'op@acme.io', password: 'user-password-1', role: 'operator' });
    const l = (await t.engine.execute('login', { email: 'op@acme.io', password: 'user-password-1' }, {}, meta)).output;
    const op = { authToken: l.authToken, serviceId: l.serviceId };
    const fm = await exec('feeManagerInit', {});
    await t.node.faucet(fm.address, 1_000_000);
    const w = (await exec('createWallet', { walletTitle: 'Ops' }, op)).walletID as string;
    await t.node.faucet((await exec('walletAddress', { walletId: w }, op)).address, 5_000);
    await exec('proposePolicy', {
      document: {
        rules: [
          {
            when: { window: { per: 'initiator', period: '24h', over: { satoshis: 1_000 } } },
            action: 'deny',
            reason: 'operators move 1,000 satoshis a day at most',
          },
        ],
        default: { action: 'allow' },
      },
    });
    const fmBalance = async () =>
      ((await t.engine.execute('feeManagerMetrics', {}, admin, meta)).output as { totalBalance: { balance: number } }).totalBalance.balance;
    const before = await fmBalance();
    let fees = 0;
    let refused: string | null = null;
    for (let i = 0; i < 3 && !refused; i++) {
      const r = await exec('post', { walletId: w, payload: 'x'.repeat(99_000) }, op).catch((e: { code?: string }) => {
        refused = e.code ?? 'ERROR';
        return null;
      });
      if (r) fees += r.fee as number;
    }
    assert.ok(
      refused !== null && fees <= 1_000,
      `the operator's data writes spent ${fees} satoshis in fees past a 1,000-satoshi daily limit (the fee manager had ${before}, has ${await fmBalance()})`,
    );
  });
});
