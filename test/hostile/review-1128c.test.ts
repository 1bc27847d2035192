import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { Beef, LockingScript, P2PKH, PrivateKey, Transaction, Utils } from '@bsv/sdk';
import { KST20 } from '../../main/engine/token-templates/kst.js';
import { withOwner } from '../../main/engine/token-templates/script-bytes.js';
import { LocalProvider } from '../../main/chain/local/local-provider.js';
import { beefOf } from '../../main/engine/paymail/beef.js';
import { bsv21Json, ordP2pkhScript } from '../../main/chain/ordinal-envelope.js';
import type { Credentials } from '../../main/engine/context.js';
import { meta, testEngine, type TestEngine } from '../helpers/engine.js';
import { ADMIN } from '../helpers/http.js';

/**
 * Review 1128 (c), 28 Nov 2026: hostile counterparties the earlier reviews and hostile suites do not play.
 * A test named "finding N" asserts the safe behaviour (each failed before its fix); "refused:" tests are attacks
 * the code already held against.
 *
 *   1. an inscription or BSV-21 output holding more than 1 satoshi (a stranger's) gives the rest to the miner
 *      when sent, and the fee reported (and counted by the policy) is 1 satoshi per ordinal input.
 *   2. a payment to `<our P2PKH> OP_RETURN <data>` (the wallet's key alone spends it; the policy called it the
 *      wallet's) is never booked: paying it to the wallet's own address took it off the books with no limit.
 *   3. an app's basket output at the wallet's own address "stays in the wallet" (only the fee counts against its
 *      authorisation) but is no coin, and nobody can ever spend it through Keystead: funds frozen off the books.
 *   4. an app names the wallet's own offered token output as an input (from its inputBEEF) and completes the
 *      wallet's public swap offer, the wallet paying the asked BSV to itself (3.): the tokens leave for a fee.
 */

interface Setup {
  t: TestEngine;
  admin: Credentials;
  exec(op: string, input: object, as?: Credentials): Promise<any>;
}

async function setUp(): Promise<Setup> {
  const t = testEngine();
  // An app's wait for a decision runs on an unreferenced timer: keep the loop alive while the engine is open.
  const alive = setInterval(() => undefined, 1_000);
  const close = t.engine.close.bind(t.engine);
  t.engine.close = (...args: Parameters<typeof close>) => {
    clearInterval(alive);
    return close(...args);
  };
  const s = (await t.engine.execute('setup', ADMIN, {}, meta)).output;
  const admin = { authToken: s.authToken, serviceId: s.serviceId };
  return {
    t,
    admin,
    exec: (op, input, as = admin) => t.engine.execute(op as never, input, as, meta).then((r) => r.output) as Promise<any>,
  };
}

const pkhOfAddress = (address: string) => Utils.toHex(Utils.fromBase58Check(address).data as number[]);

/** A stranger's transaction paying `script` with `satoshis` (funded from the faucet); answers its txid. */
async function strangerPays(s: Setup, script: string, satoshis: number): Promise<string> {
  const outside = PrivateKey.fromRandom();
  const f = await s.t.node.faucet(outside.toAddress(), satoshis + 20_000);
  const parent = Transaction.fromHex(s.t.node.txHex(f.txid!)!);
  const tx = new Transaction();
  tx.addInput({
    sourceTransaction: parent,
    sourceOutputIndex: parent.outputs.findIndex((o) => o.satoshis === satoshis + 20_000),
    unlockingScriptTemplate: new P2PKH().unlock(outside),
  });
  tx.addOutput({ lockingScript: LockingScript.fromHex(script), satoshis });
  tx.addOutput({ lockingScript: new P2PKH().lock(outside.toAddress()), change: true });
  await tx.fee(300);
  await tx.sign();
  assert.equal(s.t.node.submit(tx.toHex()).status, 'accepted');
  return tx.id('hex');
}

async function until<T>(what: string, f: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = await f();
    if (v !== undefined) return v;
    await new Promise((ok) => setTimeout(ok, 25));
  }
  throw new Error(`never: ${what}`);
}

/** What a transaction of the local chain pays the miner: its inputs less its outputs. */
function minerFee(s: Setup, txid: string): number {
  const tx = Transaction.fromHex(s.t.node.txHex(txid)!);
  let inputs = 0;
  for (const i of tx.inputs) inputs += Transaction.fromHex(s.t.node.txHex(i.sourceTXID!)!).outputs[i.sourceOutputIndex].satoshis!;
  return inputs - tx.outputs.reduce((n, o) => n + (o.satoshis ?? 0), 0);
}

