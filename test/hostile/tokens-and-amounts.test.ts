import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, beforeEach, afterEach, describe, it } from 'node:test';
import fc from 'fast-check';
import { LockingScript, P2PKH, PrivateKey, Transaction, Utils } from '@bsv/sdk';
import { decimalAmount, MAX_SATOSHIS, satoshisOfBsv, satoshisSchema, wholeNumber } from '../../shared/amount-schema.js';
import { amountText } from '../../shared/amounts.js';
import { OPERATIONS } from '../../shared/operations.js';
import type { LiveEvent } from '../../shared/events.js';
import type { LocalNode } from '../../main/chain/local/local-node.js';
import type { Credentials } from '../../main/engine/context.js';
import type { Engine } from '../../main/engine/engine.js';
import { contractScript } from '../../main/engine/tokens/schema.js';
import { KST20 } from '../../main/engine/token-templates/kst.js';
import { checkStasTemplate } from '../../main/engine/token-templates/stas.js';
import { rejectsWith } from '../helpers/assert-domain-error.js';
import { stasFormatTemplate } from '../helpers/stas-format-template.js';
import { startHeadless, type Headless } from '../helpers/headless.js';
import { meta, testEngine } from '../helpers/engine.js';
import { ADMIN } from '../helpers/http.js';
import { createOrgWallet, orgCall, setUpOrg, type Org } from '../helpers/org.js';
import { tempDir } from '../helpers/tmp.js';
import { until } from '../helpers/until.js';

/** Values that are not plainly an amount, whatever a lenient parser would make of them. */
const JUNK: unknown[] = [
  true,
  false,
  [7],
  [],
  {},
  { n: 1 },
  '1e2',
  '0x10',
  ' 7 ',
  '7 ',
  '',
  ' ',
  '-1',
  '+7',
  '1,000',
  '1_000',
  'Infinity',
  'NaN',
  NaN,
  Infinity,
  -Infinity,
  null,
  '0b11',
  '٣',
];

