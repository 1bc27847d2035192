import { Transaction, UnlockingScript } from '@bsv/sdk';
import type { AppAction } from '../../../store/repos/app-actions.js';
import { p2pkhAddressOf } from '../../../chain/script.js';
import { currentFeePolicy } from '../../payments/plan.js';
import { recordValueMove, type Reservation, type ValueMove } from '../../payments/value-flow.js';
import type { AppCall } from '../call.js';
import { invalidOperation, invalidParameter } from '../werr.js';
import { reference as referenceArg, signArgs } from './action-args.js';
import { signFunding, verifyAppInputs } from './assemble.js';
import { ownActionByReference, ownActionByTxid } from './own-actions.js';
import { releaseUnsigned } from './release.js';
import { signable, type AppInputSource, type Funding, type FundingCoin } from './funding.js';
import { endHold } from './holds.js';
import { recordSigned } from './record.js';
import { asWalletErr, inAllowingUserScope } from './scope.js';
import { finish, noSendChangeCoins } from './send.js';

/** The action a reference names; abortAction also takes a noSend action's txid, which is all createAction answered for it. */
function actionOf(call: AppCall, reference: string): AppAction {
  const action = ownActionByReference(call, reference) ?? (/^[0-9a-f]{64}$/.test(reference) ? ownActionByTxid(call, reference) : null);
  if (!action) throw invalidParameter('reference', `the reference of an action of this wallet (there is none ${reference})`);
  return action;
}

/** The action's inputs as createAction recorded them (the app's, in input order). */
function appInputsOf(call: AppCall, action: AppAction): AppInputSource[] {
  return call.services.repos.appActions
    .io(action.id)
    .filter((x) => x.kind === 'input')
    .map((x) => {
      const [txid, vout] = x.outpoint!.split('.');
      return {
        vin: x.idx,
        txid,
        vout: Number(vout),
        satoshis: x.satoshis,
        script: x.script!,
        unlockingScript: x.unlockingScript ?? undefined,
        unlockingScriptLength: 0,
        sequence: x.sequence ?? 0xffffffff,
        description: x.description ?? '',
        basket: x.basket,
      };
    });
}

/** A noSend action's change coin, or null when the outpoint is not one (any more). */
function noSendChangeOf(call: AppCall, txid: string, vout: number): FundingCoin | null {
  try {
    return noSendChangeCoins(call, [{ txid, vout }])[0];
  } catch {
    return null;
  }
}

/**
 * The wallet's funding coins of an unsigned action, which must still be reserved for it. A restart frees
 * reservations no payment attempt names (payments/settle.ts's releaseUnsignedReservations), so coins of an
 * action left unsigned across a restart may have gone back: then it cannot be signed, and says so.
 */
function fundingOf(call: AppCall, action: AppAction, tx: Transaction, appInputs: number): FundingCoin[] {
  const { repos } = call.services;
  return tx.inputs.slice(appInputs).map((input) => {
    const u = repos.walletUtxos.get(input.sourceTXID!, input.sourceOutputIndex);
    // The change of an unsent noSend action (options.noSendChange) is no coin of the books yet: it is this
    // action's while the action lives (send.ts's reserveNoSendChange), and still the unsent action's change.
    if (!u) {
      const change = noSendChangeOf(call, input.sourceTXID!, input.sourceOutputIndex);
      if (change) return change;
    }
    if (!u || u.status !== 'reserved' || u.reservedBy !== action.attempt || !signable(u)) {
      releaseUnsigned(call, action.id, action.attempt!, action.reference, tx);
      throw invalidOperation(
        `The wallet's coins reserved for action ${action.reference} were given back (Keystead restarted, or the books changed), so it cannot be signed; it is aborted. Create it again.`,
      );
    }
    return { txid: u.txid, vout: u.vout, satoshis: u.satoshis, script: u.script, chain: u.chain, idx: u.idx, brc29: u.brc29 ?? null };
  });
}

