import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  Beef,
  HTTPWalletJSON,
  MerklePath,
  P2PKH,
  PrivateKey,
  PushDrop,
  Transaction,
  Utils,
  WalletClient,
  WERR_INSUFFICIENT_FUNDS,
  WERR_INVALID_PARAMETER,
  type WalletProtocol,
} from '@bsv/sdk';
import { startHeadless } from '../helpers/headless.js';
import { ADMIN, request } from '../helpers/http.js';
import { createOrgWallet, orgCall, setUpOrg, type Org } from '../helpers/org.js';
import { tempDir } from '../helpers/tmp.js';
import { messageOf } from '../helpers/brc100.js';

/**
 * BRC-100 actions (createAction, signAction, abortAction) driven by @bsv/sdk's own WalletClient over
 * HTTPWalletJSON against a headless Keystead on its local chain: what an app sees, and what the chain took.
 */
const PROTOCOL: WalletProtocol = [2, 'keystead tokens'];
const payee = () => new P2PKH().lock(PrivateKey.fromRandom().toAddress()).toHex();

describe('BRC-100 actions over the listener, driven by @bsv/sdk WalletClient', () => {
  let org: Org;
  let base: string;
  let walletId: string;
  let keptWallet: string;

  const client = (originator: string) => new WalletClient(new HTTPWalletJSON(originator, base), originator);
  const chainTx = async (txid: string) => (await request(org.host.url, 'GET', `/chain/arc/v1/tx/${txid}`)).body as { txStatus?: string };
  const balanceOf = async (walletID: string) => {
    const r = await orgCall(org, 'GET', '/v1/balance', { headers: { walletID } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.data.coins.find((c: { protocol?: string; tokenId?: string }) => !c.tokenId) as { balance: number };
  };
  const fund = async (walletID: string, satoshis: number) => {
    const r = await orgCall(org, 'POST', '/chain/faucet', { body: { satoshis }, headers: { walletID } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
  };
  const allow = async (originator: string, wallet: string) => {
    const r = await orgCall(org, 'POST', '/api/v1/apps/decide', { body: { originator, allow: true, walletId: wallet } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
  };

  const dataDir = tempDir();
  const ARGS = ['--brc100-listen', '127.0.0.1:0', '--mine-interval', '0', '--brc100-wait', '2'];

  before(async () => {
    const host = await startHeadless({ dataDir, password: 'pw', args: ARGS });
    org = await setUpOrg(host);
    walletId = await createOrgWallet(org, { walletTitle: 'Apps' });
    keptWallet = await createOrgWallet(org, { walletTitle: 'Kept' });
    await fund(walletId, 200_000);
    await fund(walletId, 50_000);
    const listed = await orgCall(org, 'GET', '/api/v1/apps');
    base = `http://${listed.body.data.listening}`;
    await allow('shop.example', walletId);
    await allow('kept.example', keptWallet);
    // The organisation's grants to these apps (permissions/): the protocol of their tokens, their baskets,
    // moving 1-satoshi outputs (ordinals), and a monthly authorisation in satoshis.
    const grants = [
      { originator: 'shop.example', kind: 'protocol', securityLevel: 2, protocol: PROTOCOL[1], counterparty: 'self' },
      { originator: 'shop.example', kind: 'basket', basket: 'tickets' },
      { originator: 'shop.example', kind: 'asset', asset: 'ordinal' },
      { originator: 'kept.example', kind: 'basket', basket: 'savings' },
    ];
    for (const body of grants) {
      const r = await orgCall(org, 'POST', '/api/v1/apps/permissions', { body });
      assert.equal(r.status, 200, JSON.stringify(r.body));
    }
    for (const originator of ['shop.example', 'kept.example']) {
      const r = await orgCall(org, 'PUT', '/api/v1/apps/spending-limit', { body: { originator, limit: { satoshis: 1_000_000 } } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
    }
  });
  after(() => org?.host.stop());

  it('pays a plain output from the wallet, answers the txid with Atomic BEEF, and the chain has it', async () => {
    const app = client('shop.example');
    const script = payee();
    const r = await app.createAction({
      description: 'pay for a coffee',
      outputs: [{ lockingScript: script, satoshis: 1_500, outputDescription: 'the coffee shop' }],
      labels: ['Coffee'],
    });
    assert.match(r.txid ?? '', /^[0-9a-f]{64}$/);
    const tx = Transaction.fromAtomicBEEF(r.tx!);
    assert.equal(tx.id('hex'), r.txid);
    const paid = tx.outputs.findIndex((o) => o.lockingScript.toHex() === script);
    assert.ok(paid >= 0 && tx.outputs[paid].satoshis === 1_500);
    // Every input carries its source (BEEF back to proven or known transactions), so the app can check it.
    assert.ok(tx.inputs.every((i) => i.sourceTransaction));
    assert.equal(r.signableTransaction, undefined);
    assert.match((await chainTx(r.txid!)).txStatus ?? '', /SEEN_ON_NETWORK|MINED/);
  });

  it('puts a PushDrop token in a basket with tags, then spends it with createAction and signAction', async () => {
    const app = client('shop.example');
    const pushdrop = new PushDrop(app, 'shop.example');
    const fields = [Utils.toArray('ticket #1', 'utf8')];
    const lockingScript = await pushdrop.lock(fields, PROTOCOL, 'ticket-1', 'self', true);
    const made = await app.createAction({
      description: 'issue a ticket',
      outputs: [
        {
          lockingScript: lockingScript.toHex(),
          satoshis: 1,
          basket: 'Tickets',
          tags: ['Concert', 'row-a'],
          customInstructions: JSON.stringify({ keyID: 'ticket-1' }),
          outputDescription: 'a concert ticket',
        },
      ],
      options: { randomizeOutputs: false },
    });
    const madeTx = Transaction.fromAtomicBEEF(made.tx!);
    assert.equal(madeTx.outputs[0].lockingScript.toHex(), lockingScript.toHex(), 'randomizeOutputs false keeps the order');
    const outpoint = `${made.txid}.0`;
    // In its basket, with its tags and instructions (listOutputs reads what createAction recorded).
    const listed = await app.listOutputs({
      basket: 'tickets',
      include: 'locking scripts',
      includeTags: true,
      includeCustomInstructions: true,
    });
    const ticket = listed.outputs.find((o) => o.outpoint === outpoint);
    assert.ok(ticket, JSON.stringify(listed));
    assert.deepEqual([...(ticket.tags ?? [])].sort(), ['concert', 'row-a']);
    assert.equal(ticket.customInstructions, JSON.stringify({ keyID: 'ticket-1' }));
    assert.equal(ticket.lockingScript, lockingScript.toHex());

    // The token is no coin of the wallet's: its balance lost the fee and the satoshi, nothing more.
    const started = await app.createAction({
      description: 'use the ticket',
      inputs: [{ outpoint, unlockingScriptLength: 73, inputDescription: 'the concert ticket' }],
      outputs: [{ lockingScript: payee(), satoshis: 500, outputDescription: 'the venue' }],
    });
    assert.equal(started.txid, undefined);
    const signable = started.signableTransaction!;
    assert.ok(signable.reference);
    const unsigned = Transaction.fromAtomicBEEF(signable.tx);
    assert.equal(`${unsigned.inputs[0].sourceTXID}.${unsigned.inputs[0].sourceOutputIndex}`, outpoint);

    // While it waits for signAction its input is taken: a second action naming it is refused.
    await assert.rejects(
      app.createAction({
        description: 'use the ticket twice',
        inputs: [{ outpoint, unlockingScriptLength: 73, inputDescription: 'the concert ticket' }],
        outputs: [{ lockingScript: payee(), satoshis: 500, outputDescription: 'the venue' }],
      }),
      (e) => e instanceof WERR_INVALID_PARAMETER && e.parameter === 'inputs',
    );

    // A script that does not unlock the token is the app's mistake, named as the reference names it.
    await assert.rejects(
      app.signAction({ reference: signable.reference, spends: { 0: { unlockingScript: '51' } } }),
      (e) => e instanceof WERR_INVALID_PARAMETER && e.parameter === 'spends',
    );

    const unlockingScript = await pushdrop.unlock(PROTOCOL, 'ticket-1', 'self').sign(unsigned, 0);
    const signed = await app.signAction({ reference: signable.reference, spends: { 0: { unlockingScript: unlockingScript.toHex() } } });
    assert.match(signed.txid ?? '', /^[0-9a-f]{64}$/);
    const final = Transaction.fromAtomicBEEF(signed.tx!);
    assert.equal(final.id('hex'), signed.txid);
    assert.equal(final.inputs[0].unlockingScript!.toHex(), unlockingScript.toHex());
    assert.match((await chainTx(signed.txid!)).txStatus ?? '', /SEEN_ON_NETWORK|MINED/);
    // Spent: it cannot be named again.
    await assert.rejects(
      app.createAction({
        description: 'use a spent ticket',
        inputs: [{ outpoint, unlockingScriptLength: 73, inputDescription: 'the concert ticket' }],
        outputs: [{ lockingScript: payee(), satoshis: 500, outputDescription: 'the venue' }],
      }),
      (e) => e instanceof WERR_INVALID_PARAMETER && e.parameter === 'inputs',
    );
  });

  it('abortAction gives the reserved basket input back; a sent action cannot be aborted', async () => {
    const app = client('shop.example');
    const pushdrop = new PushDrop(app, 'shop.example');
    const lockingScript = await pushdrop.lock([[1, 2, 3]], PROTOCOL, 'ticket-2', 'self', true);
    const made = await app.createAction({
      description: 'issue another ticket',
      outputs: [{ lockingScript: lockingScript.toHex(), satoshis: 1, basket: 'tickets', outputDescription: 'a second ticket' }],
      options: { randomizeOutputs: false },
    });
    const spend = {
      description: 'use ticket two',
      inputs: [{ outpoint: `${made.txid}.0`, unlockingScriptLength: 73, inputDescription: 'ticket two' }],
      outputs: [{ lockingScript: payee(), satoshis: 600, outputDescription: 'the venue' }],
    };
    const first = await app.createAction(spend);
    assert.deepEqual(await app.abortAction({ reference: first.signableTransaction!.reference }), { aborted: true });
    await assert.rejects(
      app.abortAction({ reference: first.signableTransaction!.reference }),
      (e) => e instanceof WERR_INVALID_PARAMETER && e.parameter === 'reference',
    );
    await assert.rejects(
      app.signAction({ reference: first.signableTransaction!.reference, spends: {} }),
      (e) => e instanceof WERR_INVALID_PARAMETER && e.parameter === 'reference',
    );
    // The input and the coins are free again: the same action can be made and finished.
    const again = await app.createAction(spend);
    const tx = Transaction.fromAtomicBEEF(again.signableTransaction!.tx);
    const script = await pushdrop.unlock(PROTOCOL, 'ticket-2', 'self').sign(tx, 0);
    const done = await app.signAction({
      reference: again.signableTransaction!.reference,
      spends: { 0: { unlockingScript: script.toHex() } },
    });
    assert.match((await chainTx(done.txid!)).txStatus ?? '', /SEEN_ON_NETWORK|MINED/);
  });

  it('never puts a basket output at the wallet’s own address: it would be no coin of the wallet, nor one the app can sign for', async () => {
    await fund(keptWallet, 10_000);
    const before = (await balanceOf(keptWallet)).balance;
    const app = client('kept.example');
    const own = (await orgCall(org, 'GET', '/v1/address', { headers: { walletID: keptWallet } })).body.data.address as string;
    await assert.rejects(
      app.createAction({
        description: 'keep some satoshis aside',
        outputs: [{ lockingScript: new P2PKH().lock(own).toHex(), satoshis: 8_000, basket: 'savings', outputDescription: 'set aside' }],
      }),
      /pays an address of a Keystead wallet/,
    );
    assert.equal((await balanceOf(keptWallet)).balance, before, 'nothing was spent');
  });

  it('keeps noSend actions unsent, chains one on the other’s change, and sends both with sendWith', async () => {
    const app = client('shop.example');
    const first = await app.createAction({
      description: 'first of a batch',
      outputs: [{ lockingScript: payee(), satoshis: 700, outputDescription: 'first payee' }],
      options: { noSend: true },
    });
    assert.equal(first.noSendChange?.length, 1);
    assert.doesNotMatch((await chainTx(first.txid!)).txStatus ?? '', /SEEN_ON_NETWORK|MINED/);
    const second = await app.createAction({
      description: 'second of a batch',
      outputs: [{ lockingScript: payee(), satoshis: 800, outputDescription: 'second payee' }],
      options: { noSend: true, noSendChange: first.noSendChange },
    });
    const secondTx = Transaction.fromAtomicBEEF(second.tx!);
    assert.ok(secondTx.inputs.some((i) => `${i.sourceTXID}.${i.sourceOutputIndex}` === first.noSendChange![0]));
    const sent = await app.createAction({ description: 'send the batch', options: { sendWith: [first.txid!, second.txid!] } });
    assert.deepEqual(sent.sendWithResults, [
      { txid: first.txid, status: 'unproven' },
      { txid: second.txid, status: 'unproven' },
    ]);
    assert.match((await chainTx(second.txid!)).txStatus ?? '', /SEEN_ON_NETWORK|MINED/);
    await assert.rejects(
      app.abortAction({ reference: first.txid! }),
      (e) => e instanceof WERR_INVALID_PARAMETER && e.parameter === 'reference',
    );

    // A noSend action may be aborted (named by its txid): its coins come back, and it can never be sent.
    const before = (await balanceOf(walletId)).balance;
    const kept = await app.createAction({
      description: 'changed my mind',
      outputs: [{ lockingScript: payee(), satoshis: before - 5_000, outputDescription: 'most of it' }],
      options: { noSend: true },
    });
    assert.deepEqual(await app.abortAction({ reference: kept.txid! }), { aborted: true });
    await assert.rejects(
      app.createAction({ description: 'send the aborted one', options: { sendWith: [kept.txid!] } }),
      (e) => e instanceof WERR_INVALID_PARAMETER && e.parameter === 'sendWith',
    );
    const again = await app.createAction({
      description: 'pay most of it after all',
      outputs: [{ lockingScript: payee(), satoshis: before - 5_000, outputDescription: 'most of it' }],
    });
    assert.match((await chainTx(again.txid!)).txStatus ?? '', /SEEN_ON_NETWORK|MINED/);
    await fund(walletId, 100_000);
  });

  it('spends an output of the app’s own from its inputBEEF, checked by SPV, signed by the app with signAction', async () => {
    const key = PrivateKey.fromRandom();
    const faucet = await orgCall(org, 'POST', '/chain/faucet', { body: { address: key.toAddress(), satoshis: 5_000 } });
    assert.equal(faucet.status, 200, JSON.stringify(faucet.body));
    const fundTxid = faucet.body.data.txid as string;
    assert.equal((await orgCall(org, 'POST', '/chain/mine', { body: {} })).status, 200);
    const source = Transaction.fromHex((await request(org.host.url, 'GET', `/chain/woc/v1/bsv/local/tx/${fundTxid}/hex`)).body as string);
    const status = (await chainTx(fundTxid)) as { merklePath?: string };
    source.merklePath = MerklePath.fromHex(status.merklePath!);
    const vout = source.outputs.findIndex((o) => o.satoshis === 5_000);
    const beef = new Beef();
    beef.mergeTransaction(source);
    const app = client('shop.example');
    const args = {
      description: 'spend my own coin',
      inputBEEF: beef.toBinary(),
      inputs: [{ outpoint: `${fundTxid}.${vout}`, unlockingScriptLength: 108, inputDescription: 'my own coin' }],
      outputs: [{ lockingScript: payee(), satoshis: 4_000, outputDescription: 'a payee' }],
    };

    // A proof the chain's headers do not confirm is refused before anything is reserved.
    const forged = new Beef();
    const wrong = Transaction.fromHex(source.toHex());
    wrong.merklePath = MerklePath.fromHex(status.merklePath!);
    wrong.merklePath.blockHeight += 1;
    forged.mergeTransaction(wrong);
    await assert.rejects(
      app.createAction({ ...args, inputBEEF: forged.toBinary() }),
      (e) => e instanceof WERR_INVALID_PARAMETER && e.parameter === 'inputBEEF',
    );

    const started = await app.createAction(args);
    const tx = Transaction.fromAtomicBEEF(started.signableTransaction!.tx);
    const unlocking = await new P2PKH().unlock(key).sign(tx, 0);
    const done = await app.signAction({
      reference: started.signableTransaction!.reference,
      spends: { 0: { unlockingScript: unlocking.toHex() } },
    });
    const final = Transaction.fromAtomicBEEF(done.tx!);
    assert.equal(`${final.inputs[0].sourceTXID}.${final.inputs[0].sourceOutputIndex}`, `${fundTxid}.${vout}`);
    assert.match((await chainTx(done.txid!)).txStatus ?? '', /SEEN_ON_NETWORK|MINED/);
  });

  it('answers WERR_INSUFFICIENT_FUNDS with the amounts when the wallet cannot pay', async () => {
    const app = client('kept.example');
    await assert.rejects(
      app.createAction({
        description: 'more than it has',
        outputs: [{ lockingScript: payee(), satoshis: 50_000, outputDescription: 'a payee' }],
      }),
      (e) => e instanceof WERR_INSUFFICIENT_FUNDS && e.moreSatoshisNeeded > 0 && e.totalSatoshisNeeded > 50_000,
    );
  });

  it('answers bad arguments as the reference does', async () => {
    const app = client('shop.example');
    const bad = async (args: object, parameter: string) =>
      assert.rejects(
        app.createAction(args as never),
        (e) => e instanceof WERR_INVALID_PARAMETER && e.parameter === parameter && /must be/.test(e.message),
      );
    await bad({ description: 'x', outputs: [] }, 'description');
    await bad(
      { description: 'a good description', outputs: [{ lockingScript: 'zz', satoshis: 1, outputDescription: 'out one' }] },
      'lockingScript',
    );
    await bad(
      { description: 'a good description', outputs: [{ lockingScript: '51', satoshis: -1, outputDescription: 'out one' }] },
      'satoshis',
    );
    await bad(
      { description: 'a good description', outputs: [{ lockingScript: '51', satoshis: 1, outputDescription: 'x' }] },
      'outputDescription',
    );
    await bad(
      { description: 'a good description', inputs: [{ outpoint: 'nope', inputDescription: 'an input' }] },
      'unlockingScript, unlockingScriptLength',
    );
    await bad(
      { description: 'a good description', inputs: [{ outpoint: 'nope', unlockingScriptLength: 1, inputDescription: 'an input' }] },
      'outpoint',
    );
    await assert.rejects(
      app.abortAction({ reference: 'AAAAAAAAAAAAAAAA' }),
      (e) => e instanceof WERR_INVALID_PARAMETER && e.parameter === 'reference',
    );
  });

  it('is refused by the organisation’s policy like any payment', async () => {
    const set = await orgCall(org, 'POST', '/api/v1/policies', {
      body: {
        document: {
          rules: [{ when: { amountOver: { satoshis: 20_000 } }, action: 'deny', reason: 'Too large for an app' }],
          default: { action: 'allow' },
        },
      },
    });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    const app = client('shop.example');
    await assert.rejects(
      app.createAction({
        description: 'too much at once',
        outputs: [{ lockingScript: payee(), satoshis: 30_000, outputDescription: 'a big payee' }],
      }),
      (e) => /WERR_UNAUTHORIZED|Too large for an app/.test((e as Error).message) && /Too large for an app/.test(messageOf(e)),
    );
    // An action finished with signAction is judged there, before the wallet signs: refused, it holds nothing.
    const pushdrop = new PushDrop(app, 'shop.example');
    const lockingScript = await pushdrop.lock([[4]], PROTOCOL, 'ticket-4', 'self', true);
    const made = await app.createAction({
      description: 'issue a fourth ticket',
      outputs: [{ lockingScript: lockingScript.toHex(), satoshis: 1, basket: 'tickets', outputDescription: 'a fourth ticket' }],
      options: { randomizeOutputs: false },
    });
    const spend = (satoshis: number) => ({
      description: 'use ticket four',
      inputs: [{ outpoint: `${made.txid}.0`, unlockingScriptLength: 73, inputDescription: 'ticket four' }],
      outputs: [{ lockingScript: payee(), satoshis, outputDescription: 'the venue' }],
    });
    const sign = async (r: { signableTransaction?: { tx: number[]; reference: string } }) => {
      const tx = Transaction.fromAtomicBEEF(r.signableTransaction!.tx);
      const script = await pushdrop.unlock(PROTOCOL, 'ticket-4', 'self').sign(tx, 0);
      return app.signAction({ reference: r.signableTransaction!.reference, spends: { 0: { unlockingScript: script.toHex() } } });
    };
    await assert.rejects(sign((await app.createAction(spend(30_000))) as never), (e) => /Too large for an app/.test(messageOf(e)));
    const small = await sign((await app.createAction(spend(900))) as never);
    assert.match((await chainTx(small.txid!)).txStatus ?? '', /SEEN_ON_NETWORK|MINED/);

    // Below the limit it still pays.
    const ok = await app.createAction({
      description: 'small enough',
      outputs: [{ lockingScript: payee(), satoshis: 1_000, outputDescription: 'a payee' }],
    });
    assert.match(ok.txid ?? '', /^[0-9a-f]{64}$/);
  });

  it('refuses clearly to sign an action whose reserved coins a restart gave back, and frees its basket input', async () => {
    let app = client('shop.example');
    const pushdrop = new PushDrop(app, 'shop.example');
    const lockingScript = await pushdrop.lock([[9]], PROTOCOL, 'ticket-3', 'self', true);
    const made = await app.createAction({
      description: 'issue a third ticket',
      outputs: [{ lockingScript: lockingScript.toHex(), satoshis: 1, basket: 'tickets', outputDescription: 'a third ticket' }],
      options: { randomizeOutputs: false },
    });
    const spend = {
      description: 'use ticket three',
      inputs: [{ outpoint: `${made.txid}.0`, unlockingScriptLength: 73, inputDescription: 'ticket three' }],
      outputs: [{ lockingScript: payee(), satoshis: 600, outputDescription: 'the venue' }],
    };
    const started = await app.createAction(spend);
    const unsigned = Transaction.fromAtomicBEEF(started.signableTransaction!.tx);
    const script = await pushdrop.unlock(PROTOCOL, 'ticket-3', 'self').sign(unsigned, 0);

    // A restart gives back every reservation no payment attempt names (payments/settle.ts).
    await org.host.stop();
    const host = await startHeadless({ dataDir, password: 'pw', args: ARGS });
    const login = await request(host.url, 'POST', '/v1/auth', { body: { email: ADMIN.email, password: ADMIN.password } });
    assert.equal(login.status, 200, JSON.stringify(login.body));
    org = { host, auth: { authToken: login.body.data.token ?? login.body.data.authToken }, serviceid: org.serviceid };
    base = `http://${(await orgCall(org, 'GET', '/api/v1/apps')).body.data.listening}`;
    app = client('shop.example');

    await assert.rejects(
      app.signAction({ reference: started.signableTransaction!.reference, spends: { 0: { unlockingScript: script.toHex() } } }),
      (e) => /were given back .* it is aborted/.test(messageOf(e)),
    );
    const again = await app.createAction(spend);
    const tx = Transaction.fromAtomicBEEF(again.signableTransaction!.tx);
    const fresh = await new PushDrop(app, 'shop.example').unlock(PROTOCOL, 'ticket-3', 'self').sign(tx, 0);
    const done = await app.signAction({
      reference: again.signableTransaction!.reference,
      spends: { 0: { unlockingScript: fresh.toHex() } },
    });
    assert.match((await chainTx(done.txid!)).txStatus ?? '', /SEEN_ON_NETWORK|MINED/);
  });
});
