import { Transaction } from '@bsv/sdk';
import { DomainError } from '../../../../shared/errors.js';
import type { PayOutput } from '../../../../shared/operations.js';
import { p2pkhAddressOf } from '../../../chain/script.js';
import type { AppAction } from '../../../store/repos/app-actions.js';
import { currentFeePolicy } from '../../payments/plan.js';
import { sendRecordedMove, type RecordedMove, type Reservation } from '../../payments/value-flow.js';
import type { AppCall } from '../call.js';
import { invalidParameter } from '../werr.js';
import { atomicBeef, type LocalSource } from './beef.js';
import type { FundingCoin } from './funding.js';
import { ownActionByTxid } from './own-actions.js';
import { asWalletErr } from './scope.js';

export type SendStatus = 'unproven' | 'sending' | 'failed';

/**
 * Sends a recorded action (value-flow.ts's send step) and keeps its status: `unproven` once the chain took it,
 * `sending` while its outcome is open (Keystead re-sends it until the chain decides), `failed` when the chain
 * refused it; then the books gave its coins back and the basket side is undone here.
 */
export async function sendAction(
  call: AppCall,
  actionId: number,
  recorded: RecordedMove<Reservation>,
): Promise<{ status: SendStatus; error?: unknown }> {
  const { services } = call;
  const { repos, now } = services;
  try {
    await sendRecordedMove(services, recorded);
    repos.appActions.setStatus(actionId, 'unproven', now());
    return { status: 'unproven' };
  } catch (err) {
    if (err instanceof DomainError && err.details.outcomeUnknown === true) {
      repos.appActions.setStatus(actionId, 'sending', now());
      return { status: 'sending' };
    }
    // The chain refused it: the books undid it (books.ts forgot its basket outputs and freed what it spent).
    repos.appActions.setStatus(actionId, 'failed', now());
    return { status: 'failed', error: asWalletErr(err) };
  }
}

/** A noSend action's recorded move, read back from its payment attempt, to send it now. */
async function storedMove(call: AppCall, action: AppAction): Promise<RecordedMove<Reservation>> {
  const { services } = call;
  const at = action.attempt ? services.repos.payments.attempt(action.attempt) : null;
  if (!at) throw invalidParameter('sendWith', `txids of this wallet's noSend actions (${action.txid} has no recorded transaction)`);
  const reservation = { attempt: at.attempt, changeAddresses: at.changeAddresses };
  return {
    reservation,
    submission: {
      attempt: at.attempt,
      wallet: call.wallet,
      account: await services.keyring.open(call.wallet),
      tx: Transaction.fromHex(at.raw),
      result: JSON.parse(at.result) as PayOutput,
      memo: at.memo,
      counterparty: at.counterparty,
      changeAddresses: at.changeAddresses,
      delivery: null,
      cancel: null,
      policy: await currentFeePolicy(services),
    },
  };
}

/** Sends earlier noSend actions together, in the order given (a chain of them spends each other's change). */
export async function sendWith(call: AppCall, txids: readonly string[]): Promise<{ txid: string; status: SendStatus }[]> {
  const actions = txids.map((txid) => {
    const a = ownActionByTxid(call, txid);
    if (!a || a.status !== 'nosend')
      throw invalidParameter('sendWith', `txids of this wallet's noSend actions not sent yet (${txid} is not one)`);
    return a;
  });
  const results: { txid: string; status: SendStatus }[] = [];
  for (const a of actions) {
    const recorded = await storedMove(call, a);
    // No longer held back (the settlement of payments reads the status, so a restart keeps that): from here on it
    // is sent like any payment. Taken by this call: a concurrent sendWith or abortAction finds it gone.
    if (!call.services.repos.appActions.claim(a.id, 'nosend', 'sending', call.services.now()))
      throw invalidParameter('sendWith', `txids of this wallet's noSend actions not sent yet (${a.txid} is being sent or aborted)`);
    results.push({ txid: a.txid!, status: (await sendAction(call, a.id, recorded)).status });
  }
  return results;
}

/** The wallet's noSend actions, as sources of the transactions that spend their change before they are sent. */
export function noSendSources(call: AppCall): LocalSource {
  return (txid) => {
    const a = ownActionByTxid(call, txid);
    return a && a.status === 'nosend' && a.rawTx ? Transaction.fromBinary([...a.rawTx]) : undefined;
  };
}