/**
 * Finishes an action createAction left for the app to sign: its unlocking scripts go in (each checked by
 * @bsv/sdk's interpreter), then the move runs through value-flow.ts as any other (the policy's check with
 * the coins already held, the wallet's inputs signed, recorded with its basket outputs, sent).
 */
export async function signAction(call: AppCall): Promise<unknown> {
  const s = signArgs(call.args);
  const { services } = call;
  const action = actionOf(call, s.reference);
  if (action.status !== 'unsigned')
    throw invalidParameter('reference', `the reference of an action awaiting signAction (this one is ${action.status})`);
  // A fresh transaction from the stored one's parts: a parsed one keeps its serialization cached, which the
  // scripts set below would not change.
  const stored = Transaction.fromBinary([...action.rawTx!]);
  const tx = new Transaction(stored.version, stored.inputs, stored.outputs, stored.lockTime);
  const inputs = appInputsOf(call, action);
  const vins = new Set(inputs.map((i) => i.vin));
  for (const vin of s.spends.keys())
    if (!vins.has(vin)) throw invalidParameter('spends', `keyed by the indexes of the app's inputs (${[...vins].join(', ')}), not ${vin}`);
  for (const i of inputs) {
    const spend = s.spends.get(i.vin);
    const script = spend?.unlockingScript ?? i.unlockingScript;
    if (script === undefined)
      throw invalidParameter('spends', `given for every input without its unlocking script (input ${i.vin} has none)`);
    tx.inputs[i.vin].unlockingScript = UnlockingScript.fromHex(script);
    if (spend?.sequenceNumber !== undefined) tx.inputs[i.vin].sequence = spend.sequenceNumber;
    i.unlockingScript = script;
  }
  verifyAppInputs(tx, inputs, 'spends');
  const coins = fundingOf(call, action, tx, inputs.length);
  const changeOut = tx.outputs.findIndex((o, vout) => isChange(call, o.lockingScript.toHex(), vout, action));
  const funding: Funding = { attempt: action.attempt!, coins, change: null, fee: 0 };
  const feeIn = inputs.reduce((t, i) => t + i.satoshis, 0) + coins.reduce((t, c) => t + c.satoshis, 0);
  funding.fee = feeIn - tx.outputs.reduce((t, o) => t + (o.satoshis ?? 0), 0);
  const changeAddresses = changeOut >= 0 ? [{ walletRow: call.wallet.id, address: addressOf(tx, changeOut)! }] : [];
  const ios = services.repos.appActions.io(action.id).filter((x) => x.kind === 'output');
  const account = await services.keyring.open(call.wallet);
  const move: ValueMove<Reservation> = {
    intent: {
      kind: 'app-action',
      wallet: call.wallet,
      outputs: ios.map((o) => ({ script: o.script!, satoshis: o.satoshis })),
      tokenId: null,
    },
    account,
    memo: action.description,
    counterparty: null,
    delivery: null,
    policy: await currentFeePolicy(services).catch((err: unknown) => {
      throw asWalletErr(err);
    }),
    // Already held since createAction: the policy's check runs now, with nothing new to take, and counts the
    // fee the held coins pay.
    estimateFee: () => funding.fee,
    reserve: () => ({ attempt: action.attempt!, changeAddresses }),
    alsoGiveBack: () => void services.repos.appOutputs.release(action.reference),
    build: async () => {
      await signFunding(tx, inputs.length, funding, account);
      return { tx, fee: funding.fee, feePaidBy: 'wallet', cancel: null };
    },
    alsoRecord: (sub) => {
      const { repos, now } = services;
      repos.appActions.signed(
        action.id,
        sub.result.txid,
        Buffer.from(tx.toBinary()),
        s.options.noSend ? 'nosend' : 'unprocessed',
        action.satoshis,
        now(),
      );
      for (const i of inputs) repos.appActions.setUnlocking(action.id, i.vin, i.unlockingScript!, tx.inputs[i.vin].sequence ?? 0xffffffff);
      recordSigned(
        call,
        action.id,
        action.reference,
        tx,
        ios.map((o) => ({
          basket: o.basket,
          tags: o.tags,
          description: o.description,
          customInstructions: o.customInstructions,
          vout: o.idx,
        })),
      );
    },
  };
  // Taken by this call: a second signAction (or an abortAction) of the same reference now finds it busy.
  if (!services.repos.appActions.claim(action.id, 'unsigned', 'unprocessed', services.now()))
    throw invalidParameter('reference', 'the reference of an action awaiting signAction (another call is signing or aborting it)');
  let recorded;
  try {
    recorded = await inAllowingUserScope(
      call,
      'brc100.signAction',
      { reference: action.reference, description: action.description },
      () => recordValueMove(services, move),
      move.intent.outputs,
    );
  } catch (err) {
    // Not recorded (refused by the policy, sent for approval, or failed to sign): everything it held goes back.
    releaseUnsigned(call, action.id, action.attempt!, action.reference, tx, 'failed');
    call.audit('signAction', (asWalletErr(err) as { name?: string }).name ?? 'ERROR', action.description);
    throw asWalletErr(err);
  }
  endHold(services, call.wallet.id, action.reference, false);
  return finish(call, s.options, action.id, recorded, changeOut >= 0 ? changeOut : null, 'signAction');
}

