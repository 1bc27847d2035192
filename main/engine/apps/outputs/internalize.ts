import { Hash, P2PKH, ProtoWallet, Utils, type PrivateKey, type Transaction } from '@bsv/sdk';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { cleanRemoteText } from '../../../../shared/remote-text.js';
import { nodesAcceptedWithin } from '../../../chain/node-acceptance.js';
import { p2pkhAddressOf } from '../../../chain/script.js';
import { ScriptVerifier } from '../../../chain/script-check.js';
import { BadBeef, BEEF_SCRIPT_LIMIT_MS, BeefUncheckable, verifiedBeef } from '../../paymail/beef-check.js';
import { BRC29_PROTOCOL, type Brc29Remittance } from '../../payments/keyring.js';
import type { AppCall } from '../call.js';
import { invalidOperation, invalidParameter, WalletErr } from '../werr.js';
import { appBasket } from './baskets.js';
import { internalizeArgs, type InternalizeOutput, type WalletPayment } from './list-args.js';

/** BRC-95: an Atomic BEEF starts with 01010101 and its subject's txid. */
const ATOMIC_PREFIX = '01010101';

/**
 * Where an app's BEEF scripts run: worker threads with the paymail receiver's time limit, one core fewer than
 * the machine has (as the receiver's), made on first use and kept for the process.
 */
let beefScripts: ScriptVerifier | undefined;
const scripts = () => (beefScripts ??= new ScriptVerifier(Math.max(1, os.availableParallelism() - 1), undefined, BEEF_SCRIPT_LIMIT_MS));

const unavailable = (message: string) => new WalletErr('WERR_INTERNAL', 1, `${message}. Nothing was recorded; try again.`);

/** The P2PKH script a BRC-29 payment to this wallet must have: to its key derived for the sender and the derivation. */
async function brc29Script(root: PrivateKey, r: WalletPayment): Promise<string> {
  let publicKey: string;
  try {
    ({ publicKey } = await new ProtoWallet(root).getPublicKey({
      protocolID: BRC29_PROTOCOL,
      keyID: `${r.derivationPrefix} ${r.derivationSuffix}`,
      counterparty: r.senderIdentityKey,
      forSelf: true,
    }));
  } catch {
    throw invalidParameter('senderIdentityKey', 'a public key (a point of the curve)');
  }
  return new P2PKH().lock(Hash.hash160(Utils.toArray(publicKey, 'hex'))).toHex();
}

/** The Atomic BEEF's transaction, checked by SPV against the chain's headers with the paymail receiver's limits (it is hostile input). */
async function provenTransaction(call: AppCall, bytes: number[]): Promise<Transaction> {
  const hex = Buffer.from(bytes).toString('hex');
  if (!hex.startsWith(ATOMIC_PREFIX)) throw invalidParameter('tx', 'an Atomic BEEF (BRC-95): it starts with 01010101 and the txid');
  try {
    return await verifiedBeef(call.services.chain, hex, scripts());
  } catch (err) {
    if (err instanceof BadBeef) throw invalidParameter('tx', `an Atomic BEEF that proves its transaction (${err.message})`);
    if (err instanceof BeefUncheckable) throw unavailable(`The transaction could not be checked now: ${err.message}`);
    throw err;
  }
}

/** How often, and how far apart, ARC's status is asked whether a node took a transaction it just accepted. */
const ACCEPTANCE_ASKS = 3;
const ACCEPTANCE_PAUSE_MS = 1_000;

/**
 * The chain has the transaction (it is sent when it does not); its block height once mined. A payment is the
 * wallet's only on the chain's word: a block proving it, or a node of the network having taken it (the embedded
 * node's word is the chain's). ARC stores anything it is given and answers "accepted" for it, and an indexer
 * lists what ARC stored, so neither alone books a coin (a double-spent payment would stay on the books for ever).
 */
async function onChain(call: AppCall, tx: Transaction, txid: string): Promise<number | null> {
  const { chain, sync } = call.services;
  let status;
  try {
    status = await chain.getTxStatus(txid);
  } catch (err) {
    throw unavailable(`The chain did not answer: ${(err as Error).message}`);
  }
  if (status.state === 'mined' || status.state === 'mempool') {
    // A height only with its merkle path to that block: ARC's word alone would date it where nothing can undo it.
    const height =
      status.state === 'mined' && status.blockHeight !== null
        ? await sync.proveHeight(txid, status.blockHeight, status.merklePath).catch(() => null)
        : null;
    if (height !== null || chain.events || status.seenOnNetwork === true) return height;
    throw notYetAccepted(txid);
  }
  const sent = await chain.broadcast(tx.toHex());
  if (sent.status === 'rejected') throw invalidOperation(`The chain refused the transaction: ${sent.reason} (${sent.message}).`);
  if (sent.status === 'unknown') throw unavailable(`The transaction could not be sent to the chain: ${sent.message}`);
  if (!chain.events && !(await nodesAcceptedWithin(chain, txid, ACCEPTANCE_ASKS, ACCEPTANCE_PAUSE_MS))) throw notYetAccepted(txid);
  return null;
}