/** The change of earlier noSend actions the app names (options.noSendChange), as coins funding this one. */
export function noSendChangeCoins(call: AppCall, outpoints: readonly { txid: string; vout: number }[]): FundingCoin[] {
  const { repos } = call.services;
  return outpoints.map(({ txid, vout }) => {
    const a = ownActionByTxid(call, txid);
    const out = a?.status === 'nosend' && a.rawTx ? Transaction.fromBinary([...a.rawTx]).outputs[vout] : undefined;
    const script = out?.lockingScript.toHex();
    const address = script ? p2pkhAddressOf(script) : null;
    const owner = address ? repos.addresses.owner(address) : null;
    if (!out || !script || !owner || owner.walletRow !== call.wallet.id || repos.appOutputs.isAppOutput(call.wallet.id, txid, vout))
      throw invalidParameter('noSendChange', `change outputs of this wallet's unsent noSend actions (${txid}.${vout} is not one)`);
    return { txid, vout, satoshis: out.satoshis ?? 0, script, chain: owner.chain, idx: owner.idx };
  });
}

/**
 * noSendChange outpoints an action took between its reservation and its record, by reference (per services).
 * Once recorded, its transaction on the books (app_actions.raw_tx) shows them taken; a restart finds no action
 * between the two steps, so nothing needs to survive it.
 */
const changeClaims = new WeakMap<object, Map<string, string>>();

/** The reference of the live action (not aborted or failed) whose transaction spends the outpoint, or null. */
function spenderOf(call: AppCall, txid: string, vout: number): string | null {
  const { repos } = call.services;
  const claims = changeClaims.get(call.services);
  const claimed = claims?.get(`${call.wallet.id}:${txid}.${vout}`);
  if (claimed) return claimed;
  const maker = repos.appActions.byTxid(call.wallet.id, txid);
  // Only an action created after the one that made the change can spend it.
  for (const t of repos.appActions.liveTransactionsSince(call.wallet.id, maker?.createdAt ?? 0)) {
    const tx = Transaction.fromBinary([...t.rawTx]);
    if (tx.inputs.some((i) => i.sourceTXID === txid && i.sourceOutputIndex === vout)) return t.reference;
  }
  return null;
}

/**
 * Reserves the noSendChange coins for the action `reference`, inside the database transaction that reserves the
 * rest of it: one a live action already spends (or took a moment ago) is refused, so the same change is never
 * spent twice. Given back when that action is aborted or fails (its status then no longer counts), or at once
 * with endChangeClaims when it is not recorded at all.
 */
export function reserveNoSendChange(call: AppCall, coins: readonly FundingCoin[], reference: string): void {
  if (!coins.length) return;
  const seen = new Set<string>();
  for (const c of coins) {
    const outpoint = `${c.txid}.${c.vout}`;
    if (seen.has(outpoint)) throw invalidParameter('noSendChange', `unique outpoints (${outpoint} is named twice)`);
    seen.add(outpoint);
    const taken = spenderOf(call, c.txid, c.vout);
    if (taken !== null && taken !== reference)
      throw invalidParameter(
        'noSendChange',
        `change outputs of this wallet's noSend actions that no other action spends (${outpoint} is spent by the action ${taken}; abort that one first)`,
      );
  }
  let claims = changeClaims.get(call.services);
  if (!claims) changeClaims.set(call.services, (claims = new Map()));
  for (const c of coins) claims.set(`${call.wallet.id}:${c.txid}.${c.vout}`, reference);
}

/** The action's claims end: it is recorded (its transaction shows what it spends), or it never will be. */
export function endChangeClaims(call: AppCall, reference: string): void {
  const claims = changeClaims.get(call.services);
  if (!claims) return;
  for (const [k, r] of claims) if (r === reference) claims.delete(k);
}

/** After an action is recorded signed: kept (noSend) or sent with any earlier noSend actions, answered as the reference answers. */
export async function finish(
  call: AppCall,
  o: { noSend: boolean; sendWith: string[]; returnTXIDOnly: boolean },
  actionId: number,
  recorded: RecordedMove<Reservation>,
  /** The vout of the wallet's change, if it has one (a noSend action answers it in noSendChange). */
  changeVout: number | null,
  what = 'createAction',
): Promise<unknown> {
  const tx: Transaction = recorded.submission.tx;
  const txid = tx.id('hex');
  const answer: Record<string, unknown> = { txid };
  if (!o.returnTXIDOnly) answer.tx = atomicBeef(tx);
  call.audit(what, null, `txid ${txid}`);
  if (o.noSend) {
    // Held back from the settlement of payments (which sends what it finds unsent) by its status, recorded with
    // it: settle.ts asks `heldBack`, across restarts, until sendWith or abortAction.
    answer.noSendChange = changeVout !== null ? [`${txid}.${changeVout}`] : [];
    return answer;
  }
  const batch = o.sendWith.length ? await sendWith(call, o.sendWith) : [];
  const sent = await sendAction(call, actionId, recorded);
  if (sent.status === 'failed' && !batch.length) throw sent.error;
  if (o.sendWith.length) answer.sendWithResults = [...batch, { txid, status: sent.status }];
  return answer;
}
