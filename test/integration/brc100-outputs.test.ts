import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  Beef,
  Hash,
  HD,
  HTTPWalletJSON,
  LockingScript,
  MerklePath,
  Mnemonic,
  P2PKH,
  PrivateKey,
  ProtoWallet,
  Random,
  SatoshisPerKilobyte,
  Transaction,
  Utils,
  WalletClient,
  type WalletProtocol,
} from '@bsv/sdk';
import { startHeadless } from '../helpers/headless.js';
import { request } from '../helpers/http.js';
import { createOrgWallet, orgCall, setUpOrg, type Org } from '../helpers/org.js';
import { tempDir } from '../helpers/tmp.js';

const PHRASE = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
/** The wallet's BRC-100 root key as README documents it (`<account>/3'`), computed with @bsv/sdk alone. */
const ROOT = HD.fromSeed(Mnemonic.fromString(PHRASE).toSeed()).derive("m/44'/236'/0'/3'").privKey;
const BRC29: WalletProtocol = [2, '3241645161d8'];

/** What HTTPWalletJSON throws: a WERR_INVALID_PARAMETER (its message), or an Error whose message is the answer's JSON. */
function answerOf(err: unknown): { message: string; name?: string; parameter?: string } {
  const e = err as Error & { parameter?: string };
  if (e.name === 'WERR_INVALID_PARAMETER' || e.parameter)
    return { message: e.message, name: 'WERR_INVALID_PARAMETER', parameter: e.parameter };
  try {
    return JSON.parse(e.message) as { message: string; name: string };
  } catch {
    return { message: e.message };
  }
}

const b64 = (n: number) => Utils.toBase64(Random(n));
const hash160 = (pub: string) => Hash.hash160(Utils.toArray(pub, 'hex'));