function notYetAccepted(txid: string) {
  return unavailable(`No node of the network has accepted transaction ${txid} yet (the broadcaster only holds it)`);
}

/**
 * P2PKH outputs must still be unspent on the chain (other scripts are not indexed by address: they are taken
 * as the BEEF proves them). One question per address.
 */
async function unspentOnChain(call: AppCall, txid: string, outputs: readonly { vout: number; script: string }[]): Promise<void> {
  const byAddress = new Map<string, number[]>();
  for (const o of outputs) {
    const address = p2pkhAddressOf(o.script);
    if (address) byAddress.set(address, [...(byAddress.get(address) ?? []), o.vout]);
  }
  for (const [address, vouts] of byAddress) {
    let utxos;
    try {
      utxos = await call.services.chain.getUtxos(address);
    } catch (err) {
      throw unavailable(`The chain did not answer: ${(err as Error).message}`);
    }
    const spent = vouts.find((vout) => !utxos.some((u) => u.txid === txid && u.vout === vout));
    if (spent !== undefined)
      throw invalidOperation(`Output ${spent} of ${txid} is already spent on the chain: there is nothing to internalize.`);
  }
}

/**
 * internalizeAction: takes outputs of a transaction an app hands over (as Atomic BEEF, proven by SPV) into
 * the wallet. A wallet payment (BRC-29) must pay the wallet's key derived for its sender and derivation; it
 * becomes a coin of the wallet (utxos.brc29), counted in its balance and spent by Keystead's payments. A
 * basket insertion goes into the app's basket (app_outputs), which Keystead's payments never spend.
 * Internalizing an output again changes nothing (it is not counted twice).
 */
export async function internalizeAction(call: AppCall): Promise<{ accepted: true }> {
  let detail: string | undefined;
  try {
    const result = await internalize(call, (d) => (detail = d));
    call.audit('internalizeAction', null, detail);
    return result;
  } catch (err) {
    call.audit('internalizeAction', err instanceof WalletErr ? err.name : 'ERROR', detail);
    throw err;
  }
}