describe('amounts are strict: one schema, no coercion', () => {
  const schemas = {
    'send item amount': (v: unknown) => OPERATIONS.send.input.safeParse({ dataArray: [{ to: 'x@y.test', amount: v }] }),
    'send item satoshis': (v: unknown) => OPERATIONS.send.input.safeParse({ dataArray: [{ to: 'x@y.test', satoshis: v }] }),
    'send item sn': (v: unknown) => OPERATIONS.send.input.safeParse({ dataArray: [{ to: 'x@y.test', tokenId: 't', sn: v }] }),
    'redeem amount': (v: unknown) => OPERATIONS.redeemToken.input.safeParse({ dataArray: [{ tokenId: 't', amount: v }] }),
    'redeem sn': (v: unknown) => OPERATIONS.redeemToken.input.safeParse({ dataArray: [{ tokenId: 't', sn: v }] }),
    'issue tokenSupply': (v: unknown) =>
      OPERATIONS.issueToken.input.safeParse({ name: 'A', protocolId: 'KST-20', symbol: 'A', tokenSupply: v, satsPerToken: 1 }),
    'issue satsPerToken': (v: unknown) =>
      OPERATIONS.issueToken.input.safeParse({ name: 'A', protocolId: 'KST-20', symbol: 'A', tokenSupply: 1, satsPerToken: v }),
    'issue decimals': (v: unknown) =>
      OPERATIONS.issueToken.input.safeParse({ name: 'A', protocolId: 'KST-20', symbol: 'A', tokenSupply: 1, satsPerToken: 1, decimals: v }),
    'resolveUri amount': (v: unknown) => OPERATIONS.resolveUri.input.safeParse({ uri: 'x@y.test', amount: v }),
    'pay output satoshis': (v: unknown) => OPERATIONS.pay.input.safeParse({ outputs: [{ script: '00', satoshis: v }] }),
    'faucet satoshis': (v: unknown) => OPERATIONS.faucet.input.safeParse({ satoshis: v }),
    'convertAmount satoshis': (v: unknown) => OPERATIONS.convertAmount.input.safeParse({ satoshis: v, currency: 'USD' }),
    // null removes a rate (its documented meaning), so it is the one non-number setRate takes.
    'setRate rate': (v: unknown) => (v === null ? { success: false } : OPERATIONS.setRate.input.safeParse({ currency: 'EUR', rate: v })),
  };

  for (const [name, parse] of Object.entries(schemas)) {
    it(`${name}: booleans, arrays, objects, exponents, hex, padded or empty text, NaN and Infinity are refused`, () => {
      for (const v of JUNK) assert.equal(parse(v).success, false, `${name} took ${JSON.stringify(v) ?? String(v)}`);
    });
  }

  it('random junk is never an amount (fast-check)', () => {
    const junk = fc.oneof(
      fc.boolean(),
      fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 1, maxLength: 3 }),
      fc.dictionary(fc.string(), fc.integer()),
      fc.integer({ min: 1, max: 10_000 }).map((n) => `${n}e0`),
      fc.integer({ min: 1, max: 10_000 }).map((n) => `0x${n.toString(16)}`),
      fc.tuple(fc.constantFrom(' ', '\t', '\n'), fc.integer({ min: 1, max: 10_000 })).map(([s, n]) => `${s}${n}`),
      fc.integer({ min: 1, max: 10_000 }).map((n) => `${n} `),
      fc.string().filter((s) => !/^[0-9]+(\.[0-9]+)?$/.test(s)),
      fc.constantFrom(NaN, Infinity, -Infinity, null),
    );
    fc.assert(
      fc.property(junk, (v) => {
        for (const [name, parse] of Object.entries(schemas)) assert.equal(parse(v).success, false, `${name} took ${JSON.stringify(v)}`);
      }),
      { numRuns: 300 },
    );
  });

  it('valid amounts round-trip exactly: satoshis as numbers or digits, BSV as numbers or decimal text (fast-check)', () => {
    const sats = satoshisSchema({ min: 0 });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_SATOSHIS }), (n) => {
        assert.equal(sats.parse(n), n);
        assert.equal(sats.parse(String(n)), n);
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_SATOSHIS }), (n) => {
        const text = amountText(n, 'BSV');
        assert.equal(satoshisOfBsv(decimalAmount.parse(text)), n, `"${text}"`);
        // The same amount as a JSON number: the sender's decimal, not its binary approximation.
        assert.equal(satoshisOfBsv(decimalAmount.parse(JSON.parse(text))), n, text);
      }),
      { numRuns: 1000 },
    );
    // More than 8 decimals is not a whole number of satoshis, however close to one.
    for (const t of ['0.000000005', '0.100000000000000001', '1.000000001']) assert.equal(satoshisOfBsv(decimalAmount.parse(t)), null, t);
    assert.equal(decimalAmount.parse(1e-7), '0.0000001');
    assert.equal(wholeNumber({ strings: false }).safeParse('7').success, false, 'where strings are not allowed, digits are refused too');
  });
});