describe('BRC-100 internalizeAction, listOutputs, listActions and relinquishOutput, driven by @bsv/sdk WalletClient', () => {
  let org: Org;
  let base: string;
  let walletId: string;
  /** The sender of BRC-29 payments: an independent ProtoWallet, and the key of the coins it pays from. */
  const senderKey = PrivateKey.fromRandom();
  const sender = new ProtoWallet(senderKey);
  const identity = ROOT.toPublicKey().toString();
  const app = () => new WalletClient(new HTTPWalletJSON('shop.example', base), 'shop.example');

  const balance = async () => {
    const r = await orgCall(org, 'GET', '/v1/balance', { headers: { walletID: walletId } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return (r.body.data.coins.find((c: { tokenId?: string }) => !c.tokenId) as { balance: number }).balance;
  };
  const chainStatus = async (txid: string) =>
    ((await request(org.host.url, 'GET', `/chain/arc/v1/tx/${txid}`)).body as { txStatus?: string }).txStatus ?? '';

  /** A coin of the sender from the local chain's faucet, mined, with its merkle path. */
  async function minedCoin(satoshis: number) {
    const f = await orgCall(org, 'POST', '/chain/faucet', { body: { address: senderKey.toAddress(), satoshis } });
    assert.equal(f.status, 200, JSON.stringify(f.body));
    await orgCall(org, 'POST', '/chain/mine', { body: {} });
    const hex = (await request(org.host.url, 'GET', `/chain/woc/v1/bsv/local/tx/${f.body.data.txid}/hex`)).body as string;
    const source = Transaction.fromHex(hex);
    const status = (await request(org.host.url, 'GET', `/chain/arc/v1/tx/${f.body.data.txid}`)).body as { merklePath: string };
    source.merklePath = MerklePath.fromHex(status.merklePath);
    return { source, vout: source.outputs.findIndex((o) => o.satoshis === satoshis) };
  }

  /** A transaction paying `outputs` from a fresh mined coin of the sender (change back to it), signed, not sent. */
  async function paying(outputs: { script: string; satoshis: number }[]) {
    const { source, vout } = await minedCoin(50_000);
    const tx = new Transaction();
    tx.addInput({ sourceTransaction: source, sourceOutputIndex: vout, unlockingScriptTemplate: new P2PKH().unlock(senderKey) });
    for (const o of outputs) tx.addOutput({ lockingScript: LockingScript.fromHex(o.script), satoshis: o.satoshis });
    tx.addOutput({ lockingScript: new P2PKH().lock(senderKey.toAddress()), change: true });
    await tx.fee(new SatoshisPerKilobyte(1));
    await tx.sign();
    return tx;
  }

  /** A BRC-29 payment to the wallet, built as any BRC-29 sender builds it: P2PKH to the key derived for prefix and suffix. */
  async function brc29(satoshis: number) {
    const derivationPrefix = b64(8);
    const derivationSuffix = b64(8);
    const { publicKey } = await sender.getPublicKey({
      protocolID: BRC29,
      keyID: `${derivationPrefix} ${derivationSuffix}`,
      counterparty: identity,
    });
    const tx = await paying([{ script: new P2PKH().lock(hash160(publicKey)).toHex(), satoshis }]);
    const paymentRemittance = { derivationPrefix, derivationSuffix, senderIdentityKey: senderKey.toPublicKey().toString() };
    return { tx, paymentRemittance, output: { outputIndex: 0, protocol: 'wallet payment' as const, paymentRemittance } };
  }

  before(async () => {
    const host = await startHeadless({
      dataDir: tempDir(),
      password: 'pw',
      args: ['--brc100-listen', '127.0.0.1:0', '--mine-interval', '0'],
    });
    org = await setUpOrg(host);
    walletId = await createOrgWallet(org, { walletTitle: 'Apps', mnemonicPhrase: PHRASE });
    const listed = await orgCall(org, 'GET', '/api/v1/apps');
    base = `http://${listed.body.data.listening}`;
    const r = await orgCall(org, 'POST', '/api/v1/apps/decide', { body: { originator: 'shop.example', allow: true, walletId } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const grant = await orgCall(org, 'POST', '/api/v1/apps/permissions', {
      body: { originator: 'shop.example', kind: 'basket', basket: 'tokens' },
    });
    assert.equal(grant.status, 200, JSON.stringify(grant.body));
  });
  after(() => org?.host.stop());

  let paid: Awaited<ReturnType<typeof brc29>>;

  it('internalizes a BRC-29 payment checked by SPV: a coin of the wallet, in its balance and history, listed as an action', async () => {
    assert.equal((await app().getPublicKey({ identityKey: true })).publicKey, identity);
    assert.equal(await balance(), 0);
    paid = await brc29(12_000);
    const txid = paid.tx.id('hex');
    const r = await app().internalizeAction({
      tx: paid.tx.toAtomicBEEF(),
      outputs: [paid.output],
      description: 'payment for order 7',
      labels: ['brc29', 'Orders'],
    });
    assert.deepEqual(r, { accepted: true });
    assert.equal(await balance(), 12_000);
    assert.match(await chainStatus(txid), /SEEN_ON_NETWORK|MINED/, 'the unproven payment was sent to the chain');
    const history = await orgCall(org, 'GET', '/v1/history', { headers: { walletID: walletId } });
    const row = history.body.data.history.find((h: { txid: string }) => h.txid === txid);
    assert.ok(row, JSON.stringify(history.body.data.history));
    assert.equal(row.amount, 12_000);
    assert.equal(row.memo, 'payment for order 7');

    const listed = await app().listActions({
      labels: ['orders'],
      includeLabels: true,
      includeOutputs: true,
      includeOutputLockingScripts: true,
    });
    assert.equal(listed.totalActions, 1);
    const [action] = listed.actions;
    assert.equal(action.txid, txid);
    assert.equal(action.satoshis, 12_000);
    assert.equal(action.isOutgoing, false);
    assert.equal(action.status, 'unproven');
    assert.equal(action.description, 'payment for order 7');
    assert.deepEqual(action.labels, ['brc29', 'orders']);
    assert.equal(action.outputs?.length, 1);
    assert.equal(action.outputs![0].satoshis, 12_000);
    assert.equal(action.outputs![0].spendable, true);
    assert.equal(action.outputs![0].lockingScript, paid.tx.outputs[0].lockingScript.toHex());
  });

  it('does not count the same output twice', async () => {
    const r = await app().internalizeAction({
      tx: paid.tx.toAtomicBEEF(),
      outputs: [paid.output],
      description: 'payment for order 7 again',
    });
    assert.deepEqual(r, { accepted: true });
    assert.equal(await balance(), 12_000);
    const listed = await app().listActions({ labels: [] });
    assert.equal(listed.totalActions, 1);
    assert.equal(listed.actions[0].satoshis, 12_000);
  });

  it('pays an ordinary Keystead payment with the BRC-29 coin, signed with its BRC-42 key and taken by the chain', async () => {
    const to = PrivateKey.fromRandom().toAddress();
    const pay = await orgCall(org, 'POST', '/v1/pay', {
      headers: { walletID: walletId },
      body: { outputs: [{ script: new P2PKH().lock(to).toHex(), satoshis: 7_000 }] },
    });
    assert.equal(pay.status, 200, JSON.stringify(pay.body));
    const txid = pay.body.data.txid as string;
    assert.match(await chainStatus(txid), /SEEN_ON_NETWORK|MINED/);
    const spent = Transaction.fromHex((await request(org.host.url, 'GET', `/chain/woc/v1/bsv/local/tx/${txid}/hex`)).body as string);
    assert.equal(spent.inputs[0].sourceTXID, paid.tx.id('hex'), 'the BRC-29 coin is what paid');
    const left = await balance();
    assert.ok(left > 4_000 && left < 5_000, `the change came back (${left})`);
    const listed = await app().listActions({ labels: ['brc29'], includeOutputs: true });
    assert.equal(listed.actions[0].outputs![0].spendable, false, 'the coin is spent now');
  });

  it('refuses a BEEF that does not prove its transaction, a wrong derivation and outputs it does not have', async () => {
    const p = await brc29(3_000);
    const refused = async (args: Parameters<WalletClient['internalizeAction']>[0], parameter: RegExp | null, message: RegExp) => {
      const err = await app()
        .internalizeAction(args)
        .then(
          () => assert.fail(`accepted: ${JSON.stringify(args.outputs)} ${message}`),
          (e: unknown) => answerOf(e),
        );
      if (parameter) assert.match(err.parameter ?? '', parameter, JSON.stringify(err));
      assert.match(err.message, message);
    };
    const base = { description: 'a payment that must be refused' };

    // The faucet coin's merkle path moved to another block: its root is not that block's.
    const moved = Transaction.fromAtomicBEEF(p.tx.toAtomicBEEF());
    const source = moved.inputs[0].sourceTransaction!;
    source.merklePath = MerklePath.fromHex(source.merklePath!.toHex());
    source.merklePath.blockHeight = 1;
    await refused({ ...base, tx: moved.toAtomicBEEF(), outputs: [p.output] }, /^tx$/, /does not match the chain's block 1|names block 1/);

    // The payment changed after it was signed: its signature no longer verifies.
    // (A new Transaction: @bsv/sdk keeps a parsed one's bytes, so changing its fields would not change its BEEF.)
    const tampered = new Transaction(
      p.tx.version,
      p.tx.inputs.map((i) => ({ ...i })),
      p.tx.outputs.map((o, i) => ({ ...o, satoshis: i === 0 ? 3_001 : o.satoshis })),
      p.tx.lockTime,
    );
    await refused({ ...base, tx: tampered.toAtomicBEEF(), outputs: [p.output] }, /^tx$/, /does not verify/);

    // A BEEF that is not atomic.
    await refused({ ...base, tx: p.tx.toBEEF(), outputs: [p.output] }, /^tx$/, /Atomic BEEF/);

    // The derivation names another key than the output pays; or another sender.
    const wrongSuffix = { ...p.output, paymentRemittance: { ...p.paymentRemittance, derivationSuffix: b64(8) } };
    await refused({ ...base, tx: p.tx.toAtomicBEEF(), outputs: [wrongSuffix] }, /^paymentRemittance$/, /does not pay this wallet's key/);
    const wrongSender = {
      ...p.output,
      paymentRemittance: { ...p.paymentRemittance, senderIdentityKey: PrivateKey.fromRandom().toPublicKey().toString() },
    };
    await refused({ ...base, tx: p.tx.toAtomicBEEF(), outputs: [wrongSender] }, /^paymentRemittance$/, /does not pay this wallet's key/);
    // Not a point of the curve: refused, whether @bsv/sdk reads it or not.
    const offCurve = { ...p.output, paymentRemittance: { ...p.paymentRemittance, senderIdentityKey: '02' + 'ff'.repeat(32) } };
    await refused(
      { ...base, tx: p.tx.toAtomicBEEF(), outputs: [offCurve] },
      /^(senderIdentityKey|paymentRemittance)$/,
      /point of the curve|does not pay/,
    );
    // The change output is the sender's, not a payment to this wallet.
    await refused({ ...base, tx: p.tx.toAtomicBEEF(), outputs: [{ ...p.output, outputIndex: 1 }] }, /^paymentRemittance$/, /key/);
    await refused({ ...base, tx: p.tx.toAtomicBEEF(), outputs: [{ ...p.output, outputIndex: 9 }] }, /^outputIndex$/, /which has 2/);
    await refused({ ...base, tx: p.tx.toAtomicBEEF(), outputs: [p.output, p.output] }, /^outputIndex$/, /named twice/);
    assert.equal((await balance()) < 5_000, true, 'nothing was counted');
    assert.equal((await app().listActions({ labels: [] })).totalActions, 1);
  });

  it('refuses an output the chain already has spent', async () => {
    const p = await brc29(4_000);
    const sent = await request(org.host.url, 'POST', '/chain/arc/v1/tx', { body: { rawTx: p.tx.toHex() } });
    assert.ok(sent.status < 300, JSON.stringify(sent.body));
    // The wallet's own key for that payment (from the root key, as the reference derives it) spends it elsewhere.
    const key = new ProtoWallet(ROOT);
    const { publicKey } = await key.getPublicKey({
      protocolID: BRC29,
      keyID: `${p.paymentRemittance.derivationPrefix} ${p.paymentRemittance.derivationSuffix}`,
      counterparty: p.paymentRemittance.senderIdentityKey,
      forSelf: true,
    });
    const { KeyDeriver } = await import('@bsv/sdk');
    const priv = new KeyDeriver(ROOT).derivePrivateKey(
      BRC29,
      `${p.paymentRemittance.derivationPrefix} ${p.paymentRemittance.derivationSuffix}`,
      p.paymentRemittance.senderIdentityKey,
    );
    assert.equal(priv.toPublicKey().toString(), publicKey);
    const spend = new Transaction();
    spend.addInput({ sourceTransaction: p.tx, sourceOutputIndex: 0, unlockingScriptTemplate: new P2PKH().unlock(priv) });
    spend.addOutput({ lockingScript: new P2PKH().lock(senderKey.toAddress()), change: true });
    await spend.fee(new SatoshisPerKilobyte(1));
    await spend.sign();
    const spent = await request(org.host.url, 'POST', '/chain/arc/v1/tx', { body: { rawTx: spend.toHex() } });
    assert.ok(spent.status < 300, JSON.stringify(spent.body));
    const before = await balance();
    const err = await app()
      .internalizeAction({ tx: p.tx.toAtomicBEEF(), outputs: [p.output], description: 'too late for this one' })
      .then(
        () => assert.fail('accepted an output the chain has spent'),
        (e: unknown) => answerOf(e),
      );
    assert.match(err.message, /already spent on the chain/);
    assert.equal(await balance(), before);
  });

  let tokens: Transaction;

  it('puts outputs in a basket, and lists them with tags, paging and the include options', async () => {
    const owner = PrivateKey.fromRandom();
    tokens = await paying([1, 2, 3].map((n) => ({ script: new P2PKH().lock(owner.toAddress()).toHex(), satoshis: n })));
    const insert = (outputIndex: number, tags: string[]) => ({
      outputIndex,
      protocol: 'basket insertion' as const,
      insertionRemittance: { basket: 'Tokens', tags, customInstructions: `unlock with key ${outputIndex}` },
    });
    const before = await balance();
    const r = await app().internalizeAction({
      tx: tokens.toAtomicBEEF(),
      outputs: [insert(0, ['red', 'small']), insert(1, ['red']), insert(2, ['blue'])],
      description: 'three tokens from a friend',
      labels: ['tokens'],
    });
    assert.deepEqual(r, { accepted: true });
    assert.equal(await balance(), before, 'basket outputs are not the wallet coins');
    const txid = tokens.id('hex');

    const all = await app().listOutputs({ basket: 'tokens' });
    assert.equal(all.totalOutputs, 3);
    assert.deepEqual(
      all.outputs.map((o) => o.outpoint),
      [0, 1, 2].map((i) => `${txid}.${i}`),
    );
    assert.equal(all.outputs[0].lockingScript, undefined);
    assert.equal(all.outputs[0].spendable, true);

    const red = await app().listOutputs({ basket: 'tokens', tags: ['red'], includeTags: true, include: 'locking scripts' });
    assert.equal(red.totalOutputs, 2);
    assert.deepEqual(red.outputs[0].tags, ['red', 'small']);
    assert.equal(red.outputs[0].lockingScript, tokens.outputs[0].lockingScript.toHex());
    const both = await app().listOutputs({
      basket: 'tokens',
      tags: ['red', 'small'],
      tagQueryMode: 'all',
      includeCustomInstructions: true,
    });
    assert.equal(both.totalOutputs, 1);
    assert.equal(both.outputs[0].customInstructions, 'unlock with key 0');
    const any = await app().listOutputs({ basket: 'tokens', tags: ['small', 'blue'], tagQueryMode: 'any' });
    assert.equal(any.totalOutputs, 2);

    const page = await app().listOutputs({ basket: 'tokens', limit: 1, offset: 1, includeLabels: true });
    assert.equal(page.totalOutputs, 3);
    assert.deepEqual(
      page.outputs.map((o) => [o.outpoint, o.satoshis, o.labels]),
      [[`${txid}.1`, 2, ['tokens']]],
    );
    const newest = await app().listOutputs({ basket: 'tokens', limit: 1, offset: -1 });
    assert.equal(newest.outputs[0].outpoint, `${txid}.2`);

    const whole = await app().listOutputs({ basket: 'tokens', include: 'entire transactions' });
    const beef = Beef.fromBinary(whole.BEEF!);
    assert.ok(beef.findTxid(txid), 'the BEEF carries the outputs transaction');
    assert.equal(await beef.verify({ isValidRootForHeight: async () => true, currentHeight: async () => 0 }, true), true);

    await assert.rejects(app().listOutputs({ basket: 'default' }), (e) => /the wallet's own/.test(answerOf(e).message));
    await assert.rejects(app().listOutputs({ basket: 'tokens', limit: 10_001 }), (e) => answerOf(e).parameter === 'limit');
    await assert.rejects(
      app().listOutputs({ basket: 'tokens', tagQueryMode: 'some' as 'any' }),
      (e) => answerOf(e).parameter === 'tagQueryMode',
    );
  });

  it('relinquishes an output from its basket without spending it', async () => {
    const txid = tokens.id('hex');
    assert.deepEqual(await app().relinquishOutput({ basket: 'tokens', output: `${txid}.1` }), { relinquished: true });
    const left = await app().listOutputs({ basket: 'tokens' });
    assert.equal(left.totalOutputs, 2);
    assert.ok(!left.outputs.some((o) => o.outpoint === `${txid}.1`));
    await assert.rejects(app().relinquishOutput({ basket: 'tokens', output: `${txid}.1` }), (e) => answerOf(e).parameter === 'output');
    await assert.rejects(app().relinquishOutput({ basket: 'tokens', output: `${txid}.3` }), (e) => answerOf(e).parameter === 'output');
    assert.match(await chainStatus(txid), /SEEN_ON_NETWORK|MINED/);
  });

  it('lists actions with label filters, paging and inputs/outputs', async () => {
    const all = await app().listActions({ labels: [] });
    assert.equal(all.totalActions, 2);
    assert.equal((await app().listActions({ labels: ['tokens', 'orders'], labelQueryMode: 'any' })).totalActions, 2);
    assert.equal((await app().listActions({ labels: ['brc29', 'orders'], labelQueryMode: 'all' })).totalActions, 1);
    assert.equal((await app().listActions({ labels: ['tokens', 'orders'], labelQueryMode: 'all' })).totalActions, 0);
    const second = await app().listActions({ labels: [], limit: 1, offset: 1, includeOutputs: true, includeLabels: true });
    assert.equal(second.totalActions, 2);
    assert.equal(second.actions.length, 1);
    assert.equal(second.actions[0].txid, tokens.id('hex'));
    assert.equal(second.actions[0].satoshis, 0, 'a basket insertion gains the wallet nothing');
    assert.deepEqual(second.actions[0].labels, ['tokens']);
    assert.deepEqual(
      second.actions[0].outputs!.map((o) => [o.outputIndex, o.basket, o.tags, o.spendable, o.customInstructions]),
      [
        [0, 'tokens', ['red', 'small'], true, 'unlock with key 0'],
        [1, 'tokens', ['red'], false, 'unlock with key 1'],
        [2, 'tokens', ['blue'], true, 'unlock with key 2'],
      ],
    );
    // Mined since it was internalized: the action is completed.
    assert.equal((await app().listActions({ labels: ['tokens'] })).actions[0].status, 'unproven');
    await orgCall(org, 'POST', '/chain/mine', { body: {} });
    assert.equal((await app().listActions({ labels: ['tokens'] })).actions[0].status, 'completed');
    await assert.rejects(
      app().listActions({ labels: [], labelQueryMode: 'none' as 'any' }),
      (e) => answerOf(e).parameter === 'labelQueryMode',
    );
    await assert.rejects(app().listActions({ labels: [''] }), (e) => answerOf(e).parameter === 'label');
  });

  it('writes every internalization to the audit trail with its app', async () => {
    const r = await orgCall(org, 'GET', '/api/v1/audit?limit=100');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const rows = r.body.data.entries as { action: string; target: string; outcome: string }[];
    const ours = rows.filter((e) => e.action === 'brc100.internalizeAction');
    assert.ok(
      ours.some((e) => e.outcome === 'success' && e.target.includes('app shop.example')),
      JSON.stringify(ours.slice(0, 3)),
    );
    assert.ok(ours.some((e) => e.outcome === 'error'));
  });
});

describe('a BRC-29 payment from one Keystead to another, both driven by WalletClient', () => {
  let a: Org;
  let b: Org;
  let walletA: string;
  let walletB: string;
  const listening = async (o: Org) => `http://${(await orgCall(o, 'GET', '/api/v1/apps')).body.data.listening}`;
  const allow = async (o: Org, originator: string, walletId: string) => {
    const r = await orgCall(o, 'POST', '/api/v1/apps/decide', { body: { originator, allow: true, walletId } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
  };
  const balanceOf = async (o: Org, walletID: string) => {
    const r = await orgCall(o, 'GET', '/v1/balance', { headers: { walletID } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return (r.body.data.coins.find((c: { tokenId?: string }) => !c.tokenId) as { balance: number }).balance;
  };

  before(async () => {
    a = await setUpOrg(
      await startHeadless({ dataDir: tempDir(), password: 'pw', args: ['--brc100-listen', '127.0.0.1:0', '--mine-interval', '0'] }),
    );
    b = await setUpOrg(
      await startHeadless({
        dataDir: tempDir(),
        password: 'pw',
        args: ['--brc100-listen', '127.0.0.1:0', '--network', 'remote', '--remote-url', a.host.url, '--sync-interval', '1'],
      }),
    );
    walletA = await createOrgWallet(a, { walletTitle: 'Payer' });
    // B's wallet is made from a BRC-100 root key: its coins from apps are signed with BRC-42 children of that key.
    walletB = await createOrgWallet(b, { walletTitle: 'Payee', rootKey: PrivateKey.fromRandom().toHex() });
    const f = await orgCall(a, 'POST', '/chain/faucet', { body: { satoshis: 100_000 }, headers: { walletID: walletA } });
    assert.equal(f.status, 200, JSON.stringify(f.body));
    await orgCall(a, 'POST', '/chain/mine', { body: {} });
    await allow(a, 'payer.example', walletA);
    await allow(b, 'payee.example', walletB);
    for (const body of [{ originator: 'payer.example', kind: 'protocol', securityLevel: 2, protocol: '3241645161d8', counterparty: '*' }]) {
      const r = await orgCall(a, 'POST', '/api/v1/apps/permissions', { body });
      assert.equal(r.status, 200, JSON.stringify(r.body));
    }
    const limit = await orgCall(a, 'PUT', '/api/v1/apps/spending-limit', {
      body: { originator: 'payer.example', limit: { satoshis: 1_000_000 } },
    });
    assert.equal(limit.status, 200, JSON.stringify(limit.body));
  });
  after(async () => {
    await b?.host.stop();
    await a?.host.stop();
  });

  it("A's app pays B's identity by BRC-29 with createAction; B's app internalizes it, and B pays it on", async () => {
    const payer = new WalletClient(new HTTPWalletJSON('payer.example', await listening(a)), 'payer.example');
    const payee = new WalletClient(new HTTPWalletJSON('payee.example', await listening(b)), 'payee.example');
    const { publicKey: identityB } = await payee.getPublicKey({ identityKey: true });
    const { publicKey: identityA } = await payer.getPublicKey({ identityKey: true });
    const derivationPrefix = b64(8);
    const derivationSuffix = b64(8);
    const { publicKey } = await payer.getPublicKey({
      protocolID: BRC29,
      keyID: `${derivationPrefix} ${derivationSuffix}`,
      counterparty: identityB,
    });
    const created = await payer.createAction({
      description: 'pay the payee by BRC-29',
      outputs: [{ lockingScript: new P2PKH().lock(hash160(publicKey)).toHex(), satoshis: 6_000, outputDescription: 'BRC-29 to B' }],
    });
    assert.ok(created.tx, 'createAction answers the Atomic BEEF');
    const vout = Transaction.fromAtomicBEEF(created.tx!).outputs.findIndex((o) => o.satoshis === 6_000);
    const r = await payee.internalizeAction({
      tx: created.tx!,
      outputs: [
        {
          outputIndex: vout,
          protocol: 'wallet payment',
          paymentRemittance: { derivationPrefix, derivationSuffix, senderIdentityKey: identityA },
        },
      ],
      description: 'paid by A',
      labels: ['from a'],
    });
    assert.deepEqual(r, { accepted: true });
    assert.equal(await balanceOf(b, walletB), 6_000);
    const actions = await payee.listActions({ labels: ['from a'] });
    assert.equal(actions.totalActions, 1);
    assert.equal(actions.actions[0].txid, created.txid);
    assert.equal(actions.actions[0].satoshis, 6_000);

    const pay = await orgCall(b, 'POST', '/v1/pay', {
      headers: { walletID: walletB },
      body: { outputs: [{ script: new P2PKH().lock(PrivateKey.fromRandom().toAddress()).toHex(), satoshis: 2_000 }] },
    });
    assert.equal(pay.status, 200, JSON.stringify(pay.body));
    const status = (await request(a.host.url, 'GET', `/chain/arc/v1/tx/${pay.body.data.txid}`)).body as { txStatus?: string };
    assert.match(status.txStatus ?? '', /SEEN_ON_NETWORK|MINED/, 'the chain took the payment signed with the BRC-42 key of the root key');
  });
});