async function internalize(call: AppCall, note: (detail: string) => void): Promise<{ accepted: true }> {
  const args = internalizeArgs(call.args);
  const { services, wallet } = call;
  const { repos, db } = services;
  for (const basket of new Set(args.outputs.flatMap((o) => (o.protocol === 'basket insertion' ? [o.insertionRemittance.basket] : []))))
    await call.permit.basket(appBasket(basket), 'internalize');
  const tx = await provenTransaction(call, args.tx);
  const txid = tx.id('hex');
  note(`tx ${txid}`);

  const root = args.outputs.some((o) => o.protocol === 'wallet payment') ? await call.rootKey() : null;
  const taken: { o: InternalizeOutput; script: string; satoshis: number }[] = [];
  for (const o of args.outputs) {
    const out = tx.outputs[o.outputIndex];
    if (!out)
      throw invalidParameter('outputIndex', `an output of the transaction, which has ${tx.outputs.length}; ${o.outputIndex} is not`);
    const script = out.lockingScript.toHex();
    if (o.protocol === 'wallet payment' && script !== (await brc29Script(root!, o.paymentRemittance)))
      throw invalidParameter(
        'paymentRemittance',
        `the derivation of output ${o.outputIndex}'s key: it does not pay this wallet's key for that sender, prefix and suffix`,
      );
    if (o.protocol === 'basket insertion') {
      const address = p2pkhAddressOf(script);
      // An output at one of the organisation's addresses is a wallet coin: in a basket too, both could spend it.
      if (address && repos.addresses.owner(address))
        throw invalidOperation(`Output ${o.outputIndex} pays an address of a Keystead wallet: it is a wallet coin, not an app's.`);
    }
    taken.push({ o, script, satoshis: out.satoshis ?? 0 });
  }

  // What is already the wallet's is not taken again (nor checked again on the chain).
  const fresh = taken.filter(({ o }) => {
    const coin = repos.walletUtxos.get(txid, o.outputIndex);
    const basketed = repos.appOutputQueries.outputAt(wallet.id, txid, o.outputIndex);
    if (o.protocol === 'wallet payment' && basketed)
      throw invalidOperation(`Output ${o.outputIndex} of ${txid} is in the basket ${basketed.basket}; relinquish it first.`);
    if (o.protocol === 'basket insertion' && coin)
      throw invalidOperation(`Output ${o.outputIndex} of ${txid} is already a coin of a Keystead wallet; it cannot go into a basket.`);
    return o.protocol === 'wallet payment' ? !coin : !basketed;
  });
  const height = fresh.length ? await onChain(call, tx, txid) : null;
  await unspentOnChain(
    call,
    txid,
    fresh.map((f) => ({ vout: f.o.outputIndex, script: f.script })),
  );

  const now = services.now();
  let gained = 0;
  db.transaction(() => {
    let gainedHere = 0;
    const coins: typeof fresh = [];
    for (const f of fresh) {
      if (f.o.protocol !== 'wallet payment') continue;
      const r: Brc29Remittance = f.o.paymentRemittance;
      const inserted = repos.walletUtxos.insert({
        walletRow: wallet.id,
        txid,
        vout: f.o.outputIndex,
        satoshis: f.satoshis,
        script: f.script,
        chain: null,
        idx: null,
        status: 'available',
        height,
        address: p2pkhAddressOf(f.script),
        brc29: JSON.stringify({
          senderIdentityKey: r.senderIdentityKey,
          derivationPrefix: r.derivationPrefix,
          derivationSuffix: r.derivationSuffix,
        }),
      });
      if (inserted) {
        gainedHere += f.satoshis;
        coins.push(f);
      }
    }
    const existing = repos.appOutputQueries.actionByTxid(wallet.id, txid);
    // Another app's action (it made or took in this transaction) is its own: no labels or outputs of this app join it.
    if (existing && existing.originator !== call.app.originator)
      throw invalidOperation(`Transaction ${txid} is already an action of another app on this wallet; it cannot be internalized again.`);
    const actionId =
      existing?.id ??
      repos.appOutputQueries.insertInternalized({
        walletRow: wallet.id,
        originator: call.app.originator,
        reference: randomUUID(),
        txid,
        status: height === null ? 'unproven' : 'completed',
        satoshis: gainedHere,
        description: args.description,
        version: tx.version,
        lockTime: tx.lockTime,
        rawTx: Buffer.from(tx.toBinary()),
        now,
      });
    if (existing) repos.appOutputQueries.addSatoshis(existing.id, gainedHere, now);
    repos.appOutputQueries.addLabels(actionId, args.labels);
    for (const f of coins)
      repos.appOutputQueries.addOutputIo({
        actionId,
        idx: f.o.outputIndex,
        satoshis: f.satoshis,
        script: f.script,
        description: 'wallet payment',
        basket: null,
        tags: null,
        customInstructions: null,
      });
    for (const f of fresh) {
      if (f.o.protocol !== 'basket insertion') continue;
      const b = f.o.insertionRemittance;
      repos.appOutputQueries.insertOutput(
        {
          walletRow: wallet.id,
          basket: b.basket,
          txid,
          vout: f.o.outputIndex,
          satoshis: f.satoshis,
          script: f.script,
          description: null,
          customInstructions: b.customInstructions,
          actionId,
          originator: call.app.originator,
          now,
        },
        b.tags,
      );
      repos.appOutputQueries.addOutputIo({
        actionId,
        idx: f.o.outputIndex,
        satoshis: f.satoshis,
        script: f.script,
        description: 'basket insertion',
        basket: b.basket,
        tags: JSON.stringify(b.tags),
        customInstructions: b.customInstructions,
      });
    }
    gained = gainedHere;
  })();
  if (gained > 0) {
    // Booked as the chain has it: the sync counts the new coins (utxos.brc29) as the wallet's, writes the
    // history row and tells the live views; idempotent, as every booking is.
    services.sync.applyTransaction(tx, txid, height);
    const sender = fresh.find((f) => f.o.protocol === 'wallet payment')?.o as { paymentRemittance: WalletPayment } | undefined;
    repos.walletTxs.annotate(
      wallet.id,
      txid,
      // The app's words, shown in history and printed by the CLI: cleaned like every counterparty's text.
      cleanRemoteText(args.description, 500),
      sender ? `BRC-29 from ${sender.paymentRemittance.senderIdentityKey}` : null,
    );
  }
  note(`tx ${txid} · ${gained} satoshis to the wallet · ${fresh.length} of ${args.outputs.length} outputs new`);
  services.logger.info({ txid, gained, originator: call.app.originator }, 'an app internalized a transaction');
  return { accepted: true };
}