describe('amounts over HTTP: /v1/send refuses what is not an amount, and nothing is sent', () => {
  let host: Headless;
  let org: Org;
  let walletID: string;
  before(async () => {
    host = await startHeadless({ dataDir: tempDir(), password: 'pw-amounts', args: ['--mine-interval', '0'] });
    org = await setUpOrg(host);
    walletID = await createOrgWallet(org, { walletTitle: 'Payer' });
    const address = (await orgCall(org, 'GET', '/v1/address', { headers: { walletID } })).body.data.address;
    assert.equal((await orgCall(org, 'POST', '/chain/faucet', { body: { address, satoshis: 500_000 } })).status, 200);
    await until('funded', async () =>
      (await orgCall(org, 'GET', '/v1/balance', { headers: { walletID } })).body.data.coins[0].balance === 500_000 ? true : undefined,
    );
  });
  after(async () => {
    await host?.stop();
  });

  it('amount true, [7], "1e2", {} (BSV and token items) and satoshis "0x10" are 400 VALIDATION_FAILED; the balance and history are unchanged', async () => {
    const to = PrivateKey.fromRandom().toAddress();
    const before = (await orgCall(org, 'GET', '/v1/history', { headers: { walletID } })).body.data.history.length;
    const items: object[] = [
      { to, amount: true },
      { to, amount: [7] },
      { to, amount: '1e2' },
      { to, amount: {} },
      { to, amount: '0x10' },
      { to, amount: ' 7 ' },
      { to, amount: '' },
      { to, satoshis: '0x10' },
      { to, satoshis: true },
      { to, amount: true, tokenId: 'aa-T' },
      { to, amount: [7], tokenId: 'aa-T' },
    ];
    for (const item of items) {
      const r = await orgCall(org, 'POST', '/v1/send', { headers: { walletID }, body: { dataArray: [item] } });
      assert.equal(r.status, 400, JSON.stringify(item));
      assert.equal(r.body.data.code, 'VALIDATION_FAILED', JSON.stringify(r.body));
      assert.match(r.body.data.msg, /amount|satoshis/);
    }
    // A good item beside a junk one: the whole request is refused before anything is paid.
    const mixed = await orgCall(org, 'POST', '/v1/send', {
      headers: { walletID },
      body: {
        dataArray: [
          { to, satoshis: 1000 },
          { to, amount: true },
        ],
      },
    });
    assert.equal(mixed.status, 400);
    const bal = (await orgCall(org, 'GET', '/v1/balance', { headers: { walletID } })).body.data.coins[0].balance;
    assert.equal(bal, 500_000, 'nothing left the wallet');
    assert.equal((await orgCall(org, 'GET', '/v1/history', { headers: { walletID } })).body.data.history.length, before);
  });

  it('the amount header of /v1/uri takes digits only', async () => {
    for (const amount of ['1e2', '0x10', '1.5', '-5', 'true']) {
      const r = await orgCall(org, 'GET', '/v1/uri', { headers: { walletID, uri: PrivateKey.fromRandom().toAddress(), amount } });
      assert.equal(r.status, 400, amount);
    }
    const ok = await orgCall(org, 'GET', '/v1/uri', { headers: { walletID, uri: PrivateKey.fromRandom().toAddress(), amount: '1500' } });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.data.data.outputs[0].satoshis, 1500);
  });

  it('a BSV amount as decimal text is sent exactly', async () => {
    const to = PrivateKey.fromRandom().toAddress();
    const r = await orgCall(org, 'POST', '/v1/send', { headers: { walletID }, body: { dataArray: [{ to, amount: '0.00012345' }] } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const e = (await orgCall(org, 'GET', '/v1/history', { headers: { walletID } })).body.data.history.find(
      (h: { txid: string }) => h.txid === r.body.data.txIds[0],
    );
    assert.equal(e.amount + (e.fee ?? 0), -12_345, 'exactly 12,345 satoshis paid, besides the fee');
  });
});

describe('forged tokens are never announced as received: events, notifications and history follow the lineage', () => {
  let engine: Engine;
  let node: LocalNode;
  let admin: Credentials;
  const events: LiveEvent[] = [];
  let close: () => void = () => undefined;
  const exec = (op: string, input: object) => engine.execute(op as never, input, admin, meta).then((r) => r.output) as Promise<any>;

  beforeEach(async () => {
    ({ engine, node } = testEngine());
    const s = (await engine.execute('setup', ADMIN, {}, meta)).output;
    admin = { authToken: s.authToken, serviceId: s.serviceId };
    events.length = 0;
    const stream = engine.openEventStream(
      { credentials: admin },
      (e) => events.push(e),
      () => undefined,
    );
    close = () => stream.close();
  });
  afterEach(() => {
    close();
    engine.close();
  });

  const pkhOf = (address: string) => Utils.toHex(Utils.fromBase58Check(address).data as number[]);

  /** A stranger's own coin of `satoshis`, on chain. */
  async function strangerCoin(key: PrivateKey, satoshis: number) {
    const f = await exec('faucet', { address: key.toAddress(), satoshis });
    const tx = Transaction.fromHex(node.txHex(f.txid)!);
    const vout = tx.outputs.findIndex((o) => o.lockingScript.toHex() === new P2PKH().lock(key.toAddress()).toHex());
    return { tx, txid: f.txid as string, vout };
  }

  /** Submits a transaction the stranger signs, spending one P2PKH-led output of theirs. */
  async function submit(
    key: PrivateKey,
    source: { tx: Transaction; txid: string; vout: number },
    outputs: { script: string; satoshis: number }[],
  ): Promise<string> {
    const tx = new Transaction(1, [], [], 0);
    const prev = source.tx.outputs[source.vout];
    tx.addInput({
      sourceTXID: source.txid,
      sourceOutputIndex: source.vout,
      sequence: 0xffffffff,
      unlockingScriptTemplate: new P2PKH().unlock(key, 'all', false, prev.satoshis, prev.lockingScript),
    });
    for (const o of outputs) tx.addOutput({ lockingScript: LockingScript.fromHex(o.script), satoshis: o.satoshis });
    await tx.sign();
    const r = node.submit(tx.toHex());
    assert.equal(r.status, 'accepted', JSON.stringify(r));
    return tx.id('hex');
  }

  /**
   * A stranger's "issue": a contract output written as `P2PKH(contractPkh) OP_RETURN <schema>` from their
   * own coin, then spent (they hold contractPkh's key) into a token output claiming `redemption`/`symbol`.
   */
  async function strangerIssue(
    key: PrivateKey,
    claim: { redemption: string; symbol: string },
    ownerPkh: string,
    tokens: number,
  ): Promise<string> {
    const coin = await strangerCoin(key, 20_000);
    const schema = {
      name: claim.symbol,
      protocolId: 'KST-20',
      symbol: claim.symbol,
      description: '',
      image: '',
      totalSupply: tokens,
      decimals: 0,
      satsPerToken: 1,
      properties: {},
      tokenId: claim.redemption,
    };
    const contractTxid = await submit(key, coin, [
      { script: contractScript(pkhOf(key.toAddress()), schema), satoshis: tokens },
      { script: new P2PKH().lock(key.toAddress()).toHex(), satoshis: 20_000 - tokens - 1_000 },
    ]);
    const contract = { tx: Transaction.fromHex(node.txHex(contractTxid)!), txid: contractTxid, vout: 0 };
    return submit(key, contract, [
      {
        script: KST20.lock({ owner: ownerPkh, redemption: claim.redemption, symbol: claim.symbol, data: [], splittable: true }),
        satoshis: tokens - 200,
      },
    ]);
  }

  /** A look-alike token output made from a stranger's plain coin (no lineage at all). */
  async function lookAlike(
    key: PrivateKey,
    claim: { redemption: string; symbol: string },
    ownerPkh: string,
    satoshis: number,
  ): Promise<string> {
    const coin = await strangerCoin(key, 5_000);
    return submit(key, coin, [
      { script: KST20.lock({ owner: ownerPkh, redemption: claim.redemption, symbol: claim.symbol, data: [], splittable: true }), satoshis },
      { script: new P2PKH().lock(key.toAddress()).toHex(), satoshis: 5_000 - satoshis - 1_000 },
    ]);
  }

  const historyRow = async (walletId: string, txid: string) =>
    ((await exec('history', { walletId })).history as { txid: string; memo: string | null }[]).find((h) => h.txid === txid);
  const tokenEvents = (txid: string) => events.filter((e) => e.type === 'token.received' && (e.data as { txid: string }).txid === txid);

  /** Waits until the books decided the receipt (its outputs traced back, or found not to). */
  const decided = (walletId: string, txid: string) =>
    until(`the lineage of ${txid} decided`, async () => {
      const row = await historyRow(walletId, txid);
      return row && !/not yet traced/.test(row.memo ?? '') ? row : undefined;
    });

  async function victimAndRealToken() {
    const issuer = await exec('createWallet', { walletTitle: 'Real issuer' });
    await exec('faucet', { walletId: issuer.walletID, satoshis: 100_000 });
    const real = await exec('issueToken', {
      walletId: issuer.walletID,
      name: 'Real',
      protocolId: 'KST-20',
      symbol: 'REAL',
      tokenSupply: 1000,
      satsPerToken: 1,
    });
    const victim = (await exec('createWallet', { walletTitle: 'Victim' })).walletID as string;
    const victimPkh = pkhOf((await exec('walletAddress', { walletId: victim })).address);
    const [redemption, symbol] = (real.tokenId as string).split('-');
    return { victim, victimPkh, real: { tokenId: real.tokenId as string, redemption, symbol } };
  }

  async function assertNotAReceipt(victim: string, txid: string) {
    const row = await decided(victim, txid);
    assert.ok(row.memo && !/received/i.test(row.memo), `history presents it as a receipt: ${row.memo}`);
    assert.match(row.memo!, /do not trace back/);
    assert.deepEqual(tokenEvents(txid), [], 'no token.received for a forged output');
    const coins = (await exec('balance', { walletId: victim, type: 'ALL' })).coins as { tokenId?: string }[];
    assert.deepEqual(
      coins.filter((c) => c.tokenId),
      [],
      'not a holding',
    );
  }

  it('wrong lineage: the real token id on an output made from a plain coin', async () => {
    const { victim, victimPkh, real } = await victimAndRealToken();
    const txid = await lookAlike(PrivateKey.fromRandom(), real, victimPkh, 900);
    await assertNotAReceipt(victim, txid);
  });

  it('a copied script with a made-up token id (unknown issuer and symbol)', async () => {
    const { victim, victimPkh } = await victimAndRealToken();
    const made = { redemption: Utils.toHex(PrivateKey.fromRandom().toPublicKey().toHash() as number[]), symbol: 'FAKE' };
    const txid = await lookAlike(PrivateKey.fromRandom(), made, victimPkh, 900);
    await assertNotAReceipt(victim, txid);
  });

  it("a stranger's own \"issue\" claiming a known token's id (their contract output, the real issuer's redemption key)", async () => {
    const { victim, victimPkh, real } = await victimAndRealToken();
    const txid = await strangerIssue(PrivateKey.fromRandom(), real, victimPkh, 1000);
    await assertNotAReceipt(victim, txid);
  });

  it('several look-alikes in one transaction, beside a BSV payment: the BSV is received, no token is announced', async () => {
    const { victim, victimPkh, real } = await victimAndRealToken();
    const key = PrivateKey.fromRandom();
    const coin = await strangerCoin(key, 10_000);
    const victimAddress = (await exec('walletAddress', { walletId: victim })).address;
    const lock = (symbol: string, redemption: string) => KST20.lock({ owner: victimPkh, redemption, symbol, data: [], splittable: true });
    const txid = await submit(key, coin, [
      { script: lock(real.symbol, real.redemption), satoshis: 500 },
      { script: lock('OTHER', real.redemption), satoshis: 500 },
      { script: new P2PKH().lock(victimAddress).toHex(), satoshis: 3_000 },
    ]);
    await until('the BSV part announced', async () =>
      events.some((e) => e.type === 'payment.received' && (e.data as { txid: string }).txid === txid) ? true : undefined,
    );
    // Each reconcile runs the lineage check to its end (a run asked for during another follows it).
    for (let i = 0; i < 3; i++) await engine.reconcile();
    const coins = (await exec('balance', { walletId: victim, type: 'ALL', compact: false })).coins as {
      tokenId?: string;
      balance?: number;
    }[];
    assert.deepEqual(
      coins.filter((c) => c.tokenId),
      [],
      'no token holding',
    );
    assert.equal(coins[0].balance, 3_000, 'the BSV is received');
    assert.deepEqual(tokenEvents(txid), []);
  });

  it("control: a stranger's genuine token (its own issue) is announced once its lineage is proven, and history says what came", async () => {
    const { victim, victimPkh } = await victimAndRealToken();
    const stranger = PrivateKey.fromRandom();
    const own = { redemption: pkhOf(stranger.toAddress()), symbol: 'GEN' };
    const txid = await strangerIssue(stranger, own, victimPkh, 1000);
    const row = await decided(victim, txid);
    assert.equal(row.memo, 'Received 800 GEN');
    const heard = await until('token.received', async () => (tokenEvents(txid).length ? tokenEvents(txid) : undefined));
    assert.equal(heard.length, 1);
    assert.deepEqual((heard[0].data as { symbol: string; amount: number; tokenId: string }).amount, 800);
    assert.equal((heard[0].data as { tokenId: string }).tokenId, `${own.redemption}-GEN`);
  });
});

describe('P2P references are paid in what they were issued for: BSV by plain satoshis, a token by that token', () => {
  let engine: Engine;
  let node: LocalNode;
  let admin: Credentials;
  let walletId: string;
  const handle = 'shop@acme.test';
  const exec = (op: string, input: object) => engine.execute(op as never, input, admin, meta).then((r) => r.output) as Promise<any>;

  beforeEach(async () => {
    ({ engine, node } = testEngine());
    const s = (await engine.execute('setup', ADMIN, {}, meta)).output;
    admin = { authToken: s.authToken, serviceId: s.serviceId };
    walletId = (await exec('createWallet', { walletTitle: 'Shop', paymail: 'shop', paymailActivate: true })).walletID;
  });
  afterEach(() => engine.close());

  /** A stranger's signed transaction from their own coin, with these outputs (and change back). */
  async function strangerTx(outputs: { script: string; satoshis: number }[]): Promise<Transaction> {
    const key = PrivateKey.fromRandom();
    const f = await exec('faucet', { address: key.toAddress(), satoshis: 50_000 });
    const source = Transaction.fromHex(node.txHex(f.txid)!);
    const vout = source.outputs.findIndex((o) => o.lockingScript.toHex() === new P2PKH().lock(key.toAddress()).toHex());
    const tx = new Transaction(1, [], [], 0);
    tx.addInput({
      sourceTXID: f.txid,
      sourceOutputIndex: vout,
      sequence: 0xffffffff,
      unlockingScriptTemplate: new P2PKH().unlock(key, 'all', false, 50_000, source.outputs[vout].lockingScript),
    });
    for (const o of outputs) tx.addOutput({ lockingScript: LockingScript.fromHex(o.script), satoshis: o.satoshis });
    tx.addOutput({
      lockingScript: new P2PKH().lock(key.toAddress()),
      satoshis: 50_000 - outputs.reduce((n, o) => n + o.satoshis, 0) - 2_000,
    });
    await tx.sign();
    return tx;
  }

  const token = (ownerPkh: string, redemption = 'ab'.repeat(20), symbol = 'PTS') =>
    KST20.lock({ owner: ownerPkh, redemption, symbol, data: [], splittable: true });
  const deliver = (tx: Transaction, reference: string) => engine.paymailHost.receiveTransaction(handle, { hex: tx.toHex(), reference });
  const refused = async (p: Promise<unknown>, code: string) => {
    await assert.rejects(p, (err: { status?: number; code?: string }) => err.status === 400 && err.code === code);
  };

  it('a token output never counts as BSV: refused before the reference is claimed, which a plain payment still uses', async () => {
    const dest = engine.paymailHost.p2pDestination(handle, { satoshis: 5_000 });
    const script = dest.outputs[0].script;
    const pkh = script.slice(6, 46);
    // A token (look-alike or not) to the issued address, with more than enough satoshis.
    await refused(deliver(await strangerTx([{ script: token(pkh), satoshis: 9_000 }]), dest.reference), 'wrong-outputs');
    // Short in plain satoshis, topped up by a token output.
    await refused(
      deliver(
        await strangerTx([
          { script, satoshis: 1_000 },
          { script: token(pkh), satoshis: 4_000 },
        ]),
        dest.reference,
      ),
      'wrong-outputs',
    );
    // Every kind of token output the templates recognise, however it is dressed.
    for (const t of [token(pkh, pkh, 'BSV'), token(pkh, 'cd'.repeat(20), 'SAT')])
      await refused(deliver(await strangerTx([{ script: t, satoshis: 5_000 }]), dest.reference), 'wrong-outputs');
    const good = await strangerTx([{ script, satoshis: 5_000 }]);
    const r = await deliver(good, dest.reference);
    assert.equal(r.txid, good.id('hex'), 'the reference was not used up by the refused deliveries');
    const b = await exec('balance', { walletId, type: 'BSV' });
    assert.equal(b.coins[0].balance, 5_000);
  });

  it('a token reference (the sender named the token) is paid only by that token, owned by the issued address', async () => {
    const tokenId = `${'ab'.repeat(20)}-PTS`;
    await refused(
      Promise.resolve().then(() =>
        engine.paymailHost.p2pDestination(handle, { satoshis: 100, token: { tokenId: 'nope', protocol: 'KST-20' } }),
      ),
      'bad-request',
    );
    await refused(
      Promise.resolve().then(() => engine.paymailHost.p2pDestination(handle, { satoshis: 100, token: { tokenId, protocol: 'BSV' } })),
      'bad-request',
    );
    await refused(
      Promise.resolve().then(() => engine.paymailHost.p2pDestination(handle, { satoshis: 100, token: [tokenId] })),
      'bad-request',
    );
    const dest = engine.paymailHost.p2pDestination(handle, { satoshis: 100, token: { tokenId, protocol: 'KST-20' } });
    const script = dest.outputs[0].script;
    const pkh = script.slice(6, 46);
    await refused(deliver(await strangerTx([{ script, satoshis: 100 }]), dest.reference), 'wrong-outputs'); // plain satoshis
    await refused(deliver(await strangerTx([{ script: token(pkh, 'cd'.repeat(20)), satoshis: 100 }]), dest.reference), 'wrong-outputs'); // another token
    await refused(
      deliver(await strangerTx([{ script: token(pkh, 'ab'.repeat(20), 'PTX'), satoshis: 100 }]), dest.reference),
      'wrong-outputs',
    ); // another symbol
    await refused(deliver(await strangerTx([{ script: token('ef'.repeat(20)), satoshis: 100 }]), dest.reference), 'wrong-outputs'); // another owner
    await refused(deliver(await strangerTx([{ script: token(pkh), satoshis: 99 }]), dest.reference), 'wrong-outputs'); // short
    // The right token to the right owner is taken; it is not counted or announced until it traces back.
    const tx = await strangerTx([{ script: token(pkh), satoshis: 100 }]);
    assert.equal((await deliver(tx, dest.reference)).txid, tx.id('hex'));
    for (let i = 0; i < 3; i++) await engine.reconcile();
    const row = ((await exec('history', { walletId })).history as { txid: string; memo: string }[]).find((h) => h.txid === tx.id('hex'));
    assert.match(row!.memo, /do not trace back/, 'a look-alike that paid a token reference is still not a receipt');
  });
});

describe('a licensed STAS template is checked against the family, and shows its SHA-256', () => {
  let engine: Engine;
  let admin: Credentials;
  const exec = (op: string, input: object) => engine.execute(op as never, input, admin, meta).then((r) => r.output) as Promise<any>;
  const D = '[destinationPublicKeyHash]';
  const R = '[redemptionPublicKeyHash]';

  beforeEach(async () => {
    ({ engine } = testEngine());
    const s = (await engine.execute('setup', ADMIN, {}, meta)).output;
    admin = { authToken: s.authToken, serviceId: s.serviceId };
  });
  afterEach(() => engine.close());

  const refusedTemplate = async (template: string, why: RegExp) => {
    await rejectsWith(exec('installTokenTemplate', { protocolId: 'STAS-20', template }), 'VALIDATION_FAILED', why);
    assert.deepEqual((await exec('listTokenTemplates', {})).templates, [], 'nothing was installed');
  };

  it('a 45-byte P2PKH look-alike is not an STAS-20 template (400, with the reason)', async () => {
    await refusedTemplate(`76a914${D}88ac${R}`, /not a STAS-20 template: it is 45 bytes.*1,000 to 8,000 bytes/);
    await refusedTemplate(`76a914${D}88ac6a14${R}`, /47 bytes/);
  });

  it("look-alikes of the right size but not the family's structure are refused", async () => {
    const real = stasFormatTemplate('STAS-20');
    const body = real.slice(`76a914${D}88ac69`.length, real.length - `6a14${R}`.length);
    const noOps = '4b' + '00'.repeat(75); // one 75-byte push: data, no mechanics
    await refusedTemplate(`76a914${D}88ac69${noOps.repeat(14)}6a14${R}`, /no OP_CHECKSIG/);
    await refusedTemplate(`76a914${D}88ac${body}6a14${R}`, /OP_VERIFY/);
    await refusedTemplate(`76a914${D}88ac69${body}14${R}`, /end with OP_RETURN/);
    await refusedTemplate(`76a914${D}88ac69${body}6a14${R}51`, /end with OP_RETURN/);
    await refusedTemplate(`76a914${D}88ac69${body}4c016a14${R}`, /does not parse/); // the OP_RETURN is inside a push
    await refusedTemplate(`76a914${D}88ac69${body}ba6a14${R}`, /invalid opcode/);
    await refusedTemplate(`76a914${D}88ac69${body}${'61'.repeat(8_000)}6a14${R}`, /1,000 to 8,000 bytes/);
  });

  it('random push-only bodies of any size are never a template (fast-check)', () => {
    const push = fc.integer({ min: 1, max: 75 }).map((n) => n.toString(16).padStart(2, '0') + 'ab'.repeat(n));
    fc.assert(
      fc.property(fc.array(push, { minLength: 1, maxLength: 120 }), fc.boolean(), (pushes, verify) => {
        const t = `76a914${D}88ac${verify ? '69' : ''}${pushes.join('')}6a14${R}`;
        assert.notEqual(checkStasTemplate(t), null, t.slice(0, 120));
      }),
      { numRuns: 200 },
    );
  });

  it("the format test templates install for each family; list and install answer each one's SHA-256", async () => {
    for (const family of ['STAS', 'STAS-20', 'STAS-789']) {
      const template = stasFormatTemplate(family);
      const sha256 = createHash('sha256').update(template, 'utf8').digest('hex');
      const installed = await exec('installTokenTemplate', { protocolId: family, template: `\n${template}\n` });
      assert.equal(installed.sha256, sha256);
      assert.equal(installed.problem, null);
    }
    const list = (await exec('listTokenTemplates', {})).templates as { protocolId: string; sha256: string }[];
    assert.deepEqual(
      list.map((t) => [t.protocolId, t.sha256]),
      ['STAS', 'STAS-20', 'STAS-789'].map((f) => [f, createHash('sha256').update(stasFormatTemplate(f), 'utf8').digest('hex')]),
    );
  });
});