// ---------------------------------------------------------------------------------------------------------
// Finding 1: an inscription (or a BSV-21 output) that carries more than one satoshi burns the rest as fee.
// ---------------------------------------------------------------------------------------------------------

describe('finding 1: an ordinal output holding more than 1 satoshi gives all but 1 of them to the miner when sent', () => {
  let s: Setup;
  beforeEach(async () => {
    s = await setUp();
  });
  afterEach(() => s.t.engine.close());

  it('sending an inscription a stranger sent with 50,000 satoshis does not pay ~50,000 satoshis of fee (nor report a fee it did not pay)', async () => {
    const walletId = (await s.exec('createWallet', { walletTitle: 'Gallery' })).walletID as string;
    await s.exec('faucet', { walletId, satoshis: 100_000 });
    const address = (await s.exec('walletAddress', { walletId })).address as string;
    const txid = await strangerPays(s, ordP2pkhScript(pkhOfAddress(address), 'text/plain', Buffer.from('a gift')), 50_000);
    const outpoint = `${txid}_0`;
    await until('the inscription is listed', async () => {
      const l = await s.exec('listOrdinals', { walletId });
      return (l.inscriptions as { outpoint: string }[]).some((x) => x.outpoint === outpoint) ? true : undefined;
    });
    const sent = await s.exec('sendInscription', { walletId, outpoint, to: PrivateKey.fromRandom().toAddress() }).then(
      (r) => r,
      (e: { code?: string }) => ({ refused: e.code }),
    );
    if ('refused' in sent) return; // refusing to send it as a 1-satoshi inscription is safe too
    const paid = minerFee(s, sent.txid);
    assert.equal(sent.fee, paid, 'the fee reported is the fee the transaction pays');
    assert.ok(paid < 5_000, `the miner was paid ${paid} satoshis to move one inscription`);
  });

  it('sending BSV-21 units from a deploy+mint output a stranger sent with 30,000 satoshis does not burn them as fee', async () => {
    const walletId = (await s.exec('createWallet', { walletTitle: 'Tokens' })).walletID as string;
    await s.exec('faucet', { walletId, satoshis: 100_000 });
    const address = (await s.exec('walletAddress', { walletId })).address as string;
    const json = bsv21Json({ op: 'deploy+mint', amt: '1000', sym: 'GIFT', dec: 0, icon: null });
    const txid = await strangerPays(s, ordP2pkhScript(pkhOfAddress(address), 'application/bsv-20', json), 30_000);
    const tokenId = `${txid}_0`;
    await until('the token is held', async () => {
      const l = await s.exec('listOrdinals', { walletId });
      return (l.tokens as { id: string }[]).some((x) => x.id === tokenId) ? true : undefined;
    });
    const sent = await s.exec('sendBsv21', { walletId, tokenId, amount: '10', to: PrivateKey.fromRandom().toAddress() }).then(
      (r) => r,
      (e: { code?: string }) => ({ refused: e.code }),
    );
    if ('refused' in sent) return;
    const paid = minerFee(s, sent.txid);
    assert.equal(sent.fee, paid, 'the fee reported is the fee the transaction pays');
    assert.ok(paid < 5_000, `the miner was paid ${paid} satoshis to move 10 units`);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Finding 2: a payment to `<our P2PKH> OP_RETURN <data>` is the wallet's for the policy, but never on the books.
// ---------------------------------------------------------------------------------------------------------

describe('finding 2: an output only the wallet key spends, a P2PKH followed by OP_RETURN data, is not booked: paying it is leaving', () => {
  let s: Setup;
  beforeEach(async () => {
    s = await setUp();
  });
  afterEach(() => s.t.engine.close());

  // The books take plain P2PKH outputs as coins; one followed by data is no coin (nor a token or an inscription).
  // So the policy may not call it "staying in the wallet": a payment to it at the wallet's own address counts.
  it('a payment of 100,000 to the wallet’s own address with a memo after OP_RETURN is judged as leaving (the plain one stays)', async () => {
    const walletId = (await s.exec('createWallet', { walletTitle: 'Sales' })).walletID as string;
    await s.exec('faucet', { walletId, satoshis: 300_000 });
    await s.exec('proposePolicy', {
      document: {
        rules: [{ when: { amountOver: { satoshis: 10_000 } }, action: 'deny', reason: 'at most 10,000 a payment' }],
        default: { action: 'allow' },
      },
    });
    const address = (await s.exec('walletAddress', { walletId })).address as string;
    const memo = `76a914${pkhOfAddress(address)}88ac6a0b${Buffer.from('invoice 123').toString('hex')}`;
    const refused = await s.exec('pay', { walletId, outputs: [{ script: memo, satoshis: 100_000 }] }).then(
      () => 'paid',
      (e: { code?: string }) => e.code,
    );
    assert.equal(refused, 'POLICY_DENIED', 'the memo output leaves the books: the limit applies');
    const plain = await s.exec('pay', { walletId, outputs: [{ script: new P2PKH().lock(address).toHex(), satoshis: 100_000 }] });
    assert.match(plain.txid, /^[0-9a-f]{64}$/, 'a plain payment to its own address stays in the wallet');
  });
});

// ---------------------------------------------------------------------------------------------------------
// Finding 3: an app parks the wallet's coins in a basket output at the wallet's own address: "it stays in the
// wallet", so only the fee counts against its authorisation, but no one can spend it again through Keystead.
// ---------------------------------------------------------------------------------------------------------

describe('finding 3: a basket output at the wallet’s own address leaves the books, and nobody can spend it', () => {
  let s: Setup;
  beforeEach(async () => {
    s = await setUp();
    s.t.engine.brc100.setWait(50);
  });
  afterEach(() => s.t.engine.close());

  const spendable = async (walletId: string) =>
    ((await s.exec('balance', { walletId, type: 'ALL' })).coins as { tokenId?: string; balance: number }[]).find((c) => !c.tokenId)!
      .balance;
  const app = (originator: string) => (method: string, args: object) => s.t.engine.brc100.call(originator, method, args, '127.0.0.1');

  it('an app allowed 10,000 satoshis a month cannot take 300,000 out of the wallet’s books by parking them at its own address', async () => {
    const walletId = (await s.exec('createWallet', { walletTitle: 'evil.example' })).walletID as string;
    await s.exec('faucet', { walletId, satoshis: 500_000 });
    await s.exec('decideApp', { originator: 'evil.example', allow: true, walletId });
    await s.exec('setAppSpendingLimit', { originator: 'evil.example', limit: { satoshis: 10_000 } });
    await s.exec('setAppPermission', { originator: 'evil.example', kind: 'basket', basket: 'tickets' });
    const call = app('evil.example');
    const { address } = await s.exec('walletAddress', { walletId });
    const parked = await call('createAction', {
      description: 'a ticket the wallet keeps',
      outputs: [{ lockingScript: new P2PKH().lock(address).toHex(), satoshis: 300_000, basket: 'tickets', outputDescription: 'a ticket' }],
    }).then(
      () => 'created',
      (e: Error) => e.message,
    );
    // Parked there, the books would not take it as a coin, the app could not sign for it, and the authorisation
    // would count it as staying in the wallet: refused, as internalizeAction's basket insertion is.
    assert.match(parked, /pays an address of a Keystead wallet/);
    assert.equal(await spendable(walletId), 500_000, 'nothing left the wallet');
  });
});

// ---------------------------------------------------------------------------------------------------------
// Finding 4: an app takes the wallet's own public token offer, paying the asked BSV from the wallet's coins to
// the wallet (a basket output "staying in the wallet") and keeping the tokens; its authorisation sees the fee.
// ---------------------------------------------------------------------------------------------------------

describe('finding 4: an allowed app takes its wallet’s own open token offer with the wallet’s money, and keeps the tokens', () => {
  let s: Setup;
  beforeEach(async () => {
    s = await setUp();
    s.t.engine.brc100.setWait(50);
  });
  afterEach(() => s.t.engine.close());

  const tokensOf = async (walletId: string, tokenId: string) =>
    ((await s.exec('balance', { walletId, type: 'ALL' })).coins as { tokenId?: string; amount?: number }[]).find(
      (c) => c.tokenId === tokenId,
    )?.amount ?? 0;
  const app = (originator: string) => (method: string, args: object) => s.t.engine.brc100.call(originator, method, args, '127.0.0.1');

  /** The app's attempt, with the asked payment in its basket or outside any. */
  const takeOwnOffer = async (basket: boolean) => {
    const walletId = (await s.exec('createWallet', { walletTitle: 'Vault' })).walletID as string;
    await s.exec('faucet', { walletId, satoshis: 500_000 });
    const { tokenId } = await s.exec('issueToken', {
      walletId,
      name: 'Gold',
      protocolId: 'KST-20',
      symbol: 'GOLD',
      tokenSupply: 1000,
      satsPerToken: 1,
    });
    await until('the GOLD is proven', async () => ((await tokensOf(walletId, tokenId)) === 1000 ? true : undefined));
    // The treasury posts a public offer: all its GOLD for 0.0002 BSV (anyone may take it, paying 20,000 satoshis).
    const made = await s.exec('offer', { walletId, dataArray: [{ tokenId, tokenAmount: 1000, type: 'BSV', amount: '0.0002' }] });
    const offer = Transaction.fromHex(made.offers[0].swapHex as string);
    const offered = offer.inputs[0];
    const asked = offer.outputs[0];

    // An app allowed on the same wallet, with a small monthly authorisation and a basket of its own.
    await s.exec('decideApp', { originator: 'taker.example', allow: true, walletId });
    await s.exec('setAppSpendingLimit', { originator: 'taker.example', limit: { satoshis: 1_000 } });
    await s.exec('setAppPermission', { originator: 'taker.example', kind: 'basket', basket: 'tickets' });
    const call = app('taker.example');
    const thief = PrivateKey.fromRandom();
    const local = new LocalProvider(s.t.node, () => null);
    const parent = Transaction.fromHex(s.t.node.txHex(offered.sourceTXID!)!);
    const offeredScript = parent.outputs[offered.sourceOutputIndex].lockingScript.toHex();
    const inputBEEF = Beef.fromString((await beefOf(local, parent))!, 'hex').toBinary();
    const toThief = withOwner(offeredScript, Utils.toHex(thief.toPublicKey().toHash() as number[]));

    const started = (await call('createAction', {
      description: 'taking an offer',
      inputBEEF,
      inputs: [
        {
          outpoint: `${offered.sourceTXID}.${offered.sourceOutputIndex}`,
          unlockingScriptLength: 8_000,
          inputDescription: 'the offered GOLD',
          sequenceNumber: offered.sequence,
        },
      ],
      outputs: [
        // What the offer asks (output 0, as the maker signed it), in the app's basket or not: it pays the wallet's own address.
        {
          lockingScript: asked.lockingScript.toHex(),
          satoshis: asked.satoshis!,
          ...(basket ? { basket: 'tickets' } : {}),
          outputDescription: 'the asked payment',
        },
        { lockingScript: toThief, satoshis: 1000, outputDescription: 'the GOLD, to the app' },
      ],
      options: { randomizeOutputs: false },
    }).then(
      (r) => r as { signableTransaction?: { tx: number[]; reference: string } },
      (e: Error) => ({ refused: e.message }),
    )) as { signableTransaction?: { tx: number[]; reference: string }; refused?: string };
    // Refused before anything is signed: the offer's output is in the books (and, in a basket, the asked
    // payment would sit at the wallet's own address).
    assert.match(started.refused ?? '', /token or 1Sat output in the organisation's books|pays an address of a Keystead wallet/);
    assert.equal(await tokensOf(walletId, tokenId), 1000);
    if (started.refused) return;
    const tx = Transaction.fromAtomicBEEF(started.signableTransaction!.tx);
    const unlocking = KST20.swap!.complete({
      tx,
      inputIndex: 0,
      script: offeredScript,
      satoshis: 1000,
      makerPart: offered.unlockingScript!.toHex(),
      tokenOutputs: [{ owner: Utils.toHex(thief.toPublicKey().toHash() as number[]), satoshis: 1000 }],
      firstTokenOutput: 1,
    });
    const signed = await call('signAction', {
      reference: started.signableTransaction!.reference,
      spends: { 0: { unlockingScript: unlocking } },
    }).then(
      (r) => r as { txid?: string },
      (e: Error) => ({ refused: e.message }),
    );
    const onChain = 'txid' in signed && signed.txid ? s.t.node.txHex(signed.txid) !== null : false;
    assert.ok(
      !onChain,
      `the app took the treasury's 1,000 GOLD (tx ${'txid' in signed ? signed.txid : ''}), the wallet paying the 20,000 satoshis it asked to itself; GOLD left in the books: ${await tokensOf(walletId, tokenId)}`,
    );
  };

  it('an app allowed 1,000 satoshis a month (and a basket) cannot take 1,000 GOLD from the wallet’s open offer, paid for by the wallet', () =>
    takeOwnOffer(true));

  it('the same with the asked payment outside any basket (it does stay in the wallet): the app still may not spend the offer’s output', () =>
    takeOwnOffer(false));
});

// ---------------------------------------------------------------------------------------------------------
// Attacks refused (regression tests).
// ---------------------------------------------------------------------------------------------------------

describe('refused: attacks tried that the rules hold against', () => {
  let s: Setup;
  beforeEach(async () => {
    s = await setUp();
    s.t.engine.brc100.setWait(50);
  });
  afterEach(() => s.t.engine.close());
  const app = (originator: string) => (method: string, args: object) => s.t.engine.brc100.call(originator, method, args, '127.0.0.1');

  it('a stranger’s forged BSV-21 transfer of a token the wallet holds (no inputs of it) is never counted', async () => {
    const walletId = (await s.exec('createWallet', { walletTitle: 'Gems' })).walletID as string;
    await s.exec('faucet', { walletId, satoshis: 100_000 });
    const { tokenId } = await s.exec('deployBsv21', { walletId, sym: 'GEM', amt: '1000' });
    const address = (await s.exec('walletAddress', { walletId })).address as string;
    const forged = bsv21Json({ op: 'transfer', id: tokenId, amt: '5000000' });
    const txid = await strangerPays(s, ordP2pkhScript(pkhOfAddress(address), 'application/bsv-20', forged), 1);
    const gem = await until('the forged transfer is decided', async () => {
      const l = await s.exec('listOrdinals', { walletId });
      const t = (l.tokens as { id: string; amount: string; pendingAmount: string; invalidAmount: string }[]).find((x) => x.id === tokenId);
      return t && t.pendingAmount === '0' && t.invalidAmount !== '0' ? t : undefined;
    });
    assert.deepEqual([gem.amount, gem.invalidAmount], ['1000', '5000000'], `forged in ${txid}`);
  });

  it('a P2P delivery paying the issued address through an inscription (P2PKH + envelope) is not a BSV payment of the reference', async () => {
    await s.exec('createWallet', { walletTitle: 'Shop', paymail: 'shop', paymailActivate: true });
    const host = s.t.engine.paymailHost;
    const dest = host.p2pDestination('shop@acme.test', { satoshis: 40_000 });
    const pkh = dest.outputs[0].script.slice(6, 46);
    const outside = PrivateKey.fromRandom();
    const f = await s.t.node.faucet(outside.toAddress(), 60_000);
    const parent = Transaction.fromHex(s.t.node.txHex(f.txid!)!);
    const tx = new Transaction();
    tx.addInput({
      sourceTransaction: parent,
      sourceOutputIndex: parent.outputs.findIndex((o) => o.satoshis === 60_000),
      unlockingScriptTemplate: new P2PKH().unlock(outside),
    });
    tx.addOutput({ lockingScript: LockingScript.fromHex(ordP2pkhScript(pkh, 'text/plain', Buffer.from('paid?'))), satoshis: 40_000 });
    tx.addOutput({ lockingScript: new P2PKH().lock(outside.toAddress()), change: true });
    await tx.fee(300);
    await tx.sign();
    await assert.rejects(
      host.receiveTransaction('shop@acme.test', { hex: tx.toHex(), reference: dest.reference }),
      (e: { code?: string }) => e.code === 'wrong-outputs',
    );
    assert.equal(s.t.node.txHex(tx.id('hex')), null, 'nothing was broadcast');
  });

  it('an app cannot name one of the wallet’s own coins as an input of its action', async () => {
    const walletId = (await s.exec('createWallet', { walletTitle: 'app.example' })).walletID as string;
    const funded = await s.exec('faucet', { walletId, satoshis: 100_000 });
    await s.exec('decideApp', { originator: 'app.example', allow: true, walletId });
    await s.exec('setAppSpendingLimit', { originator: 'app.example', limit: { satoshis: 1_000_000 } });
    const parent = Transaction.fromHex(s.t.node.txHex(funded.txid)!);
    const coin = { txid: funded.txid as string, vout: parent.outputs.findIndex((o) => o.satoshis === 100_000) };
    await until('the coin is booked', async () =>
      s.t.store.db.prepare('SELECT 1 FROM utxos WHERE txid = ? AND vout = ?').get(coin.txid, coin.vout) ? true : undefined,
    );
    const inputBEEF = Beef.fromString((await beefOf(new LocalProvider(s.t.node, () => null), parent))!, 'hex').toBinary();
    await assert.rejects(
      app('app.example')('createAction', {
        description: 'spend the wallet’s coin',
        inputBEEF,
        inputs: [{ outpoint: `${coin.txid}.${coin.vout}`, unlockingScriptLength: 107, inputDescription: 'a wallet coin' }],
        outputs: [
          {
            lockingScript: new P2PKH().lock(PrivateKey.fromRandom().toAddress()).toHex(),
            satoshis: 50_000,
            outputDescription: 'to the app',
          },
        ],
      }),
      /one of the wallet's own coins/,
    );
  });
});