const addressOf = (tx: Transaction, vout: number) => p2pkhAddressOf(tx.outputs[vout].lockingScript.toHex());

/** The change output: a P2PKH to one of the wallet's change addresses (chain 1) that the app did not ask for. */
function isChange(call: AppCall, script: string, vout: number, action: AppAction): boolean {
  const address = p2pkhAddressOf(script);
  const owner = address ? call.services.repos.addresses.owner(address) : null;
  if (!owner || owner.walletRow !== call.wallet.id || owner.chain !== 1) return false;
  return !call.services.repos.appActions.io(action.id).some((x) => x.kind === 'output' && x.idx === vout);
}

/**
 * Gives back an action that was not sent: an unsigned one's reserved coins and basket inputs, or a noSend one
 * (undone on the books like a payment the chain refused). A sent action cannot be aborted.
 */
export async function abortAction(call: AppCall): Promise<unknown> {
  const reference = referenceArg(call.args.reference);
  const action = actionOf(call, reference);
  const { services } = call;
  if (action.status === 'unsigned') {
    if (!services.repos.appActions.claim(action.id, 'unsigned', 'aborted', services.now()))
      throw invalidParameter('reference', 'the reference of an action not sent yet (another call is signing it)');
    releaseUnsigned(call, action.id, action.attempt!, reference, Transaction.fromBinary([...action.rawTx!]));
  } else if (action.status === 'nosend') {
    // Taken first (a concurrent sendWith then finds it gone), then undone as a transaction the chain never took:
    // its coins come back, books.ts forgets its basket outputs, and the change it gave (noSendChange) is free.
    // One the chain already has (the app broadcast it itself, and settling booked it) is not undone.
    if (action.attempt && services.repos.payments.attempt(action.attempt)?.state === 'done')
      throw invalidParameter('reference', 'the reference of an action not sent yet (the chain already has this one)');
    // The app holds the signed transaction and may have sent it itself: asked of the chain, not only the books.
    // Its coins come back only when the chain does not have it (or refused it); settling books one it has.
    const onChain = await services.chain.getTxStatus(action.txid!).catch(() => null);
    if (!onChain) throw invalidOperation('The chain cannot be asked whether this action was sent; nothing was changed. Try again.');
    if (onChain.state === 'mempool' || onChain.state === 'mined')
      throw invalidParameter('reference', 'the reference of an action not sent yet (the chain already has this one)');
    if (!services.repos.appActions.claim(action.id, 'nosend', 'aborted', services.now()))
      throw invalidParameter('reference', 'the reference of an action not sent yet (another call is sending it)');
    services.sync.revertTransaction(action.txid!, `the app ${call.app.originator} aborted it before it was sent`);
  } else {
    throw invalidParameter('reference', `the reference of an action not sent yet (unsigned or noSend); this one is ${action.status}`);
  }
  call.audit('abortAction', null, `reference ${reference}`);
  return { aborted: true };
}
